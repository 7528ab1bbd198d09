"""Gymnasium wrappers that connect reward policies to environments."""

from __future__ import annotations

from rlm_gym.wrappers.reward_policy import (
    REWARD_MODES,
    RewardPolicyWrapper,
    action_result_from_info,
)

__all__ = ["REWARD_MODES", "RewardPolicyWrapper", "action_result_from_info"]
