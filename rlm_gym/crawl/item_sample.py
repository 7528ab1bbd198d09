"""A bounded sample of a long stream of items, for scoring a crawl too long to keep whole.

``crawl_reward`` judges a crawl's items together (column types, page-wide values, duplicate
rows), so it needs them in one list; ``rlm-gym score`` streams crawl *results* one at a time,
but a single crawl that yields millions of items would hold them all. :class:`ItemSample`
keeps a fixed number of them instead, chosen so that what the reward measures stays measured:

* it is a **bottom-k sample of the distinct items** (Cohen and Kaplan's bottom-k sketch): each
  item is keyed by a 64-bit hash of its canonical JSON, and the ``capacity`` distinct items with
  the smallest keys are kept. Exact duplicates share a key, so the sample is a uniform sample of
  the *distinct* items — the population the reward's validation, valid share, per-field invalid
  shares and systematic defects are measured on — and it does not depend on the order in which
  the items came;
* every kept item carries how often it was seen, and that count is exact: once an item's key is
  among the smallest it stayed among them since its first occurrence (the kept keys only fall);
* the distinct items are counted exactly while none was ever left out, and estimated from the
  largest kept key afterwards (the KMV estimator, relative error about ``1 / sqrt(capacity)``).

While the stream holds at most ``capacity`` distinct items the sample is the whole crawl and
:meth:`ItemSample.rows` gives back its rows in their first-seen order, duplicates included
(with at most ``max_rows`` rows): the score is then exactly the score of the crawl. Memory is
``capacity`` JSON texts and their counts, whatever the length of the stream.
"""

from __future__ import annotations

import hashlib
import heapq
import json
from collections.abc import Callable
from typing import Any

__all__ = ["ItemSample", "canonical_json"]

_KEY_SPACE = 2.0**64  # the keys are 64-bit hashes


def canonical_json(item: Any) -> str:
    """The JSON text that keys an item: keys sorted, so equal items (any key order) match.

    Example:
        >>> canonical_json({"b": [2], "a": "é"})
        '{"a": "é", "b": [2]}'
    """
    return json.dumps(item, sort_keys=True, ensure_ascii=False)


def _key(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


class ItemSample:
    """A uniform sample of at most ``capacity`` distinct items of a stream, with their counts.

    Args:
        capacity: How many distinct items to keep (at least 1).
        encode: Turns an item into the canonical JSON text it is kept and keyed as (default
            :func:`canonical_json`; a caller with its own serialiser, such as Scrapy's
            ``ScrapyJSONEncoder(sort_keys=True)``, passes its ``encode``).

    Raises:
        ValueError: If ``capacity`` is not an integer >= 1.

    Example:
        >>> sample = ItemSample(capacity=3)
        >>> for n in [1, 2, 2, 3]:
        ...     sample.add({"name": f"item {n}"})
        >>> sample.seen, sample.complete, sample.distinct()
        (4, True, 3)
        >>> [row["name"] for row in sample.rows()]
        ['item 1', 'item 2', 'item 2', 'item 3']
        >>> for n in range(4, 1000):
        ...     sample.add({"name": f"item {n}"})
        >>> sample.seen, sample.complete, len(sample), 500 < sample.distinct() < 5000
        (1000, False, 3, True)
    """

    def __init__(self, capacity: int = 10_000, encode: Callable[[Any], str] = canonical_json):
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"Expected `capacity` to be an integer >= 1, got {capacity!r}")
        self.capacity = capacity
        self._encode = encode
        self.seen = 0
        """How many items were added (duplicates included)."""
        self.complete = True
        """True while every distinct item seen is kept: :meth:`rows` is then the whole stream."""
        # key -> [canonical JSON, times seen], in first-seen order; a max-heap of the kept keys.
        self._kept: dict[int, list[Any]] = {}
        self._largest: list[int] = []

    def __len__(self) -> int:
        """How many distinct items are kept."""
        return len(self._kept)

    def add(self, item: Any) -> None:
        """Count one item, and keep it if its key is among the ``capacity`` smallest."""
        text = self._encode(item)
        key = _key(text)
        self.seen += 1
        entry = self._kept.get(key)
        if entry is not None:
            entry[1] += 1
            return
        if len(self._kept) < self.capacity:
            heapq.heappush(self._largest, -key)
        elif key < -self._largest[0]:
            self.complete = False
            del self._kept[-heapq.heapreplace(self._largest, -key)]
        else:
            self.complete = False
            return
        self._kept[key] = [text, 1]

    def distinct(self) -> float:
        """The number of distinct items seen: exact (an int) while :attr:`complete`, else the
        KMV estimate ``(capacity - 1) / (largest kept key / 2**64)``."""
        if self.complete:
            return len(self._kept)
        return (self.capacity - 1) / ((-self._largest[0] + 1) / _KEY_SPACE)

    def rows(self, max_rows: int | None = None) -> list[Any]:
        """The kept items as crawl rows, in first-seen order, each repeated as often as it was
        seen, so the share of duplicate rows is the stream's (exact while :attr:`complete`).

        Args:
            max_rows: With more rows than this, each item's repeats are scaled down in
                proportion (every kept item still appears at least once), which keeps the
                duplicate share up to rounding.

        Returns:
            Fresh items decoded from their JSON text (the caller may change them).
        """
        counts = [count for _, count in self._kept.values()]
        total = sum(counts)
        scale = 1.0 if max_rows is None or total <= max_rows else max_rows / total
        rows: list[Any] = []
        for (text, _), count in zip(self._kept.values(), counts, strict=True):
            item = json.loads(text)
            repeats = count if scale == 1.0 else max(1, round(count * scale))
            rows.append(item)
            # Duplicates are further references to one decoded item: equal, and cheap.
            rows.extend([item] * (repeats - 1))
        return rows
