"""Training and ablation with stable-baselines3 (the ``train`` extra) and Ray Tune (``ray``).

Training (runs, evaluation, the reward in the vector env, the demo) lives here; the studies
(plans, runs of variants x seeds, summaries, statistics, ``ablate``) in ``studies``.

Names are imported lazily, so ``import rlm_gym.training`` (and its CLI module) works with only
the core installed; using a name that needs torch / SB3 then raises an error naming the extra.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "ABLATION_BACKENDS",
    "AblationResult",
    "BASELINES",
    "DEFAULT_HYPERPARAMS",
    "DEMO_ENV_ID",
    "DEMO_VARIANT",
    "EvalResult",
    "MissingExtraError",
    "RUN_CONFIG_FILE",
    "RewardComponentsCallback",
    "RewardScheduleCallback",
    "RunConfig",
    "STUDIES",
    "TrainResult",
    "TrainingInterrupted",
    "ablate",
    "ablation_variants",
    "check_hyperparams",
    "comparison_table",
    "crawl_potential",
    "default_run_name",
    "evaluate",
    "evaluate_baselines",
    "find_model",
    "format_table",
    "load_model",
    "load_zoo_hyperparams",
    "parse_policy_kwargs",
    "plot_ablation",
    "plot_curves",
    "read_run_config",
    "replay",
    "require",
    "resume",
    "run_demo",
    "run_study",
    "table_cells",
    "train",
]

_HOME = {
    "ABLATION_BACKENDS": "studies.ablation",
    "ablate": "studies.ablation",
    "ablation_variants": "studies.ablation",
    "AblationResult": "studies.ablation_results",
    "BASELINES": "evaluation",
    "EvalResult": "evaluation",
    "comparison_table": "evaluation",
    "evaluate": "evaluation",
    "evaluate_baselines": "evaluation",
    "format_table": "evaluation",
    "table_cells": "evaluation",
    "RewardComponentsCallback": "callbacks",
    "RewardScheduleCallback": "schedule_callback",
    "DEFAULT_HYPERPARAMS": "run_config",
    "RunConfig": "run_config",
    "TrainResult": "trainer",
    "TrainingInterrupted": "trainer",
    "resume": "trainer",
    "train": "trainer",
    "load_model": "models",
    "crawl_potential": "env_factory",
    "check_hyperparams": "hyperparams",
    "load_zoo_hyperparams": "hyperparams",
    "parse_policy_kwargs": "hyperparams",
    "RUN_CONFIG_FILE": "runs",
    "default_run_name": "runs",
    "find_model": "runs",
    "read_run_config": "runs",
    "MissingExtraError": "_deps",
    "plot_ablation": "plots",
    "plot_curves": "plots",
    "STUDIES": "studies.plans",
    "run_study": "studies.runner",
    "replay": "playback",
    "DEMO_ENV_ID": "demo",
    "DEMO_VARIANT": "demo",
    "run_demo": "demo",
    "require": "_deps",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'rlm_gym.training' has no attribute '{name}'")
    module = importlib.import_module(f"rlm_gym.training.{_HOME[name]}")
    return getattr(module, name)


def __dir__() -> list[str]:
    return sorted(__all__)
