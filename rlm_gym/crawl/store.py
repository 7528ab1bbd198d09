"""``KnowledgeStore``: finished crawls in SQLite, best practices and adaptive thresholds.

The store is one SQLite file (or ``":memory:"``) in WAL mode with a busy timeout; each
:meth:`KnowledgeStore.record` is one ``BEGIN IMMEDIATE`` transaction that inserts the crawl
and updates its pattern type's running count, sum and sum of squares. Several processes can
write one file at once without losing records, and a process killed mid-write leaves the file
intact (SQLite's journal rolls the unfinished transaction back). The connection opens on first
use, reopens after ``fork``, and is not pickled.

Opening a *new* file from many processes at once (a ``SubprocVecEnv`` whose workers all record
into one store) races on the switch to WAL and on creating the tables: SQLite answers "database
is locked" at once to some of them, without waiting for the busy timeout. So the busy timeout is
set before anything else touches the file, and the WAL switch and the schema transaction are
retried until ``timeout_s``. File problems surface as :class:`KnowledgeStoreError` (an
``OSError``) saying what they are: read-only, disk full, not a SQLite database, locked. A write
that fails leaves every earlier record intact. Durability: commits survive a killed process;
with ``synchronous=NORMAL`` (WAL) a power loss may drop the last few commits, never corrupt the
file.
"""

from __future__ import annotations

import contextlib
import errno
import math
import os
import random
import sqlite3
import time
import urllib.parse
from collections.abc import Callable, Mapping
from numbers import Real
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.crawl.patterns import (
    BUCKETS,
    PATTERN_THRESHOLDS,
    TIERS,
    classify_quality_tier,
    pattern_thresholds,
    storage_bucket,
)

__all__ = ["KnowledgeStore", "KnowledgeStoreError", "ADAPTIVE_RULE"]

ADAPTIVE_RULE: dict[str, float] = {"min_records": 100, "min_mean": 0.80, "margin": 0.10}
"""Adaptive thresholds: once a type has ``min_records`` records with mean reward above
``min_mean``, its success threshold becomes max(static, mean - margin), at most excellent."""

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

_INSERT = (
    "INSERT INTO crawl_records (domain, pattern_type, strategy, reward, items, pages, "
    "execution_time_ms, tier, bucket, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_UPDATE_STATS = (
    "INSERT INTO pattern_stats (pattern_type, count, total, total_squares) VALUES (?, 1, ?, ?) "
    "ON CONFLICT (pattern_type) DO UPDATE SET count = count + 1, "
    "total = total + excluded.total, total_squares = total_squares + excluded.total_squares"
)
_BEST_PRACTICES = (
    "SELECT domain, pattern_type, strategy, AVG(reward), COUNT(*) FROM crawl_records "
    "WHERE bucket = 'successful' {where} GROUP BY domain, pattern_type, strategy "
    "HAVING AVG(reward) >= ?"
)


_TABLES = ("crawl_records", "pattern_stats")

# SQLite primary result codes (the low byte of an extended code).
_BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 5, 6, 8, 10, 11, 13, 14, 26


