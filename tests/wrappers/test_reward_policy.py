"""RewardPolicyWrapper: scoring, info keys, hooks, ablation, modes and errors."""

from __future__ import annotations

import pickle

import gymnasium as gym
import pytest

from rlm_gym import RewardPolicyWrapper, make
from rlm_gym.policies import ActionResult, PolicyRegistry
from tests.helpers import RecordingPolicy, ScriptedResultEnv


def run_episode(env, actions, seed=0):
    env.reset(seed=seed)
    steps = []
    for action in actions:
        _, reward, terminated, truncated, info = env.step(action)
        steps.append((reward, info))
        if terminated or truncated:
            break
    return steps


def test_uses_info_action_result():
    env = RewardPolicyWrapper(ScriptedResultEnv(), "strict")
    (reward, info), *_ = run_episode(env, [0, 1, 1, 1])
    assert reward == pytest.approx(-1.0)
    assert info["reward_components"] == pytest.approx(
        {"success": 0.0, "failure": -0.6, "error": -0.3, "timeout": -0.4, "final": 0.0}
    )


def test_accepts_action_result_as_dict():
    env = RewardPolicyWrapper(ScriptedResultEnv(result_as_dict=True), "default")
    steps = run_episode(env, [1, 1, 1, 1])
    assert steps[-1][0] == 1.0
    assert steps[-1][1]["reward_components"]["final"] == pytest.approx(0.5)


def test_components_have_every_declared_name_as_python_floats():
    env = RewardPolicyWrapper(ScriptedResultEnv(), "research")
    for reward, info in run_episode(env, [1, 0, 1, 1]):
        components = info["reward_components"]
        assert tuple(components) == PolicyRegistry.get_reward("research").component_names
        assert all(type(value) is float for value in components.values())
        assert type(reward) is float


def test_info_carries_env_reward_and_policy_name():
    env = RewardPolicyWrapper(ScriptedResultEnv(), "lenient")
    steps = run_episode(env, [1, 1, 1, 1])
    assert [info["env_reward"] for _, info in steps] == [0.0, 0.0, 0.0, 1.0]
    assert {info["reward_policy"] for _, info in steps} == {"lenient"}


def test_episode_sums_equal_sum_of_step_values_and_components():
    env = RewardPolicyWrapper(ScriptedResultEnv(episode_length=6), "research")
    steps = run_episode(env, [1, 0, 0, 1, 0, 1])
    last = steps[-1][1]
    assert last["episode_reward"] == pytest.approx(sum(reward for reward, _ in steps))
    for name, total in last["episode_reward_components"].items():
        assert total == pytest.approx(sum(info["reward_components"][name] for _, info in steps))
    assert all("episode_reward" not in info for _, info in steps[:-1])


def test_hooks_called_once_per_reset_and_once_per_episode_end():
    policy = RecordingPolicy()
    env = RewardPolicyWrapper(ScriptedResultEnv(episode_length=3), policy)
    for seed in range(3):
        run_episode(env, [1, 0, 1], seed=seed)
    assert len(policy.starts) == 3
    assert len(policy.ends) == 3
    assert [total for _, total in policy.ends] == pytest.approx([0.75, 0.75, 0.75])
    assert policy.steps_seen == [0, 1, 2] * 3


def test_on_episode_end_on_truncation():
    policy = RecordingPolicy()
    env = RewardPolicyWrapper(gym.make("CartPole-v1", max_episode_steps=5), policy)
    steps = run_episode(env, [0, 1] * 10)
    assert len(steps) == 5
    assert len(policy.ends) == 1
    assert steps[-1][1]["episode_reward"] == pytest.approx(2.5)


def test_reset_builds_a_fresh_context():
    policy = RecordingPolicy()
    env = RewardPolicyWrapper(ScriptedResultEnv(), policy, task="sql", max_steps=7)
    run_episode(env, [1, 1])
    env.reset()
    first, second = policy.starts
    assert first is not second
    assert (second.task, second.max_steps, second.step, second.history) == ("sql", 7, 0, [])
    assert len(first.history) == 2


