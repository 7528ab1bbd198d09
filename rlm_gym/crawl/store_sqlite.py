"""The knowledge store's SQLite file: its tables, and opening it safely from many processes.

The file is in WAL mode with a busy timeout and ``synchronous=NORMAL``: several processes can
write it at once without losing records, a process killed mid-write leaves it intact (SQLite's
journal rolls the unfinished transaction back), and a power loss may drop the last few commits,
never corrupt it.

Opening a *new* file from many processes at once (a ``SubprocVecEnv`` whose workers all record
into one store) races on the switch to WAL and on creating the tables: SQLite answers "database
is locked" at once to some of them, without waiting for the busy timeout. So the busy timeout is
set before anything else touches the file, and the WAL switch and the schema transaction are
retried until ``timeout_s``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import sqlite3
import time
import urllib.parse
from collections.abc import Callable

from rlm_gym.crawl.store_errors import KnowledgeStoreError, is_busy, store_error

__all__ = ["open_connection", "rollback"]

# One row per finished crawl, and per pattern type the running count, sum and sum of squares
# of the rewards (its statistics without a scan).
_SCHEMA = """
CREATE TABLE IF NOT EXISTS crawl_records (
    id INTEGER PRIMARY KEY,
    domain TEXT NOT NULL,
    pattern_type TEXT NOT NULL,
    strategy TEXT NOT NULL,
    reward REAL NOT NULL,
    items INTEGER,
    pages INTEGER NOT NULL,
    execution_time_ms REAL NOT NULL,
    tier TEXT NOT NULL,
    bucket TEXT NOT NULL,
    timestamp REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS crawl_records_by_pattern
    ON crawl_records (pattern_type, bucket, domain, strategy);
CREATE TABLE IF NOT EXISTS pattern_stats (
    pattern_type TEXT PRIMARY KEY,
    count INTEGER NOT NULL,
    total REAL NOT NULL,
    total_squares REAL NOT NULL
);
"""
_TABLES = ("crawl_records", "pattern_stats")


def rollback(connection: sqlite3.Connection) -> None:
    """Roll back if a transaction is still open (SQLite ends some on its own, e.g. on a full
    disk), without hiding the error that caused it."""
    if connection.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")


def open_connection(path: str, timeout_s: float, max_bytes: int | None) -> sqlite3.Connection:
    """A connection to the store file ``path`` (or ``":memory:"``), its tables created.

    A WAL file on a read-only mount cannot get its -shm index: it is then opened as immutable
    (nobody can change it there), so a read-only store stays readable.

    Raises:
        KnowledgeStoreError: The file cannot be opened, saying why.
    """
    try:
        return _open(path, path, timeout_s, max_bytes, uri=False)
    except KnowledgeStoreError as error:
        if error.errno != errno.EROFS or not os.path.isfile(path):
            raise
        immutable = f"file:{urllib.parse.quote(os.path.abspath(path))}?immutable=1"
        return _open(immutable, path, timeout_s, max_bytes, uri=True)


def _open(
    target: str, path: str, timeout_s: float, max_bytes: int | None, uri: bool
) -> sqlite3.Connection:
    deadline = time.monotonic() + timeout_s
    try:
        # isolation_level=None: transactions are explicit (BEGIN IMMEDIATE ... COMMIT).
        connection = sqlite3.connect(target, timeout=timeout_s, isolation_level=None, uri=uri)
    except sqlite3.Error as error:
        raise store_error(error, "open", path, timeout_s) from error
    try:
        # Before anything reads the file: every later statement waits for other writers.
        connection.execute(f"PRAGMA busy_timeout = {int(timeout_s * 1000)}")
        if not uri:
            _retry_busy(lambda: _use_wal(connection, path), deadline)
        connection.execute("PRAGMA synchronous = NORMAL")
        if max_bytes is not None:
            page_size = connection.execute("PRAGMA page_size").fetchone()[0]
            connection.execute(f"PRAGMA max_page_count = {max(1, max_bytes // page_size)}")
        _retry_busy(lambda: _create_schema(connection), deadline)
    except sqlite3.Error as error:
        connection.close()
        raise store_error(error, "open", path, timeout_s) from error
    return connection


def _retry_busy(step: Callable[[], None], deadline: float) -> None:
    """Run ``step``, retrying while another process holds the lock (until ``deadline``).

    SQLite returns "database is locked" *immediately* (no busy wait) to a connection that
    must upgrade a lock another connection is also upgrading, which is what happens when
    several processes open a new file together; waiting a little and retrying resolves it.
    """
    pause = 0.001
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as error:
            if not is_busy(error) or time.monotonic() >= deadline:
                raise
        time.sleep(pause * (0.5 + random.random()))  # jitter: the racers do not re-collide
        pause = min(0.1, pause * 2)


def _use_wal(connection: sqlite3.Connection, path: str) -> None:
    if path == ":memory:" or path.startswith("file::memory:"):
        return
    mode = connection.execute("PRAGMA journal_mode").fetchone()[0]
    if mode.lower() != "wal":
        connection.execute("PRAGMA journal_mode = WAL")


def _create_schema(connection: sqlite3.Connection) -> None:
    tables = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    present = {name for (name,) in tables}
    if all(table in present for table in _TABLES):
        return  # nothing to write: a read-only store stays readable
    connection.execute("BEGIN IMMEDIATE")
    try:
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                connection.execute(statement)
        connection.execute("COMMIT")
    except BaseException:
        rollback(connection)
        raise
