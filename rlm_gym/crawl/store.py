"""``KnowledgeStore``: finished crawls in SQLite, best practices and adaptive thresholds.

The store is one SQLite file (or ``":memory:"``, see :mod:`rlm_gym.crawl.store_sqlite` for how
it is opened); each :meth:`KnowledgeStore.record` is one ``BEGIN IMMEDIATE`` transaction that
inserts the crawl and updates its pattern type's running count, sum and sum of squares.
Several processes can write one file at once without losing records, and a process killed
mid-write leaves the file intact (SQLite's journal rolls the unfinished transaction back). The
connection opens on first use, reopens after ``fork``, and is not pickled. File problems
surface as :class:`~rlm_gym.crawl.store_errors.KnowledgeStoreError` (an ``OSError``) saying
what they are: read-only, disk full, not a SQLite database, locked. A write that fails leaves
every earlier record intact. Durability: commits survive a killed process; with
``synchronous=NORMAL`` (WAL) a power loss may drop the last few commits, never corrupt the
file.
"""

from __future__ import annotations

import math
import os
import sqlite3
import time
from collections.abc import Mapping
from numbers import Real
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.crawl.adaptive_thresholds import adapted_thresholds, checked_adaptive_rule
from rlm_gym.crawl.patterns import (
    BUCKETS,
    PATTERN_THRESHOLDS,
    TIERS,
    classify_quality_tier,
    pattern_thresholds,
    storage_bucket,
)
from rlm_gym.crawl.store_errors import KnowledgeStoreError, store_error
from rlm_gym.crawl.store_sqlite import open_connection, rollback

__all__ = ["KnowledgeStore"]

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


class KnowledgeStore:
    """Finished crawls in SQLite, ranked into best practices per pattern type.

    Args:
        path: A database file path, or ``":memory:"`` (private to this object and lost when
            it is pickled or closed).
        adaptive_thresholds: Raise a type's success threshold once the agent is reliably good
            (see :data:`~rlm_gym.crawl.adaptive_thresholds.ADAPTIVE_RULE`).
        thresholds: The static threshold table (default
            :data:`~rlm_gym.crawl.patterns.PATTERN_THRESHOLDS`).
        timeout_s: How long a write waits for another writer's lock.
        max_bytes: A size limit for the database file (None: none). A record that would grow
            the file past it fails like a full disk (:class:`KnowledgeStoreError`, reason
            ``"disk-full"``) and the earlier records stay.
        adaptive_rule: Overrides of :data:`~rlm_gym.crawl.adaptive_thresholds.ADAPTIVE_RULE`.

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
        self.adaptive_rule = checked_adaptive_rule(adaptive_rule)
        self._connection: sqlite3.Connection | None = None
        self._pid: int | None = None

    def _connect(self) -> sqlite3.Connection:
        connection, pid = self._connection, os.getpid()
        if connection is not None and self._pid == pid:
            return connection
        connection = open_connection(self.path, self.timeout_s, self.max_bytes)
        self._connection, self._pid = connection, pid
        return connection

    def _error(self, error: sqlite3.Error, action: str) -> KnowledgeStoreError:
        """The sqlite3 ``error`` met while doing ``action``, as a :class:`KnowledgeStoreError`."""
        return store_error(error, action, self.path, self.timeout_s)

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
                rollback(connection)
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
        return adapted_thresholds(row, stats["count"], stats["mean"], self.adaptive_rule)

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
