"""The step's ``(action, ActionResult)`` from ``info``: results as dicts, malformed results and
actions raise naming what is wrong."""

from __future__ import annotations

import pytest

from rlm_gym import RewardPolicyWrapper
from tests.helpers import RewardScriptEnv, ScriptedResultEnv, run_episode


def test_accepts_action_result_as_dict():
    env = RewardPolicyWrapper(ScriptedResultEnv(result_as_dict=True), "default")
    steps = run_episode(env, [1, 1, 1, 1])
    assert steps[-1][0] == 1.0
    assert steps[-1][1]["reward_components"]["final"] == pytest.approx(0.5)


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


def test_action_result_field_validation_surfaces():
    env = RewardPolicyWrapper(
        _InfoEnv("action_result", {"action_type": "code", "success": True, "duration_ms": -1.0}),
        "default",
    )
    env.reset(seed=0)
    with pytest.raises(ValueError, match="duration_ms"):
        env.step(1)


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
