"""Reward policies: core types, the registry and the built-in policies."""

from __future__ import annotations

from rlm_gym.policies.base import AdditiveRewardPolicy, Policy, RewardPolicy, is_final
from rlm_gym.policies.batch import ResultBatch
from rlm_gym.policies.builtin import (
    BinaryRewardPolicy,
    DefaultRewardPolicy,
    LenientRewardPolicy,
    ResearchRewardPolicy,
    StrictRewardPolicy,
)
from rlm_gym.policies.registry import ENTRY_POINT_GROUP, PolicyRegistry
from rlm_gym.policies.types import (
    DEFAULT_HISTORY_LIMIT,
    ActionResult,
    History,
    PolicyContext,
    RewardSignal,
)

__all__ = [
    "ActionResult",
    "RewardSignal",
    "PolicyContext",
    "History",
    "DEFAULT_HISTORY_LIMIT",
    "Policy",
    "RewardPolicy",
    "AdditiveRewardPolicy",
    "PolicyRegistry",
    "ENTRY_POINT_GROUP",
    "is_final",
    "DefaultRewardPolicy",
    "StrictRewardPolicy",
    "LenientRewardPolicy",
    "ResearchRewardPolicy",
    "BinaryRewardPolicy",
    "ResultBatch",
]
