"""Language-free record checks: a record shifted against its columns (issue 35).

A scraper whose selectors slip on some rows writes each field of those records from the next
one: a year in the address column, a latitude in the town column, a district name in the size
column, a listing URL in the condition column — all on the same rows. Each value alone is
readable; only the columns' other values show the record is out of place. This module reads no
words, so it works in any script: each value gets a coarse *shape* from its characters alone —

- ``"number"``: digits (any script) with separators, symbols and at most a short unit
  (:data:`UNIT_LETTERS` letters: "1985", "60.28669", "450 €", "15 000 Kč", "15 m²");
- ``"letters"``: any other text with a letter of any script ("Matinkylä", "Pihlajatie 17");
- ``"url"``: an absolute web address ("https://…", "www.…");

and a record whose accepted values have their column's minority shape in at least
``SHAPE_SETTINGS["shift_columns"]`` columns (each column with a majority shape over at least
``SHAPE_SETTINGS["min_values"]`` shaped values) is shifted: those values are out of place. One
column alone never decides (a price column may hold "Free" on some rows); three columns
disagreeing on the same rows do.

The settings were chosen by leave-one-corpus-out over the open labelled corpora
(``benchmarks/judge_signals.py``, which reports the signal's catches and false positives).

Example:
    >>> town, district = ["Espoo"] * 8 + ["1985"] * 2, ["Matinkylä"] * 8 + ["24.76"] * 2
    >>> postcode, condition = ["02230"] * 8 + ["Hyvä"] * 2, ["Hyvä"] * 8 + ["https://a.fi/1"] * 2
    >>> [sorted(rows) for rows in shifted_records([town, district, postcode, condition])]
    [[8, 9], [8, 9], [8, 9], [8, 9]]
    >>> shape_of_value("450 €"), shape_of_value("Hyvä"), shape_of_value("https://a.fi/1")
    ('number', 'letters', 'url')
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "SHAPE_SETTINGS",
    "SHIFT_TYPES",
    "UNIT_LETTERS",
    "accepted_columns",
    "shape_of_value",
    "shifted_records",
]

SHAPE_SETTINGS: dict[str, int] = {
    "shift_columns": 3,
    "min_values": 5,
}
"""When a record is shifted: the fewest columns in which its values have the minority shape,
and the fewest shaped values a column needs to have a majority shape."""

SHIFT_TYPES = ("text", "url")
"""The column types whose values the judge reads for shifted records (typed columns check
their values' form themselves)."""

UNIT_LETTERS = 3
"""Most letters a number may carry and stay a number: a unit or currency ("Kč", "m2", "EUR")."""

_URL_RE = re.compile(r"^\s*(?:https?://|www\.)\S+\s*$", re.IGNORECASE)
_DIGIT_RE = re.compile(r"\d")  # any script's decimal digits
_LETTER_RE = re.compile(r"[^\W\d_]")
_WORDY_RE = re.compile(rf"(?:[^\W\d_][^\n]*?){{{UNIT_LETTERS + 1}}}", re.DOTALL)


def shape_of_value(value: Any) -> str | None:
    """``"number"``, ``"letters"`` or ``"url"`` (see the module), or None for an empty value,
    a boolean, a container or text of symbols only."""
    kind = type(value)
    if kind is int or kind is float:
        return "number"
    if kind is not str:
        return None
    if _DIGIT_RE.search(value) is not None:
        if _URL_RE.match(value) is not None:
            return "url"
        # "450 €", "15 000 Kč", "45 m2": a unit or currency is no word
        return "letters" if _WORDY_RE.search(value) is not None else "number"
    if _LETTER_RE.search(value) is None:
        return None
    return "url" if _URL_RE.match(value) is not None else "letters"


def shifted_records(
    columns: Sequence[Sequence[Any]], min_columns: int | None = None, min_values: int | None = None
) -> list[set[int]]:
    """Per column, the rows whose value has the column's minority shape on a row that has the
    minority shape in at least ``min_columns`` columns: the whole record is shifted.

    Args:
        columns: The columns, each a sequence of values aligned by row (``None`` when absent or
            rejected).
        min_columns: Fewest columns in which a row must hold the minority shape
            (default ``SHAPE_SETTINGS["shift_columns"]``).
        min_values: Fewest shaped values for a column to have a majority shape
            (default ``SHAPE_SETTINGS["min_values"]``).

    Returns:
        One set of row indexes per column (empty when no record is shifted).
    """
    least_columns = SHAPE_SETTINGS["shift_columns"] if min_columns is None else min_columns
    least = SHAPE_SETTINGS["min_values"] if min_values is None else min_values
    minority: list[set[int]] = []
    mixed = 0
    for position, column in enumerate(columns):
        if mixed + len(columns) - position < least_columns:
            return [set() for _ in columns]  # too few mixed columns left to shift a record
        shapes = [shape_of_value(value) for value in column]
        counts = Counter(shapes)
        counts.pop(None, None)
        total = sum(counts.values())
        if total < least or len(counts) < 2:
            minority.append(set())
            continue
        dominant, held = counts.most_common(1)[0]
        if held * 2 <= total:
            minority.append(set())
            continue
        mixed += 1
        minority.append({i for i, shape in enumerate(shapes) if shape not in (None, dominant)})
    hits = Counter(i for rows in minority for i in rows)
    shifted = {i for i, count in hits.items() if count >= least_columns}
    return [rows & shifted for rows in minority]


def accepted_columns(items: Sequence[Any], reasons: Mapping[Any, Sequence[str]]) -> list[list[Any]]:
    """The columns of ``items`` for ``reasons``' fields, aligned by item, each value kept only
    where its verdict is valid (``""``; rejected values, placeholders included, have no say)."""
    columns = []
    for name, verdicts in reasons.items():
        columns.append(
            [
                item[name] if verdict == "" and type(item) is dict and name in item else None
                for item, verdict in zip(items, verdicts, strict=True)
            ]
        )
    return columns
