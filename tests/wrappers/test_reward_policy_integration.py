"""RewardPolicyWrapper inside Gymnasium / SB3 tooling: checkers, vector envs, subprocesses."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env

from rlm_gym import RewardPolicyWrapper
from tests.helpers import ScriptedResultEnv

POLICIES = ("default", "strict", "lenient", "research", "binary")


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.filterwarnings("ignore:.*is different from the unwrapped version")
def test_gymnasium_check_env_passes(policy):
    gym_check_env(RewardPolicyWrapper(ScriptedResultEnv(), policy), skip_render_check=True)


@pytest.mark.parametrize("policy", POLICIES)
def test_sb3_check_env_passes(policy):
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    sb3_check_env(RewardPolicyWrapper(ScriptedResultEnv(), policy), warn=True)


def test_make_vec_stacks_components_as_float_arrays():
    envs = gym.make_vec(
        "CartPole-v1",
        num_envs=3,
        vectorization_mode="sync",
        wrappers=[lambda env: RewardPolicyWrapper(env, "research")],
    )
    envs.reset(seed=0)
    _, rewards, _, _, infos = envs.step(np.zeros(3, dtype=np.int64))
    components = infos["reward_components"]
    assert rewards.dtype == np.float64
    assert set(components) >= {"base_attempt", "base_success", "step_penalty"}
    assert components["base_attempt"].dtype == np.float64
    assert components["base_attempt"].shape == (3,)
    np.testing.assert_allclose(components["base_success"], 0.3)
    envs.close()


def test_make_vec_reaches_set_disabled_through_call():
    envs = gym.make_vec(
        "CartPole-v1",
        num_envs=2,
        vectorization_mode="sync",
        wrappers=[lambda env: RewardPolicyWrapper(env, "lenient")],
    )
    envs.reset(seed=0)
    envs.call("set_disabled", ("success",))
    _, rewards, *_ = envs.step(np.zeros(2, dtype=np.int64))
    np.testing.assert_allclose(rewards, 0.2)
    envs.close()


def _make_wrapped():
    return RewardPolicyWrapper(ScriptedResultEnv(episode_length=3), "lenient")


def test_sb3_subproc_vec_env_reports_components():
    from stable_baselines3.common.vec_env import SubprocVecEnv

    envs = SubprocVecEnv([_make_wrapped, _make_wrapped], start_method="forkserver")
    try:
        envs.seed(0)
        envs.reset()
        final_infos = []
        for _ in range(3):
            _, _, dones, infos = envs.step(np.ones(2, dtype=np.int64))
            assert all("reward_components" in info for info in infos)
            final_infos = infos
        assert dones.all()
        assert all("episode_reward_components" in info for info in final_infos)
        assert envs.env_method("set_disabled", ("final",)) == [None, None]
        assert envs.get_attr("disabled") == [frozenset({"final"})] * 2
    finally:
        envs.close()


def test_sb3_dummy_vec_env_with_monitor_sees_shaped_reward():
    from stable_baselines3.common.env_util import make_vec_env

    envs = make_vec_env(_make_wrapped, n_envs=2, seed=0)
    envs.reset()
    total = np.zeros(2)
    for _ in range(3):
        _, rewards, dones, infos = envs.step(np.ones(2, dtype=np.int64))
        total += rewards
    assert dones.all()
    np.testing.assert_allclose([info["episode"]["r"] for info in infos], total, rtol=1e-5)
