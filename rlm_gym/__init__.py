"""rlm_gym: reward functions as named, swappable and ablatable policies for Gymnasium."""

from __future__ import annotations

from rlm_gym.crawl import (
    CrawlRewardPolicy,
    KnowledgeStore,
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
    RewardPolicy,
    RewardSignal,
)
from rlm_gym.wrappers import PotentialShapingWrapper, RewardPolicyWrapper

__version__ = "0.1.0"

__all__ = [
    "ActionResult",
    "Policy",
    "PolicyContext",
    "PolicyRegistry",
    "RewardPolicy",
    "RewardSignal",
    "RewardPolicyWrapper",
    "PotentialShapingWrapper",
    "crawl_reward",
    "check_items",
    "CrawlRewardPolicy",
    "KnowledgeStore",
    "classify_pattern_type",
    "CrawlEnv",
    "make",
    "__version__",
]
