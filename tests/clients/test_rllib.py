"""RLlib trains PPO on ``rlm_gym/Crawl-v2`` from the Gymnasium id (docs/clients.md).

``PPOConfig().environment("rlm_gym:rlm_gym/Crawl-v2")`` is all RLlib needs: its env runners call
``gym.make`` with the id, and the ``rlm_gym:`` prefix imports the package in each runner
process. A reward policy goes in through RLlib's own idiom for a wrapped env,
``tune.register_env(name, creator)`` with ``env_config`` as the wrapper's keyword arguments.
"""

from __future__ import annotations

import math

import pytest

pytest.importorskip("ray.rllib")

import gymnasium as gym
import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.tune.registry import register_env

from rlm_gym.wrappers import RewardPolicyWrapper

ENV_ID = "rlm_gym:rlm_gym/Crawl-v2"
BUDGET = gym.make(ENV_ID).spec.max_episode_steps


@pytest.fixture(scope="module")
def ray_session():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def tiny_ppo(env, env_config=None, runners=0):
    """A PPO config with one small batch: one ``train()`` is one update."""
    return (
        PPOConfig()
        .environment(env, env_config=env_config or {})
        .env_runners(num_env_runners=runners, num_envs_per_env_runner=1)
        .training(train_batch_size_per_learner=256, minibatch_size=64, num_epochs=1)
        .debugging(seed=0)
    )


def test_ppo_trains_one_iteration_from_the_gymnasium_id(ray_session):
    # One remote env runner: a fresh worker process that never imported rlm_gym.
    algo = tiny_ppo(ENV_ID, runners=1).build_algo()
    try:
        result = algo.train()
    finally:
        algo.stop()
    runners = result["env_runners"]
    assert result["num_env_steps_sampled_lifetime"] >= 256
    assert runners["num_episodes"] >= 5
    assert 1 <= runners["episode_len_min"] <= runners["episode_len_max"] <= BUDGET
    assert 0.0 <= runners["episode_return_min"] <= runners["episode_return_max"] <= 1.0
    assert math.isfinite(result["learners"]["default_policy"]["total_loss"])


def crawl_with_policy(env_config):
    return RewardPolicyWrapper(gym.make(ENV_ID), **env_config)


def test_a_reward_policy_goes_in_through_register_env(ray_session):
    register_env("rlm_crawl_with_policy", crawl_with_policy)
    algo = tiny_ppo("rlm_crawl_with_policy", {"policy": "lenient"}).build_algo()
    try:
        result = algo.train()
    finally:
        algo.stop()
    runners = result["env_runners"]
    assert runners["num_episodes"] >= 5
    # `lenient` pays every attempt, so returns leave the crawl reward's [0, 1].
    assert runners["episode_return_max"] > 1.0
