"""rlm_gym: reward functions as named, swappable and ablatable policies for Gymnasium."""

from __future__ import annotations

from typing import Any

from rlm_gym.crawl import (
    CrawlRewardPolicy,
    check_items,
    classify_pattern_type,
    crawl_reward,
)
from rlm_gym.envs import CrawlEnv
from rlm_gym.make import make
from rlm_gym.policies import (
    ActionResult,
    Policy,
    PolicyContext,
    PolicyRegistry,
    ResultBatch,
    RewardPolicy,
    RewardSignal,
)
from rlm_gym.wrappers import (
    PotentialShapingWrapper,
    RewardPolicyWrapper,
    VectorRewardPolicyWrapper,
    WeightSchedule,
)


def __getattr__(name: str) -> Any:
    # KnowledgeStore (and sqlite3) loads on first access, like `rlm_gym.crawl.KnowledgeStore`.
    if name == "KnowledgeStore":
        from rlm_gym.crawl.store import KnowledgeStore

        return KnowledgeStore
    if name == "VecRewardPolicyWrapper":
        # The SB3 vector wrapper (`train` extra) loads on first access: SB3 stays unimported.
        from rlm_gym.wrappers.vec_sb3 import VecRewardPolicyWrapper

        return VecRewardPolicyWrapper
    if name == "__version__":
        # One version, the installed package's: read on first access (importlib.metadata
        # costs more import time than the rest of the core needs).
        from importlib.metadata import version

        return version("rlm-gym")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ActionResult",
    "Policy",
    "PolicyContext",
    "PolicyRegistry",
    "RewardPolicy",
    "RewardSignal",
    "RewardPolicyWrapper",
    "PotentialShapingWrapper",
    "VectorRewardPolicyWrapper",
    "WeightSchedule",
    "ResultBatch",
    "crawl_reward",
    "check_items",
    "CrawlRewardPolicy",
    "KnowledgeStore",
    "classify_pattern_type",
    "CrawlEnv",
    "make",
    "__version__",
]