class KnowledgeStoreError(OSError):
    """A knowledge store file that cannot be used, saying why.

    ``reason`` is one of ``"read-only"``, ``"disk-full"``, ``"corrupt"``, ``"locked"``,
    ``"cannot-open"`` or ``"io"``; ``errno`` is set where one fits (``EROFS``/``EACCES``,
    ``ENOSPC``, ``ENOENT``). The sqlite3 error is the ``__cause__``.

    Example:
        >>> error = KnowledgeStoreError("knowledge store kb.sqlite: disk is full", "disk-full")
        >>> isinstance(error, OSError), error.reason, error.errno == errno.ENOSPC
        (True, 'disk-full', True)
    """

    _ERRNO = {"read-only": errno.EROFS, "disk-full": errno.ENOSPC}

    def __init__(self, message: str, reason: str, code: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.errno = code if code is not None else self._ERRNO.get(reason)


def _primary_code(error: sqlite3.Error) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def _is_busy(error: sqlite3.Error) -> bool:
    return _primary_code(error) in (_BUSY, _LOCKED) or "locked" in str(error)


def _read_only_reason(path: str) -> tuple[str, int]:
    """Why a store file cannot be written, as far as the file system tells."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        if os.statvfs(directory).f_flag & os.ST_RDONLY:
            return "its file system is mounted read-only", errno.EROFS
    except OSError:
        pass
    if os.path.exists(path) and not os.access(path, os.W_OK):
        return "the file is not writable", errno.EACCES
    if not os.access(directory, os.W_OK):
        return (
            f"its directory {directory} is not writable (SQLite creates the -wal and -shm "
            "files next to it)",
            errno.EACCES,
        )
    return "SQLite opened it read-only", errno.EROFS


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"Expected `{name}` to be a non-empty string, got {value!r}")
    return value


def _finite(name: str, value: Any, minimum: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
        raise ValueError(f"Expected `{name}` to be a finite number, got {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"Expected `{name}` to be >= {minimum}, got {value!r}")
    return float(value)


def _rollback(connection: sqlite3.Connection) -> None:
    """Roll back if a transaction is still open (SQLite ends some on its own, e.g. on a full
    disk), without hiding the error that caused it."""
    if connection.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")


class KnowledgeStore:
    """Finished crawls in SQLite, ranked into best practices per pattern type (SPEC §5).

    Args:
        path: A database file path, or ``":memory:"`` (private to this object and lost when
            it is pickled or closed).
        adaptive_thresholds: Raise a type's success threshold once the agent is reliably good
            (see :data:`ADAPTIVE_RULE`).
        thresholds: The static threshold table (default
            :data:`~rlm_gym.crawl.patterns.PATTERN_THRESHOLDS`).
        timeout_s: How long a write waits for another writer's lock.
        max_bytes: A size limit for the database file (None: none). A record that would grow
            the file past it fails like a full disk (:class:`KnowledgeStoreError`, reason
            ``"disk-full"``) and the earlier records stay.
        adaptive_rule: Overrides of :data:`ADAPTIVE_RULE`.

    Example:
        >>> with KnowledgeStore(":memory:") as store:
        ...     for _ in range(9):
        ...         _ = store.record("amazon.com", "product_list", "url_navigation", 0.92)
        ...     for _ in range(4):
        ...         _ = store.record("ebay.com", "product_list", "javascript_click", 0.73)
        ...     best = store.get_best_practices("product_list")
        >>> [(row["domain"], round(row["score"], 2)) for row in best]
        [('amazon.com', 2.12), ('ebay.com', 1.17)]
    """

    def __init__(
        self,
        path: str | os.PathLike[str] = ":memory:",
        adaptive_thresholds: bool = False,
        thresholds: Mapping[str, Mapping[str, float]] | None = None,
        *,
        timeout_s: float = 30.0,
        adaptive_rule: Mapping[str, float] | None = None,
        max_bytes: int | None = None,
    ) -> None:
        self.path = os.fspath(path)
        self.adaptive_thresholds = bool(adaptive_thresholds)
        self.threshold_table = dict(PATTERN_THRESHOLDS if thresholds is None else thresholds)
        self.timeout_s = _finite("timeout_s", timeout_s, 0.0)
        if max_bytes is not None and (
            isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1
        ):
            raise ValueError(
                f"Expected `max_bytes` to be a positive integer or None, got {max_bytes!r}"
            )
        self.max_bytes = max_bytes
        rule = dict(adaptive_rule or {})
        for key in rule:
            if key not in ADAPTIVE_RULE:
                raise unknown_name_error("adaptive rule key", key, ADAPTIVE_RULE)
        self.adaptive_rule = {**ADAPTIVE_RULE, **rule}
        self._connection: sqlite3.Connection | None = None
        self._pid: int | None = None

    def _connect(self) -> sqlite3.Connection:
        connection, pid = self._connection, os.getpid()
        if connection is not None and self._pid == pid:
            return connection
        try:
            connection = self._open(self.path, uri=False)
        except KnowledgeStoreError as error:
            # A WAL file on a read-only mount cannot get its -shm index: read it as immutable
            # (nobody can change it there), so a read-only store stays readable.
            if error.errno != errno.EROFS or not os.path.isfile(self.path):
                raise
            immutable = f"file:{urllib.parse.quote(os.path.abspath(self.path))}?immutable=1"
            connection = self._open(immutable, uri=True)
        self._connection, self._pid = connection, pid
        return connection

    def _open(self, target: str, uri: bool) -> sqlite3.Connection:
        deadline = time.monotonic() + self.timeout_s
        try:
            # isolation_level=None: transactions are explicit (BEGIN IMMEDIATE ... COMMIT).
            connection = sqlite3.connect(
                target, timeout=self.timeout_s, isolation_level=None, uri=uri
            )
        except sqlite3.Error as error:
            raise self._error(error, "open") from error
        try:
            # Before anything reads the file: every later statement waits for other writers.
            connection.execute(f"PRAGMA busy_timeout = {int(self.timeout_s * 1000)}")
            if not uri:
                self._retry_busy(lambda: self._use_wal(connection), deadline)
            connection.execute("PRAGMA synchronous = NORMAL")
            if self.max_bytes is not None:
                page_size = connection.execute("PRAGMA page_size").fetchone()[0]
                connection.execute(f"PRAGMA max_page_count = {max(1, self.max_bytes // page_size)}")
            self._retry_busy(lambda: self._create_schema(connection), deadline)
        except sqlite3.Error as error:
            connection.close()
            raise self._error(error, "open") from error
        return connection

    def _retry_busy(self, step: Callable[[], None], deadline: float) -> None:
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
                if not _is_busy(error) or time.monotonic() >= deadline:
                    raise
            time.sleep(pause * (0.5 + random.random()))  # jitter: the racers do not re-collide
            pause = min(0.1, pause * 2)

    def _use_wal(self, connection: sqlite3.Connection) -> None:
        if self.path == ":memory:" or self.path.startswith("file::memory:"):
            return
        mode = connection.execute("PRAGMA journal_mode").fetchone()[0]
        if mode.lower() != "wal":
            connection.execute("PRAGMA journal_mode = WAL")

    def _create_schema(self, connection: sqlite3.Connection) -> None:
        present = {
            name
            for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        if all(table in present for table in _TABLES):
            return  # nothing to write: a read-only store stays readable
        connection.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    connection.execute(statement)
            connection.execute("COMMIT")
        except BaseException:
            _rollback(connection)
            raise

    def _error(self, error: sqlite3.Error, action: str) -> KnowledgeStoreError:
        """The sqlite3 ``error`` met while doing ``action``, as a :class:`KnowledgeStoreError`."""
        code, path = _primary_code(error), self.path
        text = str(error)
        if code == _READONLY or "readonly" in text:
            why, number = _read_only_reason(path)
            return KnowledgeStoreError(
                f"knowledge store {path} is read-only ({why}); cannot {action}", "read-only", number
            )
        if code == _FULL or "is full" in text:
            return KnowledgeStoreError(
                f"knowledge store {path}: disk is full (or the file reached its size limit); "
                f"cannot {action}, earlier records are intact",
                "disk-full",
            )
        if code == _NOTADB or "not a database" in text:
            return KnowledgeStoreError(
                f"knowledge store {path} is not a SQLite database (SQLite: {text}); "
                "give a new path or move the file away",
                "corrupt",
            )
        if code == _CORRUPT or "malformed" in text:
            return KnowledgeStoreError(
                f"knowledge store {path} is corrupt (SQLite: {text}); restore it from a backup "
                "or give a new path",
                "corrupt",
            )
        if code in (_BUSY, _LOCKED) or "locked" in text:
            return KnowledgeStoreError(
                f"knowledge store {path} stayed locked by another process for more than "
                f"`timeout_s`={self.timeout_s} s; cannot {action}",
                "locked",
            )
        if code == _CANTOPEN or "unable to open" in text:
            directory = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(directory):
                return KnowledgeStoreError(
                    f"knowledge store {path}: directory {directory} does not exist",
                    "cannot-open",
                    errno.ENOENT,
                )
            if os.path.isdir(path):
                return KnowledgeStoreError(
                    f"knowledge store {path} is a directory, expected a file path",
                    "cannot-open",
                    errno.EISDIR,
                )
            why, number = _read_only_reason(path)
            return KnowledgeStoreError(
                f"knowledge store {path} is read-only ({why}); cannot {action}", "read-only", number
            )
        reason = "io" if code == _IOERR else "cannot-open"
        return KnowledgeStoreError(f"knowledge store {path}: cannot {action} ({text})", reason)

    def _query(self, sql: str, parameters: Any = ()) -> list[tuple[Any, ...]]:
        connection = self._connect()
        try:
            return connection.execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            raise self._error(error, "read") from error

    def record(
        self,
        domain: str,
        pattern_type: str,
        strategy: str,
        reward: float,
        *,
        items: int | None = None,
        pages: int = 1,
        execution_time_ms: float = 0.0,
        tier: str | None = None,
        bucket: str | None = None,
        timestamp: float | None = None,
    ) -> int:
        """Store one finished crawl in one transaction and return its row id.

        ``tier`` and ``bucket`` are computed from the thresholds in force when None.

        Raises:
            ValueError: Empty names, a non-finite reward, a negative count or duration, or an
                unknown tier / bucket.
            KnowledgeStoreError: The file is read-only, full, corrupt or stays locked; nothing
                of this record is written and earlier records are intact.
        """
        _text("domain", domain)
        _text("pattern_type", pattern_type)
        _text("strategy", strategy)
        reward = _finite("reward", reward)
        if items is not None:
            items = int(_finite("items", items, 0.0))
        pages = int(_finite("pages", pages, 0.0))
        execution_time_ms = _finite("execution_time_ms", execution_time_ms, 0.0)
        timestamp = time.time() if timestamp is None else _finite("timestamp", timestamp)
        if tier is None or bucket is None:
            in_force = self.thresholds(pattern_type)
            tier = classify_quality_tier(reward, in_force, items) if tier is None else tier
            bucket = storage_bucket(reward, in_force) if bucket is None else bucket
        if tier not in TIERS:
            raise unknown_name_error("tier", tier, TIERS)
        if bucket not in BUCKETS:
            raise unknown_name_error("bucket", bucket, BUCKETS)
        row = (domain, pattern_type, strategy, reward, items, pages, execution_time_ms)
        connection = self._connect()
        try:
            connection.execute("BEGIN IMMEDIATE")
            try:
                cursor = connection.execute(_INSERT, (*row, tier, bucket, timestamp))
                connection.execute(_UPDATE_STATS, (pattern_type, reward, reward * reward))
                connection.execute("COMMIT")
            except BaseException:
                _rollback(connection)
                raise
        except sqlite3.Error as error:
            raise self._error(error, "record a crawl") from error
        return int(cursor.lastrowid)

    def get_best_practices(
        self, pattern_type: str | None, limit: int = 10, min_success_rate: float = 0.0
    ) -> list[dict[str, Any]]:
        """The best (domain, pattern_type, strategy) patterns among "successful" records.

        success_rate is their mean reward, frequency their count, and they are ranked by
        score = success_rate x ln(frequency + 1) (then by frequency, domain, strategy).

        Args:
            pattern_type: The type to rank (None: all types together).
            limit: At most this many patterns.
            min_success_rate: Keep patterns with success_rate >= this.

        Returns:
            Dicts ``{domain, pattern_type, strategy, success_rate, frequency, score}``.
        """
        where, parameters = ("", []) if pattern_type is None else ("AND pattern_type = ?", [])
        if pattern_type is not None:
            parameters.append(pattern_type)
        parameters.append(_finite("min_success_rate", min_success_rate))
        rows = self._query(_BEST_PRACTICES.format(where=where), parameters)
        practices = [
            {
                "domain": domain,
                "pattern_type": kind,
                "strategy": strategy,
                "success_rate": success_rate,
                "frequency": frequency,
                "score": success_rate * math.log(frequency + 1),
            }
            for domain, kind, strategy, success_rate, frequency in rows
        ]
        practices.sort(
            key=lambda row: (-row["score"], -row["frequency"], row["domain"], row["strategy"])
        )
        return practices[: max(0, int(limit))]

    def get_pattern_statistics(self, pattern_type: str) -> dict[str, float]:
        """``{count, mean, std}`` of the rewards of all records of ``pattern_type`` (population
        std; zeros when there are none).

        Example:
            >>> store = KnowledgeStore(":memory:")
            >>> for reward in (0.6, 0.8, 1.0):
            ...     _ = store.record("picare.vn", "product_list", "url_navigation", reward)
            >>> stats = store.get_pattern_statistics("product_list")
            >>> stats["count"], round(stats["mean"], 6), round(stats["std"], 6)
            (3, 0.8, 0.163299)
        """
        found = self._query(
            "SELECT count, total, total_squares FROM pattern_stats WHERE pattern_type = ?",
            (pattern_type,),
        )
        if not found:
            return {"count": 0, "mean": 0.0, "std": 0.0}
        count, total, squares = found[0]
        mean = total / count
        return {"count": count, "mean": mean, "std": math.sqrt(max(0.0, squares / count - mean**2))}

    def thresholds(self, pattern_type: str) -> dict[str, float]:
        """The thresholds in force for ``pattern_type``: ``{failure, success, excellent,
        min_items}``, with the adaptive success threshold when enabled and earned.

        Example:
            >>> store = KnowledgeStore(":memory:", adaptive_thresholds=True)
            >>> for _ in range(100):
            ...     _ = store.record("tiki.vn", "product_list", "url_navigation", 0.88)
            >>> round(store.thresholds("product_list")["success"], 6)
            0.78
        """
        row = dict(pattern_thresholds(pattern_type, self.threshold_table))
        if not self.adaptive_thresholds:
            return row
        stats = self.get_pattern_statistics(pattern_type)
        rule = self.adaptive_rule
        if stats["count"] >= rule["min_records"] and stats["mean"] > rule["min_mean"]:
            raised = max(row["success"], stats["mean"] - rule["margin"])
            row["success"] = min(row["excellent"], raised)
        return row

    def __len__(self) -> int:
        return self._query("SELECT COUNT(*) FROM crawl_records")[0][0]

    def close(self) -> None:
        """Close the connection (the next use reopens it; ``":memory:"`` data is lost)."""
        if self._connection is not None and self._pid == os.getpid():
            self._connection.close()
        self._connection = self._pid = None

    def __enter__(self) -> KnowledgeStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_connection"] = state["_pid"] = None
        return state

    def __repr__(self) -> str:
        return f"KnowledgeStore({self.path!r}, adaptive_thresholds={self.adaptive_thresholds})"
