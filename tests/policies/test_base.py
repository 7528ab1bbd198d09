"""Policy config: one DEFAULT_CONFIG table per class, merged once at construction, validated
with specific errors, read into attributes once per episode."""

from __future__ import annotations

import math

import pytest

from rlm_gym.policies import ActionResult, PolicyContext, PolicyRegistry
from rlm_gym.policies.base import ConfiguredAdditivePolicy
from rlm_gym.policies.builtin import ResearchRewardPolicy


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


def test_default_config_is_a_fresh_copy_of_the_class_table():
    defaults = ResearchRewardPolicy.get_default_config()
    assert defaults == dict(ResearchRewardPolicy.DEFAULT_CONFIG)
    defaults["base_success"] = 9.0
    assert ResearchRewardPolicy.get_default_config()["base_success"] == 0.3


def test_the_class_table_cannot_be_changed():
    with pytest.raises(TypeError):
        ResearchRewardPolicy.DEFAULT_CONFIG["base_success"] = 9.0  # type: ignore[index]


def test_nested_defaults_are_copied_too():
    class Tables(ConfiguredAdditivePolicy):
        name = "tables"
        DEFAULT_CONFIG = {"targets": {"article": 1.0}}

        def score_components(self, action, result, context):
            return {}

    Tables.get_default_config()["targets"]["article"] = 5.0
    assert Tables().config["targets"] == {"article": 1.0}


def test_each_setting_is_read_as_an_underscored_attribute():
    policy = PolicyRegistry.get_reward("strict", config={"timeout_penalty": 0.25})
    assert (policy._timeout_penalty, policy._final_bonus) == (0.25, 0.3)


def test_a_setting_that_would_hide_a_class_attribute_is_refused():
    with pytest.raises(TypeError, match=r"\['_validate_takes_config'\]"):

        class Clashing(ConfiguredAdditivePolicy):
            DEFAULT_CONFIG = {"validate_takes_config": True}

            def score_components(self, action, result, context):
                return {}


def test_a_setting_that_is_not_an_identifier_is_refused():
    with pytest.raises(TypeError, match=r"\['max-depth'\].*identifier"):

        class Dashed(ConfiguredAdditivePolicy):
            DEFAULT_CONFIG = {"max-depth": 10}

            def score_components(self, action, result, context):
                return {}


def test_reading_the_config_again_applies_a_change_made_since():
    policy = PolicyRegistry.get_reward("lenient")
    policy.config["attempt_bonus"] = 0.0
    policy.read_config()
    signal = policy.calculate({}, ActionResult("code", False), PolicyContext())
    assert signal.components == {"attempt": 0.0, "failure": -0.1}
