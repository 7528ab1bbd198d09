"""Property tests of crawl_reward's invariants (hypothesis, small budgets)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym.crawl import crawl_reward

FIELDS = ["product_name", "price", "rating", "title", "published_date", "review_count", "email"]
VALID_VALUES = {
    "product_name": "Áo khoác",
    "price": "1.299.000đ",
    "rating": 4.5,
    "title": "Tin nóng",
    "published_date": "12 March 2024",
    "review_count": 12,
    "email": "lienhe@picare.vn",
}
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", "N/A", "unknown", "x", "$1,299.99", "4.5/5", "2024-03-12", "Giá tốt"]),
    st.text(max_size=12),
    st.lists(st.integers(), max_size=2),
)
ITEMS = st.one_of(
    st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=len(FIELDS)),
    st.sampled_from(["<li>broken</li>", None, 3]),
)
REQUIRED = st.lists(st.sampled_from(FIELDS), min_size=1, max_size=4, unique=True)
SCHEMAS = st.one_of(st.none(), REQUIRED)


@st.composite
def crawl_results(draw):
    result = {
        "success": draw(st.booleans()),
        "data": draw(st.lists(ITEMS, max_size=12)),
        "navigation_result": {"pages_collected": draw(st.integers(0, 20))},
        "execution_time_ms": draw(st.floats(0, 1e7)),
    }
    if draw(st.booleans()):
        result["errors"] = draw(st.lists(st.just("HTTP 500"), max_size=1))
    schema = draw(SCHEMAS)
    if schema is not None:
        result["extraction_schema"] = {"required": schema}
    return result


@settings(max_examples=80, deadline=None)
@given(crawl_results(), st.sampled_from([1.0, 1.1]))
def test_value_is_in_unit_interval_and_the_clamped_sum_of_components(result, cap):
    signal = crawl_reward(result, config={"efficiency_cap": cap} if cap != 1.0 else None)
    assert 0.0 <= signal.value <= 1.0
    total = sum(signal.components.values())
    assert signal.value == pytest.approx(min(1.0, max(0.0, total)), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(crawl_results())
def test_adding_a_valid_item_never_lowers_validation(result):
    required = result.get("extraction_schema", {}).get("required", FIELDS)
    valid_item = {name: VALID_VALUES[name] for name in required}
    before = crawl_reward(result).details["validation"]
    result["data"] = [*result["data"], valid_item]
    assert crawl_reward(result).details["validation"] >= before - 1e-12


@settings(max_examples=60, deadline=None)
@given(
    crawl_results(),
    st.integers(0, 20),
    st.floats(0, 1e6),
    st.floats(0, 1e6),
)
def test_more_time_per_page_never_raises_efficiency(result, pages, first_ms, extra_ms):
    result["navigation_result"] = {"pages_collected": pages}
    result["execution_time_ms"] = first_ms
    faster = crawl_reward(result).details["efficiency"]
    result["execution_time_ms"] = first_ms + extra_ms
    assert crawl_reward(result).details["efficiency"] <= faster