def test_context_defaults_come_from_the_spec():
    policy = RecordingPolicy()
    env = RewardPolicyWrapper(gym.make("CartPole-v1"), policy)
    env.reset(seed=0)
    assert (policy.starts[0].task, policy.starts[0].max_steps) == ("CartPole-v1", 500)


def test_generic_result_on_cartpole():
    policy = RecordingPolicy()
    seen = []
    original = policy.calculate

    def spy(action, result, context):
        seen.append((action, result))
        return original(action, result, context)

    policy.calculate = spy
    env = RewardPolicyWrapper(gym.make("CartPole-v1"), policy)
    steps = run_episode(env, [0] * 100)
    action, result = seen[0]
    assert action == {"action": "step", "value": 0}
    assert (result.action_type, result.success, result.duration_ms) == ("step", True, 0.0)
    assert result.metadata == {"env_reward": 1.0}
    assert seen[-1][1].action_type == "final"
    assert all(info["reward_components"]["good"] == 0.5 for _, info in steps)


def test_measure_duration_records_wall_time():
    policy = RecordingPolicy()
    durations = []
    original = policy.calculate
    policy.calculate = lambda a, r, c: durations.append(r.duration_ms) or original(a, r, c)
    env = RewardPolicyWrapper(gym.make("CartPole-v1"), policy, measure_duration=True)
    run_episode(env, [0, 1, 0])
    assert all(duration > 0.0 for duration in durations)


def test_disable_drops_components_and_reclamps():
    env = RewardPolicyWrapper(ScriptedResultEnv(), "default", disable=("base", "error"))
    (reward, info), *_ = run_episode(env, [0])
    assert reward == pytest.approx(-0.3)
    assert info["reward_components"]["base"] == 0.0
    assert info["reward_components"]["error"] == 0.0
    assert info["reward_components"]["failure"] == pytest.approx(-0.3)


def test_weights_scale_components_exactly():
    env = RewardPolicyWrapper(ScriptedResultEnv(), "lenient", weights={"progress": 2.0})
    (reward, info), *_ = run_episode(env, [1])
    assert info["reward_components"]["progress"] == pytest.approx(0.3)
    assert reward == pytest.approx(min(1.0, 0.2 + 0.5 + 0.3))


def test_weights_reclamp_to_value_range():
    env = RewardPolicyWrapper(ScriptedResultEnv(), "lenient", weights={"success": 3.0})
    (reward, _), *_ = run_episode(env, [1])
    assert reward == 1.0


def test_zero_weight_equals_disable():
    disabled = RewardPolicyWrapper(ScriptedResultEnv(), "research", disable=("base_success",))
    zeroed = RewardPolicyWrapper(ScriptedResultEnv(), "research", weights={"base_success": 0.0})
    assert [r for r, _ in run_episode(disabled, [1] * 4)] == [
        r for r, _ in run_episode(zeroed, [1] * 4)
    ]


def test_set_disabled_and_set_weights_at_runtime():
    env = RewardPolicyWrapper(ScriptedResultEnv(), "lenient")
    (before, _), *_ = run_episode(env, [1])
    env.set_disabled(["success"])
    (after, _), *_ = run_episode(env, [1])
    assert before == pytest.approx(0.85)
    assert after == pytest.approx(0.35)
    assert env.disabled == frozenset({"success"})
    env.set_disabled([])
    env.set_weights({"attempt": 0.5})
    (scaled, _), *_ = run_episode(env, [1])
    assert scaled == pytest.approx(0.75)


def test_unknown_component_lists_valid_names_with_suggestion():
    with pytest.raises(ValueError) as excinfo:
        RewardPolicyWrapper(ScriptedResultEnv(), "lenient", disable=("progres",))
    message = str(excinfo.value)
    assert "Unknown component 'progres'" in message
    assert "Did you mean 'progress'?" in message
    assert "'attempt'" in message


def test_unknown_weight_name_raises():
    with pytest.raises(ValueError, match="Did you mean 'final'"):
        RewardPolicyWrapper(ScriptedResultEnv(), "strict", weights={"fnal": 2.0})


def test_non_numeric_weight_raises_type_error():
    with pytest.raises(TypeError, match="weights"):
        RewardPolicyWrapper(ScriptedResultEnv(), "strict", weights={"final": "2"})


