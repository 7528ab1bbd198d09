"""``VecRewardPolicyWrapper`` (SB3) gives the numbers of per-env ``RewardPolicyWrapper``s.

The reference is a ``DummyVecEnv`` of per-env wrapped envs (SB3 resets a finished sub-env in
``step``, Gymnasium's ``SAME_STEP``); property tests draw the policy (the five built-ins and a
custom one), weights, disabled components, a schedule, result reporting and actions.
"""

from __future__ import annotations

import pickle

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings

pytest.importorskip("stable_baselines3")

from stable_baselines3 import PPO
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

from rlm_gym import RewardPolicyWrapper, VecRewardPolicyWrapper, WeightSchedule
from rlm_gym.training import RewardScheduleCallback
from tests.sb3_helpers import RecordingLogger
from tests.wrappers.test_vector_parity import POLICIES, TinyEnv, scenarios

TOLERANCE = 1e-9


def _build(scenario: dict):
    policy_class = POLICIES[scenario["name"]]
    report = scenario["report"]
    reference_log: list = []
    vector_log: list = []
    reference = DummyVecEnv(
        [
            lambda length=length: RewardPolicyWrapper(
                TinyEnv(length, report),
                policy_class(reference_log),
                task="tiny",
                max_steps=7,
                **scenario["kwargs"],
            )
            for length in scenario["lengths"]
        ]
    )
    inner = DummyVecEnv(
        [lambda length=length: TinyEnv(length, report) for length in scenario["lengths"]]
    )
    vector = VecRewardPolicyWrapper(
        inner, policy_class(vector_log), task="tiny", max_steps=7, **scenario["kwargs"]
    )
    return reference, vector, reference_log, vector_log


def _compare_infos(names, infos, ref_infos):
    for index, (info, ref) in enumerate(zip(infos, ref_infos, strict=True)):
        assert info["reward_policy"] == ref["reward_policy"]
        assert info["env_reward"] == ref["env_reward"]
        assert info["reward_components"].keys() == ref["reward_components"].keys()
        for name in names:
            got, expected = info["reward_components"][name], ref["reward_components"][name]
            assert got == pytest.approx(expected, abs=TOLERANCE), (index, name)
        assert ("episode_reward" in info) == ("episode_reward" in ref), index
        if "episode_reward" not in ref:
            continue
        assert info["episode_reward"] == pytest.approx(ref["episode_reward"], abs=TOLERANCE)
        for name in names:
            got = info["episode_reward_components"][name]
            expected = ref["episode_reward_components"][name]
            assert got == pytest.approx(expected, abs=TOLERANCE), (index, name)
        assert info["reward_weights"] == ref["reward_weights"]
        assert np.array_equal(info["terminal_observation"], ref["terminal_observation"])


@settings(max_examples=30, deadline=None)
@given(scenario=scenarios())
def test_vec_wrapper_equals_per_env_wrapping_in_a_dummy_vec_env(scenario):
    reference, vector, reference_log, vector_log = _build(scenario)
    names = POLICIES[scenario["name"]].component_names
    assert (vector.reset() == reference.reset()).all()
    for actions in scenario["actions"]:
        actions = np.array(actions)
        # The per-env clocks are told the vector clock after this step; a
        # sub-env resets after its own step, which counts one more (SB3 resets in step).
        reference.env_method("set_schedule_step", vector.schedule_step + scenario["n"] - 1)
        ref_obs, ref_rewards, ref_dones, ref_infos = reference.step(actions)
        obs, rewards, dones, infos = vector.step(actions)
        assert (obs == ref_obs).all() and (dones == ref_dones).all()
        assert rewards.dtype == ref_rewards.dtype == np.float32
        np.testing.assert_allclose(rewards, ref_rewards, atol=1e-6, rtol=0)
        _compare_infos(names, infos, ref_infos)
    assert len(vector_log) == len(reference_log)
    for got, expected in zip(vector_log, reference_log, strict=True):
        assert got[:2] == expected[:2]
        assert got[2:] == pytest.approx(expected[2:], abs=TOLERANCE)


def _tiny(n: int = 2, policy: str = "lenient", **kwargs) -> VecRewardPolicyWrapper:
    venv = DummyVecEnv([lambda: TinyEnv(3, "none")] * n)
    return VecRewardPolicyWrapper(venv, policy, **kwargs)


