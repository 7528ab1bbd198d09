"""RewardPolicyWrapper 0.2: non-finite rewards, dict history with a limit, the additive path."""

from __future__ import annotations

import dataclasses
import math
import pickle

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym import RewardPolicyWrapper
from rlm_gym.policies import (
    DEFAULT_HISTORY_LIMIT,
    ActionResult,
    AdditiveRewardPolicy,
    History,
    PolicyContext,
    PolicyRegistry,
    RewardPolicy,
    RewardSignal,
)
from rlm_gym.policies.builtin import DefaultRewardPolicy
from tests.helpers import ScriptedResultEnv


class RewardScriptEnv(gym.Env):
    """Returns the scripted rewards in turn; terminates after the last one."""

    observation_space = gym.spaces.Discrete(1)
    action_space = gym.spaces.Discrete(2)

    def __init__(self, rewards=(1.0,), info=None):
        self.rewards = list(rewards)
        self.info = info or {}
        self.t = 0

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.t = 0
        return 0, {}

    def step(self, action):
        reward = self.rewards[self.t]
        self.t += 1
        return 0, reward, self.t >= len(self.rewards), False, dict(self.info)


def _run(env, steps):
    env.reset(seed=0)
    return [env.step(1) for _ in range(steps)]


# -- non-finite inner rewards --------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad", [math.nan, math.inf, -math.inf, np.float32("nan"), np.float64("-inf")]
)
def test_non_finite_inner_reward_raises_value_error(bad):
    env = RewardPolicyWrapper(RewardScriptEnv([1.0, bad]), "default")
    env.reset(seed=0)
    env.step(1)
    with pytest.raises(ValueError, match="finite reward"):
        env.step(1)


def test_non_finite_reward_error_names_the_step_and_the_value():
    env = RewardPolicyWrapper(RewardScriptEnv([0.0, 1.0, math.inf]), "lenient")
    env.reset(seed=0)
    env.step(1)
    env.step(1)
    with pytest.raises(ValueError, match=r"got inf at step 2 of the episode"):
        env.step(1)


def test_non_finite_reward_raises_in_add_mode_too():
    env = RewardPolicyWrapper(RewardScriptEnv([math.nan]), "default", reward_mode="add")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="got nan at step 0"):
        env.step(1)


@pytest.mark.parametrize("reward", [0.0, -1e300, 1e300, 5e-324, np.float32(2.5)])
def test_finite_extreme_rewards_pass(reward):
    env = RewardPolicyWrapper(RewardScriptEnv([reward]), "default", reward_mode="add")
    env.reset(seed=0)
    _, total, *_, info = env.step(1)
    assert info["env_reward"] == float(reward)
    assert math.isfinite(total)


# -- `success` types through info --------------------------------------------------------------


@pytest.mark.parametrize("success", ["false", 1])
def test_info_action_result_with_a_non_bool_success_raises_type_error(success):
    env = RewardPolicyWrapper(
        RewardScriptEnv([0.0], {"action_result": {"action_type": "code", "success": success}}),
        "default",
    )
    env.reset(seed=0)
    with pytest.raises(TypeError, match="`success`"):
        env.step(1)


def test_info_action_result_with_output_none_scores_like_empty_output():
    payload = {"action_type": "final", "success": False, "output": None}
    env = RewardPolicyWrapper(RewardScriptEnv([0.0], {"action_result": payload}), "lenient")
    env.reset(seed=0)
    assert env.step(1)[1] == pytest.approx(0.5)


# -- history ------------------------------------------------------------------------------------


def test_history_entries_are_dicts_of_action_result_and_reward():
    env = RewardPolicyWrapper(ScriptedResultEnv(), "strict")
    steps = _run(env, 3)
    history = env.context.history
    assert len(history) == 3
    for entry, (_, reward, *_) in zip(history, steps, strict=True):
        assert set(entry) == {"action", "result", "reward"}
        assert isinstance(entry["action"], dict) and isinstance(entry["result"], ActionResult)
        assert entry["reward"] == reward


