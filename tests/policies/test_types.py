"""Core dataclasses: ActionResult validation and RewardSignal.clamped."""

from __future__ import annotations

import math

import pytest

from rlm_gym.policies import ActionResult, PolicyContext, RewardSignal


@pytest.mark.parametrize("duration", [-0.5, math.nan, math.inf])
def test_action_result_rejects_bad_duration(duration):
    with pytest.raises(ValueError, match="duration_ms"):
        ActionResult("code", True, duration_ms=duration)


def test_action_result_rejects_negative_tokens():
    with pytest.raises(ValueError, match="tokens_used"):
        ActionResult("code", True, tokens_used=-1)


def test_action_result_defaults():
    result = ActionResult("code", False)
    assert (result.output, result.error, result.duration_ms, result.tokens_used) == (
        "",
        None,
        0.0,
        0,
    )
    assert result.metadata == {}
    assert result.metadata is not ActionResult("code", False).metadata


@pytest.mark.parametrize(("value", "clamped"), [(1.3, 1.0), (-2.0, -1.0), (0.25, 0.25)])
def test_reward_signal_clamped(value, clamped):
    assert RewardSignal(value).clamped == clamped


def test_policy_context_defaults():
    context = PolicyContext()
    assert (context.task, context.step, context.max_steps) == ("", 0, 10)
    assert context.history == [] and context.variables == {}
