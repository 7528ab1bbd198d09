"""KnowledgeStore: best practices, statistics, adaptive thresholds, concurrency and crashes."""

from __future__ import annotations

import errno
import math
import multiprocessing
import os
import pickle
import signal
import sqlite3
import statistics

import pytest

from rlm_gym.crawl import PATTERN_THRESHOLDS, KnowledgeStore
from rlm_gym.crawl.store import KnowledgeStoreError
from tests.crawl import store_workers


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


def test_store_pickles_without_its_connection(tmp_path):
    store = KnowledgeStore(tmp_path / "kb.sqlite")
    store.record("a.vn", "product_list", "s", 0.9)
    clone = pickle.loads(pickle.dumps(store))
    assert len(clone) == 1
    store.close()
    clone.close()


def test_file_store_uses_wal_mode(tmp_path):
    path = tmp_path / "kb.sqlite"
    with KnowledgeStore(path) as store:
        store.record("a.vn", "product_list", "s", 0.9)
        mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def _process_context():
    """A forkserver context whose server preloads the workers (fast starts, no fork of pytest)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([store_workers.__name__])
    return context


def test_four_processes_writing_one_file_lose_nothing(tmp_path):
    path = str(tmp_path / "kb.sqlite")
    context = _process_context()
    workers = [
        context.Process(target=store_workers.write_records, args=(path, worker, 500))
        for worker in range(4)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    with KnowledgeStore(path) as store:
        assert len(store) == 2000
        assert store.get_pattern_statistics("product_list")["count"] == 2000
    connection = sqlite3.connect(path)
    per_worker = connection.execute(
        "SELECT domain, COUNT(*) FROM crawl_records GROUP BY domain ORDER BY domain"
    ).fetchall()
    assert per_worker == [(f"worker{worker}.vn", 500) for worker in range(4)]


def test_writer_killed_mid_run_leaves_the_file_intact(tmp_path):
    path = str(tmp_path / "kb.sqlite")
    context = _process_context()
    receiver, sender = context.Pipe(duplex=False)
    writer = context.Process(target=store_workers.write_until_killed, args=(path, sender))
    writer.start()
    sender.close()
    acked = []
    while len(acked) < 300:
        assert receiver.poll(60), "writer sent no ack"
        acked.append(receiver.recv())
    os.kill(writer.pid, signal.SIGKILL)
    writer.join(timeout=30)
    assert writer.exitcode == -signal.SIGKILL
    while receiver.poll(0):
        try:
            acked.append(receiver.recv())
        except EOFError:
            break
    connection = sqlite3.connect(path)
    assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    stored = {row[0] for row in connection.execute("SELECT id FROM crawl_records")}
    assert set(acked) <= stored
    count = connection.execute("SELECT count FROM pattern_stats").fetchone()[0]
    assert count == len(stored)


def test_a_store_locked_past_its_timeout_says_locked(tmp_path):
    path = tmp_path / "kb.sqlite"
    with KnowledgeStore(path) as store:
        store.record("a.vn", "product_list", "s", 0.9)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        waiting = KnowledgeStore(path, timeout_s=0.05)
        with pytest.raises(KnowledgeStoreError, match="stayed locked") as caught:
            waiting.record("b.vn", "product_list", "s", 0.5)
        assert caught.value.reason == "locked"
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert waiting.record("b.vn", "product_list", "s", 0.5) == 2  # usable once released
    waiting.close()


def test_a_store_in_a_missing_directory_names_the_directory(tmp_path):
    store = KnowledgeStore(tmp_path / "no" / "such" / "kb.sqlite")
    with pytest.raises(KnowledgeStoreError, match="does not exist") as caught:
        len(store)
    assert caught.value.reason == "cannot-open"
    assert str(tmp_path / "no" / "such") in str(caught.value)


def test_a_directory_given_as_the_store_path_is_an_error(tmp_path):
    with pytest.raises(KnowledgeStoreError, match="is a directory"):
        len(KnowledgeStore(tmp_path))


def test_store_errors_are_os_errors_with_an_errno(tmp_path):
    path = tmp_path / "kb.sqlite"
    store = KnowledgeStore(path, max_bytes=20_000)
    with pytest.raises(OSError) as caught:
        for index in range(10_000):
            store.record("a.vn", "product_list", f"s{index}" + "x" * 300, 0.5)
    assert caught.value.errno == errno.ENOSPC
    store.close()


@pytest.mark.parametrize("max_bytes", [0, -5, 1.5, True, "1k"])
def test_max_bytes_must_be_a_positive_integer(max_bytes):
    with pytest.raises(ValueError, match="`max_bytes`"):
        KnowledgeStore(":memory:", max_bytes=max_bytes)
