"""RewardPolicyWrapper: scoring, info keys, hooks, modes, non-finite rewards, the bounded
history, errors, and the wrapper inside Gymnasium / SB3 tooling (checkers, vector envs,
subprocesses)."""

from __future__ import annotations

import dataclasses
import math
import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env

from rlm_gym import RewardPolicyWrapper, make
from rlm_gym.policies import (
    DEFAULT_HISTORY_LIMIT,
    ActionResult,
    History,
    PolicyRegistry,
    RewardPolicy,
    RewardSignal,
)
from tests.helpers import RecordingPolicy, RewardScriptEnv, ScriptedResultEnv, run_episode

POLICIES = ("default", "strict", "lenient", "research", "binary")


def _run(env, steps):
    env.reset(seed=0)
    return [env.step(1) for _ in range(steps)]


def test_uses_info_action_result():
    env = RewardPolicyWrapper(ScriptedResultEnv(), "strict")
    (reward, info), *_ = run_episode(env, [0, 1, 1, 1])
    assert reward == pytest.approx(-1.0)
    assert info["reward_components"] == pytest.approx(
        {"success": 0.0, "failure": -0.6, "error": -0.3, "timeout": -0.4, "final": 0.0}
    )


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


def test_non_finite_reward_error_names_the_inner_env():
    env = RewardPolicyWrapper(RewardScriptEnv([math.nan]), "default")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="bug in RewardScriptEnv"):
        env.step(1)


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