def test_policy_without_component_names_cannot_be_ablated():
    from tests.policies.seed_domain_specific import DomainSpecificRewardPolicy

    try:
        policy = DomainSpecificRewardPolicy()
        with pytest.raises(ValueError, match="cannot be ablated"):
            RewardPolicyWrapper(ScriptedResultEnv(), policy, disable=("injection",))
        env = RewardPolicyWrapper(ScriptedResultEnv(), policy)
        (_, info), *_ = run_episode(env, [1])
        assert info["reward_components"] == {"syntax_valid": 0.3, "performance": 0.1}
    finally:
        PolicyRegistry.unregister_reward("domain_specific")


def test_reward_mode_add_adds_env_reward():
    replace = RewardPolicyWrapper(ScriptedResultEnv(), "default")
    add = RewardPolicyWrapper(ScriptedResultEnv(), "default", reward_mode="add")
    replaced = run_episode(replace, [1] * 4)
    added = run_episode(add, [1] * 4)
    for (r_value, info), (a_value, _) in zip(replaced, added, strict=True):
        assert a_value == pytest.approx(r_value + info["env_reward"])
    assert added[-1][1]["episode_reward"] == replaced[-1][1]["episode_reward"]


def test_unknown_reward_mode_suggests():
    with pytest.raises(ValueError, match="Did you mean 'replace'"):
        RewardPolicyWrapper(ScriptedResultEnv(), "default", reward_mode="replac")


def test_unknown_policy_name_suggests():
    with pytest.raises(ValueError, match="Did you mean 'lenient'"):
        RewardPolicyWrapper(ScriptedResultEnv(), "lenint")


def test_config_with_instance_is_rejected():
    with pytest.raises(ValueError, match="config"):
        RewardPolicyWrapper(ScriptedResultEnv(), RecordingPolicy(), config={"x": 1})


class _InfoEnv(ScriptedResultEnv):
    """A scripted env whose ``info[key]`` is replaced by ``value`` on every step."""

    def __init__(self, key, value):
        super().__init__()
        self.key, self.value = key, value

    def step(self, action):
        obs, reward, terminated, truncated, info = super().step(action)
        info[self.key] = self.value
        return obs, reward, terminated, truncated, info


@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        ({"action_type": "code"}, "missing field(s) ['success']"),
        ({"action_type": "code", "success": True, "ok": 1}, "unexpected field(s) ['ok']"),
        ("done", "ActionResult or a dict"),
    ],
)
def test_malformed_action_result_raises_type_error(payload, fragment):
    env = RewardPolicyWrapper(_InfoEnv("action_result", payload), "default")
    env.reset(seed=0)
    with pytest.raises(TypeError) as excinfo:
        env.step(1)
    assert fragment in str(excinfo.value)


def test_info_action_may_be_any_mapping_and_nothing_else():
    from types import MappingProxyType

    env = RewardPolicyWrapper(_InfoEnv("action", MappingProxyType({"action": "code"})), "default")
    env.reset(seed=0)
    env.step(1)
    assert env.context.history[-1]["action"] == {"action": "code"}
    bad = RewardPolicyWrapper(_InfoEnv("action", ["code"]), "default")
    bad.reset(seed=0)
    with pytest.raises(TypeError, match=r'Expected `info\["action"\]` to be a dict, got list'):
        bad.step(1)


def test_step_before_reset_raises():
    env = RewardPolicyWrapper(ScriptedResultEnv(), "default")
    with pytest.raises(gym.error.ResetNeeded):
        env.step(0)


def test_undeclared_component_raises():
    class Sloppy(RecordingPolicy):
        def calculate(self, action, result, context):
            signal = super().calculate(action, result, context)
            signal.components["surprise"] = 0.0
            return signal

    env = RewardPolicyWrapper(ScriptedResultEnv(), Sloppy())
    env.reset(seed=0)
    with pytest.raises(ValueError, match="surprise"):
        env.step(1)


def test_pickle_round_trip_keeps_behaviour():
    env = RewardPolicyWrapper(ScriptedResultEnv(), "research", weights={"base_success": 0.5})
    clone = pickle.loads(pickle.dumps(env))
    assert [r for r, _ in run_episode(env, [1, 0, 1, 1])] == [
        r for r, _ in run_episode(clone, [1, 0, 1, 1])
    ]


