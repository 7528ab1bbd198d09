"""Studies: learning questions answered over seeds, and how their answers are reported.

What is *training* (``train``, ``evaluate``, run directories, the reward in the vector env)
lives in ``rlm_gym.training``; what is a *study* lives here:

* ``plans`` - what each study asks (``STUDIES``, ``Study``, the demo's recipe);
* ``recipes`` - named recipes read from the plans (``RECIPES``: ``rlm-gym train --recipe``);
* ``runner`` - ``run_study``: every (variant, seed) trained, scored, resumed, merged;
* ``summary``, ``task_measures``, ``stats`` - means, paired differences and 95 % CIs;
* ``reliable`` - IQM, stratified bootstrap CIs, probability of improvement and performance
  profiles with ``rliable`` (Agarwal et al., 2021);
* ``ablation``, ``ablation_runs``, ``ablation_results`` - ``ablate``, the quick grid (local
  process pool or Ray Tune) with its CSV, table and plots.

Names are imported lazily (``rlm_gym.training.studies.run_study`` imports the runner, and
with it torch and SB3, only when used), so the package imports with only the core installed.

Example:
    >>> from rlm_gym.training import studies
    >>> sorted(studies.STUDIES)[:2], studies.STUDIES["ablation"].reference
    (['ablation', 'ablation-16envs'], 'binary')
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "ABLATION_BACKENDS",
    "AblationResult",
    "DEMO_RECIPE",
    "RECIPES",
    "Recipe",
    "STUDIES",
    "STUDY_EVAL_EPISODES",
    "STUDY_EVAL_SEED",
    "Study",
    "ablate",
    "ablation_variants",
    "mean_ci95",
    "plot_performance_profiles",
    "reliable_report",
    "run_study",
    "summarise_study",
    "variant_baselines",
    "variant_budget",
]

_HOME = {
    "ABLATION_BACKENDS": "ablation",
    "ablate": "ablation",
    "ablation_variants": "ablation",
    "AblationResult": "ablation_results",
    "DEMO_RECIPE": "plans",
    "RECIPES": "recipes",
    "Recipe": "recipes",
    "STUDIES": "plans",
    "STUDY_EVAL_EPISODES": "plans",
    "STUDY_EVAL_SEED": "plans",
    "Study": "plans",
    "variant_budget": "plans",
    "run_study": "runner",
    "summarise_study": "summary",
    "variant_baselines": "summary",
    "mean_ci95": "stats",
    "reliable_report": "reliable",
    "plot_performance_profiles": "reliable",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'rlm_gym.training.studies' has no attribute '{name}'")
    module = importlib.import_module(f"rlm_gym.training.studies.{_HOME[name]}")
    return getattr(module, name)


def __dir__() -> list[str]:
    return sorted(__all__)
