"""rlm_gym: reward functions as named, swappable and ablatable policies for Gymnasium."""

from __future__ import annotations

from rlm_gym.policies import (
    ActionResult,
    Policy,
    PolicyContext,
    PolicyRegistry,
    RewardPolicy,
    RewardSignal,
)

__version__ = "0.1.0"

__all__ = [
    "ActionResult",
    "Policy",
    "PolicyContext",
    "PolicyRegistry",
    "RewardPolicy",
    "RewardSignal",
    "__version__",
]
