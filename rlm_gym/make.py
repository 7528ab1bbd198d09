"""``rlm_gym.make``: ``gymnasium.make`` plus a ``RewardPolicyWrapper`` in one call."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import gymnasium as gym

from rlm_gym.policies import RewardPolicy
from rlm_gym.policies.registry import DEFAULT_REWARD_POLICY
from rlm_gym.wrappers.reward_policy import DEFAULT_REWARD_MODE, RewardPolicyWrapper

__all__ = ["make"]


def make(
    env_id: str | gym.envs.registration.EnvSpec,
    policy: str | RewardPolicy = DEFAULT_REWARD_POLICY,
    *,
    config: Mapping[str, Any] | None = None,
    disable: Iterable[str] = (),
    weights: Mapping[str, float] | None = None,
    reward_mode: str = DEFAULT_REWARD_MODE,
    task: str | None = None,
    max_steps: int | None = None,
    **env_kwargs: Any,
) -> RewardPolicyWrapper:
    """Make ``env_id`` with ``gymnasium.make(env_id, **env_kwargs)`` and wrap it with ``policy``.

    The wrapper is the outermost layer, so ``env.spec`` records it and
    ``gymnasium.make(env.spec)`` rebuilds the same stack.

    Args:
        env_id: A registered env id or spec.
        policy: A registered reward policy name or instance.
        config: Policy config overrides (with a name).
        disable: Components to switch off.
        weights: Component multipliers.
        reward_mode: ``"replace"`` or ``"add"``.
        task: ``PolicyContext.task``.
        max_steps: ``PolicyContext.max_steps``.
        **env_kwargs: Passed to ``gymnasium.make``.

    Returns:
        The wrapped env.

    Example:
        >>> import rlm_gym
        >>> env = rlm_gym.make("CartPole-v1", "strict")
        >>> env.spec.additional_wrappers[-1].name
        'RewardPolicyWrapper'
    """
    env = gym.make(env_id, **env_kwargs)
    return RewardPolicyWrapper(
        env,
        policy,
        config=config,
        disable=tuple(disable),
        weights=dict(weights) if weights is not None else None,
        reward_mode=reward_mode,
        task=task,
        max_steps=max_steps,
    )
