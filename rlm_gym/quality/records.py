"""Record-level defects: what a value shows only beside the other fields of its record and the
record before it (issue 35; SPEC §11 "Roles and consistency").

- **glued fields**: a value that ends with the whole value of another field of its record,
  glued on without a space or a mark between them ("HentschelZschopau" beside the city
  "Zschopau"): the scraper joined two fields' texts. A column where most values hold such a
  neighbour is a column of composite values, so only a minority of the column's rows (at most
  ``glued_max_share``) can be glued; and in scripts written without spaces (Han, kana, Thai)
  an address ends with its district as a matter of course, so no junction there is read.
- **re-emitted value**: a value equal to the previous record's value in the same field, in a
  column whose values otherwise never repeat, while the two records differ in most of their
  other fields: the scraper kept the previous record's value after failing to parse this
  one's. The records must share at least ``min_other_fields`` other fields, most of them
  changed: two records of one entity share more than one field. Only free text, prices and
  links are read (dates, counts and ratings repeat by nature). Values drawn from a small pool
  (job titles, first names, short prices) also repeat by chance, and a chance repeat lands on
  the row below as often as anywhere: so the repeats must be too improbable as chance. Drawn
  from a pool of unknown size ``N``, ``n`` values show ``k`` repeats on the next row and none
  elsewhere with Poisson probability ``((n-1)/N)^k / k! * exp(-C(n,2)/N)``; at its largest over
  ``N`` that is ``(2k / (e n))^k / k!``, which must be at most ``max_chance`` (one repeat in 30
  rows: 0.025, as likely chance; two in 20 rows: 0.003; one in 100 rows: 0.007).

Both read values the value checks accepted, need ``min_values`` values in the column, and can
be switched off in ``column_rules.COLUMN_RULES`` (``glued_fields``, ``re_emitted_values``).

Example:
    >>> rows = [{"company": f"Firm {n}", "city": f"Town{n}"} for n in range(10)]
    >>> rows[3]["company"] = "Firm 3Town3"
    >>> reasons = {"company": [""] * 10, "city": [""] * 10}
    >>> columns = {name: [row[name] for row in rows] for name in ("company", "city")}
    >>> mark_glued_fields(columns, reasons, {"company": "text", "city": "text"})
    >>> reasons["company"][3]
    'glued fields'
"""

from __future__ import annotations

import math
import operator
import unicodedata
from collections import Counter
from collections.abc import Sequence
from itertools import compress
from typing import Any

__all__ = [
    "GLUED_FIELDS",
    "RECORD_SETTINGS",
    "RE_EMITTED_VALUE",
    "mark_glued_fields",
    "mark_re_emitted_values",
]

GLUED_FIELDS = "glued fields"
RE_EMITTED_VALUE = "re-emitted value"

RECORD_SETTINGS: dict[str, float] = {
    "min_values": 10,
    "min_part_chars": 2,
    "glued_max_share": 0.34,
    "read_unspaced_scripts": 0.0,
    "max_repeated_share": 0.2,
    "min_other_fields": 3,
    "min_changed_share": 0.75,
    "max_chance": 0.01,
}
"""The rules' bounds: fewest values in a column (``min_values``); shortest neighbour value read
as a glued part (``min_part_chars``), the largest share of a column's rows that may be glued
(``glued_max_share``), whether junctions in scripts written without spaces are read
(``read_unspaced_scripts``, 1 for yes); the largest share of a column's values that may be
re-emitted repeats (``max_repeated_share``), how many other fields the two records must share
(``min_other_fields``) and what share of them must change (``min_changed_share``): two
records of one entity — one job title at two employers, one product in two shops — share
more than the one field, while a re-emitted value is one stale field in an otherwise new
record; and the largest probability that the repeats fall on adjacent rows by chance
(``max_chance``, a significance level fixed before measuring: no corpus has a re-emitted value
to tune it on). ``benchmarks/record_rules.py`` chooses the glue and re-emit settings again
leave-one-corpus-out."""

_GLUED_KINDS = frozenset({"text"})
_NEVER = "\x00\x00"
"""A text no value ends with: stands in for a neighbour that is no text."""
_RE_EMITTED_KINDS = frozenset({"text", "price", "url"})


# Scripts written without spaces between words (Thai, Lao, Myanmar, Khmer; from the CJK
# radicals on: Han, kana, Hangul syllables): there an address ends with its district and a
# title with its place as a matter of course, so no junction there proves a glue.
_UNSPACED = ((0x0E00, 0x0EFF), (0x1000, 0x109F), (0x1780, 0x17FF), (0x2E80, 0x10FFFF))


def _spaced(char: str) -> bool:
    code = ord(char)
    return not any(low <= code <= high for low, high in _UNSPACED)


def _glued_to(value: str, part: str) -> bool:
    """Whether ``value`` ends with ``part`` glued on: a letter or digit of a script written
    with spaces, right after a letter, a digit, a combining mark or a full stop
    ("S.A.Navarra": prose puts a space after a full stop)."""
    if len(value) <= len(part) or not value.endswith(part):
        return False
    before, first = value[-len(part) - 1], part[0]
    # A vowel sign or other combining mark ends a word in the Indic scripts.
    letter = before.isalnum() or unicodedata.category(before).startswith("M")
    joined = letter or (before == "." and first.isupper())
    spaced = RECORD_SETTINGS["read_unspaced_scripts"] or (_spaced(before) and _spaced(first))
    return joined and first.isalnum() and bool(spaced)


