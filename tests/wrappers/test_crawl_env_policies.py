"""Every built-in reward policy scores the crawl env through RewardPolicyWrapper."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import rlm_gym
from rlm_gym import RewardPolicyWrapper, crawl_reward
from rlm_gym.envs import CRAWL_ENV_ID

BUILTINS = ("default", "strict", "lenient", "research", "crawl", "binary")


@pytest.mark.parametrize("policy", BUILTINS)
def test_policy_runs_1000_steps_on_crawl_env(policy):
    env = RewardPolicyWrapper(gym.make(CRAWL_ENV_ID), policy)
    names = env.component_names
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    episodes, finals = 0, []
    for _ in range(1000):
        mask = env.unwrapped.action_masks()
        action = int(rng.choice(np.flatnonzero(mask))) if rng.random() < 0.8 else 9
        _, reward, terminated, truncated, info = env.step(action)
        assert np.isfinite(reward)
        assert tuple(info["reward_components"]) == names
        low, high = env.policy.value_range
        assert low <= reward <= high
        if terminated or truncated:
            episodes += 1
            finals.append((reward, info))
            env.reset()
    assert episodes > 10
    if policy == "crawl":
        for reward, info in finals:
            crawl_result = info["action_result"].metadata["crawl_result"]
            assert reward == pytest.approx(crawl_reward(crawl_result).value, abs=1e-12)
            assert reward == pytest.approx(info["env_reward"], abs=1e-12)


def test_crawl_policy_differs_from_binary_on_same_episodes():
    scores = {}
    for policy in ("crawl", "binary"):
        env = RewardPolicyWrapper(gym.make(CRAWL_ENV_ID), policy)
        totals = []
        for seed in range(40):
            env.reset(seed=seed)
            done = False
            while not done:
                action = env.unwrapped.heuristic_action()
                _, _, terminated, truncated, info = env.step(action)
                done = terminated or truncated
            totals.append(info["episode_reward"])
        scores[policy] = totals
    # binary only says success/failure; the crawl reward grades partial crawls in between.
    assert set(scores["binary"]) <= {0.0, 1.0}
    assert len(set(np.round(scores["crawl"], 6))) > 5
    assert rlm_gym.CrawlEnv is type(env.unwrapped)
