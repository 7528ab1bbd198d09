"""Adaptive thresholds: a type's success threshold rises once its records are reliably good."""

from __future__ import annotations

import pytest

from rlm_gym.crawl import KnowledgeStore
from tests.crawl.test_store import _record_many


def test_adaptive_threshold_switches_on_at_100_records_with_mean_above_080():
    with KnowledgeStore(":memory:", adaptive_thresholds=True) as store:
        _record_many(store, "tiki.vn", "url_navigation", 0.88, 99)
        assert store.thresholds("product_list")["success"] == 0.70
        _record_many(store, "tiki.vn", "url_navigation", 0.88, 1)
        assert store.thresholds("product_list")["success"] == pytest.approx(0.78)


def test_adaptive_threshold_needs_mean_strictly_above_080():
    with KnowledgeStore(":memory:", adaptive_thresholds=True) as store:
        _record_many(store, "tiki.vn", "s", 0.75, 100)
        _record_many(store, "tiki.vn", "s", 0.85, 100)
        assert store.get_pattern_statistics("product_list")["mean"] == pytest.approx(0.80)
        assert store.thresholds("product_list")["success"] == 0.70


def test_adaptive_threshold_never_lowers_the_static_one_nor_exceeds_excellent():
    with KnowledgeStore(":memory:", adaptive_thresholds=True) as store:
        _record_many(store, "vnexpress.net", "s", 0.85, 100, pattern_type="article_extraction")
        assert store.thresholds("article_extraction")["success"] == 0.80
        _record_many(store, "tiki.vn", "s", 1.0, 100)
        assert store.thresholds("product_list")["success"] == 0.90
