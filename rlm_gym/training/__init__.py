"""Training and ablation with stable-baselines3 (the ``train`` extra) and Ray Tune (``ray``).

Names are imported lazily, so ``import rlm_gym.training`` (and its CLI module) works with only
the core installed; using a name that needs torch / SB3 then raises an error naming the extra.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "ABLATION_BACKENDS",
    "BASELINES",
    "DEFAULT_HYPERPARAMS",
    "EvalResult",
    "RewardComponentsCallback",
    "TrainResult",
    "TrainingInterrupted",
    "ablate",
    "ablation_variants",
    "comparison_table",
    "evaluate",
    "evaluate_baselines",
    "format_table",
    "load_model",
    "plot_ablation",
    "plot_curves",
    "resume",
    "run_demo",
    "train",
]

_HOME = {
    "ABLATION_BACKENDS": "ablation",
    "ablate": "ablation",
    "ablation_variants": "ablation",
    "BASELINES": "evaluation",
    "EvalResult": "evaluation",
    "comparison_table": "evaluation",
    "evaluate": "evaluation",
    "evaluate_baselines": "evaluation",
    "format_table": "evaluation",
    "table_cells": "evaluation",
    "RewardComponentsCallback": "callbacks",
    "DEFAULT_HYPERPARAMS": "trainer",
    "TrainResult": "trainer",
    "TrainingInterrupted": "trainer",
    "resume": "trainer",
    "load_model": "trainer",
    "train": "trainer",
    "crawl_potential": "trainer",
    "check_hyperparams": "hyperparams",
    "load_zoo_hyperparams": "hyperparams",
    "parse_policy_kwargs": "hyperparams",
    "RUN_CONFIG_FILE": "runs",
    "default_run_name": "runs",
    "find_model": "runs",
    "read_run_config": "runs",
    "STUDIES": "study",
    "run_study": "study",
    "DEMO_VARIANT": "demo",
    "MissingExtraError": "_deps",
    "require": "_deps",
    "plot_ablation": "plots",
    "plot_curves": "plots",
    "run_demo": "demo",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'rlm_gym.training' has no attribute '{name}'")
    module = importlib.import_module(f"rlm_gym.training.{_HOME[name]}")
    return getattr(module, name)


def __dir__() -> list[str]:
    return sorted(__all__)
