"""Gymnasium wrappers that connect reward policies to environments."""

from __future__ import annotations

from typing import Any

from rlm_gym.wrappers.reward_policy import REWARD_MODES, RewardPolicyWrapper
from rlm_gym.wrappers.schedule import WeightSchedule
from rlm_gym.wrappers.shaping import PotentialShapingWrapper
from rlm_gym.wrappers.step_result import action_result_from_info
from rlm_gym.wrappers.vector import VectorRewardPolicyWrapper


def __getattr__(name: str) -> Any:
    # The SB3 vector wrapper loads on first access: the core never imports SB3 (`train` extra).
    if name == "VecRewardPolicyWrapper":
        from rlm_gym.wrappers.vec_sb3 import VecRewardPolicyWrapper

        return VecRewardPolicyWrapper
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "REWARD_MODES",
    "PotentialShapingWrapper",
    "RewardPolicyWrapper",
    "VectorRewardPolicyWrapper",
    "WeightSchedule",
    "action_result_from_info",
]
