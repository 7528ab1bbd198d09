"""``VectorRewardPolicyWrapper``: infos, errors, settings, routes (parity: test_vector_parity)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import rlm_gym
from rlm_gym.policies import DefaultRewardPolicy
from rlm_gym.wrappers import VectorRewardPolicyWrapper
from rlm_gym.wrappers.vector import batch_scorer
from tests.wrappers.test_vector_parity import TinyEnv


class NanEnv(TinyEnv):
    def step(self, action):
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, float("nan") if int(action) == 2 else reward, terminated, truncated, info


def _vector(n=3, policy="default", mode=AutoresetMode.NEXT_STEP, env=TinyEnv, **kwargs):
    inner = SyncVectorEnv([lambda: env(3, "none") for _ in range(n)], autoreset_mode=mode)
    return VectorRewardPolicyWrapper(inner, policy, **kwargs)


def test_exported_from_the_package():
    assert rlm_gym.VectorRewardPolicyWrapper is VectorRewardPolicyWrapper
    assert rlm_gym.WeightSchedule is rlm_gym.wrappers.WeightSchedule
    assert rlm_gym.ResultBatch.__name__ == "ResultBatch"


def test_infos_hold_float64_arrays_for_every_component():
    envs = _vector()
    envs.reset(seed=0)
    _, rewards, *_, infos = envs.step(np.array([1, 0, 1]))
    assert rewards.dtype == np.float64 and rewards.shape == (3,)
    assert set(infos["reward_components"]) == set(DefaultRewardPolicy.component_names)
    for values in infos["reward_components"].values():
        assert values.dtype == np.float64 and values.shape == (3,)
    assert infos["env_reward"].tolist() == [1.0, 0.0, 1.0]


def test_the_next_step_reset_step_scores_zero_and_starts_an_episode():
    envs = _vector(n=2)
    envs.reset(seed=0)
    _, _, terminated, _, infos = envs.step(np.array([3, 1]))
    assert terminated.tolist() == [True, False]
    assert infos["_episode_reward"].tolist() == [True, False]
    first_context = envs.contexts[0]
    _, rewards, *_, infos = envs.step(np.array([1, 1]))
    assert rewards[0] == 0.0 and rewards[1] != 0.0
    assert all(values[0] == 0.0 for values in infos["reward_components"].values())
    assert envs.contexts[0] is not first_context


def test_a_non_finite_inner_reward_names_the_sub_env_step_and_value():
    envs = _vector(env=NanEnv)
    envs.reset(seed=0)
    envs.step(np.array([1, 1, 1]))
    with pytest.raises(ValueError, match=r"got nan from sub-env 1 at step 1"):
        envs.step(np.array([1, 2, 1]))


def test_set_weights_and_set_disabled_act_on_every_sub_env_from_the_next_step():
    envs = _vector(policy="lenient")
    envs.reset(seed=0)
    envs.set_weights({"attempt": 2.0})
    envs.set_disabled(["success"])
    _, rewards, *_, infos = envs.step(np.array([1, 1, 1]))
    assert infos["reward_components"]["attempt"].tolist() == [0.4] * 3
    assert infos["reward_components"]["success"].tolist() == [0.0] * 3
    assert rewards.tolist() == pytest.approx([0.4] * 3)


def test_unknown_component_is_refused_with_a_suggestion():
    with pytest.raises(ValueError, match="Did you mean 'success'"):
        _vector(disable=("succes",))


def test_episode_end_reports_the_weights_in_force():
    envs = _vector(policy="lenient", weights={"attempt": 0.5}, disable=("final",))
    envs.reset(seed=0)
    *_, infos = envs.step(np.array([3, 1, 1]))
    assert infos["_reward_weights"].tolist() == [True, False, False]
    assert infos["reward_weights"]["attempt"][0] == 0.5
    assert infos["reward_weights"]["final"][0] == 0.0
    assert infos["reward_weights"]["success"][0] == 1.0


def test_a_subclass_changing_score_components_only_is_scored_per_sub_env():
    class Changed(DefaultRewardPolicy):
        def score_components(self, action, result, context):
            return {"base": 0.25}

    assert batch_scorer(DefaultRewardPolicy()) is not None
    assert batch_scorer(Changed()) is None
    envs = _vector(policy=Changed())
    envs.reset(seed=0)
    _, rewards, *_ = envs.step(np.array([1, 0, 1]))
    assert rewards.tolist() == [0.25] * 3


def test_a_vector_env_without_spec_defaults_task_and_max_steps():
    class Bare(gym.vector.VectorEnv):
        metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

        def __init__(self):
            self.num_envs = 2
            self.single_action_space = gym.spaces.Discrete(2)
            self.action_space = gym.spaces.MultiDiscrete([2, 2])
            self.single_observation_space = gym.spaces.Discrete(2)
            self.observation_space = gym.spaces.MultiDiscrete([2, 2])

        def reset(self, *, seed=None, options=None):
            return np.zeros(2, np.int64), {}

        def step(self, actions):
            rewards = np.array([1.0, 0.0], dtype=np.float32)
            return np.zeros(2, np.int64), rewards, np.zeros(2, bool), np.zeros(2, bool), {}

    envs = VectorRewardPolicyWrapper(Bare(), "research")
    envs.reset()
    assert envs.contexts[0].task == "" and envs.contexts[0].max_steps == 10
    _, rewards, *_ = envs.step(np.array([0, 1]))
    assert rewards.tolist() == pytest.approx([0.35, -0.15])


def test_a_policy_without_component_names_passes_its_components_through():
    from rlm_gym.policies import RewardPolicy, RewardSignal

    class FreeForm(RewardPolicy):
        name = "free_form"

        def calculate(self, action, result, context):
            key = "won" if result.success else "lost"
            return RewardSignal(0.1, {key: 0.1})

    envs = _vector(n=2, policy=FreeForm())
    envs.reset(seed=0)
    *_, infos = envs.step(np.array([1, 0]))
    assert infos["reward_components"]["won"].tolist() == [0.1, 0.0]
    *_, infos = envs.step(np.array([3, 0]))
    assert infos["_episode_reward"].tolist() == [True, False]
    assert infos["episode_reward_components"]["won"][0] == pytest.approx(0.2)


def test_a_single_env_is_refused_with_the_way_to_a_vector_env():
    with pytest.raises(TypeError, match=r"gym.make_vec\(id, num_envs=N\).*RewardPolicyWrapper"):
        VectorRewardPolicyWrapper(gym.make("CartPole-v1"), "lenient")
