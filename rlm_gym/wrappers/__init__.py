"""Gymnasium wrappers that connect reward policies to environments."""

from __future__ import annotations

from rlm_gym.wrappers.reward_policy import REWARD_MODES, RewardPolicyWrapper
from rlm_gym.wrappers.shaping import PotentialShapingWrapper
from rlm_gym.wrappers.step_result import action_result_from_info

__all__ = [
    "REWARD_MODES",
    "PotentialShapingWrapper",
    "RewardPolicyWrapper",
    "action_result_from_info",
]
