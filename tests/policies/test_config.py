"""Policy config: merged once at construction, validated with specific errors."""

from __future__ import annotations

import math

import pytest

from rlm_gym.policies import PolicyRegistry


def test_config_merges_over_defaults():
    policy = PolicyRegistry.get_reward("default", config={"success_bonus": 0.9})
    assert policy.config["success_bonus"] == 0.9
    assert policy.config["failure_penalty"] == 0.3


def test_custom_config_changes_the_reward():
    from rlm_gym.policies import ActionResult, PolicyContext

    policy = PolicyRegistry.get_reward("default", config={"success_bonus": 0.5})
    signal = policy.calculate({}, ActionResult("code", True), PolicyContext())
    assert signal.value == pytest.approx(0.6)


def test_unknown_config_key_suggests_the_closest_and_lists_valid_keys():
    with pytest.raises(ValueError) as excinfo:
        PolicyRegistry.get_reward("default", config={"sucess_bonus": 0.9})
    message = str(excinfo.value)
    assert "'sucess_bonus'" in message
    assert "policy 'default'" in message
    assert "Did you mean 'success_bonus'?" in message
    assert "'failure_penalty'" in message


@pytest.mark.parametrize("value", ["0.9", True, None, [0.9]])
def test_wrong_kind_of_number_raises_type_error_naming_the_key(value):
    with pytest.raises(TypeError, match="success_bonus"):
        PolicyRegistry.get_reward("default", config={"success_bonus": value})


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_non_finite_number_raises_value_error_naming_the_key(value):
    with pytest.raises(ValueError, match="final_bonus"):
        PolicyRegistry.get_reward("strict", config={"final_bonus": value})


def test_config_must_be_a_mapping():
    with pytest.raises(TypeError, match="config"):
        PolicyRegistry.get_reward("lenient", config=[("attempt_bonus", 0.1)])


def test_each_instance_has_its_own_config():
    first = PolicyRegistry.get_reward("lenient", config={"attempt_bonus": 0.0})
    second = PolicyRegistry.get_reward("lenient")
    assert first.config["attempt_bonus"] == 0.0
    assert second.config["attempt_bonus"] == 0.2
