"""Score recorded RLM steps with any reward policy, through ``RewardPolicyWrapper`` itself.

An episode is played once; each policy then sees the same steps (actions and
``ActionResult``s) replayed by a tiny env, so the returns compare policies on identical
behaviour and include the wrapper's episode hooks and ablation.

Example:
    >>> from rlm_gym.envs.rlm import RLMEnv
    >>> from rlm_gym.envs.rlm.agents import PROGRAMS
    >>> env = RLMEnv(family="needle", length=2**13)
    >>> observation, _ = env.reset(seed=0)
    >>> _, reward, terminated, truncated, info = env.step(PROGRAMS["grep_only"](observation, 0))
    >>> round(replay_returns([(reward, terminated, truncated, info)], "strict")["return"], 2)
    0.8
    >>> env.close()
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from gymnasium import spaces

from rlm_gym.wrappers import RewardPolicyWrapper

__all__ = ["ReplayEnv", "replay_returns"]

#: ``(env_reward, terminated, truncated, info)`` of one recorded step.
Step = tuple[float, bool, bool, dict[str, Any]]


class ReplayEnv(gym.Env):
    """Plays back recorded steps (their rewards, ends and infos); actions are ignored."""

    def __init__(self, steps: list[Step]) -> None:
        self.steps = list(steps)
        self.observation_space = spaces.Discrete(len(self.steps) + 1)
        self.action_space = spaces.Discrete(1)
        self._index = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self._index = 0
        return 0, {}

    def step(self, action: Any):
        reward, terminated, truncated, info = self.steps[self._index]
        self._index += 1
        return self._index, float(reward), terminated, truncated, info


def replay_returns(
    steps: list[Step], policy: str, max_steps: int = 12, **wrapper_kwargs: Any
) -> dict[str, Any]:
    """The episode return and per-component sums ``policy`` gives the recorded ``steps``."""
    env = RewardPolicyWrapper(
        ReplayEnv(steps), policy, task="rlm_gym/RLM-v0", max_steps=max_steps, **wrapper_kwargs
    )
    env.reset(seed=0)
    info: dict[str, Any] = {}
    for _ in steps:
        _, _, terminated, truncated, info = env.step(0)
        if terminated or truncated:
            break
    return {
        "return": float(info["episode_reward"]),
        "components": {k: float(v) for k, v in info["episode_reward_components"].items()},
    }
