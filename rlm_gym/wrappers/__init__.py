"""Gymnasium wrappers that connect reward policies to environments."""

from __future__ import annotations

from rlm_gym.wrappers.reward_policy import (
    REWARD_MODES,
    RewardPolicyWrapper,
    action_result_from_info,
)
from rlm_gym.wrappers.shaping import PotentialShapingWrapper

__all__ = [
    "REWARD_MODES",
    "PotentialShapingWrapper",
    "RewardPolicyWrapper",
    "action_result_from_info",
]