def test_history_of_generic_results_holds_complete_action_results():
    env = RewardPolicyWrapper(RewardScriptEnv([1.0, 0.0]), "default")
    _run(env, 2)
    first, last = env.context.history
    assert dataclasses.asdict(first["result"]) == {
        "action_type": "step",
        "success": True,
        "output": "",
        "error": None,
        "duration_ms": 0.0,
        "tokens_used": 0,
        "metadata": {"env_reward": 1.0},
    }
    assert first["action"] == {"action": "step", "value": 1}
    assert last["result"] == ActionResult("final", False, metadata={"env_reward": 0.0})


def test_history_keeps_at_most_history_limit_entries():
    env = RewardPolicyWrapper(RewardScriptEnv([1.0] * 50), "default", history_limit=8)
    steps = _run(env, 50)
    history = env.context.history
    assert len(history) == 8
    assert [entry["reward"] for entry in history] == [reward for _, reward, *_ in steps[-8:]]
    assert env.context.step == 50


def test_history_limit_defaults_to_one_thousand():
    env = RewardPolicyWrapper(RewardScriptEnv(), "default")
    env.reset(seed=0)
    assert env.history_limit == DEFAULT_HISTORY_LIMIT == 1000
    assert isinstance(env.context.history, History)


def test_history_limit_zero_keeps_no_history():
    env = RewardPolicyWrapper(RewardScriptEnv([1.0] * 5), "default", history_limit=0)
    _run(env, 5)
    assert len(env.context.history) == 0


@pytest.mark.parametrize(
    ("limit", "error"), [(-1, ValueError), ("10", TypeError), (None, TypeError)]
)
def test_history_limit_is_validated(limit, error):
    with pytest.raises(error, match="history_limit"):
        RewardPolicyWrapper(RewardScriptEnv(), "default", history_limit=limit)


def test_history_limit_survives_spec_rebuild_and_pickle():
    gym.register("rlm_gym_test/RewardScript-v0", entry_point=RewardScriptEnv)
    try:
        env = RewardPolicyWrapper(gym.make("rlm_gym_test/RewardScript-v0"), history_limit=3)
        assert gym.make(env.spec).history_limit == 3
        assert pickle.loads(pickle.dumps(env)).history_limit == 3
    finally:
        gym.registry.pop("rlm_gym_test/RewardScript-v0")


def test_history_is_fresh_after_reset():
    env = RewardPolicyWrapper(ScriptedResultEnv(), "default")
    _run(env, 2)
    env.reset(seed=1)
    assert env.context.history == []


def test_policy_reads_previous_rewards_from_history_inside_the_wrapper():
    class Echo(RewardPolicy):
        name = "echo"

        def calculate(self, action, result, context):
            previous = context.history[-1]["reward"] if context.history else 0.0
            return RewardSignal(previous + 0.25)

    env = RewardPolicyWrapper(RewardScriptEnv([0.0] * 4), Echo())
    assert [reward for _, reward, *_ in _run(env, 4)] == [0.25, 0.5, 0.75, 1.0]


# -- the additive fast path gives what calculate gives ------------------------------------------


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


def test_non_finite_reward_error_names_the_inner_env():
    env = RewardPolicyWrapper(RewardScriptEnv([math.nan]), "default")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="bug in RewardScriptEnv"):
        env.step(1)


# -- the per-step fast path keeps the contract ---------------------------------------------------


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


def test_calculate_patched_after_wrapping_is_called_from_the_next_reset():
    policy = PolicyRegistry.get_reward("default")
    env = RewardPolicyWrapper(RewardScriptEnv([1.0]), policy)
    assert _run(env, 1)[0][1] == pytest.approx(1.0)
    policy.calculate = lambda action, result, context: RewardSignal(0.125, {"base": 0.125})
    assert _run(env, 1)[0][1] == 0.125


def test_config_changed_between_episodes_applies_from_the_next_reset():
    policy = PolicyRegistry.get_reward("default")
    env = RewardPolicyWrapper(RewardScriptEnv([1.0, 1.0, 1.0]), policy)
    env.reset(seed=0)
    _, reward, *_ = env.step(1)
    policy.config["success_bonus"] = 0.2
    _, same_episode, *_ = env.step(1)
    assert reward == same_episode == pytest.approx(0.8)
    _, next_episode, *_ = _run(env, 1)[0]
    assert next_episode == pytest.approx(0.3)
