"""MO-Gymnasium's wrappers run on a ``reward_output="vector"`` wrapper (docs/clients.md).

``LinearReward`` scalarises the reward vector with a weight and ``MORecordEpisodeStatistics``
sums it per episode; both read ``env.unwrapped.reward_space``, which the per-env wrapper sets on
the base env.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("mo_gymnasium")

from mo_gymnasium.wrappers import LinearReward, MORecordEpisodeStatistics

from rlm_gym import RewardPolicyWrapper

ENV_ID = "rlm_gym:rlm_gym/Crawl-v2"


def _vector_env(policy: str = "crawl") -> RewardPolicyWrapper:
    return RewardPolicyWrapper(gym.make(ENV_ID), policy, reward_output="vector")


def test_linear_reward_scalarises_the_components_with_a_weight():
    env = _vector_env()
    k = len(env.component_names)
    assert env.unwrapped.reward_space.shape == (k,)
    weight = np.linspace(0.5, 1.5, k)
    linear = LinearReward(env, weight=weight)
    linear.reset(seed=0)
    for _ in range(60):
        _, reward, terminated, truncated, info = linear.step(linear.action_space.sample())
        assert info["vector_reward"].shape == (k,)
        assert reward == pytest.approx(float(np.dot(info["vector_reward"], weight)), abs=1e-6)
        expected = [info["reward_components"][name] for name in env.component_names]
        np.testing.assert_allclose(info["vector_reward"], expected, atol=1e-6)
        if terminated or truncated:
            linear.reset()
    linear.set_weight(np.ones(k))
    assert (linear.w == 1.0).all()


def test_mo_record_episode_statistics_sums_the_reward_vector_under_linear_reward():
    stats = MORecordEpisodeStatistics(_vector_env("lenient"), gamma=0.99)
    k = stats.unwrapped.reward_space.shape[0]
    env = LinearReward(stats, weight=np.ones(k))
    env.reset(seed=0)
    episodes = 0
    while episodes < 3:
        _, reward, terminated, truncated, info = env.step(env.action_space.sample())
        assert reward == pytest.approx(float(info["vector_reward"].sum()), abs=1e-6)
        if terminated or truncated:
            returns = info["episode"]["r"]
            assert returns.shape == (k,)
            total = sum(info["episode_reward_components"].values())
            assert float(returns.sum()) == pytest.approx(total, abs=1e-5)
            assert info["episode"]["l"] >= 1
            episodes += 1
            env.reset()
