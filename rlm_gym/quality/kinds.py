# ruff: noqa: RUF001 - apostrophes of names are the point
"""What a value looks like on its own: a *bare* rating, count, price or date, or nothing.

The judge reads it to catch a shifted column (a bare "5 sao" under ``comment``) and the column
typing to read a column whose name does not decide.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

from rlm_gym.quality import vocab
from rlm_gym.quality.counts import count_reason
from rlm_gym.quality.dates import date_reason, date_words
from rlm_gym.quality.junk import text_junk
from rlm_gym.quality.lazy_regex import lazy
from rlm_gym.quality.numbers import (
    amounts,
    ascii_digits,
    is_currency,
    leftover_words,
    parse_number,
)
from rlm_gym.quality.prices import price_reason
from rlm_gym.quality.ratings import BARE_SCORE_RE, STAR_WORD_RE, rating_reason

__all__ = ["value_kind"]

_BARE_INT_RE = lazy(r"^\d+$")
_BARE_DEC_RE = lazy(r"^\d+[.,]\d+$")
_COUNT_SHAPE_RE = lazy(
    r"^\(?\s*\d[\d.,\s\u00a0]*\s*(?:[kmb]|mil|mio|mln|tys\.?|тыс\.?|млн|rb|jt|tsd\.?|万|千)?\+?\s*\)?\+?$",
    re.IGNORECASE,
)


_GLUED_RE = lazy(r"[^\W\d_]\d")  # a digit inside a word: "B4A", "Galaxy A07"
# One or two words and then a whole number that ends the value, with no label colon: a name
# with a number ("Item 3", "Test Product 12", "商品 5"). A count puts its unit after the number
# ("12 reviews", "Dibaca 34.743 kali") or labels it ("Reviews: 12").
_GENERIC_NAME_RE = lazy(r"^[^\W\d_][^\W\d_'’.-]*(?:\s+[^\W\d_][^\W\d_'’.-]*)?\s+#?\d+$")


def _value_kind_text(text: str) -> str | None:
    text = ascii_digits(text.strip())
    if not text or len(text) > 80 or text_junk(text):
        return None
    if _BARE_INT_RE.match(text):
        return "count"
    if _BARE_DEC_RE.match(text):
        number = parse_number(text)
        if number is None:
            return None
        return "rating" if number <= 5 else "price"
    if text[0] != "-" and _COUNT_SHAPE_RE.match(text) and amounts(text):
        return "count"
    if not rating_reason(text) and not BARE_SCORE_RE.match(text) and not STAR_WORD_RE.match(text):
        return "rating"
    words = leftover_words(text)
    alpha = [word for word in words if word.isalpha() or not word.isascii()]
    if any(is_currency(word) for word in words) and amounts(text) and not price_reason(text):
        # Every word a currency or a price qualifier ("From $19.99/mo"); a currency code
        # among other words is part of a name ("2008 Acura TL": TL the model, not the lira).
        known = all(is_currency(word) or word in vocab.PRICE_QUALIFIERS for word in alpha)
        return "price" if known and len(alpha) <= 2 else None
    if not date_reason(text):
        _, numbers = date_words(text)
        others = [
            word
            for word in date_words(text)[0]
            if word not in vocab.MONTHS
            and word.rstrip(".") not in vocab.MONTHS
            and word not in vocab.WEEKDAYS
            and word not in vocab.TIME_UNITS
            and word not in vocab.RELATIVE_MARKERS
            and word not in vocab.DATE_CONNECTORS
            and word not in vocab.NUMBER_WORDS
        ]
        bare_month = not numbers and not any(word in vocab.RELATIVE_MARKERS for word in words)
        if len(others) <= 1 and not (bare_month and text.lower() not in vocab.RELATIVE_DAYS):
            return "date"
    if _GENERIC_NAME_RE.match(text):
        return None  # "Item 3", "Product 12", "商品 5": a name with a number, not a count
    if (
        1 <= len(alpha) <= 3
        and len(amounts(text)) == 1
        and not _GLUED_RE.search(text)
        and not count_reason(text)
    ):
        # One word of its own beside a unit ("12 reviews verified"), not beside a scale word
        # alone: "3 mie ayam" is three noodle dishes, no count of thousands.
        units = sum(word in vocab.COUNT_UNITS for word in alpha)
        scales = sum(
            word in vocab.NUMBER_SUFFIXES and word not in vocab.COUNT_UNITS for word in alpha
        )
        if units + scales == len(alpha) or (units and len(alpha) <= 2):
            return "count"
    return None


_value_kind_cached = lru_cache(maxsize=32768)(_value_kind_text)


def value_kind(value: Any) -> str | None:
    """What ``value`` looks like on its own: ``"rating"``, ``"count"``, ``"price"``,
    ``"date"``, or None (prose, names, URLs, junk, containers).

    Only *bare* values count: a number with at most a short unit ("5 sao", "197 đánh giá",
    "$12.99", "2024-01-05", "2 days ago"), not a sentence that mentions one. A bare integer
    ("45", 45) reads as a count; a bare decimal in [0, 5] ("4.5", 4.5) as a rating; a bare
    decimal above 5 ("12.99") as a price; booleans and negatives as nothing.

    Example:
        >>> [value_kind(v) for v in ("5 sao", "197 đánh giá", "$12.99", "2024-01-05", "4.5")]
        ['rating', 'count', 'price', 'date', 'rating']
        >>> [value_kind(v) for v in ("iPhone 15", "Great phone, 5 stars from me!", True, None)]
        [None, None, None, None]
    """
    kind = type(value)
    if kind is str:
        if len(value) > 80:
            return None
        return _value_kind_cached(value)
    if kind is int:
        return "count" if value >= 0 else None
    if kind is float:
        if value != value or value < 0 or value == math.inf:
            return None
        return "rating" if value <= 5 else "price"
    return None
