"""The scoring route: an additive policy scored through ``score_components`` gives what
``calculate`` gives; a ``final_only`` policy's ``calculate`` is skipped before the final action;
either shortcut holds only while ``calculate`` is the declaring class's own."""

from __future__ import annotations

import gymnasium as gym
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym import RewardPolicyWrapper
from rlm_gym.crawl import CrawlRewardPolicy
from rlm_gym.policies import (
    AdditiveRewardPolicy,
    PolicyContext,
    PolicyRegistry,
    RewardPolicy,
    RewardSignal,
)
from rlm_gym.policies.base import is_final
from rlm_gym.policies.builtin import DefaultRewardPolicy
from tests.helpers import RewardScriptEnv, ScriptedResultEnv


def _run(env, steps):
    env.reset(seed=0)
    return [env.step(1) for _ in range(steps)]


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(["default", "strict", "lenient", "research", "binary"]),
    successes=st.lists(st.booleans(), min_size=1, max_size=12),
)
def test_wrapper_rewards_equal_the_policy_values(name, successes):
    env = RewardPolicyWrapper(RewardScriptEnv([1.0 if s else 0.0 for s in successes]), name)
    steps = _run(env, len(successes))
    policy, context = PolicyRegistry.get_reward(name), PolicyContext(max_steps=10)
    for entry, (_, reward, _, _, info) in zip(env.context.history, steps, strict=True):
        signal = policy.calculate(entry["action"], entry["result"], context)
        context.step += 1
        assert reward == signal.value
        expected = dict.fromkeys(policy.component_names, 0.0) | signal.components
        assert info["reward_components"] == expected


def test_subclass_overriding_calculate_is_called():
    class Doubled(DefaultRewardPolicy):
        def calculate(self, action, result, context):
            signal = super().calculate(action, result, context)
            return RewardSignal(signal.value / 2, {"base": signal.value / 2})

    env = RewardPolicyWrapper(RewardScriptEnv([1.0, 1.0]), Doubled())
    assert [reward for _, reward, *_ in _run(env, 2)] == pytest.approx([0.4, 0.5])


def test_calculate_patched_on_the_instance_is_called():
    policy = PolicyRegistry.get_reward("default")
    policy.calculate = lambda action, result, context: RewardSignal(0.125, {"base": 0.125})
    env = RewardPolicyWrapper(RewardScriptEnv([1.0]), policy)
    assert _run(env, 1)[0][1] == 0.125


def test_calculate_patched_after_wrapping_an_additive_policy_is_called_from_the_next_reset():
    policy = PolicyRegistry.get_reward("default")
    env = RewardPolicyWrapper(RewardScriptEnv([1.0]), policy)
    assert _run(env, 1)[0][1] == pytest.approx(1.0)
    policy.calculate = lambda action, result, context: RewardSignal(0.125, {"base": 0.125})
    assert _run(env, 1)[0][1] == 0.125


def test_custom_additive_policy_emitting_ints_gets_python_floats():
    class Counting(AdditiveRewardPolicy):
        name = "counting"
        component_names = ("attempt", "flag")

        def score_components(self, action, result, context):
            return {"attempt": 1, "flag": True}

    env = RewardPolicyWrapper(RewardScriptEnv([1.0, 1.0]), Counting())
    steps = _run(env, 2)
    for _, reward, _, _, info in steps:
        assert type(reward) is float and reward == 1.0
        assert {name: type(part) for name, part in info["reward_components"].items()} == {
            "attempt": float,
            "flag": float,
        }
    assert steps[-1][-1]["episode_reward_components"] == {"attempt": 2.0, "flag": 2.0}


def test_additive_policy_emitting_an_undeclared_component_raises_naming_it():
    class Sloppy(AdditiveRewardPolicy):
        name = "sloppy"
        component_names = ("attempt",)
        float_components = True

        def score_components(self, action, result, context):
            return {"attempt": 0.5, "surprise": 0.25}

    env = RewardPolicyWrapper(RewardScriptEnv([1.0]), Sloppy())
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"\['surprise'\].*\['attempt'\]"):
        env.step(1)


