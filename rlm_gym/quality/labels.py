# ruff: noqa: RUF001, RUF002 - the full-width colon and typographic apostrophes are the point
"""A value that carries its own label: "Price: 3,7 mld" under ``price``, "Area: 120 m2" under
``area`` — the scraper took the label's element with the value's (issue 35).

The label is read off the value's start (a word or two before a colon, "：" included) and
compared, accents folded, with the field name's own tokens in any language ("Cena: 1.700 €"
under ``cena``) and, for the typed columns whose name words are tables (price, count, rating,
date), with those words ("Preis: 12 €" under ``price``). Phone, e-mail and link columns are
left alone: "Tel: 030 1234" is how a contact page writes a number; so are texts longer than
``LABELLED_MAX_CHARS`` (a "Job Description: ..." heading opens a body of text).

A label the field's name does not give away is still read where it is rare: in a column of
phones, prices, dates, counts or ratings, values that open with a label ("Tel: 030 1234") on at
most ``max_share`` of at least ``min_values`` values, the others bare, are labelled values
(:func:`minority_labels`; language-free: any word before a colon). A column labelled on every
row is how its site writes it.

Example:
    >>> carried_label("Price: 3,7 mld", "price", "price"), carried_label("37", "price", "price")
    ('price', None)
    >>> carried_label("Cena: 1.700 €", "Cena", "price"), carried_label("Note: ok", "title", "text")
    ('cena', None)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from rlm_gym.quality import vocab
from rlm_gym.quality.names import field_tokens

__all__ = [
    "LABELLED_MAX_CHARS",
    "LABELLED_VALUE",
    "MINORITY_LABEL_SETTINGS",
    "carried_label",
    "minority_labels",
]

LABELLED_VALUE = "label in the value"
"""The reason of a value that carries its own label."""

LABELLED_MAX_CHARS = 60
"""Longer values are texts, which may open with a heading."""

_LABEL_RE = re.compile(r"^\s*([^\W\d_][^\W\d_.'’-]*(?:[ -][^\W\d_][^\W\d_.'’-]*)?)\s*[:：]\s*\S")
_TABLE_TYPES = frozenset({"price", "count", "rating", "date"})
_MINORITY_TYPES = frozenset({"phone", "price", "count", "rating", "date"})

MINORITY_LABEL_SETTINGS: dict[str, float] = {"min_values": 10, "max_share": 0.2}
"""When a rare label is read (see the module): at least ``min_values`` values, at most
``max_share`` of them labelled (the duplicate-rows defect's share: below it, a few rows;
a negative share switches the reading off). Fixed before measuring; the catches and false
positives on every corpus are in ``benchmarks/record_rules.py`` (rule ``minority_labels``)."""


def _fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


@lru_cache(maxsize=4096)
def _label_words(field: str, kind: str) -> frozenset[str]:
    words = {_fold(token) for token in field_tokens(field) if len(token) >= 3}
    if kind in _TABLE_TYPES:
        words |= {_fold(token) for token in vocab.NAME_TOKENS.get(kind, ())}
    return frozenset(words)


def carried_label(value: str, field: str, kind: str) -> str | None:
    """The label ``value`` carries before its content when it names the field, else None.

    Args:
        value: The value's text.
        field: The field's name.
        kind: The field's value type (phone, e-mail and URL columns are never read).

    Returns:
        The label word (accents folded), or None.
    """
    if kind in ("phone", "email", "url") or len(value) > LABELLED_MAX_CHARS:
        return None
    if ":" not in value and "：" not in value:
        return None
    match = _LABEL_RE.match(value)
    if match is None:
        return None
    words = _label_words(field, kind)
    for word in field_tokens(match.group(1)):
        folded = _fold(word)
        if folded in words:
            return folded
    return None


def minority_labels(values: Sequence[Any], kind: str) -> frozenset[str]:
    """The values of a phone, price, date, count or rating column that open with a label, when
    only a few of its values do.

    Args:
        values: The column's values (non-strings are ignored).
        kind: The column's value type.

    Returns:
        The labelled values, as they appear in ``values`` (none when the column is not read).

    Example:
        >>> phones = [f"030 1234 {n:03d}" for n in range(12)]
        >>> sorted(minority_labels([*phones, "Tel: 030 9876 543"], "phone"))
        ['Tel: 030 9876 543']
    """
    if kind not in _MINORITY_TYPES or len(values) < MINORITY_LABEL_SETTINGS["min_values"]:
        return frozenset()
    # One pass for a colon first: most columns have none, and nothing else is computed.
    colons = [value for value in values if type(value) is str and (":" in value or "：" in value)]
    if not colons:
        return frozenset()
    filled = sum(1 for value in values if type(value) is str and value.strip())
    labelled = [
        text
        for text in colons
        if len(text) <= LABELLED_MAX_CHARS and _LABEL_RE.match(text) is not None
    ]
    if not labelled or filled < MINORITY_LABEL_SETTINGS["min_values"]:
        return frozenset()
    if len(labelled) > MINORITY_LABEL_SETTINGS["max_share"] * filled:
        return frozenset()
    return frozenset(labelled)
