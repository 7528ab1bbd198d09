"""Ablation through the wrapper: disabled and weighted components, re-clamping, bad names."""

from __future__ import annotations

import pytest

from rlm_gym import RewardPolicyWrapper
from rlm_gym.policies import PolicyRegistry
from tests.helpers import ScriptedResultEnv, run_episode


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
