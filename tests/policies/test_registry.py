"""PolicyRegistry: lookup, suggestions, duplicate protection, entry points, custom policies."""

from __future__ import annotations

import warnings
from types import SimpleNamespace

import pytest

from rlm_gym.policies import (
    ActionResult,
    PolicyContext,
    PolicyRegistry,
    RewardPolicy,
    RewardSignal,
    registry,
)


class _Tmp(RewardPolicy):
    name = "tmp_policy"
    description = "temporary"

    def calculate(self, action, result, context):
        return RewardSignal(0.0)


class _Other(_Tmp):
    pass


@pytest.fixture
def clean_tmp():
    yield
    PolicyRegistry.unregister_reward("tmp_policy")


def test_builtins_listed_in_registration_order():
    names = [entry["name"] for entry in PolicyRegistry.list_reward_policies()]
    assert names[:5] == ["default", "strict", "lenient", "research", "binary"]
    assert all(entry["description"] for entry in PolicyRegistry.list_reward_policies())


def test_get_reward_returns_a_new_instance_each_time():
    assert PolicyRegistry.get_reward("default") is not PolicyRegistry.get_reward("default")


def test_get_reward_defaults_to_default_policy():
    assert PolicyRegistry.get_reward().name == "default"


def test_unknown_policy_suggests_closest_name():
    with pytest.raises(ValueError) as excinfo:
        PolicyRegistry.get_reward("lenint")
    message = str(excinfo.value)
    assert message.startswith("Unknown reward policy 'lenint'. Did you mean 'lenient'?")
    assert "Available:" in message and "'strict'" in message


def test_registering_another_class_under_a_taken_name_replaces_it(clean_tmp):
    PolicyRegistry.register_reward()(_Tmp)
    with pytest.warns(UserWarning):
        PolicyRegistry.register_reward("tmp_policy")(_Other)
    assert type(PolicyRegistry.get_reward("tmp_policy")) is _Other


def test_replacing_without_override_warns_naming_both_classes(clean_tmp):
    PolicyRegistry.register_reward()(_Tmp)
    with pytest.warns(UserWarning) as caught:
        PolicyRegistry.register_reward("tmp_policy")(_Other)
    message = str(caught[0].message)
    assert "test_registry._Other" in message and "test_registry._Tmp" in message
    assert "'tmp_policy'" in message


def test_override_replaces_without_a_warning(clean_tmp):
    PolicyRegistry.register_reward()(_Tmp)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        PolicyRegistry.register_reward("tmp_policy", override=True)(_Other)


def test_reregistering_the_same_class_does_not_warn(clean_tmp):
    PolicyRegistry.register_reward()(_Tmp)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        PolicyRegistry.register_reward()(_Tmp)


def test_override_replaces_a_registered_class(clean_tmp):
    PolicyRegistry.register_reward()(_Tmp)
    PolicyRegistry.register_reward("tmp_policy", override=True)(_Other)
    assert type(PolicyRegistry.get_reward("tmp_policy")) is _Other


def test_reregistering_the_same_class_is_a_no_op(clean_tmp):
    PolicyRegistry.register_reward()(_Tmp)
    PolicyRegistry.register_reward()(_Tmp)
    assert type(PolicyRegistry.get_reward("tmp_policy")) is _Tmp


def test_register_rejects_non_policies():
    with pytest.raises(TypeError, match="RewardPolicy subclass"):
        PolicyRegistry.register_reward("nope")(object)


def test_entry_points_load_on_first_miss(monkeypatch, clean_tmp):
    calls = []

    def fake_entry_points(group):
        calls.append(group)
        return [SimpleNamespace(name="tmp_policy", load=lambda: _Tmp)]

    monkeypatch.setattr(registry, "entry_points", fake_entry_points)
    monkeypatch.setattr(PolicyRegistry, "_entry_points_loaded", False)
    assert type(PolicyRegistry.get_reward("tmp_policy")) is _Tmp
    assert calls == ["rlm_gym.reward_policies"]
    PolicyRegistry.get_reward("default")
    assert calls == ["rlm_gym.reward_policies"]


def test_seed_custom_policy_example_runs_unchanged():
    from tests.policies import seed_domain_specific

    try:
        policy = seed_domain_specific.policy
        assert policy.name == "domain_specific"
        injection = policy.calculate(
            {"action": "code", "code": "DROP TABLE users; --"},
            ActionResult("code", success=False, duration_ms=500.0),
            PolicyContext(),
        )
        assert injection.components == {"injection": -0.9}
        assert injection.value == pytest.approx(-0.9)
        correct = policy.calculate(
            {"action": "code", "code": "SELECT 42"},
            ActionResult("code", success=True, output="42", duration_ms=10.0),
            PolicyContext(variables={"expected_result": 42}),
        )
        assert correct.components == {
            "syntax_valid": 0.3,
            "correct_result": 0.6,
            "performance": 0.1,
        }
        assert correct.value == pytest.approx(1.0)
    finally:
        PolicyRegistry.unregister_reward("domain_specific")


