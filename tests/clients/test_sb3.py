"""stable-baselines3 trains on ``rlm_gym/Crawl-v2`` from the id string alone (docs/clients.md).

SB3 calls ``gym.make`` itself; the ``rlm_gym:`` prefix makes Gymnasium import the package
(which registers the env) first, so no ``import rlm_gym`` is needed. ``SubprocVecEnv`` workers
start in fresh interpreters (forkserver), so there the prefix is the only thing that registers
the env.
"""

from __future__ import annotations

import math

import gymnasium as gym
import pytest

pytest.importorskip("stable_baselines3")

from stable_baselines3 import PPO
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

from rlm_gym.wrappers import RewardPolicyWrapper

# PPO trains in every test here: run by `make test` and the clients suite, not test-fast.
pytestmark = pytest.mark.slow

ENV_ID = "rlm_gym:rlm_gym/Crawl-v2"
SPACES = gym.make(ENV_ID)
BUDGET = SPACES.spec.max_episode_steps  # the step budget, after which an episode must end
# Tiny PPO settings: one or two updates, enough to run every part of learn().
TINY = {"n_epochs": 1, "batch_size": 64, "seed": 0, "device": "cpu"}


def test_ppo_trains_from_the_string_id():
    model = PPO("MlpPolicy", ENV_ID, n_steps=128, **TINY)
    model.learn(total_timesteps=256)

    assert model.num_timesteps == 256
    assert model.observation_space.shape == SPACES.observation_space.shape
    assert model.action_space.n == 10
    # Crawl episodes end within the step budget, so 256 steps finish several, each scored
    # by the crawl reward (0..1) on its last step.
    assert len(model.ep_info_buffer) >= 5
    assert all(1 <= episode["l"] <= BUDGET for episode in model.ep_info_buffer)
    assert all(0.0 <= episode["r"] <= 1.0 for episode in model.ep_info_buffer)


@pytest.mark.parametrize("vec_env_cls", [DummyVecEnv, SubprocVecEnv], ids=lambda c: c.__name__)
def test_make_vec_env_builds_eight_crawl_envs_and_ppo_learns(vec_env_cls):
    venv = make_vec_env(ENV_ID, n_envs=8, seed=0, vec_env_cls=vec_env_cls)
    try:
        assert venv.num_envs == 8
        assert venv.get_attr("max_steps") == [BUDGET] * 8
        model = PPO("MlpPolicy", venv, n_steps=32, **TINY)
        model.learn(total_timesteps=256)
        assert model.num_timesteps == 256
        assert len(model.ep_info_buffer) >= 8
    finally:
        venv.close()


@pytest.mark.parametrize(
    ("vec_env_cls", "n_envs"), [(DummyVecEnv, 8), (SubprocVecEnv, 2)], ids=["Dummy", "Subproc"]
)
def test_reward_policy_wrapper_goes_in_as_sb3_wrapper_class(vec_env_cls, n_envs):
    venv = make_vec_env(
        ENV_ID,
        n_envs=n_envs,
        seed=0,
        vec_env_cls=vec_env_cls,
        wrapper_class=RewardPolicyWrapper,
        wrapper_kwargs={"policy": "lenient"},
    )
    try:
        venv.reset()
        finished = 0
        for _ in range(40):
            actions = [venv.action_space.sample() for _ in range(n_envs)]
            _, rewards, dones, infos = venv.step(actions)
            for reward, done, info in zip(rewards, dones, infos, strict=True):
                # The reward SB3 sees is the lenient policy's value, not the env's own reward.
                assert info["reward_policy"] == "lenient"
                components = sum(info["reward_components"].values())
                assert math.isclose(reward, max(-1.0, min(1.0, components)), abs_tol=1e-6)
                finished += bool(done)
                if done:
                    assert "episode_reward" in info
        assert finished >= n_envs
        # Ablation switches reach the wrapper through SB3's env_method, across processes too.
        venv.env_method("set_disabled", ["attempt"])
        venv.reset()
        _, _, _, infos = venv.step([0] * n_envs)
        assert all(info["reward_components"]["attempt"] == 0.0 for info in infos)

        model = PPO("MlpPolicy", venv, n_steps=256 // n_envs, **TINY)
        model.learn(total_timesteps=256)
        assert model.num_timesteps == 256
    finally:
        venv.close()
