"""Small purpose-built envs and policies shared by the tests."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from rlm_gym.policies import ActionResult, PolicyContext, RewardPolicy, RewardSignal


class ScriptedResultEnv(gym.Env):
    """A tiny env that reports an ``ActionResult`` per step in ``info``.

    Action 1 succeeds, action 0 fails with an error. The episode terminates after
    ``episode_length`` steps with a ``"final"`` action; the env reward is 1.0 then, else 0.0.
    ``result_as_dict`` sends the result as a plain dict of its fields instead.
    """

    metadata = {"render_modes": []}

    def __init__(self, episode_length: int = 4, result_as_dict: bool = False) -> None:
        self.observation_space = gym.spaces.Box(0.0, 1.0, shape=(2,), dtype=np.float32)
        self.action_space = gym.spaces.Discrete(2)
        self.episode_length = episode_length
        self.result_as_dict = result_as_dict
        self._t = 0

    def _obs(self) -> np.ndarray:
        progress = self._t / self.episode_length
        return np.array([progress, self.np_random.random()], dtype=np.float32)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self._t = 0
        return self._obs(), {}

    def step(self, action):
        self._t += 1
        terminated = self._t >= self.episode_length
        success = int(action) == 1
        action_type = "final" if terminated else "code"
        fields = {
            "action_type": action_type,
            "success": success,
            "output": "ok " * 30 if success else "",
            "error": None if success else "Execution timeout after 60s",
            "duration_ms": 50.0,
        }
        result = fields if self.result_as_dict else ActionResult(**fields)
        info = {"action_result": result, "action": {"action": action_type, "code": "x = 1"}}
        reward = 1.0 if terminated else 0.0
        return self._obs(), reward, terminated, False, info


class RecordingPolicy(RewardPolicy):
    """Scores +0.5 per success and -0.25 per failure, recording every hook call."""

    name = "recording"
    description = "Test policy that records its hook calls"
    component_names = ("good", "bad")

    def __init__(self, config=None) -> None:
        super().__init__(config)
        self.starts: list[PolicyContext] = []
        self.ends: list[tuple[PolicyContext, float]] = []
        self.steps_seen: list[int] = []

    def calculate(self, action, result, context) -> RewardSignal:
        self.steps_seen.append(context.step)
        components = {"good": 0.5} if result.success else {"bad": -0.25}
        return RewardSignal(self.clamp(sum(components.values())), components)

    def on_episode_start(self, context: PolicyContext) -> None:
        self.starts.append(context)

    def on_episode_end(self, context: PolicyContext, total_reward: float) -> None:
        self.ends.append((context, total_reward))


class RewardScriptEnv(gym.Env):
    """Returns the scripted rewards in turn; terminates after the last one."""

    observation_space = gym.spaces.Discrete(1)
    action_space = gym.spaces.Discrete(2)

    def __init__(self, rewards=(1.0,), info=None):
        self.rewards = list(rewards)
        self.info = info or {}
        self.t = 0

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.t = 0
        return 0, {}

    def step(self, action):
        reward = self.rewards[self.t]
        self.t += 1
        return 0, reward, self.t >= len(self.rewards), False, dict(self.info)


def run_episode(env, actions, seed=0):
    env.reset(seed=seed)
    steps = []
    for action in actions:
        _, reward, terminated, truncated, info = env.step(action)
        steps.append((reward, info))
        if terminated or truncated:
            break
    return steps
