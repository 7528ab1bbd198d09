"""Core dataclasses: ActionResult validation and RewardSignal.clamped."""

from __future__ import annotations

import dataclasses
import math
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rlm_gym.policies import (
    DEFAULT_HISTORY_LIMIT,
    ActionResult,
    History,
    PolicyContext,
    RewardSignal,
)


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


# -- 0.2: `success` must be a bool, typed fields, plain dataclass ------------------------------


@pytest.mark.parametrize("success", ["false", "true", 1, 0, None, 1.0])
def test_action_result_rejects_a_success_that_is_not_a_bool(success):
    with pytest.raises(TypeError, match="`success`"):
        ActionResult("code", success)


def test_action_result_success_error_names_the_value():
    with pytest.raises(TypeError, match="Expected `success` to be a bool, got str 'false'"):
        ActionResult("code", "false")


@pytest.mark.parametrize("success", [np.True_, np.False_])
def test_action_result_accepts_numpy_bools_as_python_bools(success):
    result = ActionResult("code", success)
    assert type(result.success) is bool and result.success == bool(success)


@pytest.mark.parametrize(("field", "value"), [("duration_ms", "5"), ("duration_ms", True)])
def test_action_result_rejects_a_duration_that_is_not_a_number(field, value):
    with pytest.raises(TypeError, match="`duration_ms`"):
        ActionResult("code", True, duration_ms=value)


@pytest.mark.parametrize("tokens", [1.5, "3", True])
def test_action_result_rejects_tokens_that_are_not_an_int(tokens):
    with pytest.raises(TypeError, match="`tokens_used`"):
        ActionResult("code", True, tokens_used=tokens)


@pytest.mark.parametrize(("field", "value"), [("duration_ms", -1.0), ("tokens_used", -2)])
def test_action_result_value_errors_name_the_field_and_the_value(field, value):
    with pytest.raises(ValueError, match=f"`{field}`.*{value}"):
        ActionResult("code", True, **{field: value})


def test_action_result_accepts_numpy_numbers():
    result = ActionResult("code", True, duration_ms=np.float32(2.5), tokens_used=np.int64(3))
    assert (result.duration_ms, result.tokens_used) == (2.5, 3)


def test_action_result_accepts_output_none():
    assert ActionResult("code", True, output=None).output is None


@pytest.mark.parametrize(("field", "value"), [("output", 42), ("error", ValueError("x"))])
def test_action_result_rejects_output_or_error_that_is_not_text(field, value):
    with pytest.raises(TypeError, match=f"`{field}`"):
        ActionResult("code", False, **{field: value})


def test_action_result_rejects_metadata_that_is_not_a_mapping():
    with pytest.raises(TypeError, match="`metadata`"):
        ActionResult("code", False, metadata=[("partial", 0.5)])


def test_action_result_is_a_plain_dataclass():
    assert dataclasses.is_dataclass(ActionResult)
    assert "__slots__" not in vars(ActionResult)


@given(
    duration=st.floats(allow_nan=True, allow_infinity=True),
    tokens=st.integers(min_value=-(10**6), max_value=10**6),
)
def test_action_result_accepts_exactly_finite_non_negative_durations_and_tokens(duration, tokens):
    valid = math.isfinite(duration) and duration >= 0 and tokens >= 0
    if valid:
        assert ActionResult("code", True, duration_ms=duration, tokens_used=tokens).success
    else:
        with pytest.raises(ValueError):
            ActionResult("code", True, duration_ms=duration, tokens_used=tokens)


# -- 0.2: history entries and the bounded History -----------------------------------------------


def test_history_keeps_only_the_last_limit_entries():
    history = History(limit=3)
    for step in range(10):
        history.append({"reward": float(step)})
    assert [entry["reward"] for entry in history] == [7.0, 8.0, 9.0]


def test_history_reads_like_a_list():
    history = History([{"reward": 1.0}, {"reward": 2.0}, {"reward": 3.0}], limit=5)
    assert len(history) == 3
    assert history[0] == {"reward": 1.0} and history[-1] == {"reward": 3.0}
    assert history[-2:] == [{"reward": 2.0}, {"reward": 3.0}]
    assert isinstance(history[:1], list)
    assert history == [{"reward": 1.0}, {"reward": 2.0}, {"reward": 3.0}]
    assert history != [{"reward": 1.0}]
    assert [entry["reward"] for entry in reversed(history)] == [3.0, 2.0, 1.0]


def test_empty_history_is_falsy_and_equals_an_empty_list():
    history = History()
    assert not history and history == [] and history.limit == DEFAULT_HISTORY_LIMIT


def test_history_pickles_with_its_limit():
    history = History([{"reward": 1.0}], limit=4)
    clone = pickle.loads(pickle.dumps(history))
    assert clone == [{"reward": 1.0}] and clone.limit == 4 and type(clone) is History


@pytest.mark.parametrize(
    ("limit", "error"), [(-1, ValueError), (2.5, TypeError), (True, TypeError)]
)
def test_history_limit_is_validated(limit, error):
    with pytest.raises(error, match="history_limit"):
        History(limit=limit)


@given(limit=st.integers(min_value=0, max_value=50), count=st.integers(min_value=0, max_value=200))
def test_history_length_never_exceeds_its_limit(limit, count):
    history = History(limit=limit)
    for step in range(count):
        history.append(step)
    assert len(history) == min(limit, count)
    assert list(history) == list(range(count))[count - len(history) :]
