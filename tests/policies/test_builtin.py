"""The built-in policies: the policy table, the seed's worked examples, and value/component laws."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym.policies import ActionResult, PolicyContext, PolicyRegistry
from rlm_gym.policies.builtin import max_bracket_depth

SEED_POLICIES = ("default", "strict", "lenient", "research")
BUILTINS = (*SEED_POLICIES, "binary")


def score(policy_name, *, success, final=False, error=None, output="", code=None, **kw):
    action_type = "final" if final else "code"
    action = {"action": action_type}
    if code is not None:
        action["code"] = code
    result = ActionResult(action_type, success, output=output, error=error, **kw)
    policy = PolicyRegistry.get_reward(policy_name)
    return policy.calculate(action, result, PolicyContext())


# The policy table's expected values (step 0, no code, no output, duration 0), before clamping.
SPEC_TABLE = {
    "successful action": (dict(success=True), (0.8, 0.5, 0.7, 0.35)),
    "failed action": (dict(success=False), (-0.2, -0.6, 0.1, -0.15)),
    "failed with error": (dict(success=False, error="boom"), (-0.3, -0.9, 0.1, -0.15)),
    "successful final": (dict(success=True, final=True), (1.3, 0.8, 1.1, 0.75)),
    "failed final": (dict(success=False, final=True), (-0.2, -0.6, 0.5, -0.25)),
}


@pytest.mark.parametrize("scenario", SPEC_TABLE)
@pytest.mark.parametrize("column", range(4), ids=SEED_POLICIES)
def test_spec_table_values(scenario, column):
    kwargs, expected = SPEC_TABLE[scenario]
    signal = score(SEED_POLICIES[column], **kwargs)
    unclamped = sum(signal.components.values())
    assert unclamped == pytest.approx(expected[column])
    assert signal.value == pytest.approx(max(-1.0, min(1.0, expected[column])))


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        (dict(success=True, final=True), 1.0),
        (dict(success=False, final=True), 0.0),
        (dict(success=True), 0.0),
        (dict(success=False), 0.0),
    ],
)
def test_binary_scores_only_final_success(kwargs, expected):
    assert score("binary", **kwargs).value == expected


def test_binary_emits_no_component_before_final():
    assert score("binary", success=True).components == {}


def test_default_seed_examples():
    success = score("default", success=True, output="42", code="print(42)")
    assert success.components == pytest.approx({"base": 0.1, "success": 0.7})
    failure = score("default", success=False, error="ZeroDivisionError", code="1/0")
    assert failure.components == pytest.approx({"base": 0.1, "failure": -0.3, "error": -0.1})
    assert failure.value == pytest.approx(-0.3)


def test_default_partial_success_scales_with_share():
    signal = score("default", success=False, metadata={"partial": 0.5})
    assert signal.components["partial"] == pytest.approx(0.15)
    assert signal.value == pytest.approx(0.1 - 0.3 + 0.15)


def test_default_partial_ignored_on_success():
    assert "partial" not in score("default", success=True, metadata={"partial": 0.5}).components


@pytest.mark.parametrize("share", [-0.1, 1.5, "half", True])
def test_default_rejects_invalid_partial_share(share):
    with pytest.raises(ValueError, match="partial"):
        score("default", success=False, metadata={"partial": share})


def test_strict_timeout_example_stacks_to_minus_one():
    signal = score("strict", success=False, error="Execution timeout after 60s")
    assert signal.components == pytest.approx({"failure": -0.6, "error": -0.3, "timeout": -0.4})
    assert signal.value == -1.0


def test_strict_detects_timed_out_case_insensitively():
    assert "timeout" in score("strict", success=False, error="Request TIMED OUT").components


def test_strict_final_bonus_requires_no_error():
    assert "final" not in score("strict", success=True, final=True, error="warn").components


def test_lenient_progress_example():
    output = "Partial results: computed 3 of 5 components..." * 3
    signal = score("lenient", success=False, output=output)
    assert signal.components == pytest.approx({"attempt": 0.2, "failure": -0.1, "progress": 0.15})
    assert signal.value == pytest.approx(0.25)


def test_lenient_progress_needs_more_than_threshold_chars():
    assert "progress" not in score("lenient", success=True, output="x" * 50).components
    assert "progress" in score("lenient", success=True, output="x" * 51).components


def test_research_seed_example_with_corrected_code_length():
    policy = PolicyRegistry.get_reward("research")
    signal = policy.calculate(
        {"action": "code", "code": "result = sum(range(100))"},
        ActionResult("code", True, output="4950", duration_ms=50.0),
        PolicyContext(task="compute sum", step=2, max_steps=10),
    )
    assert signal.components == pytest.approx(
        {
            "base_attempt": 0.05,
            "base_success": 0.3,
            "code_length": 0.0048,
            "output_length": 0.0004,
            "fast_execution": 0.05,
            "step_penalty": -0.02,
        }
    )


def test_research_code_complexity_penalises_depth_above_ten():
    code = "(" * 13 + ")" * 13
    signal = score("research", success=True, code=code)
    assert signal.components["code_complexity"] == pytest.approx(-0.03)
    assert "code_complexity" not in score("research", success=True, code="(" * 10).components


def test_research_caps_code_and_output_length():
    signal = score("research", success=True, code="x" * 10_000, output="y" * 10_000)
    assert signal.components["code_length"] == pytest.approx(0.1)
    assert signal.components["output_length"] == pytest.approx(0.05)


def test_research_error_keyword_and_slow_execution():
    signal = score("research", success=False, output="Traceback: boom", duration_ms=12_000.0)
    assert signal.components["error_keyword"] == pytest.approx(-0.05)
    assert signal.components["slow_execution"] == pytest.approx(-0.05)
    assert "fast_execution" not in signal.components


def test_research_no_early_termination_in_second_half():
    policy = PolicyRegistry.get_reward("research")
    context = PolicyContext(step=5, max_steps=10)
    signal = policy.calculate({"action": "final"}, ActionResult("final", True), context)
    assert "early_termination" not in signal.components
    assert signal.components["step_penalty"] == pytest.approx(-0.05)


def test_max_bracket_depth_counts_mixed_brackets():
    assert max_bracket_depth("a[b(c{d})]") == 3
    assert max_bracket_depth(")))(") == 1


def test_final_is_read_from_action_dict_first():
    policy = PolicyRegistry.get_reward("default")
    result = ActionResult("final", True)
    signal = policy.calculate({"action": "code"}, result, PolicyContext())
    assert "final" not in signal.components


def test_every_emitted_component_is_declared():
    for name in BUILTINS:
        policy = PolicyRegistry.get_reward(name)
        for kwargs, _ in SPEC_TABLE.values():
            emitted = score(name, **kwargs).components
            assert set(emitted) <= set(policy.component_names), name


action_results = st.builds(
    ActionResult,
    action_type=st.sampled_from(["code", "final", "step", "fetch"]),
    success=st.booleans(),
    output=st.text(max_size=300),
    error=st.one_of(st.none(), st.sampled_from(["", "boom", "timeout", "timed out", "Error"])),
    duration_ms=st.floats(0.0, 1e6, allow_nan=False),
    tokens_used=st.integers(0, 10_000),
    metadata=st.one_of(st.just({}), st.builds(lambda p: {"partial": p}, st.floats(0.0, 1.0))),
)
actions = st.fixed_dictionaries(
    {"action": st.sampled_from(["code", "final"])},
    optional={"code": st.text(alphabet="ab()[]{} =", max_size=400)},
)
contexts = st.builds(PolicyContext, step=st.integers(0, 200), max_steps=st.integers(1, 200))


@pytest.mark.parametrize("name", BUILTINS)
@settings(max_examples=1000, deadline=None)
@given(action=actions, result=action_results, context=contexts)
def test_value_is_clamped_sum_of_components(name, action, result, context):
    policy = PolicyRegistry.get_reward(name)
    signal = policy.calculate(action, result, context)
    low, high = policy.value_range
    assert math.isfinite(signal.value)
    assert low <= signal.value <= high
    assert signal.value == max(low, min(high, sum(signal.components.values())))


@pytest.mark.parametrize("name", BUILTINS)
@pytest.mark.parametrize("final", [False, True])
def test_output_none_counts_as_empty_output(name, final):
    with_none = score(name, success=False, final=final, output=None)
    with_empty = score(name, success=False, final=final, output="")
    assert with_none.components == with_empty.components
    assert with_none.value == with_empty.value


def test_lenient_scores_output_none_without_progress():
    assert "progress" not in score("lenient", success=True, output=None).components


@pytest.mark.parametrize("name", BUILTINS)
def test_builtins_are_scored_through_score_components(name):
    policy = PolicyRegistry.get_reward(name)
    action, result = {"action": "final"}, ActionResult("final", True, output="x" * 80)
    assert policy.score_components(action, result, PolicyContext()) == (
        policy.calculate(action, result, PolicyContext()).components
    )
