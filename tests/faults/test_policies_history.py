"""Fault test: a 200,000-step episode through the wrapper keeps ``context.history`` at its limit
and memory bounded (0.2: "a million-step episode must not grow memory without bound";
0.1 held every entry: 560 MiB over a 1M-step episode)."""

from __future__ import annotations

import tracemalloc

import gymnasium as gym

from rlm_gym import RewardPolicyWrapper

STEPS = 200_000
WARMUP = 5_000


class EndlessEnv(gym.Env):
    """Never ends: the wrapper sees one long episode."""

    observation_space = gym.spaces.Discrete(1)
    action_space = gym.spaces.Discrete(2)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        return 0, {}

    def step(self, action):
        return 0, float(action), False, False, {}


def test_long_episode_keeps_history_at_its_limit_and_memory_bounded():
    env = RewardPolicyWrapper(EndlessEnv(), "default")
    env.reset(seed=0)
    step = env.step
    for index in range(WARMUP):
        step(index & 1)
    limit = env.history_limit
    assert len(env.context.history) == limit == 1_000

    # Only what is allocated from here on is traced: steady state means it stays near zero.
    tracemalloc.start()
    try:
        lengths = []
        for index in range(STEPS):
            step(index & 1)
            if index % 10_000 == 0:
                lengths.append(len(env.context.history))
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert max(lengths) <= limit
    assert len(env.context.history) == limit
    assert env.context.step == WARMUP + STEPS
    # The history's 1,000 entries (a dict, an ActionResult, its metadata and action dicts
    # each) take a few hundred kB; 0.1 grew by about 110 MB over these 200k steps.
    assert current < 2 * 2**20, f"traced memory grew to {current / 2**20:.1f} MiB"
    assert peak < 4 * 2**20, f"traced memory peaked at {peak / 2**20:.1f} MiB"
