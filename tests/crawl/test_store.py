"""KnowledgeStore: best practices, statistics, recorded tiers, static thresholds, pickling."""

from __future__ import annotations

import math
import pickle
import sqlite3
import statistics

import pytest

from rlm_gym.crawl import PATTERN_THRESHOLDS, KnowledgeStore


@pytest.fixture
def store():
    with KnowledgeStore(":memory:") as opened:
        yield opened


def _record_many(store, domain, strategy, reward, count, pattern_type="product_list"):
    for _ in range(count):
        store.record(domain, pattern_type, strategy, reward)


def test_best_practices_rank_by_success_rate_times_log_frequency(store):
    _record_many(store, "ebay.com", "javascript_click", 0.73, 4)
    _record_many(store, "amazon.com", "url_navigation", 0.92, 9)
    best = store.get_best_practices("product_list")
    assert [row["domain"] for row in best] == ["amazon.com", "ebay.com"]
    assert best[0]["score"] == pytest.approx(0.92 * math.log(10))
    assert best[1]["score"] == pytest.approx(0.73 * math.log(5))
    assert round(best[0]["score"], 2) == 2.12
    assert round(best[1]["score"], 2) == 1.17
    assert set(best[0]) == {"domain", "pattern_type", "strategy", "success_rate", "frequency"} | {
        "score"
    }
    assert best[0]["frequency"] == 9
    assert best[0]["success_rate"] == pytest.approx(0.92)


def test_best_practices_use_only_successful_records(store):
    _record_many(store, "tiki.vn", "url_navigation", 0.95, 2)
    _record_many(store, "tiki.vn", "url_navigation", 0.50, 5)
    (row,) = store.get_best_practices("product_list")
    assert row["frequency"] == 2
    assert row["success_rate"] == pytest.approx(0.95)


def test_best_practices_filter_limit_and_type(store):
    _record_many(store, "a.vn", "s", 0.95, 1)
    _record_many(store, "b.vn", "s", 0.75, 3)
    _record_many(store, "c.vn", "s", 0.99, 3, pattern_type="article_extraction")
    assert [r["domain"] for r in store.get_best_practices("product_list", limit=1)] == ["b.vn"]
    filtered = store.get_best_practices("product_list", min_success_rate=0.9)
    assert [r["domain"] for r in filtered] == ["a.vn"]
    assert {r["domain"] for r in store.get_best_practices(None)} == {"a.vn", "b.vn", "c.vn"}


def test_pattern_statistics_are_count_mean_and_population_std(store):
    rewards = [0.2, 0.5, 0.9, 0.95]
    for reward in rewards:
        store.record("lazada.vn", "review_extraction", "infinite_scroll", reward)
    stats = store.get_pattern_statistics("review_extraction")
    assert stats["count"] == 4
    assert stats["mean"] == pytest.approx(statistics.fmean(rewards), abs=1e-12)
    assert stats["std"] == pytest.approx(statistics.pstdev(rewards), abs=1e-9)
    assert store.get_pattern_statistics("contact_info") == {"count": 0, "mean": 0.0, "std": 0.0}


def test_record_computes_tier_and_bucket_from_the_thresholds(tmp_path):
    path = tmp_path / "kb.sqlite"
    with KnowledgeStore(path) as store:
        store.record("vnexpress.net", "article_extraction", "fetch_http", 0.7447, items=2)
        store.record("shopee.vn", "product_list", "url_navigation", 0.95, items=3)
    rows = sqlite3.connect(path).execute("SELECT tier, bucket FROM crawl_records").fetchall()
    assert rows == [("acceptable", "acceptable"), ("acceptable", "successful")]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"reward": math.nan}, "reward"),
        ({"domain": ""}, "domain"),
        ({"pages": -1}, "pages"),
        ({"tier": "great"}, "tier"),
        ({"bucket": "successfull"}, "Did you mean 'successful'"),
    ],
)
def test_record_rejects_bad_values(store, kwargs, message):
    arguments = {"domain": "a.vn", "pattern_type": "product_list", "strategy": "s", "reward": 0.5}
    with pytest.raises(ValueError, match=message):
        store.record(**{**arguments, **kwargs})


def test_static_thresholds_when_adaptive_is_off(store):
    _record_many(store, "tiki.vn", "url_navigation", 0.95, 120)
    assert store.thresholds("product_list") == PATTERN_THRESHOLDS["product_list"]


def test_store_pickles_without_its_connection(tmp_path):
    store = KnowledgeStore(tmp_path / "kb.sqlite")
    store.record("a.vn", "product_list", "s", 0.9)
    clone = pickle.loads(pickle.dumps(store))
    assert len(clone) == 1
    store.close()
    clone.close()


@pytest.mark.parametrize("max_bytes", [0, -5, 1.5, True, "1k"])
def test_max_bytes_must_be_a_positive_integer(max_bytes):
    with pytest.raises(ValueError, match="`max_bytes`"):
        KnowledgeStore(":memory:", max_bytes=max_bytes)
