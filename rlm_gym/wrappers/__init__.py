"""Gymnasium wrappers that connect reward policies to environments."""

from __future__ import annotations

from rlm_gym.wrappers.reward_policy import REWARD_MODES, RewardPolicyWrapper
from rlm_gym.wrappers.schedule import WeightSchedule
from rlm_gym.wrappers.shaping import PotentialShapingWrapper
from rlm_gym.wrappers.step_result import action_result_from_info
from rlm_gym.wrappers.vector import VectorRewardPolicyWrapper

__all__ = [
    "REWARD_MODES",
    "PotentialShapingWrapper",
    "RewardPolicyWrapper",
    "VectorRewardPolicyWrapper",
    "WeightSchedule",
    "action_result_from_info",
]
