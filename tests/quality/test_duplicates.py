"""Duplicates but for a row index (:mod:`rlm_gym.quality.duplicates`): a column that only
numbers the rows is set aside when records are compared, whatever its name."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym.crawl import crawl_reward
from rlm_gym.quality.duplicates import duplicates_but_for, index_column
from rlm_gym.quality.judge import judge_items


def _listings(count: int, index: str = "", start: int = 0) -> list[dict[str, object]]:
    # Every listing written twice, numbered by the row index like pandas' to_csv.
    return [
        {index: str(start + row), "link": f"/items/{row // 2}", "price": f"{100 + row // 2} €"}
        for row in range(count)
    ]


def _columns(rows: list[dict[str, object]]) -> dict[str, list[object]]:
    return {name: [row[name] for row in rows if name in row] for name in rows[0]}


def _index(rows: list[dict[str, object]]) -> object:
    return index_column(_columns(rows), len(rows))


def test_a_run_of_consecutive_integers_from_any_start_is_a_row_index():
    assert _index(_listings(10)) == ""
    assert _index(_listings(10, "序号", start=1)) == "序号"
    assert _index([{"n": start, "t": f"x{start}"} for start in range(7, 17)]) == "n"
    assert _index([{"t": "a", "#": f" {digits}"} for digits in "٠١٢٣٤٥"]) == "#"


def test_numbers_that_skip_repeat_or_are_too_few_are_no_row_index():
    assert _index([{"id": str(2 * row), "t": "a"} for row in range(10)]) is None
    assert _index([{"id": str(row // 2), "t": "a"} for row in range(10)]) is None
    assert _index([{"id": row * 1.0, "t": "a"} for row in range(10)]) is None
    assert _index(_listings(4)) is None


def test_a_column_missing_from_a_record_is_no_row_index():
    rows = _listings(10)
    del rows[3][""]
    assert _index(rows) is None


def test_records_equal_but_for_the_index_are_duplicates():
    rows = _listings(10)
    assert duplicates_but_for(rows, "") == 5
    assert duplicates_but_for(rows, "", _columns(rows)) == 5
    assert duplicates_but_for(rows, "link", _columns(rows)) == 0
    nested = [{**row, "tags": [row["link"]]} for row in rows]
    assert duplicates_but_for(nested, "", _columns(nested)) == 5


def test_the_judgement_counts_duplicates_but_for_the_index():
    judgement = judge_items(_listings(10), ("link", "price"))
    assert judgement.index_column == ""
    assert judgement.index_duplicates == 5


def test_half_the_rows_repeated_but_for_the_index_is_a_duplicate_defect():
    result = {
        "success": True,
        "data": _listings(40),
        "extraction_schema": {"required": ["link", "price"]},
        "pattern_type": "product_list",
        "navigation_result": {"pages_collected": 2},
        "execution_time_ms": 4000.0,
    }
    defects = crawl_reward(result).details["defects"]
    assert any("20 of 40 rows" in defect and "row index ''" in defect for defect in defects)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=5, max_size=30))
def test_a_column_is_a_row_index_exactly_when_it_counts_up_by_one(numbers):
    counts_up = all(b == a + 1 for a, b in pairwise(numbers))
    assert (_index([{"n": number} for number in numbers]) == "n") is counts_up
