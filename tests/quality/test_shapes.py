"""Shifted records found by value shapes alone (``rlm_gym.quality.shapes``, issue 35)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rlm_gym.quality.judge import SHIFTED_COLUMN, judge_items
from rlm_gym.quality.shapes import shape_of_value, shifted_records


@pytest.mark.parametrize(
    ("value", "shape"),
    [
        ("1985", "number"),
        ("٢٠٢٤", "number"),  # Arabic-Indic digits
        ("60.28669", "number"),
        ("15 000 Kč", "number"),
        ("450 €", "number"),
        (3.5, "number"),
        ("Matinkylä", "letters"),
        ("서울특별시", "letters"),
        ("Pihlajatie 17", "letters"),
        ("https://asunnot.oikotie.fi/a/1", "url"),
        ("", None),
        ("  ", None),
        ("—", None),
        (None, None),
        (True, None),
        (["a"], None),
    ],
)
def test_a_value_gets_its_shape_from_its_characters(value, shape):
    assert shape_of_value(value) == shape


FIELDS = ("town", "district", "address", "condition")


def _listing(shifted_rows=(8, 9), rows=20):
    items = []
    for index in range(rows):
        if index in shifted_rows:  # every field taken from the next one (oikotie.fi's rows)
            values = ("60.28669", "24.7623", str(1960 + index), f"https://a.fi/{index}")
        else:
            values = ("Espoo", "Matinkylä", f"Pihlajatie {index}", "Hyvä")
        items.append({**dict(zip(FIELDS, values, strict=True)), "title": f"Kaksio {index}"})
    return items


def test_a_record_shifted_in_three_columns_or_more_is_flagged_in_each():
    items = _listing()
    columns = [[item[name] for item in items] for name in FIELDS]
    assert shifted_records(columns) == [{8, 9}] * 4


def test_the_judge_calls_the_values_of_shifted_records_a_shifted_column():
    reasons = judge_items(_listing()).reasons
    for name in FIELDS:
        assert [i for i, reason in enumerate(reasons[name]) if reason] == [8, 9], name
        assert reasons[name][8] == SHIFTED_COLUMN
    assert not any(reasons["title"])


def test_one_column_of_mixed_shapes_shifts_no_record():
    # A price column with "Free" on some rows, nothing else disagreeing on them.
    prices = ["Free" if index % 4 == 0 else f"{index} €" for index in range(20)]
    names = [f"Lamp {index}" for index in range(20)]
    assert shifted_records([prices, names, names]) == [set(), set(), set()]


@given(
    st.lists(
        st.tuples(st.sampled_from(["Espoo", "Lahti", "Oulu"]), st.integers(0, 99_999)),
        min_size=5,
        max_size=40,
    ),
    st.integers(3, 6),
)
def test_columns_of_one_shape_each_shift_no_record(rows, width):
    columns = [[row[0] for row in rows], [str(row[1]) for row in rows]] * width
    assert not any(shifted_records(columns))


@given(st.permutations(range(20)))
def test_the_shifted_records_do_not_depend_on_the_row_order(order):
    items = _listing()
    columns = [[items[i][name] for i in order] for name in FIELDS]
    flagged = {order[i] for rows in shifted_records(columns) for i in rows}
    assert flagged == {8, 9}
