"""``WeightSchedule`` in the wrappers: the clock, weights fixed per episode, reports, errors."""

from __future__ import annotations

import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import SyncVectorEnv

from rlm_gym.wrappers import RewardPolicyWrapper, VectorRewardPolicyWrapper, WeightSchedule
from tests.wrappers.test_vector_parity import TinyEnv

SCHEDULE = WeightSchedule({"attempt": [(0, 0.0), (4, 1.0)]}, interpolation="linear")


def _run(env, steps):
    infos = []
    for _ in range(steps):
        *_, terminated, truncated, info = env.step(1)
        infos.append(info)
        if terminated or truncated:
            env.reset()
    return infos


def test_per_env_weights_are_fixed_at_each_reset_by_its_own_step_clock():
    env = RewardPolicyWrapper(TinyEnv(2, "none"), "lenient", schedule=SCHEDULE)
    env.reset(seed=0)
    infos = _run(env, 6)
    attempts = [info["reward_components"]["attempt"] for info in infos]
    # Episodes of 2 steps start at clocks 0, 2, 4: weights 0.0, 0.5, 1.0 (x 0.2).
    assert attempts == pytest.approx([0.0, 0.0, 0.1, 0.1, 0.2, 0.2])
    assert [info["reward_weights"]["attempt"] for info in infos[1::2]] == [0.0, 0.5, 1.0]


def test_set_schedule_step_sets_the_clock_and_own_steps_count_on():
    env = RewardPolicyWrapper(TinyEnv(2, "none"), "lenient", schedule=SCHEDULE)
    env.reset(seed=0)
    env.step(1)
    env.set_schedule_step(3)
    env.step(1)
    assert env.schedule_step == 4
    env.reset()
    *_, info = env.step(1)
    assert info["reward_components"]["attempt"] == pytest.approx(0.2)


def test_every_episode_end_reports_weights_without_a_schedule_too():
    env = RewardPolicyWrapper(TinyEnv(1, "none"), "lenient", disable=("final",))
    env.reset(seed=0)
    *_, info = env.step(1)
    assert info["reward_weights"] == {
        "attempt": 1.0,
        "success": 1.0,
        "failure": 1.0,
        "progress": 1.0,
        "final": 0.0,
    }


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"schedule": WeightSchedule({"atempt": [(0, 1.0)]})}, "Did you mean 'attempt'"),
        ({"schedule": SCHEDULE, "disable": ("attempt",)}, "both scheduled and in `disable`"),
        ({"schedule": SCHEDULE, "weights": {"attempt": 2.0}}, "both scheduled and in `weights`"),
    ],
)
@pytest.mark.parametrize("vector", [False, True])
def test_schedule_names_are_checked_against_the_policy(kwargs, message, vector):
    with pytest.raises(ValueError, match=message):
        if vector:
            VectorRewardPolicyWrapper(SyncVectorEnv([TinyEnv]), "lenient", **kwargs)
        else:
            RewardPolicyWrapper(TinyEnv(), "lenient", **kwargs)


def test_a_wrapper_with_a_schedule_is_rebuilt_from_its_spec_and_pickles():
    gym.register("rlm_gym_test/TinyScheduled-v0", entry_point=TinyEnv)
    env = RewardPolicyWrapper(
        gym.make("rlm_gym_test/TinyScheduled-v0"), "lenient", schedule=SCHEDULE
    )
    rebuilt = gym.make(env.spec)
    assert isinstance(rebuilt, RewardPolicyWrapper)
    assert rebuilt.spec.additional_wrappers[-1].kwargs["schedule"] == SCHEDULE
    assert (
        pickle.loads(pickle.dumps(env.spec)).additional_wrappers[-1].kwargs["schedule"] == SCHEDULE
    )


def test_vector_clock_counts_every_sub_env_step_and_fixes_weights_per_episode():
    envs = VectorRewardPolicyWrapper(
        SyncVectorEnv([lambda: TinyEnv(3, "none")] * 2), "lenient", schedule=SCHEDULE
    )
    envs.reset(seed=0)
    attempts = []
    for _ in range(4):
        *_, infos = envs.step(np.array([1, 1]))
        attempts.append(infos["reward_components"]["attempt"].tolist())
    assert envs.schedule_step == 8
    # Episodes started at clock 0 (3 steps at weight 0), the reset step at clock 8 scores 0.
    assert attempts == [[0.0, 0.0]] * 4
    *_, infos = envs.step(np.array([1, 1]))
    assert infos["reward_components"]["attempt"].tolist() == pytest.approx([0.2, 0.2])
