"""Fuzz: ``crawl_reward`` and ``check_items`` on arbitrary JSON-like data (bad input).

Any value, any key, any nesting: the scorer returns a value in [0, 1] and raises nothing but
the documented ``ValueError`` for a malformed crawl result.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym.crawl import check_items, crawl_reward

ODD_TEXTS = ["\u00b2", "\u00bd", "\u0663", "\U0001d7d3", "9999-12-31", "0000-00-00", "1e309"]
ODD_TEXTS += ["\u2028", "\x00", "\u00c2\u00a35", "<b>x</b>", "N/A", "", " "]
ODD_SCALARS = st.sampled_from([10**400, -(10**400), math.nan, math.inf, -math.inf, *ODD_TEXTS])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=30),
    ODD_SCALARS,
)
JSON = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=8), st.integers()), children, max_size=4),
    ),
    max_leaves=20,
)
KEYS = st.one_of(
    st.sampled_from(["price", "rating", "title", "date", "email", "phone", "url", "reviews"]),
    st.text(max_size=10),
    st.integers(),
    st.none(),
)
ITEMS = st.one_of(st.dictionaries(KEYS, JSON, max_size=6), JSON)


@st.composite
def crawl_results(draw):
    data = draw(st.lists(ITEMS, max_size=12))
    result = {"success": draw(st.booleans()), "data": data}
    if draw(st.booleans()):
        required = draw(st.lists(st.text(max_size=8), max_size=4))
        result["extraction_schema"] = {"required": required}
    return result


@settings(max_examples=200, deadline=None)
@given(crawl_results())
def test_any_json_data_scores_in_unit_range_without_raising(result):
    signal = crawl_reward(result)
    assert 0.0 <= signal.value <= 1.0
    assert math.isfinite(sum(signal.components.values()))
    assert len(check_items(result)) == len(result["data"])


def test_deeply_nested_values_are_scored():
    value: object = "Áo khoác"
    for _ in range(5000):
        value = [value]
    result = {"success": True, "data": [{"title": value}, {"title": {"a": {"b": value}}}]}
    assert 0.0 <= crawl_reward(result).value <= 1.0


def test_huge_ints_in_a_count_or_rating_column_are_scored():
    # Found by the fuzz above: a column of ints typed by their size met 10**400.
    data = [{"rating": 4}, {"rating": 10**400}, {"rating": 5}, {"rating": -(10**400)}]
    result = {"success": True, "data": data}
    assert 0.0 <= crawl_reward(result).value <= 1.0
    assert len(check_items(result)) == 4


def test_a_huge_int_execution_time_is_refused_as_not_finite():
    result = {"success": True, "data": [{"title": "Giá vàng"}], "execution_time_ms": 10**400}
    with pytest.raises(ValueError, match="`execution_time_ms` to be finite"):
        crawl_reward(result)
