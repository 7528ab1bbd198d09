"""Heading rows: a record that is a page's section heading, not an item.

Scrapers that walk a page row by row write a group's heading ("北京", "Berlin", "Electronics")
as a record of its own: its title field holds the heading and every other field is empty,
while the items around it fill theirs. Each value alone is a readable word; only the record
shows it is no item. :func:`heading_rows` finds such records from the record's other fields
and the column's own values, in any language: no word list is read.

Example:
    >>> rows = [{"job": "Berlin", "pay": "", "years": ""}] + [
    ...     {"job": f"Backend developer {n}", "pay": f"{n}k-{n + 5}k", "years": "1-3"}
    ...     for n in range(8)
    ... ]
    >>> heading_rows(rows, "job", ("job", "pay", "years"))
    {0}
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

__all__ = ["HEADING_SETTINGS", "heading_rows"]

HEADING_SETTINGS: dict[str, float] = {
    "min_records": 5,
    "filled_share": 0.8,
    "max_words": 2,
    "max_length_ratio": 0.5,
}
"""When a record is a heading row (:func:`heading_rows`): the crawl has at least
``min_records`` records; in at least ``filled_share`` of the others some other field is
filled; the heading has at most ``max_words`` words and no digit, and is at most
``max_length_ratio`` times as long as the column's median value."""


def _filled(value: Any) -> bool:
    kind = type(value)
    if kind is str:
        return bool(value) and not value.isspace()
    if value is None:
        return False
    return not (isinstance(value, (list, dict, tuple)) and not value)


def heading_rows(
    records: Sequence[Any],
    field: Any,
    fields: Sequence[Any],
    settings: dict[str, float] | None = None,
) -> set[int]:
    """The indices of ``records`` whose ``field`` holds a lone section heading.

    A record is a heading row when ``field`` holds a short text (at most ``max_words`` words,
    no digit, at most ``max_length_ratio`` of the column's median length) and every other
    field of ``fields`` in it is empty or missing, while in most other records
    (``filled_share``) some other field is filled.

    Args:
        records: The distinct records of a crawl (non-dicts are skipped).
        field: The item-content field (a title or name) to read.
        fields: The fields checked (the schema's, or the records' own).
        settings: Overrides of :data:`HEADING_SETTINGS`.

    Returns:
        The indices of the heading rows (empty when there are none or too few records).
    """
    chosen = HEADING_SETTINGS if settings is None else {**HEADING_SETTINGS, **settings}
    others = [name for name in fields if name != field]
    dicts = [(index, item) for index, item in enumerate(records) if isinstance(item, dict)]
    if not others or len(dicts) < chosen["min_records"]:
        return set()
    alone, filled = [], 0
    for index, item in dicts:
        for name in others:  # a loop, not any(): this runs on every record of every crawl
            if _filled(item.get(name)):
                filled += 1
                break
        else:
            if type(item.get(field)) is str and item[field].strip():
                alone.append(index)
    if not alone or filled < chosen["filled_share"] * (len(dicts) - len(alone)):
        return set()  # most crawls: every record fills some other field
    texts = [item[field].strip() for _, item in dicts if type(item.get(field)) is str]
    median = statistics.median(len(text) for text in texts if text)
    lone = set()
    for index in alone:
        text = records[index][field].strip()
        short = len(text) <= chosen["max_length_ratio"] * median
        words = len(text.split()) <= chosen["max_words"]
        if short and words and not any(char.isdigit() for char in text):
            lone.add(index)
    return lone
