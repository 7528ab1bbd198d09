"""Knowledge store under faults: a racing first open, read-only, corrupt and full files.

The race test starts 8 processes that all open one *new* store file at the same instant (they
wait on a "go" file), record their rows, and do it again on a fresh file for several rounds:
before the fix about one round in five lost a worker to "database is locked". Read-only and
full-disk cases use a small tmpfs when this process may mount one (root in a container), else
plain file modes / the store's own ``max_bytes`` size limit.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from rlm_gym.crawl.store import KnowledgeStore
from rlm_gym.crawl.store_errors import KnowledgeStoreError

WORKERS = 8
ROUNDS = 12
RECORDS = 25

_WORKER = textwrap.dedent(
    """
    import os, sys, time
    from rlm_gym.crawl.store import KnowledgeStore

    folder = sys.argv[1]
    worker, rounds, records = (int(value) for value in sys.argv[2:5])
    for round_ in range(rounds):
        open(os.path.join(folder, f"ready-{round_}-{worker}"), "w").close()
        go = os.path.join(folder, f"go-{round_}")
        while not os.path.exists(go):
            time.sleep(0.0005)
        try:
            store = KnowledgeStore(os.path.join(folder, f"kb-{round_}.sqlite"))
            for index in range(records):
                store.record(f"worker{worker}.vn", "product_list", "url_navigation", 0.5)
            store.close()
        except Exception as error:
            print(f"round {round_}: {type(error).__name__}: {error}", file=sys.stderr)
        open(os.path.join(folder, f"done-{round_}-{worker}"), "w").close()
    """
)


def _wait_for(paths: list[Path], what: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not all(path.exists() for path in paths):
        assert time.monotonic() < deadline, f"workers never reached {what}"
        time.sleep(0.002)


def test_eight_processes_first_opening_one_new_store_lose_no_record(tmp_path):
    script = tmp_path / "worker.py"
    script.write_text(_WORKER, encoding="utf-8")
    workers = [
        subprocess.Popen(
            [sys.executable, str(script), str(tmp_path), str(w), str(ROUNDS), str(RECORDS)],
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(WORKERS)
    ]
    try:
        for round_ in range(ROUNDS):
            _wait_for([tmp_path / f"ready-{round_}-{w}" for w in range(WORKERS)], "ready")
            (tmp_path / f"go-{round_}").touch()
            _wait_for([tmp_path / f"done-{round_}-{w}" for w in range(WORKERS)], "done")
    finally:
        errors = [worker.communicate(timeout=120)[1] for worker in workers]
    assert [worker.returncode for worker in workers] == [0] * WORKERS
    assert "".join(errors) == ""
    for round_ in range(ROUNDS):
        connection = sqlite3.connect(tmp_path / f"kb-{round_}.sqlite")
        per_worker = connection.execute(
            "SELECT domain, COUNT(*) FROM crawl_records GROUP BY domain ORDER BY domain"
        ).fetchall()
        assert per_worker == [(f"worker{w}.vn", RECORDS) for w in range(WORKERS)]
        stats = connection.execute("SELECT count FROM pattern_stats").fetchone()[0]
        assert stats == WORKERS * RECORDS
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        connection.close()


def _try_mount_tmpfs(target: Path, size: str) -> bool:
    if os.geteuid() != 0:
        return False
    target.mkdir(exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", f"score-{uuid.uuid4().hex[:8]}", target],
        capture_output=True,
    )
    return done.returncode == 0


def _umount(target: Path) -> None:
    subprocess.run(["umount", "-l", str(target)], capture_output=True)


@pytest.fixture
def read_only_folder(tmp_path):
    """A folder holding a store with 3 records, made read-only; yields (folder, store path).

    Root ignores file modes, so as root the folder is a tmpfs remounted read-only (skipped
    when mounting is not allowed).
    """
    folder = tmp_path / "ro"
    mounted = _try_mount_tmpfs(folder, "1m")
    if not mounted:
        if os.geteuid() == 0:
            pytest.skip("root ignores file modes and cannot mount a read-only tmpfs here")
        folder.mkdir()
    path = folder / "kb.sqlite"
    with KnowledgeStore(path) as store:
        for reward in (0.5, 0.7, 0.9):
            store.record("tiki.vn", "product_list", "url_navigation", reward)
    try:
        if mounted:
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        else:
            path.chmod(0o444)
            folder.chmod(0o555)
        yield folder, path
    finally:
        if mounted:
            _umount(folder)
        else:
            folder.chmod(0o755)
            path.chmod(0o644)


def test_a_read_only_store_is_readable_and_refuses_writes_saying_so(read_only_folder):
    _, path = read_only_folder
    store = KnowledgeStore(path)
    assert len(store) == 3
    assert store.get_pattern_statistics("product_list")["count"] == 3
    with pytest.raises(KnowledgeStoreError, match=r"is read-only \(") as caught:
        store.record("tiki.vn", "product_list", "url_navigation", 0.8)
    assert caught.value.reason == "read-only"
    assert str(path) in str(caught.value)
    assert len(store) == 3
    store.close()


def test_a_new_store_in_a_read_only_folder_says_read_only(read_only_folder):
    folder, _ = read_only_folder
    store = KnowledgeStore(folder / "new.sqlite")
    with pytest.raises(KnowledgeStoreError, match=r"new\.sqlite is read-only") as caught:
        store.record("tiki.vn", "product_list", "url_navigation", 0.8)
    assert caught.value.reason == "read-only"


def test_a_file_that_is_not_sqlite_is_reported_as_such(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_text("domain,reward\ntiki.vn,0.9\n" * 200, encoding="utf-8")
    with pytest.raises(KnowledgeStoreError, match="is not a SQLite database") as caught:
        KnowledgeStore(path).record("tiki.vn", "product_list", "url_navigation", 0.8)
    assert caught.value.reason == "corrupt"
    assert path.read_text(encoding="utf-8").startswith("domain,reward")  # left untouched


def test_a_store_with_a_damaged_header_is_reported_as_corrupt(tmp_path):
    path = tmp_path / "kb.sqlite"
    with KnowledgeStore(path) as store:
        store.record("tiki.vn", "product_list", "url_navigation", 0.8)
    data = bytearray(path.read_bytes())
    data[:16] = b"\x00" * 16  # the "SQLite format 3" magic
    path.write_bytes(bytes(data))
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    with pytest.raises(KnowledgeStoreError, match=r"not a SQLite database|is corrupt"):
        len(KnowledgeStore(path))


def _fill(store: KnowledgeStore, limit: int = 100_000) -> tuple[int, KnowledgeStoreError]:
    """Record until the store refuses; returns (acknowledged records, the error)."""
    for index in range(limit):
        try:
            store.record("tiki.vn", "product_list", f"strategy-{index:06d}-" + "x" * 200, 0.8)
        except KnowledgeStoreError as error:
            return index, error
    raise AssertionError(f"the store accepted {limit} records without filling up")


def test_a_store_at_its_size_limit_says_disk_full_and_keeps_earlier_records(tmp_path):
    path = tmp_path / "kb.sqlite"
    store = KnowledgeStore(path, max_bytes=64 * 1024)
    acknowledged, error = _fill(store)
    assert acknowledged > 10
    assert error.reason == "disk-full"
    assert "disk is full" in str(error) and str(path) in str(error)
    assert len(store) == acknowledged  # still usable for reads
    store.close()
    with KnowledgeStore(path) as reopened:
        assert len(reopened) == acknowledged
        assert reopened.get_pattern_statistics("product_list")["count"] == acknowledged
    connection = sqlite3.connect(path)
    assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_full_tmpfs_says_disk_full_and_keeps_every_acknowledged_record(tmp_path):
    folder = tmp_path / "small"
    if not _try_mount_tmpfs(folder, "256k"):
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    try:
        path = folder / "kb.sqlite"
        store = KnowledgeStore(path)
        acknowledged, error = _fill(store)
        assert acknowledged > 10
        assert error.reason == "disk-full"
        assert "disk is full" in str(error)
        store.close()
        with KnowledgeStore(path) as reopened:
            assert len(reopened) == acknowledged
        connection = sqlite3.connect(path)
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        connection.close()
    finally:
        _umount(folder)
