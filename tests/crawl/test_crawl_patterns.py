"""The crawl reward's pattern tables: thresholds, quantity targets, quality tiers and storage
buckets (the classification itself is tested in tests/quality/test_pattern_types.py)."""

from __future__ import annotations

import pytest

from rlm_gym.crawl import (
    PATTERN_THRESHOLDS,
    PATTERN_TYPES,
    QUANTITY_TARGETS,
    classify_quality_tier,
    pattern_thresholds,
    storage_bucket,
)

EPS = 1e-9


def test_threshold_table_matches_the_spec():
    assert PATTERN_THRESHOLDS == {
        "article_extraction": {"failure": 0.5, "success": 0.8, "excellent": 0.95, "min_items": 1},
        "contact_info": {"failure": 0.45, "success": 0.75, "excellent": 0.95, "min_items": 1},
        "price_extraction": {"failure": 0.45, "success": 0.75, "excellent": 0.9, "min_items": 3},
        "product_list": {"failure": 0.4, "success": 0.7, "excellent": 0.9, "min_items": 5},
        "review_extraction": {"failure": 0.35, "success": 0.65, "excellent": 0.85, "min_items": 5},
        "product_with_reviews": {
            "failure": 0.35,
            "success": 0.65,
            "excellent": 0.85,
            "min_items": 3,
        },
        "generic_extraction": {"failure": 0.35, "success": 0.65, "excellent": 0.85, "min_items": 1},
        "job_listing": {"failure": 0.4, "success": 0.7, "excellent": 0.9, "min_items": 5},
        "event_listing": {"failure": 0.4, "success": 0.7, "excellent": 0.9, "min_items": 5},
        "real_estate_listing": {"failure": 0.4, "success": 0.7, "excellent": 0.9, "min_items": 5},
        "business_listing": {"failure": 0.4, "success": 0.7, "excellent": 0.9, "min_items": 5},
    }


def test_threshold_table_has_a_row_per_pattern_type_in_order():
    assert tuple(PATTERN_THRESHOLDS) == PATTERN_TYPES


@pytest.mark.parametrize("pattern_type", PATTERN_TYPES)
def test_failure_threshold_is_success_minus_030(pattern_type):
    row = PATTERN_THRESHOLDS[pattern_type]
    assert row["failure"] == pytest.approx(row["success"] - 0.30)


def test_quantity_target_is_ten_for_product_list_and_listings_and_five_otherwise():
    tens = {"product_list", "job_listing", "event_listing", "real_estate_listing"}
    tens.add("business_listing")
    assert {name: QUANTITY_TARGETS[name] for name in PATTERN_TYPES} == {
        name: 10 if name in tens else 5 for name in PATTERN_TYPES
    }


def test_unknown_pattern_type_uses_generic_thresholds():
    assert pattern_thresholds("recipes") == PATTERN_THRESHOLDS["generic_extraction"]


def _tier_cases():
    for pattern_type, row in PATTERN_THRESHOLDS.items():
        yield pattern_type, row["excellent"], "excellent"
        yield pattern_type, row["excellent"] - EPS, "good"
        yield pattern_type, row["success"], "good"
        yield pattern_type, row["success"] - EPS, "acceptable"
        yield pattern_type, row["failure"], "acceptable"
        yield pattern_type, row["failure"] - EPS, "poor"
        yield pattern_type, 1.0, "excellent"
        yield pattern_type, 0.0, "poor"


@pytest.mark.parametrize(("pattern_type", "reward", "tier"), list(_tier_cases()))
def test_tier_at_and_around_each_threshold(pattern_type, reward, tier):
    assert classify_quality_tier(reward, PATTERN_THRESHOLDS[pattern_type]) == tier


def _bucket_cases():
    for pattern_type, row in PATTERN_THRESHOLDS.items():
        yield pattern_type, row["success"] + EPS, "successful"
        yield pattern_type, row["success"], "acceptable"
        yield pattern_type, row["failure"], "acceptable"
        yield pattern_type, row["failure"] - EPS, "failure"


@pytest.mark.parametrize(("pattern_type", "reward", "bucket"), list(_bucket_cases()))
def test_bucket_at_and_around_each_threshold(pattern_type, reward, bucket):
    assert storage_bucket(reward, PATTERN_THRESHOLDS[pattern_type]) == bucket


@pytest.mark.parametrize("pattern_type", PATTERN_TYPES)
def test_fewer_items_than_min_items_cap_the_tier_at_acceptable(pattern_type):
    row = PATTERN_THRESHOLDS[pattern_type]
    minimum = row["min_items"]
    assert classify_quality_tier(1.0, row, minimum) == "excellent"
    assert classify_quality_tier(1.0, row, minimum - 1) == "acceptable"


def test_min_items_cap_does_not_raise_a_poor_tier():
    assert classify_quality_tier(0.1, PATTERN_THRESHOLDS["product_list"], 0) == "poor"


def test_unknown_item_count_caps_nothing():
    assert classify_quality_tier(0.95, PATTERN_THRESHOLDS["product_list"], None) == "excellent"
