"""Vector reward output on both wrappers; ``component_bounds`` of the built-ins."""

from __future__ import annotations

import math

import numpy as np
import pytest
from gymnasium.vector import SyncVectorEnv

from rlm_gym.policies import PolicyRegistry, RewardPolicy, RewardSignal
from rlm_gym.wrappers import RewardPolicyWrapper, VectorRewardPolicyWrapper, WeightSchedule
from tests.wrappers.test_vector_parity import TinyEnv

BUILTINS = ("default", "strict", "lenient", "research", "binary", "crawl")


@pytest.mark.parametrize("name", BUILTINS)
def test_builtins_declare_bounds_for_every_component_containing_zero(name):
    policy = PolicyRegistry.get_reward(name)
    bounds = policy.component_bounds()
    assert list(bounds) == list(policy.component_names)
    assert all(low <= 0.0 <= high for low, high in bounds.values())


def test_the_default_bounds_are_unbounded():
    class Plain(RewardPolicy):
        name = "plain_bounds"
        component_names = ("a",)

        def calculate(self, action, result, context):
            return RewardSignal(0.0)

    assert Plain().component_bounds() == {"a": (-math.inf, math.inf)}


def test_per_env_vector_reward_holds_the_weighted_components_and_the_scalar():
    env = RewardPolicyWrapper(
        TinyEnv(3, "none"), "lenient", reward_output="vector", weights={"attempt": 2.0}
    )
    env.reset(seed=0)
    _, reward, *_, info = env.step(1)
    assert reward.dtype == np.float32 and reward.shape == (5,)
    assert reward.tolist() == pytest.approx([0.4, 0.5, 0.0, 0.0, 0.0])
    assert info["scalar_reward"] == pytest.approx(0.9)
    assert env.reward_space.contains(reward)
    assert env.unwrapped.reward_space is env.reward_space
    assert env.reward_space.high.tolist() == pytest.approx([0.4, 0.5, 0.0, 0.15, 0.4])


def test_bounds_scale_with_the_largest_scheduled_weight_and_disabled_are_zero():
    schedule = WeightSchedule({"success": [(0, 1.0), (10, 3.0)]})
    env = RewardPolicyWrapper(
        TinyEnv(), "lenient", reward_output="vector", schedule=schedule, disable=("final",)
    )
    assert env.reward_space.high.tolist() == pytest.approx([0.2, 1.5, 0.0, 0.15, 0.0])
    assert env.reward_space.low.tolist() == pytest.approx([0.0, 0.0, -0.1, 0.0, 0.0])


def test_a_base_env_with_another_reward_space_is_refused():
    from gymnasium import spaces

    inner = TinyEnv()
    inner.reward_space = spaces.Box(-1, 1, shape=(2,))
    with pytest.raises(ValueError, match="already declares a `reward_space`"):
        RewardPolicyWrapper(inner, "lenient", reward_output="vector")


def test_a_policy_without_component_names_cannot_give_a_vector():
    class FreeForm(RewardPolicy):
        name = "free_form_vector"

        def calculate(self, action, result, context):
            return RewardSignal(0.0)

    with pytest.raises(ValueError, match="declares no `component_names`"):
        RewardPolicyWrapper(TinyEnv(), FreeForm(), reward_output="vector")
    with pytest.raises(ValueError, match="declares no `component_names`"):
        VectorRewardPolicyWrapper(SyncVectorEnv([TinyEnv]), FreeForm(), reward_output="vector")


def test_vector_wrapper_vector_reward_matches_per_env_and_declares_both_spaces():
    inner = SyncVectorEnv([lambda: TinyEnv(2, "all")] * 3)
    envs = VectorRewardPolicyWrapper(inner, "research", reward_output="vector", reward_mode="add")
    reference = RewardPolicyWrapper(TinyEnv(2, "all"), "research", reward_output="vector")
    envs.reset(seed=0)
    reference.reset(seed=0)
    for _ in range(2):
        _, rewards, *_, infos = envs.step(np.array([1, 1, 1]))
        _, expected, *_, info = reference.step(1)
        assert rewards.shape == (3, 13) and rewards.dtype == np.float32
        np.testing.assert_allclose(rewards[0], expected, atol=1e-7)
        # "add": the vector holds the components only, the scalar includes the env's reward.
        assert infos["scalar_reward"][0] == pytest.approx(
            info["scalar_reward"] + infos["env_reward"][0]
        )
    assert envs.single_reward_space.shape == (13,) and envs.reward_space.shape == (3, 13)
    _, rewards, *_ = envs.step(np.array([1, 1, 1]))  # NEXT_STEP reset step
    assert not rewards.any()


def test_crawl_declares_finite_bounds_for_every_component():
    bounds = PolicyRegistry.get_reward("crawl").component_bounds()
    assert all(math.isfinite(low) and math.isfinite(high) for low, high in bounds.values())


def test_crawl_defects_floor_is_the_penalty_times_the_counted_defects():
    policy = PolicyRegistry.get_reward("crawl", {"defect_penalty": 0.2, "max_defects": 4})
    assert policy.component_bounds()["defects"] == pytest.approx((-0.8, 0.0))
