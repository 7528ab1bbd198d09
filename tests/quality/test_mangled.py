# ruff: noqa: RUF001 - digits of other scripts are the point
"""Numbers mangled by the scraper: cut at the thousands mark, two decimal marks, joined amounts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym.crawl import check_items
from rlm_gym.quality.joined import JOINED_VALUES
from rlm_gym.quality.mangled import (
    CUT_AT_THOUSANDS,
    TWO_DECIMAL_MARKS,
    mark_cut_thousands,
    mark_joined_amounts,
    mark_two_decimal_marks,
)


def _cut(values: list[str], kind: str = "price") -> list[str]:
    verdicts = [""] * len(values)
    mark_cut_thousands(values, verdicts, kind, 5)
    return verdicts


def test_rents_cut_at_the_thousands_dot_are_marked():
    rents = ["650", "2", "700", "1", "720", "3", "690", "1"]
    assert [i for i, v in enumerate(_cut(rents)) if v] == [1, 3, 5, 7]
    assert set(_cut(rents)) == {"", CUT_AT_THOUSANDS}


def test_cut_heads_among_grouped_amounts_are_marked():
    prices = ["1.250", "2.400", "1.900", "3", "2", "1.100"]
    assert _cut(prices) == ["", "", "", CUT_AT_THOUSANDS, CUT_AT_THOUSANDS, ""]


def test_one_lone_small_amount_is_left_alone():
    assert not any(_cut(["24", "2500", "150000", "350000", "8000", "110000"]))


def test_a_column_with_amounts_between_the_groups_is_left_alone():
    assert not any(_cut(["2", "3", "45", "120", "800", "850", "900"]))


def test_heads_that_read_as_thousands_far_from_the_column_are_left_alone():
    # 1 and 2 read as thousands (1,000-2,999) are far below prices of millions.
    assert not any(_cut(["1", "2", "1500000", "2300000", "1800000", "2000000"]))


def test_only_price_columns_are_read():
    assert not any(_cut(["650", "2", "700", "1", "720", "3"], kind="count"))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=100, max_value=9_999), min_size=5, max_size=40))
def test_prices_within_a_hundredfold_band_are_never_marked(prices):
    assert not any(_cut([str(price) for price in prices]))


def test_one_mark_for_thousands_and_decimals_is_marked():
    values = ["2.299.99", "329.99", "1,399,99 ₼", "1.299,99", "12.05.24", "1.299.000"]
    verdicts = [""] * len(values)
    mark_two_decimal_marks(values, verdicts, "price")
    assert verdicts == [TWO_DECIMAL_MARKS, "", TWO_DECIMAL_MARKS, "", "", ""]


def test_two_decimal_marks_in_digits_of_other_scripts():
    verdicts = [""]
    mark_two_decimal_marks(["١.٢٩٩.٩٩"], verdicts, "price")
    assert verdicts == [TWO_DECIMAL_MARKS]


def _joined(rows: list[dict[str, str]]) -> dict[str, list[str]]:
    reasons = {name: [""] * len(rows) for name in rows[0]}
    mark_joined_amounts(rows, reasons, dict.fromkeys(rows[0], "price"))
    return reasons


def test_a_price_glued_to_the_price_drop_is_marked():
    rows = [
        {"price": "510000", "old_price": "5100007500"},
        {"price": "330000", "old_price": "330000"},
        {"price": "275000 €", "old_price": "2750003000 €"},
    ]
    assert _joined(rows)["old_price"] == [JOINED_VALUES, "", JOINED_VALUES]
    assert _joined(rows)["price"] == ["", "", ""]


def test_amounts_with_decimals_or_a_zero_after_the_part_are_left_alone():
    rows = [
        {"price": "420000", "old_price": "420000.50"},
        {"price": "1500", "old_price": "150000"},
        {"price": "99", "old_price": "9950"},  # too short a part to prove anything
    ]
    assert _joined(rows)["old_price"] == ["", "", ""]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=100, max_value=10**7), st.integers(min_value=10, max_value=99_999))
def test_any_price_glued_to_a_drop_is_marked(price, drop):
    glued = f"{price}{drop}"
    assert _joined([{"price": str(price), "old_price": glued}])["old_price"] == [JOINED_VALUES]


def test_check_items_rejects_cut_rents():
    rents = ["650", "2", "700", "1", "720", "3", "690", "1", "710"]
    rows = [{"title": f"Flat {i}", "price": rent} for i, rent in enumerate(rents)]
    result = {"success": True, "data": rows, "extraction_schema": {"required": ["title", "price"]}}
    verdicts = check_items(result)
    assert [row["price"] for row in verdicts][:2] == [(True, ""), (False, CUT_AT_THOUSANDS)]