def test_class_without_own_name_takes_the_registered_name():
    class Unnamed(RewardPolicy):
        def calculate(self, action, result, context):
            return RewardSignal(0.0)

    try:
        PolicyRegistry.register_reward("unnamed_tmp")(Unnamed)
        assert PolicyRegistry.get_reward("unnamed_tmp").name == "unnamed_tmp"
    finally:
        PolicyRegistry.unregister_reward("unnamed_tmp")


# -- 0.2: rlm-code's registry API ---------------------------------------------------------------


@pytest.fixture
def restore_default():
    yield
    PolicyRegistry.set_default_reward("default")


def test_get_reward_none_returns_the_default_policy():
    assert PolicyRegistry.get_reward(None).name == "default"


def test_set_default_reward_changes_what_get_reward_none_returns(restore_default):
    PolicyRegistry.set_default_reward("lenient")
    assert PolicyRegistry.get_reward(None).name == "lenient"
    assert PolicyRegistry.get_reward(None, {"attempt_bonus": 0.0}).config["attempt_bonus"] == 0.0


def test_set_default_reward_unknown_name_suggests(restore_default):
    with pytest.raises(ValueError, match=r"'strct'\. Did you mean 'strict'\?"):
        PolicyRegistry.set_default_reward("strct")
    assert PolicyRegistry.get_reward().name == "default"


def test_get_reward_with_a_non_string_name_raises_type_error():
    with pytest.raises(TypeError, match="reward policy name"):
        PolicyRegistry.get_reward(["default"])


def test_list_all_has_the_reward_policies():
    assert PolicyRegistry.list_all() == {"reward": PolicyRegistry.list_reward_policies()}


def test_create_from_config_builds_the_named_policy_with_its_config():
    policies = PolicyRegistry.create_from_config(
        {"reward": {"name": "strict", "config": {"error_penalty": 0.5}}}
    )
    assert list(policies) == ["reward"]
    assert policies["reward"].name == "strict"
    assert policies["reward"].config["error_penalty"] == 0.5


def test_create_from_config_without_name_uses_the_default_policy(restore_default):
    PolicyRegistry.set_default_reward("research")
    assert PolicyRegistry.create_from_config({"reward": {}})["reward"].name == "research"


def test_create_from_config_without_reward_entry_is_empty():
    assert PolicyRegistry.create_from_config({}) == {}


def test_create_from_config_rejects_rlm_code_only_policy_kinds():
    with pytest.raises(ValueError, match="'action' policies are not part of rlm_gym"):
        PolicyRegistry.create_from_config({"reward": {"name": "default"}, "action": {}})


def test_create_from_config_unknown_kind_suggests_reward():
    with pytest.raises(ValueError, match=r"Unknown policy kind 'rewrd'.*Did you mean 'reward'"):
        PolicyRegistry.create_from_config({"rewrd": {"name": "default"}})


def test_create_from_config_unknown_entry_key_suggests():
    with pytest.raises(ValueError, match=r"Unknown key 'nmae'.*Did you mean 'name'"):
        PolicyRegistry.create_from_config({"reward": {"nmae": "default"}})


@pytest.mark.parametrize("config", [["reward"], {"reward": "default"}])
def test_create_from_config_wrong_shape_raises_type_error(config):
    with pytest.raises(TypeError, match="Expected `config"):
        PolicyRegistry.create_from_config(config)


def test_create_from_config_unknown_policy_suggests():
    with pytest.raises(ValueError, match="Did you mean 'lenient'"):
        PolicyRegistry.create_from_config({"reward": {"name": "lenint"}})


def test_entry_points_failing_to_load_are_retried_on_the_next_miss(monkeypatch, clean_tmp):
    attempts = []

    def flaky_entry_points(group):
        attempts.append(group)
        if len(attempts) == 1:
            raise ImportError("plugin not importable yet")
        return [SimpleNamespace(name="tmp_policy", load=lambda: _Tmp)]

    monkeypatch.setattr(registry, "entry_points", flaky_entry_points)
    monkeypatch.setattr(PolicyRegistry, "_entry_points_loaded", False)
    with pytest.raises(ImportError):
        PolicyRegistry.get_reward("tmp_policy")
    assert type(PolicyRegistry.get_reward("tmp_policy")) is _Tmp
