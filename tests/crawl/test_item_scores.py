"""Crawl reward 0.2: distinct and junk items, systematic defects, valid share, graded errors."""

from __future__ import annotations

import pytest

from rlm_gym.crawl import crawl_reward

SCHEMA = {"required": ["product_name", "price", "rating"]}


def _products(count: int, **overrides) -> list[dict]:
    return [
        {"product_name": f"Ấm siêu tốc {i}", "price": f"{199 + i}.000đ", "rating": 4.5, **overrides}
        for i in range(count)
    ]


def _result(data, **extra) -> dict:
    return {
        "success": True,
        "data": data,
        "navigation_result": {"pages_collected": 2, "strategy_used": "url_navigation"},
        "execution_time_ms": 18000,
        "extraction_schema": SCHEMA,
        "pattern_type": "product_list",
        **extra,
    }


def test_a_clean_crawl_has_no_defects_and_is_excellent():
    signal = crawl_reward(_result(_products(20)))
    assert signal.details["defects"] == []
    assert signal.details["valid_share"] == 1.0
    assert signal.details["tier"] == "excellent"
    assert signal.value == pytest.approx(1.0)


def test_exact_duplicates_count_once():
    signal = crawl_reward(_result(_products(4) * 3))
    assert (signal.details["items"], signal.details["distinct_items"]) == (12, 4)
    assert signal.details["quantity"] == pytest.approx(4 / 10)


def test_duplicate_rows_above_a_fifth_are_a_defect():
    data = _products(8) + _products(2)  # 2 of 10 rows repeat: 20 %
    signal = crawl_reward(_result(data))
    assert len(signal.details["defects"]) == 1
    assert "duplicate rows" in signal.details["defects"][0]
    assert signal.components["defects"] == pytest.approx(-0.15)


def test_duplicates_below_a_fifth_are_not_a_defect():
    data = _products(10) + _products(2)  # 2 of 12 rows: 17 %
    assert crawl_reward(_result(data)).details["defects"] == []


def test_a_field_broken_on_every_item_is_a_defect_naming_field_share_and_examples():
    data = [{**item, "rating": 10 * (i % 5) + 15} for i, item in enumerate(_products(10))]
    signal = crawl_reward(_result(data))
    (defect,) = signal.details["defects"]
    assert defect.startswith("rating: 100% of 10 distinct items invalid")
    assert "15, 25, 35" in defect
    assert signal.components["defects"] == pytest.approx(-0.15)
    assert signal.details["fields"]["rating"]["invalid"] == 10
    assert signal.details["fields"]["rating"]["type"] == "rating"
    assert len(signal.details["fields"]["rating"]["examples"]) == 3


def test_a_field_broken_on_fewer_than_a_fifth_of_items_is_not_a_defect():
    data = _products(10)
    data[0]["rating"] = 45
    signal = crawl_reward(_result(data))
    assert signal.details["defects"] == []
    assert signal.details["valid_share"] == pytest.approx(29 / 30)


def test_fewer_than_five_distinct_items_never_count_a_defect():
    data = [{**item, "rating": 45} for item in _products(4)]
    assert crawl_reward(_result(data)).details["defects"] == []


def test_defects_are_capped_at_max_defects():
    data = [{"product_name": "N/A", "price": "N/A", "rating": "N/A", "row": i} for i in range(5)]
    data += _products(5)
    signal = crawl_reward(_result(data * 2))
    assert len(signal.details["defects"]) == 4
    assert signal.components["defects"] == pytest.approx(-0.45)


def test_defect_penalty_and_cap_come_from_config():
    data = [{**item, "rating": 45} for item in _products(10)]
    signal = crawl_reward(_result(data), config={"defect_penalty": 0.3})
    assert signal.components["defects"] == pytest.approx(-0.3)


def test_rows_of_placeholders_are_junk_items_and_do_not_count_as_data():
    data = [{"product_name": "N/A", "price": "-", "rating": None, "row": i} for i in range(20)]
    signal = crawl_reward(_result(data))
    assert signal.details["junk_items"] == 20
    assert signal.details["has_data"] == 0.0
    assert signal.details["quantity"] == 0.0
    assert signal.details["tier"] in ("acceptable", "poor")


def test_excellent_needs_95_percent_valid_values():
    data = _products(20)
    for item in data[:3]:  # 3 bad ratings of 60 values: 95 % valid, no field broken on 20 %
        item["rating"] = 45
    assert crawl_reward(_result(data)).details["tier"] == "excellent"
    data[3]["price"] = "Liên hệ"  # 4 of 60: 93.3 % valid
    signal = crawl_reward(_result(data))
    assert signal.details["defects"] == []
    assert signal.value >= 0.90
    assert signal.details["tier"] == "good"


def test_graded_efficiency_charges_every_error():
    result = _result(_products(10), errors=["HTTP 429", "HTTP 429"])
    assert crawl_reward(result).details["efficiency"] == 0.0
    graded = crawl_reward(result, config={"efficiency_errors": "graded"})
    assert graded.details["efficiency"] == pytest.approx(0.5)
    three = crawl_reward(
        {**result, "errors": ["a", "b", "c"]}, config={"efficiency_errors": "graded"}
    )
    assert three.details["efficiency"] == pytest.approx(0.25)
    step = crawl_reward(result, config={"efficiency_errors": "graded", "error_step": 0.1})
    assert step.details["efficiency"] == pytest.approx(0.8)


def test_unknown_efficiency_errors_rule_suggests_the_closest():
    with pytest.raises(ValueError, match="Did you mean 'graded'"):
        crawl_reward(_result(_products(2)), config={"efficiency_errors": "grade"})


def test_items_that_are_not_dicts_are_junk_and_count_against_the_valid_share():
    data = [*_products(5), "<div>broken</div>", 42]
    details = crawl_reward(_result(data)).details
    assert details["junk_items"] == 2
    assert details["valid_share"] == pytest.approx(5 / 7)


def test_unhashable_values_and_non_string_keys_are_scored():
    data = [{"product_name": ["Ấm", "siêu tốc"], 3: {"x": [1]}, "price": 9.5, "rating": 4}] * 2
    signal = crawl_reward(_result(data))
    assert signal.details["distinct_items"] == 1
    assert 0.0 <= signal.value <= 1.0
