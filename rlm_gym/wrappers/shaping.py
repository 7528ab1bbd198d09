"""``PotentialShapingWrapper``: potential-based reward shaping (Ng, Harada & Russell, 1999)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsFloat

import gymnasium as gym
from gymnasium.core import ActType, ObsType

from rlm_gym._validation import check_finite_number
from rlm_gym.policies.info_keys import POTENTIAL_KEY, SHAPING_REWARD_KEY

__all__ = ["PotentialShapingWrapper"]

Potential = Callable[[gym.Env], float]


class PotentialShapingWrapper(
    gym.Wrapper[ObsType, ActType, ObsType, ActType], gym.utils.RecordConstructorArgs
):
    """Add ``F = gamma * Phi(s') - Phi(s)`` to every reward: the optimal policies stay optimal.

    ``Phi`` is read from the wrapped env after ``reset`` and after every ``step``. After a
    ``terminated`` step ``Phi(s')`` is 0 (the episode's shaping then telescopes to ``-Phi(s0)``,
    a constant of the start state); after a truncation it is the real potential, since the
    state still has a future. ``info["shaping_reward"]`` carries ``F`` and
    ``info["potential"]`` the ``Phi(s')`` used.

    Args:
        env: The env to shape (typically a ``RewardPolicyWrapper``).
        potential: A callable ``potential(env) -> float`` called with the wrapped env, or the
            name of a method of the wrapped env (found through its wrappers, e.g.
            ``"potential"`` calls ``env.unwrapped.potential()``; the crawl env's potential is
            the crawl reward of the result so far). A callable must pickle (a module-level
            function) for subprocess vector envs.
        gamma: The discount ``gamma`` in [0, 1]; use the learner's discount.

    Raises:
        ValueError: ``gamma`` outside [0, 1], or a potential name the env does not have.
        TypeError: ``potential`` neither a string nor callable.

    Example - shape CartPole with the pole angle as potential:
        >>> import gymnasium as gym
        >>> def upright(env):
        ...     return -abs(float(env.unwrapped.state[2]))
        >>> env = PotentialShapingWrapper(gym.make("CartPole-v1"), upright, gamma=0.99)
        >>> _ = env.reset(seed=0)
        >>> _, reward, *_, info = env.step(0)
        >>> round(reward - 1.0, 6) == round(info["shaping_reward"], 6)
        True
    """

    def __init__(
        self, env: gym.Env[ObsType, ActType], potential: str | Potential, gamma: float = 0.99
    ) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, potential=potential, gamma=gamma)
        gym.Wrapper.__init__(self, env)
        gamma = check_finite_number("gamma", gamma, "")
        if not 0.0 <= gamma <= 1.0:
            raise ValueError(f"Expected `gamma` in [0, 1], got {gamma}")
        if isinstance(potential, str):
            try:
                env.get_wrapper_attr(potential)
            except AttributeError as error:
                raise ValueError(
                    f"Expected `potential` to name a method of the env, but "
                    f"{type(env.unwrapped).__name__} has no `{potential}`"
                ) from error
        elif not callable(potential):
            raise TypeError(
                "Expected `potential` to be a method name or a callable potential(env) -> float, "
                f"got {type(potential).__name__} {potential!r}"
            )
        self.potential = potential
        self.gamma = gamma
        self._last_potential = 0.0

    def _potential(self) -> float:
        if isinstance(self.potential, str):
            value = self.env.get_wrapper_attr(self.potential)()
        else:
            value = self.potential(self.env)
        return check_finite_number("potential", value, " (returned by the potential)")

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the env and read ``Phi(s0)``."""
        obs, info = self.env.reset(seed=seed, options=options)
        self._last_potential = self._potential()
        return obs, info

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the env and add ``gamma * Phi(s') - Phi(s)`` to its reward."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        potential = 0.0 if terminated else self._potential()
        shaping = self.gamma * potential - self._last_potential
        self._last_potential = potential
        info[SHAPING_REWARD_KEY] = shaping
        info[POTENTIAL_KEY] = potential
        return obs, float(reward) + shaping, terminated, truncated, info
