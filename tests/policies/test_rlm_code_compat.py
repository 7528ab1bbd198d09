"""rlm-code compatibility (0.2): its custom policies run unchanged.

``examples/rlm_code_policy.py`` is an rlm-code policy copied unchanged but for the import line;
these tests register, validate, hot-swap and score it, alone and inside the wrapper.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from rlm_gym import RewardPolicyWrapper
from rlm_gym.policies import (
    ActionResult,
    PolicyContext,
    PolicyRegistry,
    RewardPolicy,
    RewardSignal,
)
from tests.helpers import ScriptedResultEnv

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rlm_code_policy.py"


@pytest.fixture
def example():
    """The example module, freshly imported (it registers ``streak``); unregistered after."""
    spec = importlib.util.spec_from_file_location("rlm_code_policy_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        PolicyRegistry.unregister_reward("streak")
        sys.modules.pop(spec.name, None)


def _score(policy, success, context, code="x = 1"):
    action = {"action": "code", "code": code}
    result = ActionResult("code", success)
    signal = policy.calculate(action, result, context)
    context.history.append({"action": action, "result": result, "reward": signal.value})
    context.step += 1
    return signal


def test_example_differs_from_rlm_code_only_in_the_import_line():
    imports = [
        line for line in EXAMPLE.read_text().splitlines() if line.startswith(("from ", "import "))
    ]
    assert imports == [
        "from typing import Any",
        "from rlm_gym.policies import ActionResult, PolicyContext, PolicyRegistry, "
        "RewardPolicy, RewardSignal",
    ]


def test_example_policy_registers_on_import(example):
    names = [entry["name"] for entry in PolicyRegistry.list_reward_policies()]
    assert "streak" in names
    assert PolicyRegistry.get_reward_class("streak") is example.StreakRewardPolicy


def test_example_policy_accepts_config_without_declared_defaults(example):
    policy = PolicyRegistry.get_reward("streak", config={"success_bonus": 0.6, "window": 3})
    assert policy.config == {"success_bonus": 0.6, "window": 3}


def test_example_policy_reads_missing_settings_with_their_defaults(example):
    signal = _score(PolicyRegistry.get_reward("streak"), True, PolicyContext())
    assert signal.components == {"success": 0.5, "streak": 0.0}


def test_example_validate_config_problems_raise_at_construction(example):
    with pytest.raises(ValueError) as excinfo:
        PolicyRegistry.get_reward("streak", config={"streak_step": 2.0, "window": 0})
    message = str(excinfo.value)
    assert "policy 'streak'" in message
    assert "streak_step must be in [0, 1]" in message and "window must be >= 1" in message


def test_example_validate_config_returns_an_empty_list_when_valid(example):
    assert PolicyRegistry.get_reward("streak").validate_config() == []


def test_example_policy_scores_a_streak_from_history_dicts(example):
    policy, context = PolicyRegistry.get_reward("streak"), PolicyContext()
    values = [_score(policy, True, context).value for _ in range(3)]
    assert values == pytest.approx([0.5, 0.6, 0.7])


def test_example_policy_penalises_repeating_a_failed_action(example):
    policy, context = PolicyRegistry.get_reward("streak"), PolicyContext()
    first = _score(policy, False, context, code="1/0")
    second = _score(policy, False, context, code="1/0")
    assert first.components == {"failure": -0.25}
    assert second.components == pytest.approx({"failure": -0.25, "repeat": -0.2})


def test_example_hot_swap_replaces_the_policy_with_a_warning(example):
    with pytest.warns(UserWarning, match="GentleStreakRewardPolicy replaces .*StreakRewardPolicy"):
        example.hot_swap()
    policy = PolicyRegistry.get_reward("streak")
    assert type(policy) is example.GentleStreakRewardPolicy
    assert _score(policy, False, PolicyContext()).value == pytest.approx(-0.125)


def test_example_policy_scores_inside_the_wrapper(example):
    env = RewardPolicyWrapper(ScriptedResultEnv(episode_length=4), "streak")
    env.reset(seed=0)
    rewards, infos = [], []
    for action in (1, 1, 0, 0):
        _, reward, _, _, info = env.step(action)
        rewards.append(reward)
        infos.append(info)
    assert rewards == pytest.approx([0.5, 0.6, -0.25, -0.45])
    assert infos[1]["reward_components"] == pytest.approx({"success": 0.5, "streak": 0.1})
    assert infos[-1]["reward_policy"] == "streak"
    assert infos[-1]["episode_reward"] == pytest.approx(sum(rewards))


def test_example_policy_in_the_wrapper_after_a_hot_swap(example):
    with pytest.warns(UserWarning):
        example.hot_swap()
    env = RewardPolicyWrapper(ScriptedResultEnv(), "streak")
    env.reset(seed=0)
    assert env.step(0)[1] == pytest.approx(-0.125)


def test_0_1_validate_config_form_with_the_config_argument_is_honoured():
    seen = []

    class Old(RewardPolicy):
        name = "old_form"

        @classmethod
        def get_default_config(cls):
            return {"low": 0.0, "high": 1.0}

        def validate_config(self, config):
            seen.append(dict(config))
            if config["low"] > config["high"]:
                raise ValueError("`low` must not exceed `high`")

        def calculate(self, action, result, context):
            return RewardSignal(0.0)

    Old({"low": 0.5})
    assert seen == [{"low": 0.5, "high": 1.0}]
    with pytest.raises(ValueError, match="`low` must not exceed `high`"):
        Old({"low": 2.0})


def test_validate_config_returning_one_string_is_one_problem():
    class Terse(RewardPolicy):
        name = "terse"

        def validate_config(self):
            return "always wrong"

        def calculate(self, action, result, context):
            return RewardSignal(0.0)

    with pytest.raises(ValueError, match=r"Invalid config for policy 'terse': always wrong$"):
        Terse()


def test_policy_with_declared_defaults_still_rejects_unknown_keys():
    with pytest.raises(ValueError, match="Did you mean 'success_bonus'"):
        PolicyRegistry.get_reward("default", config={"sucess_bonus": 0.1})


def test_rlm_code_style_config_merge_in_calculate_works():
    class Merging(RewardPolicy):
        name = "merging"

        @classmethod
        def get_default_config(cls):
            return {"bonus": 0.4}

        def calculate(self, action, result, context):
            config = {**self.get_default_config(), **self.config}
            return RewardSignal(config["bonus"], {"bonus": config["bonus"]})

    signal = Merging({"bonus": 0.7}).calculate({}, ActionResult("code", True), PolicyContext())
    assert signal.value == 0.7


def test_callers_may_attach_attributes_to_an_action_result():
    result = ActionResult("code", True)
    result.trace_id = "abc"
    assert result.trace_id == "abc"
    assert not hasattr(ActionResult, "__slots__")


def test_callers_may_attach_attributes_to_a_policy_context():
    context = PolicyContext()
    context.run_id = 7
    assert context.run_id == 7
