"""The crawl result's shape: pages, items and the bad input ``crawl_reward`` rejects."""

from __future__ import annotations

import math

import pytest

from rlm_gym.crawl import crawl_reward


def test_pages_collected_falls_back_to_the_top_level_key():
    result = {"success": True, "data": [], "pages_collected": 2, "execution_time_ms": 40000}
    assert crawl_reward(result).details["time_per_page_ms"] == 20000.0


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ([{"success": True}], "expected a dict, got list"),
        ("{}", "expected a dict, got str"),
        ({"data": []}, "missing `success`"),
        ({"success": True}, "missing `data`"),
        ({}, "missing `success` and `data`"),
        ({"success": "yes", "data": []}, "`success` to be a bool"),
        ({"success": True, "data": {"title": "x"}}, "`data` to be a list"),
        ({"success": True, "data": [], "execution_time_ms": -1}, "execution_time_ms"),
        ({"success": True, "data": [], "execution_time_ms": math.nan}, "execution_time_ms"),
        ({"success": True, "data": [], "execution_time_ms": "fast"}, "execution_time_ms"),
        ({"success": True, "data": [], "navigation_result": {"pages_collected": "2"}}, "pages"),
        ({"success": True, "data": [], "navigation_result": {"pages_collected": True}}, "pages"),
        ({"success": True, "data": [], "navigation_result": {"pages_collected": -1}}, "pages"),
        ({"success": True, "data": [], "pages_collected": 10**400}, "pages.* to be finite"),
        ({"success": True, "data": [], "extraction_schema": {"required": "title"}}, "required"),
    ],
)
def test_bad_crawl_results_raise_value_error_naming_the_problem(result, message):
    with pytest.raises(ValueError, match=message):
        crawl_reward(result)


def test_data_none_means_no_items():
    signal = crawl_reward({"success": False, "data": None, "error": "DNS failure"})
    assert signal.value == 0.0
    assert signal.details["has_data"] == 0.0
