"""``WeightSchedule``: breakpoints, interpolation, validation and plain-data round trips."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rlm_gym.wrappers.schedule import WeightSchedule

RAMP = {"efficiency": [(0, 0.0), (200_000, 1.0)]}


def test_linear_interpolates_between_breakpoints():
    schedule = WeightSchedule(RAMP)
    assert schedule.weights_at(0) == {"efficiency": 0.0}
    assert schedule.weights_at(50_000) == {"efficiency": 0.25}
    assert schedule.weights_at(200_000) == {"efficiency": 1.0}


def test_first_weight_holds_before_and_last_after():
    schedule = WeightSchedule({"success": [(100, 2.0), (200, 1.0)]})
    assert schedule.weights_at(0) == {"success": 2.0}
    assert schedule.weights_at(10**12) == {"success": 1.0}


def test_step_interpolation_holds_the_previous_weight():
    schedule = WeightSchedule({"success": [(0, 2.0), (100, 1.0), (200, 0.5)]}, "step")
    assert [schedule.weights_at(s)["success"] for s in (0, 99, 100, 199, 200)] == [
        2.0,
        2.0,
        1.0,
        1.0,
        0.5,
    ]


def test_numpy_integer_steps_are_training_steps():
    assert WeightSchedule(RAMP).weights_at(np.int64(100_000)) == {"efficiency": 0.5}


@given(
    points=st.lists(
        st.tuples(st.integers(0, 10**7), st.floats(0, 100)), min_size=1, max_size=6
    ).map(lambda pts: sorted({s: w for s, w in pts}.items())),
    step=st.integers(0, 2 * 10**7),
    interpolation=st.sampled_from(["linear", "step"]),
)
def test_a_weight_always_lies_between_the_breakpoints_weights(points, step, interpolation):
    schedule = WeightSchedule({"c": points}, interpolation)
    weights = [w for _, w in points]
    value = schedule.weights_at(step)["c"]
    assert min(weights) - 1e-9 <= value <= max(weights) + 1e-9
    if interpolation == "step":
        assert value in weights
    assert schedule.max_weights() == {"c": max(weights)}


@given(
    points=st.lists(st.tuples(st.integers(0, 10**6), st.floats(0, 10)), min_size=1, max_size=5).map(
        lambda pts: sorted({s: w for s, w in pts}.items())
    ),
    interpolation=st.sampled_from(["linear", "step"]),
)
def test_to_dict_from_dict_and_pickle_round_trip(points, interpolation):
    schedule = WeightSchedule({"c": points}, interpolation)
    assert WeightSchedule.from_dict(schedule.to_dict()) == schedule
    assert pickle.loads(pickle.dumps(schedule)) == schedule
    assert hash(WeightSchedule.from_dict(schedule.to_dict())) == hash(schedule)


def test_from_text_reads_the_command_line_form():
    schedule = WeightSchedule.from_text("efficiency=0:0,200_000:1; success=0:2", "step")
    assert schedule.breakpoints == {
        "efficiency": ((0, 0.0), (200_000, 1.0)),
        "success": ((0, 2.0),),
    }
    assert schedule.interpolation == "step"


@pytest.mark.parametrize(
    ("breakpoints", "message"),
    [
        ({"efficiency": [(0, 0.0), (0, 1.0)]}, "strictly increasing: breakpoint 1"),
        ({"efficiency": [(100, 0.0), (50, 1.0)]}, "strictly increasing"),
        ({"efficiency": [(-1, 0.0)]}, "step of breakpoint 0 of `efficiency` to be >= 0"),
        ({"efficiency": [(1.5, 0.0)]}, "integer training step, got float 1.5"),
        ({"efficiency": [(True, 0.0)]}, "integer training step, got bool"),
        ({"efficiency": [(0, -1.0)]}, "finite and >= 0, got -1.0"),
        ({"efficiency": [(0, math.nan)]}, "finite and >= 0, got nan"),
        ({"efficiency": [(0, math.inf)]}, "finite and >= 0, got inf"),
        ({"efficiency": [(0, "1")]}, "weight of breakpoint 0 of `efficiency` to be a number"),
        ({"efficiency": [(0, 1.0, 2)]}, "(step, weight) pair, got (0, 1.0, 2)"),
        ({"efficiency": []}, "at least one (step, weight) breakpoint"),
        ({"efficiency": "0:1"}, "list of (step, weight) pairs"),
        ({"": [(0, 1.0)]}, "non-empty strings"),
        ({}, "at least one component"),
    ],
)
def test_bad_breakpoints_name_the_component_the_breakpoint_and_the_rule(breakpoints, message):
    with pytest.raises(ValueError) as caught:
        WeightSchedule(breakpoints)
    assert message in str(caught.value)


def test_a_non_mapping_is_a_type_error():
    with pytest.raises(TypeError, match="mapping of component name"):
        WeightSchedule([("efficiency", [(0, 1.0)])])


def test_unknown_interpolation_suggests_the_closest():
    with pytest.raises(ValueError, match="Did you mean 'linear'"):
        WeightSchedule(RAMP, interpolation="lineer")


def test_negative_or_non_integer_clock_is_refused():
    schedule = WeightSchedule(RAMP)
    for step in (-1, 1.5, True):
        with pytest.raises(ValueError, match="`step` to be an integer >= 0"):
            schedule.weights_at(step)


def test_check_components_names_the_closest_valid_component():
    schedule = WeightSchedule({"efficency": [(0, 1.0)]})
    with pytest.raises(ValueError) as caught:
        schedule.check_components(("success", "efficiency"), where=" for policy 'crawl'")
    text = str(caught.value)
    assert "'efficency' for policy 'crawl'" in text
    assert "Did you mean 'efficiency'?" in text
    assert "'success', 'efficiency'" in text


@pytest.mark.parametrize("argument", ["disable", "weights"])
def test_a_component_cannot_be_scheduled_and_disabled_or_fixed(argument):
    schedule = WeightSchedule(RAMP)
    given_ = {"disable": ("efficiency",), "weights": {"efficiency": 2.0}}[argument]
    kwargs = {argument: given_}
    with pytest.raises(ValueError, match=f"both scheduled and in `{argument}`"):
        schedule.check_components(("efficiency",), **kwargs)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("efficiency", "'name=step:weight,step:weight', got 'efficiency'"),
        ("efficiency=0", "as 'step:weight'"),
        ("efficiency=a:1", "got 'a:1'"),
        ("efficiency=0:x", "got '0:x'"),
        ("efficiency=0:1;efficiency=5:2", "scheduled twice"),
        ("", "'name=step:weight,step:weight', got ''"),
        ("efficiency=0:-1", "finite and >= 0"),
    ],
)
def test_from_text_errors_say_what_form_is_accepted(text, message):
    with pytest.raises(ValueError) as caught:
        WeightSchedule.from_text(text)
    assert message in str(caught.value)


def test_from_dict_refuses_unknown_keys_with_a_hint():
    with pytest.raises(ValueError, match="Did you mean 'interpolation'"):
        WeightSchedule.from_dict({"breakpoints": RAMP, "interpolaton": "step"})
    with pytest.raises(ValueError, match="Expected a schedule as"):
        WeightSchedule.from_dict({"efficiency": [[0, 1.0]]})


def test_a_component_joined_with_a_comma_points_to_the_semicolon():
    with pytest.raises(ValueError, match="separate components with ';'") as caught:
        WeightSchedule.from_text("efficiency=0:0,200000:1,defects=0:2")
    assert "'efficiency=0:0,200000:1;defects=0:2'" in str(caught.value)