@pytest.mark.parametrize("name", ["default", "strict", "lenient", "research", "binary"])
def test_episode_sums_equal_the_sums_of_the_steps(name):
    env = RewardPolicyWrapper(RewardScriptEnv([1.0, 0.0, 1.0, 1.0, 0.0]), name)
    steps = _run(env, 5)
    final_info = steps[-1][-1]
    for component in env.component_names:
        total = 0.0
        for *_, info in steps:
            total += info["reward_components"][component]
        assert final_info["episode_reward_components"][component] == total
    assert final_info["episode_reward"] == sum(reward for _, reward, *_ in steps)


class FinalBonus(RewardPolicy):
    """0.0 with no components before the final action, 0.75 on it; counts its calls."""

    name = "final_bonus"
    component_names = ("bonus",)
    value_range = (-1.0, 1.0)
    final_only = True

    def __init__(self, config=None) -> None:
        super().__init__(config)
        self.calls = 0

    def calculate(self, action, result, context):
        self.calls += 1
        if not is_final(action, result):
            return RewardSignal(0.0, {})
        return RewardSignal(0.75, {"bonus": 0.75})


def _episode(env, length):
    env.reset(seed=0)
    return [env.step(1) for _ in range(length)]


def test_calculate_is_skipped_before_the_final_action():
    policy = FinalBonus()
    env = RewardPolicyWrapper(ScriptedResultEnv(episode_length=5), policy)
    steps = _episode(env, 5)
    assert policy.calls == 1
    assert [reward for _, reward, *_ in steps] == [0.0, 0.0, 0.0, 0.0, 0.75]
    assert [info["reward_components"] for *_, info in steps[:4]] == [{"bonus": 0.0}] * 4
    assert steps[-1][-1]["episode_reward_components"] == {"bonus": 0.75}


def test_a_subclass_overriding_calculate_is_called_on_every_step():
    class EveryStep(FinalBonus):  # inherits final_only, but its calculate is its own
        def calculate(self, action, result, context):
            self.calls += 1
            return RewardSignal(0.25, {"bonus": 0.25})

    policy = EveryStep()
    env = RewardPolicyWrapper(ScriptedResultEnv(episode_length=5), policy)
    assert [reward for _, reward, *_ in _episode(env, 5)] == [0.25] * 5
    assert policy.calls == 5


def test_a_subclass_that_only_declares_final_only_is_not_trusted():
    class Declares(RewardPolicy):
        name = "declares"
        component_names = ("bonus",)

        def calculate(self, action, result, context):
            return RewardSignal(0.5, {"bonus": 0.5})

    class Inherits(Declares):  # says final_only, but `calculate` is not its own
        final_only = True

    env = RewardPolicyWrapper(ScriptedResultEnv(episode_length=3), Inherits())
    assert [reward for _, reward, *_ in _episode(env, 3)] == [0.5] * 3


def test_calculate_patched_after_wrapping_a_final_only_policy_is_called_from_the_next_reset():
    policy = FinalBonus()
    env = RewardPolicyWrapper(ScriptedResultEnv(episode_length=3), policy)
    assert [reward for _, reward, *_ in _episode(env, 3)] == [0.0, 0.0, 0.75]
    policy.calculate = lambda action, result, context: RewardSignal(0.125, {"bonus": 0.125})
    assert [reward for _, reward, *_ in _episode(env, 3)] == [0.125] * 3


@pytest.mark.parametrize(
    "options",
    [{}, {"disable": ("efficiency",)}, {"weights": {"validation": 2.0, "success": 0.5}}],
)
def test_crawl_wrapper_equals_calling_the_policy_on_every_step(options):
    # The skipped calls are exactly the ones that would have given RewardSignal(0.0, {}).
    env = RewardPolicyWrapper(gym.make("rlm_gym/Crawl-v1"), "crawl", **options)
    reference = RewardPolicyWrapper(gym.make("rlm_gym/Crawl-v1"), "crawl", **options)
    policy = reference.policy
    # The same function, but set on the instance: the reference calls it on every step.
    policy.calculate = lambda action, result, context: CrawlRewardPolicy.calculate(
        policy, action, result, context
    )
    for seed in range(20):
        env.reset(seed=seed)
        reference.reset(seed=seed)
        done = False
        while not done:
            action = env.unwrapped.heuristic_action()
            got = env.step(action)
            want = reference.step(action)
            assert got[1] == want[1] and got[4]["reward_components"] == want[4]["reward_components"]
            done = got[2] or got[3]
        assert got[4]["episode_reward_components"] == want[4]["episode_reward_components"]
