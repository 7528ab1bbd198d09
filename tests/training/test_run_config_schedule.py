"""RunConfig's ``reward_schedule``: checked against the policy, written to and read from
config.json, and given to the training env."""

from __future__ import annotations

import pytest

from rlm_gym import WeightSchedule
from rlm_gym.training.env_factory import make_env
from rlm_gym.training.run_config import RunConfig

SCHEDULE = WeightSchedule({"success": [(0, 1.0), (1000, 0.0)]}, interpolation="step")


def test_a_schedule_is_saved_as_its_dict_and_restored_from_config_json():
    config = RunConfig("CartPole-v1", "lenient", reward_schedule=SCHEDULE)
    record = config.to_json()
    assert record["reward_schedule"] == SCHEDULE.to_dict()
    assert RunConfig.from_json(record).reward_schedule == SCHEDULE


def test_a_config_json_without_a_schedule_loads_without_one():
    record = RunConfig("CartPole-v1", "lenient").to_json()
    assert "reward_schedule" not in record
    assert RunConfig.from_json(record).reward_schedule is None


def test_the_dict_form_is_accepted():
    config = RunConfig("CartPole-v1", "lenient", reward_schedule=SCHEDULE.to_dict())
    assert config.reward_schedule == SCHEDULE


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"reward_schedule": WeightSchedule({"succes": [(0, 1.0)]})}, "Did you mean 'success'"),
        ({"reward_schedule": SCHEDULE, "disable": ["success"]}, "both scheduled and in `disable`"),
        ({"reward_schedule": SCHEDULE, "weights": {"success": 2.0}}, "in `weights`"),
    ],
)
def test_a_schedule_is_checked_against_the_policy_at_construction(settings, message):
    with pytest.raises(ValueError, match=message):
        RunConfig("CartPole-v1", "lenient", **settings)


def test_a_schedule_of_the_wrong_kind_is_refused():
    with pytest.raises(TypeError, match="reward_schedule"):
        RunConfig("CartPole-v1", "lenient", reward_schedule="success=0:1")


def test_the_training_env_starts_the_schedule_clock_at_the_steps_done():
    env = make_env("CartPole-v1", "lenient", schedule=SCHEDULE, schedule_step=1000)
    env.reset(seed=0)
    assert env.schedule_step == 1000
    assert env.reward_weights()["success"] == 0.0
