"""The store's SQLite file: WAL mode, concurrent writers and a writer killed mid-run."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sqlite3

from rlm_gym.crawl import KnowledgeStore
from tests.crawl import store_workers


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
