"""What a study is: one learning question's variants, seeds, budget and reference.

``rlm_gym.training.studies.plans`` holds the studies themselves (``STUDIES``) and re-exports
these names; ``runner`` trains and scores them.

Example:
    >>> Study("q", "Does b beat a?", {"a": {}, "b": {}}, reference="a").seeds
    (0, 1, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rlm_gym.envs import CRAWL_ENV_ID
from rlm_gym.training.evaluation import BASELINES

__all__ = ["STUDY_EVAL_EPISODES", "STUDY_EVAL_SEED", "STUDY_HYPERPARAMS", "Study", "variant_budget"]

STUDY_EVAL_SEED = 1_000_000
STUDY_EVAL_EPISODES = 300
# 16 envs x 256 steps: the same 4,096-step rollouts as 4 x 1,024 (DEFAULT_HYPERPARAMS) at half
# the CPU per step (SB3's per-step overhead is paid once for 16 envs; measured 19.4 vs 35.1 CPU
# seconds for 40,960 steps of MaskablePPO on Crawl-v1).
STUDY_HYPERPARAMS = {"n_steps": 256}


@dataclass(frozen=True)
class Study:
    """One learning question: variants x seeds at one budget, compared to a reference.

    Attributes:
        name: File name of the results (``results/<name>.json``).
        question: What the study answers (shown in the results).
        variants: Variant name -> training settings (``policy``, ``config``, ``disable``,
            ``shaping``, ``algo``, ``hyperparams``, ``total_timesteps``, ``reward_schedule``
            as a ``WeightSchedule.to_dict()``, ``env_id``: the version it trains on, when it
            is not the study's; the true crawl score is the same on every version;
            ``n_envs``: its envs, when they are not the study's), each optional. A variant's
            ``total_timesteps`` is its own budget (a budget question, e.g. the same recipe
            trained longer); the results record every variant's budget.
        reference: The variant every other one is compared to, paired by seed.
        seeds: Training seeds (each variant runs once per seed).
        total_timesteps: Training budget of every run (unless its variant sets its own).
        n_eval_episodes: Seeded evaluation episodes per agent (the same for every agent).
        eval_seed: Seed of the first evaluation episode.
        n_envs: Envs per training run.
        hyperparams: PPO settings of every run (a variant's own ``hyperparams`` win).
        env_id: The env every run trains and is scored on.
        baselines: The fixed agents scored beside the variants.
        compare_to: More variants every other one is paired with (beside ``reference``).
        curve_eval: Evaluations during training (``eval_freq``, ``n_eval_episodes``,
            ``eval_seed``) for learning curves and steps-to-heuristic; empty: none.
        vector_resets: How a batched env draws its sites (``RunConfig.vector_resets``):
            ``"exact"`` (each sub-env replays the single env of its seed) or ``"fast"``.
    """

    name: str
    question: str
    variants: Mapping[str, Mapping[str, Any]]
    reference: str
    seeds: tuple[int, ...] = (0, 1, 2)
    total_timesteps: int = 250_000
    n_eval_episodes: int = STUDY_EVAL_EPISODES
    eval_seed: int = STUDY_EVAL_SEED
    n_envs: int = 16
    hyperparams: Mapping[str, Any] = field(default_factory=lambda: dict(STUDY_HYPERPARAMS))
    env_id: str = CRAWL_ENV_ID
    baselines: tuple[str, ...] = BASELINES
    compare_to: tuple[str, ...] = ()
    curve_eval: Mapping[str, int] = field(default_factory=dict)
    vector_resets: str = "exact"


def variant_budget(study: Study, variant: str) -> int:
    """The training budget of ``variant``: its own ``total_timesteps``, else the study's.

    Example:
        >>> study = Study("s", "?", {"a": {}, "b": {"total_timesteps": 9}}, reference="a")
        >>> variant_budget(study, "a"), variant_budget(study, "b")
        (250000, 9)
    """
    return int(study.variants[variant].get("total_timesteps", study.total_timesteps))
