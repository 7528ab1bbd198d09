"""The per-env wrapper's table path: same numbers, same history, same hooks as scoring each step."""

from __future__ import annotations

import dataclasses

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rlm_gym.wrappers.reward_policy as reward_policy_module
from rlm_gym import RewardPolicyWrapper
from rlm_gym.policies import RewardSignal

TABLE_POLICIES = ("default", "strict", "lenient", "binary")


class ScriptedEnv(gym.Env):
    """Plays a script of (reward, terminated, truncated) steps, one episode after another."""

    observation_space = gym.spaces.Discrete(1)
    action_space = gym.spaces.Discrete(3)

    def __init__(self, script: list[tuple[float, bool, bool]]) -> None:
        self.script = script
        self.index = 0

    def reset(self, *, seed=None, options=None):
        return 0, {}

    def step(self, action):
        reward, terminated, truncated = self.script[self.index % len(self.script)]
        self.index += 1
        return 0, reward, terminated, truncated, {}


def _play(env: RewardPolicyWrapper, actions: list[int]) -> list[dict]:
    """Every step's reward, info keys and (at episode ends) the full history and step count."""
    env.reset(seed=0)
    seen = []
    for action in actions:
        _, reward, terminated, truncated, info = env.step(action)
        record = {"reward": reward, **{key: info[key] for key in sorted(info)}}
        if terminated or truncated:
            history = env.context.history
            record["history"] = [
                (entry["action"], dataclasses.asdict(entry["result"]), entry["reward"])
                for entry in history
            ]
            record["step"] = env.context.step
            env.reset()
        seen.append(record)
    return seen


def _untabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reward_policy_module, "build_step_table", lambda *args: None)


steps = st.tuples(st.sampled_from([-1.0, 0.0, 0.5, 1.0]), st.booleans(), st.booleans())


@settings(max_examples=40, deadline=None)
@given(
    policy=st.sampled_from(TABLE_POLICIES),
    script=st.lists(steps, min_size=1, max_size=12),
    actions=st.lists(st.integers(0, 2), min_size=1, max_size=40),
    weights=st.sampled_from([None, {"success": 0.5}, {"base": 0.0}]),
    limit=st.sampled_from([0, 2, 1000]),
)
def test_table_path_equals_scoring_every_step(policy, script, actions, weights, limit):
    names = RewardPolicyWrapper(ScriptedEnv(script), policy).component_names
    weights = {k: v for k, v in (weights or {}).items() if k in names} or None

    def make() -> RewardPolicyWrapper:
        env = ScriptedEnv(script)
        return RewardPolicyWrapper(env, policy, weights=weights, history_limit=limit)

    tabled = make()
    assert tabled._step_constants[-1] is not None
    with pytest.MonkeyPatch.context() as patch:
        _untabled(patch)
        plain = make()
        assert plain._step_constants[-1] is None
        expected = _play(plain, actions)
    assert _play(tabled, actions) == expected


def test_history_read_mid_episode_holds_every_step_in_order_and_stays_bounded():
    env = RewardPolicyWrapper(ScriptedEnv([(1.0, False, False)]), "default", history_limit=3)
    env.reset(seed=0)
    for action in range(5):
        env.step(action)
    assert len(env.context.pending) == 3  # bounded as the history is
    history = env.context.history
    assert [entry["action"]["value"] for entry in history] == [2, 3, 4]
    assert all(entry["result"].success for entry in history)
    assert not env.context.pending and env.context.step == 5
    env.step(5)
    assert [entry["action"]["value"] for entry in env.context.history] == [3, 4, 5]
    assert dataclasses.replace(env.context).history == env.context.history


def test_a_config_changed_between_episodes_rebuilds_the_table():
    env = RewardPolicyWrapper(ScriptedEnv([(1.0, False, False)]), "default")
    env.reset(seed=0)
    before = env.step(0)[1]
    env.policy.config["success_bonus"] = 0.0
    assert env.step(0)[1] == before  # applies from the next episode
    env.reset()
    fresh = RewardPolicyWrapper(
        ScriptedEnv([(1.0, False, False)]), "default", config={"success_bonus": 0.0}
    )
    fresh.reset(seed=0)
    assert env.step(0)[1] == fresh.step(0)[1] != before


def test_a_calculate_patched_on_the_instance_is_called_from_the_next_episode():
    env = RewardPolicyWrapper(ScriptedEnv([(1.0, False, False)]), "default")
    env.reset(seed=0)
    env.policy.calculate = lambda action, result, context: RewardSignal(-0.25, {"base": -0.25})
    env.reset()
    _, reward, *_, info = env.step(0)
    assert reward == -0.25 and info["reward_components"]["base"] == -0.25
    assert env._step_constants[-1] is None


def test_set_weights_mid_episode_applies_to_the_next_looked_up_step():
    env = RewardPolicyWrapper(ScriptedEnv([(1.0, False, False)]), "default")
    env.reset(seed=0)
    first = env.step(0)[4]["reward_components"]
    env.set_weights({"success": 0.5})
    second = env.step(0)[4]["reward_components"]
    assert second["success"] == pytest.approx(0.5 * first["success"])
    assert np.isclose(env._episode_sums["success"], 1.5 * first["success"])
