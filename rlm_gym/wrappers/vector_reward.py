"""Vector reward output: the weighted components as the reward, with its space.

With ``reward_output="vector"`` a wrapper returns the components in ``component_names`` order
as a float32 array (disabled ones 0.0) and declares a ``reward_space`` Box whose bounds are the
policy's ``component_bounds()`` scaled by the largest weight each component can get (its fixed
weight, or the largest its schedule reaches), widened to contain 0.0. MO-Gymnasium's
``LinearReward`` and ``MORecordEpisodeStatistics`` read that space.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from rlm_gym.policies import RewardPolicy
from rlm_gym.policies.info_keys import REWARD_COMPONENTS_KEY, SCALAR_REWARD_KEY
from rlm_gym.wrappers.schedule import WeightSchedule

__all__ = [
    "REWARD_OUTPUTS",
    "check_reward_output",
    "declare_on_base",
    "reward_box",
    "vector_reward",
]

REWARD_OUTPUTS = ("scalar", "vector")


def check_reward_output(reward_output: str, policy: RewardPolicy) -> bool:
    """Whether the output is a vector; a policy without names cannot give one.

    Raises:
        ValueError: An unknown output, or a vector asked of a policy declaring no names.
    """
    if reward_output not in REWARD_OUTPUTS:
        raise ValueError(
            f"Expected `reward_output` in {list(REWARD_OUTPUTS)}, got {reward_output!r}"
        )
    if reward_output == "vector" and not policy.component_names:
        raise ValueError(
            f"`reward_output='vector'` needs component names, but policy '{policy.name}' "
            "declares no `component_names`: the vector's entries would have no fixed order"
        )
    return reward_output == "vector"


def reward_box(
    policy: RewardPolicy,
    weights: Mapping[str, float],
    disabled: Iterable[str],
    schedule: WeightSchedule | None,
    shape_prefix: tuple[int, ...] = (),
) -> spaces.Box:
    """The ``reward_space`` of a vector reward (see the module docstring).

    Example:
        >>> from rlm_gym.policies import PolicyRegistry
        >>> box = reward_box(PolicyRegistry.get_reward("binary"), {"success": 2.0}, (), None)
        >>> box.low.tolist(), box.high.tolist()
        ([0.0], [2.0])
    """
    names = policy.component_names
    bounds = policy.component_bounds()
    largest = {name: float(weights.get(name, 1.0)) for name in names}
    if schedule is not None:
        largest.update(schedule.max_weights())
    for name in disabled:
        largest[name] = 0.0
    low, high = [], []
    for name in names:
        bottom, top = bounds.get(name, (-np.inf, np.inf))
        scale = largest[name]
        # 0 x inf is NaN: a switched-off component is exactly 0.0.
        low.append(min(0.0, bottom * scale) if scale else 0.0)
        high.append(max(0.0, top * scale) if scale else 0.0)
    shape = (*shape_prefix, len(names))
    return spaces.Box(
        np.broadcast_to(np.array(low, dtype=np.float32), shape),
        np.broadcast_to(np.array(high, dtype=np.float32), shape),
        shape=shape,
        dtype=np.float32,
    )


def declare_on_base(env: Any, box: spaces.Box) -> spaces.Box:
    """Set ``box`` as the base env's ``reward_space`` when it has none (MO-Gymnasium reads it).

    Raises:
        ValueError: The base env already declares a different ``reward_space``.
    """
    base = env.unwrapped
    declared = getattr(base, "reward_space", None)
    if declared is None:
        base.reward_space = box
    elif declared != box:
        raise ValueError(
            f"The base env already declares a `reward_space` {declared}, which differs from the "
            f"vector reward's {box}: MO-Gymnasium reads the base env's, so the two must agree"
        )
    return box


def vector_reward(info: dict[str, Any], names: tuple[str, ...], scalar: float) -> np.ndarray:
    """A per-env step's vector reward: its components in ``names`` order as float32; the
    scalar reward moves to ``info["scalar_reward"]``."""
    info[SCALAR_REWARD_KEY] = scalar
    components = info[REWARD_COMPONENTS_KEY]
    return np.array([components[name] for name in names], dtype=np.float32)