def test_spec_rebuilds_the_wrapper():
    env = make("CartPole-v1", "lenient", disable=("progress",))
    rebuilt = gym.make(env.spec)
    assert isinstance(rebuilt, RewardPolicyWrapper)
    assert rebuilt.policy.name == "lenient"
    assert rebuilt.disabled == frozenset({"progress"})


def test_instance_policy_is_not_copied():
    policy = RecordingPolicy()
    env = RewardPolicyWrapper(ScriptedResultEnv(), policy)
    assert env.policy is policy
    assert env.spec is None or env.spec.additional_wrappers[-1].kwargs["policy"] is policy


def test_registered_env_with_additional_wrapper():
    from gymnasium.envs.registration import WrapperSpec

    wrapper_spec = WrapperSpec(
        "RewardPolicyWrapper",
        "rlm_gym.wrappers.reward_policy:RewardPolicyWrapper",
        {"policy": "strict"},
    )
    gym.register(
        id="rlm_gym_test/ScriptedStrict-v0",
        entry_point="tests.helpers:ScriptedResultEnv",
        additional_wrappers=(wrapper_spec,),
    )
    try:
        env = gym.make("rlm_gym_test/ScriptedStrict-v0")
        steps = run_episode(env, [1, 1, 1, 1])
        assert steps[-1][1]["reward_policy"] == "strict"
        assert steps[-1][0] == pytest.approx(0.8)
    finally:
        gym.registry.pop("rlm_gym_test/ScriptedStrict-v0")


def test_action_result_field_validation_surfaces():
    env = RewardPolicyWrapper(
        _InfoEnv("action_result", {"action_type": "code", "success": True, "duration_ms": -1.0}),
        "default",
    )
    env.reset(seed=0)
    with pytest.raises(ValueError, match="duration_ms"):
        env.step(1)


def test_binary_policy_on_scripted_env():
    env = RewardPolicyWrapper(ScriptedResultEnv(), "binary")
    rewards = [r for r, _ in run_episode(env, [1, 1, 1, 1])]
    assert rewards == [0.0, 0.0, 0.0, 1.0]
    assert isinstance(ActionResult("final", True), ActionResult)


def test_custom_policy_components_become_python_floats():
    import numpy as np

    class Loose(RecordingPolicy):
        def calculate(self, action, result, context):
            return type(super().calculate(action, result, context))(1, {"good": np.float64(0.5)})

    env = RewardPolicyWrapper(ScriptedResultEnv(), Loose())
    (reward, info), *_ = run_episode(env, [1])
    assert type(reward) is float
    assert [type(v) for v in info["reward_components"].values()] == [float, float]


def test_int_config_for_float_setting_is_stored_as_float():
    policy = PolicyRegistry.get_reward("default", config={"success_bonus": 1})
    assert type(policy.config["success_bonus"]) is float


def test_non_finite_custom_value_raises():
    class Broken(RecordingPolicy):
        def calculate(self, action, result, context):
            return type(super().calculate(action, result, context))(float("nan"), {})

    env = RewardPolicyWrapper(ScriptedResultEnv(), Broken())
    env.reset(seed=0)
    with pytest.raises(ValueError, match="non-finite"):
        env.step(1)


def test_steps_where_the_crawl_policy_emits_nothing_get_fresh_zero_components():
    # `crawl` scores the final step only: the other steps emit no component and must still
    # report every declared component as 0.0, in a dict of their own.
    env = RewardPolicyWrapper(gym.make("rlm_gym/Crawl-v1"), "crawl")
    env.reset(seed=3)
    names = PolicyRegistry.get_reward("crawl").component_names
    seen = []
    done = False
    while not done:
        _, reward, terminated, truncated, info = env.step(env.unwrapped.heuristic_action())
        done = terminated or truncated
        components = info["reward_components"]
        assert tuple(components) == names
        if not done:
            assert reward == 0.0 and set(components.values()) == {0.0}
            components["success"] = 9.0  # the caller's to change
        seen.append(components)
    assert len(seen) > 2 and len({id(c) for c in seen}) == len(seen)
    assert info["episode_reward_components"] == pytest.approx(components)
