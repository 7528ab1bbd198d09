"""``RewardScheduleCallback``: the wrappers' clock follows ``num_timesteps``; weights logged."""

from __future__ import annotations

import pytest

pytest.importorskip("stable_baselines3")

from stable_baselines3 import PPO
from stable_baselines3.common.env_util import make_vec_env

from rlm_gym import RewardPolicyWrapper, WeightSchedule
from rlm_gym.training import RewardScheduleCallback
from tests.sb3_helpers import RecordingLogger

SCHEDULE = WeightSchedule({"success": [(0, 1.0), (256, 0.0)]})


def test_the_clock_is_num_timesteps_at_each_rollout_start_and_weights_are_logged():
    venv = make_vec_env(
        "CartPole-v1",
        n_envs=2,
        wrapper_class=RewardPolicyWrapper,
        wrapper_kwargs={"policy": "lenient", "schedule": SCHEDULE},
    )
    model = PPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    logger = RecordingLogger()
    model.set_logger(logger)
    callback = RewardScheduleCallback(SCHEDULE)
    model.learn(256, callback=callback)
    weights = [value for key, value in logger.recorded if key == "reward_weight/success"]
    # Rollout starts at 0 and 128 (2 envs x 64 steps), plus the training start.
    assert weights == pytest.approx([1.0, 1.0, 0.5])
    # Each env's clock: 128 at the last rollout start, plus its own 64 steps since.
    assert venv.get_attr("schedule_step") == [192, 192]


def test_a_non_schedule_is_refused():
    with pytest.raises(TypeError, match="WeightSchedule"):
        RewardScheduleCallback({"success": [(0, 1.0)]})
