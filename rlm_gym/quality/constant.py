"""Constant columns no field name gives away (issue 35): one value on every distinct item of a
column whose values should differ from record to record, read from the values alone.

- **stale link**: a column of links (its values' type is URL, whatever the field is called,
  in any language) holding one address on every distinct item while other columns vary. A
  link column points at each record's own page; one address on every row is a value re-emitted
  from an earlier record (a loop variable left over, "採用情報URL" on all 100 employers) or a
  selector not scoped to the item. It is judged a page-wide value.
- **widget label**: one text on every distinct item of two or more columns, rejected as the
  content of at least one of them ("Von Privat" in a room-count column *and* an area column):
  a card's constant badge taken by several selectors is the content of none of them. A
  constant two columns share and both accept (a city that is also its state: "Wien" under
  ``State`` and ``District``) is left alone.

Both rules need at least ``min_items`` distinct items, so a short page proves nothing, and
both can be switched off in :data:`CONSTANT_RULES` (``benchmarks/judge_signals.py`` measures
each apart).

Example:
    >>> rows = [{"n": str(i), "a": "Von Privat", "b": "Von Privat"} for i in range(5)]
    >>> reasons = {"n": [""] * 5, "a": ["not a count"] * 5, "b": [""] * 5}
    >>> mark_widget_labels({k: [r[k] for r in rows] for k in "nab"}, reasons, 5, 5)
    >>> reasons["b"][0], reasons["a"][0]
    ('widget label', 'not a count')
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

__all__ = ["CONSTANT_RULES", "WIDGET_LABEL", "is_per_record_kind", "mark_widget_labels"]

CONSTANT_RULES: dict[str, bool] = {"stale_links": True, "widget_labels": True}
"""Which constant-column rules the judge applies (both on; off for measuring one apart)."""

WIDGET_LABEL = "widget label"

# Verdicts that say nothing about the value itself: the item lacks the field or is no record.
_ABSENT = frozenset({"missing", "not a dict item"})


def is_per_record_kind(kind: str) -> bool:
    """Whether a column of value type ``kind`` holds one value per record, so that one value
    on every record is stale: links (a record's own page).

    Example:
        >>> is_per_record_kind("url"), is_per_record_kind("text")
        (True, False)
    """
    return CONSTANT_RULES["stale_links"] and kind == "url"


def _constant_text(values: Sequence[Any], count: int) -> str | None:
    """The one non-empty text of a column present on all ``count`` items, else None."""
    if len(values) != count or not values:
        return None
    first = values[0]
    if not isinstance(first, str) or not first.strip():
        return None  # empty columns are judged empty already
    return first if all(value == first for value in values) else None


def mark_widget_labels(
    columns: dict[Any, list[Any]], reasons: dict[Any, list[str]], count: int, min_items: int
) -> None:
    """Accepted values of a constant text that two or more columns share on every item, one of
    them rejecting it, become widget labels (``reasons`` is changed in place).

    Args:
        columns: Each field's values over the distinct dict items.
        reasons: Each judged field's verdicts, one per distinct item (``""``: accepted).
        count: How many distinct dict items there are.
        min_items: Fewest distinct items for a constant to count.
    """
    if not CONSTANT_RULES["widget_labels"] or count < min_items:
        return
    sharing: dict[str, list[Any]] = defaultdict(list)
    for name, values in columns.items():
        text = _constant_text(values, count)
        if text is not None and name in reasons:
            sharing[text].append(name)
    for names in sharing.values():
        if len(names) < 2:
            continue
        rejected = any(
            verdict and verdict not in _ABSENT for name in names for verdict in reasons[name]
        )
        if not rejected:
            continue
        for name in names:
            reasons[name] = [verdict or WIDGET_LABEL for verdict in reasons[name]]