def test_the_reward_settings_answer_env_method_for_every_sub_env():
    venv = _tiny()
    venv.reset()
    assert venv.env_method("set_weights", {"attempt": 2.0}) == [None, None]
    _, _, _, infos = venv.step(np.array([0, 0]))
    assert [info["reward_components"]["attempt"] for info in infos] == pytest.approx([0.4] * 2)
    venv.env_method("set_disabled", ["attempt"])
    _, _, _, infos = venv.step(np.array([0, 0]))
    assert [info["reward_components"]["attempt"] for info in infos] == [0.0, 0.0]
    _, _, dones, infos = venv.step(np.array([0, 0]))  # the third: the episodes' last
    assert dones.all() and infos[1]["reward_weights"]["attempt"] == 0.0
    venv.env_method("set_schedule_step", 1000)
    assert venv.schedule_step == 1000 and venv.get_attr("schedule_step") == [1000, 1000]
    with pytest.raises(ValueError, match="whole vector"):
        venv.env_method("set_weights", {"attempt": 1.0}, indices=[0])
    # Anything else reaches the sub-envs.
    assert venv.env_method("get_wrapper_attr", "length") == [3, 3]
    assert venv.get_attr("length", indices=[1]) == [3]


def test_a_schedule_is_read_at_each_episode_start_with_the_vector_clock():
    schedule = WeightSchedule({"attempt": [(0, 0.0), (6, 1.0)]}, interpolation="step")
    venv = _tiny(schedule=schedule)
    venv.reset()
    weights = []
    for _ in range(6):
        _, _, _, infos = venv.step(np.array([0, 0]))
        weights += [info["reward_weights"]["attempt"] for info in infos if "reward_weights" in info]
    # First episodes start at clock 0 (weight 0); the second ones at clock 6 (weight 1).
    assert weights == [0.0, 0.0, 1.0, 1.0]
    assert venv.schedule_step == 12


def test_vector_reward_output_and_errors_name_the_sub_env():
    venv = _tiny(reward_output="vector")
    venv.reset()
    _, rewards, _, infos = venv.step(np.array([1, 0]))
    assert rewards.shape == (2, len(venv.component_names)) == venv.reward_space.shape
    assert venv.single_reward_space.shape == (len(venv.component_names),)
    assert infos[0]["scalar_reward"] == pytest.approx(float(rewards[0].sum()))

    class NaNEnv(TinyEnv):
        def step(self, action):
            obs, _, terminated, truncated, info = super().step(action)
            return obs, float("nan"), terminated, truncated, info

    bad = VecRewardPolicyWrapper(DummyVecEnv([lambda: TinyEnv(3), NaNEnv]), "default")
    bad.reset()
    with pytest.raises(ValueError, match="sub-env 1"):
        bad.step(np.array([0, 0]))


def test_it_pickles_with_its_state():
    venv = _tiny(weights={"attempt": 0.5})
    venv.reset()
    venv.step(np.array([0, 0]))
    copy = pickle.loads(pickle.dumps(venv))
    assert copy.schedule_step == venv.schedule_step == 2
    _, rewards, _, _ = copy.step(np.array([0, 0]))
    _, expected, _, _ = venv.step(np.array([0, 0]))
    assert rewards.tolist() == expected.tolist()


def test_over_a_subproc_vec_env_task_and_max_steps_come_from_the_sub_env_spec():
    venv = VecRewardPolicyWrapper(SubprocVecEnv([lambda: gym.make("CartPole-v1")] * 2), "lenient")
    try:
        venv.reset()
        _, rewards, _, infos = venv.step(np.array([0, 1]))
        assert rewards.tolist() == pytest.approx([0.7, 0.7])  # attempt 0.2 + success 0.5
        assert infos[1]["reward_components"]["attempt"] == pytest.approx(0.2)
        context = venv.contexts[0]
        assert (context.task, context.max_steps) == ("CartPole-v1", 500)
    finally:
        venv.close()


def test_ppo_learns_through_it_and_the_schedule_callback_logs_the_weights():
    schedule = WeightSchedule({"success": [(0, 1.0), (256, 0.0)]})
    venv = VecRewardPolicyWrapper(
        DummyVecEnv([lambda: gym.make("CartPole-v1")] * 2), "lenient", schedule=schedule
    )
    model = PPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu")
    logger = RecordingLogger()
    model.set_logger(logger)
    model.learn(256, callback=RewardScheduleCallback(schedule))
    weights = [value for key, value in logger.recorded if key == "reward_weight/success"]
    # The training start and the rollout starts at 0 and 128 (2 envs x 64 steps).
    assert weights == pytest.approx([1.0, 1.0, 0.5])
    # The clock was set to 128 at the last rollout start and counted 2 x 64 steps since.
    assert venv.schedule_step == 256 == model.num_timesteps