def mark_glued_fields(
    columns: dict[Any, Sequence[Any]], reasons: dict[Any, list[str]], types: dict[Any, str]
) -> None:
    """Mark accepted text values that end with another field's value glued on (in place).

    Args:
        columns: Field -> its value on each distinct item (anything but a string where the
            item lacks it); ``reasons[name][i]`` judges ``columns[name][i]``.
        reasons: Field -> one verdict per distinct item ("" accepted); changed in place.
        types: Field -> value type (only ``text`` columns are read).
    """
    settings = RECORD_SETTINGS
    shortest = int(settings["min_part_chars"])
    glue_names = [name for name in reasons if types.get(name) in _GLUED_KINDS]
    if not glue_names or len(reasons) < 2:
        return
    texts = {name: _strings(columns[name]) for name in reasons}
    for name in glue_names:
        values, verdicts = texts[name], reasons[name]
        if values is None:
            continue
        rows = range(len(values))
        candidates: set[int] = set()
        for other, parts in texts.items():
            if other != name and parts is not None:
                # One C-level pass: the rows whose value ends with this neighbour's value
                # (empty and short neighbours pass here and are sorted out below).
                candidates.update(compress(rows, map(str.endswith, values, parts)))
        glued = sorted(
            row
            for row in candidates
            if not verdicts[row] and _glued_row(values[row], row, name, texts, shortest)
        )
        if not glued:
            continue
        filled = sum(1 for value in values if value != _NEVER and value.strip())
        if filled >= settings["min_values"] and len(glued) <= settings["glued_max_share"] * filled:
            for row in glued:
                verdicts[row] = GLUED_FIELDS


def _strings(column: Sequence[Any]) -> list[str] | None:
    """The column as texts (anything else as a text no value ends with), or None when it holds
    no text at all."""
    kinds = set(map(type, column))
    if kinds == {str}:
        return list(column)
    if str not in kinds:
        return None
    return [value if type(value) is str else _NEVER for value in column]


def _glued_row(
    value: str, row: int, name: Any, texts: dict[Any, list[str] | None], shortest: int
) -> bool:
    """Whether ``value`` (of field ``name`` on ``row``) has a neighbour's value glued on."""
    for other, parts in texts.items():
        if parts is None:
            continue
        part = parts[row]
        if (
            other != name
            and len(part) >= shortest
            and any(char.isalpha() for char in part)
            and _glued_to(value, part)
        ):
            return True
    return False


def _changed_share(item: dict, previous: dict, name: Any) -> float:
    """The share of the two records' other shared fields whose values differ (0 with fewer
    than ``min_other_fields`` of them: too few to tell a new record from the same entity)."""
    shared = [key for key in item if key != name and key in previous]
    if len(shared) < RECORD_SETTINGS["min_other_fields"]:
        return 0.0
    return sum(1 for key in shared if item[key] != previous[key]) / len(shared)


def _adjacent_by_chance(repeats: int, filled: int) -> float:
    """The largest probability, over the size of the pool the ``filled`` values are drawn from,
    that chance alone puts ``repeats`` repeats on the next row and none elsewhere."""
    return (2 * repeats / (math.e * filled)) ** repeats / math.factorial(repeats)


def mark_re_emitted_values(
    distinct: Sequence[Any],
    columns: dict[Any, Sequence[Any]],
    reasons: dict[Any, list[str]],
    types: dict[Any, str],
) -> None:
    """Mark accepted values repeating the previous record's, in columns that never repeat
    otherwise (in place).

    Args:
        distinct: The crawl's distinct items, in the crawl's order.
        columns: Field -> its value on each distinct item (anything but a string where the
            item lacks it).
        reasons: Field -> one verdict per distinct item ("" accepted); changed in place.
        types: Field -> value type (only free text, prices and links are read).
    """
    settings = RECORD_SETTINGS
    for name, verdicts in reasons.items():
        if types.get(name) not in _RE_EMITTED_KINDS:
            continue
        column = columns[name]
        if not any(map(operator.eq, column, column[1:])):
            continue  # no value repeats the one before it: the common case, tested in C
        filled = [value for value in column if type(value) is str and value.strip()]
        if len(filled) < settings["min_values"]:
            continue
        counts = Counter(filled)
        repeats = [
            row
            for row in range(1, len(column))
            if type(column[row]) is str and column[row] == column[row - 1] and column[row].strip()
        ]
        # Every repeat of the column must be one of these runs of adjacent rows (a value seen
        # again further down is a column whose values repeat by nature), and they must be few.
        if not repeats or sum(count - 1 for count in counts.values()) != len(repeats):
            continue
        if len(repeats) > settings["max_repeated_share"] * len(filled):
            continue
        if _adjacent_by_chance(len(repeats), len(filled)) > settings["max_chance"]:
            continue
        for row in repeats:
            item, previous = distinct[row], distinct[row - 1]
            if (
                verdicts[row]
                or _changed_share(item, previous, name) < settings["min_changed_share"]
            ):
                continue
            verdicts[row] = RE_EMITTED_VALUE
