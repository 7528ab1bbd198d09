"""One check per field type, chosen by the field's name: the 0.1 API, on top of
:func:`rlm_gym.quality.values.check_value`.

Example:
    >>> check_field("price", "1.299.000đ"), check_field("title", "N/A")
    (True, False)
    >>> [check.name for check in FIELD_CHECKS][:3]
    ['price', 'rating', 'count']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rlm_gym.quality import vocab
from rlm_gym.quality.names import name_rule
from rlm_gym.quality.values import FIELD_TYPES, check_value

__all__ = [
    "PLACEHOLDERS",
    "CURRENCY_MARKERS",
    "Check",
    "FieldCheck",
    "FIELD_CHECKS",
    "field_check",
    "check_field",
    "is_empty",
    "is_meaningful",
    "is_price",
    "is_rating",
    "is_count",
    "is_date",
    "is_email",
    "is_phone",
    "is_url",
]

Check = Callable[[Any], bool]

PLACEHOLDERS = vocab.PLACEHOLDERS
"""Strings that stand for a missing value (compared stripped and lower-cased)."""

CURRENCY_MARKERS = tuple(
    sorted(vocab.CURRENCY_SYMBOLS | vocab.CURRENCY_WORDS | vocab.CURRENCY_CODES, key=len)
)
"""Currency symbols, local names and ISO 4217 codes a price may carry (lower-case)."""


def is_empty(value: Any) -> bool:
    """Whether ``value`` is one of the empty values ``None``, ``""``, ``[]``, ``{}``.

    Example:
        >>> [is_empty(v) for v in (None, "", [], {}, 0, " ", False)]
        [True, True, True, True, False, False, False]
    """
    return value is None or (isinstance(value, (str, list, dict)) and not value)


def is_meaningful(value: Any) -> bool:
    """The text check: readable content, not empty, a placeholder or junk.

    Example:
        >>> [is_meaningful(v) for v in ("iPhone 15", " N/A ", "Unknown", "x", None, 0, [1])]
        [True, False, False, False, False, True, True]
    """
    return not check_value("text", value)


def is_price(value: Any) -> bool:
    """A valid price (:func:`check_value` ``"price"``).

    Example:
        >>> [is_price(v) for v in (999.99, "$1,299.99", "1.299.000đ", "1 299,99 €", "VND 250000")]
        [True, True, True, True, True]
        >>> [is_price(v) for v in (0, -5, "Liên hệ", "N/A", True, "$")]
        [False, False, False, False, False, False]
    """
    return not check_value("price", value)


def is_rating(value: Any) -> bool:
    """A valid rating (:func:`check_value` ``"rating"``).

    Example:
        >>> [is_rating(v) for v in (4.5, 0, "4,5", "4.5/5", "9/10", "Three", 5.1, True, "45")]
        [True, True, True, True, True, True, False, False, False]
    """
    return not check_value("rating", value)


def is_count(value: Any) -> bool:
    """A valid count (:func:`check_value` ``"count"``).

    Example:
        >>> [is_count(v) for v in (1523, 0, "1,523", "(2,920)", "12K+", -1, True, "many")]
        [True, True, True, True, True, False, False, False]
    """
    return not check_value("count", value)


def is_date(value: Any) -> bool:
    """A valid date (:func:`check_value` ``"date"``).

    Example:
        >>> [is_date(v) for v in ("2024-03-12T10:00:00Z", "12/03/2024", "2 days ago", "Today")]
        [True, True, True, True]
        >>> [is_date(v) for v in ("31/02/2024", "Invalid Date", "N/A", "45", None, True)]
        [False, False, False, False, False, False]
    """
    return not check_value("date", value)


def is_email(value: Any) -> bool:
    """A valid email address.

    Example:
        >>> is_email("clutch@straightnorth.com"), is_email("not an address")
        (True, False)
    """
    return not check_value("email", value)


def is_phone(value: Any) -> bool:
    """A valid phone number (7-15 digits, usual punctuation and prefixes).

    Example:
        >>> is_phone("(212) 980-9099"), is_phone("+84 28 1234 5678"), is_phone("12")
        (True, True, False)
    """
    return not check_value("phone", value)


def is_url(value: Any) -> bool:
    """An absolute http(s) URL or a site-relative path.

    Example:
        >>> is_url("https://example.com/a"), is_url("/news/1"), is_url("example.com")
        (True, True, False)
    """
    return not check_value("url", value)


_CHECKS: dict[str, Check] = {
    "price": is_price,
    "rating": is_rating,
    "count": is_count,
    "date": is_date,
    "email": is_email,
    "phone": is_phone,
    "url": is_url,
    "text": is_meaningful,
}


@dataclass(frozen=True)
class FieldCheck:
    """One row of the name table: a type, the tokens that name it and its check.

    Args:
        name: The field type (``"price"``).
        tokens: Tokens that give a field this type on their own.
        excluded: Tokens that make a field text next to them (identifiers, ``by``, labels…).
        check: The value check of the type.
    """

    name: str
    tokens: frozenset[str]
    excluded: frozenset[str]
    check: Check


FIELD_CHECKS: tuple[FieldCheck, ...] = tuple(
    FieldCheck(kind, vocab.NAME_TOKENS[kind], vocab.TEXT_TOKENS, _CHECKS[kind])
    for kind in FIELD_TYPES
    if kind in vocab.NAME_TOKENS
)
"""The name table, one row per type (the rules of :func:`name_type` combine the rows)."""


@lru_cache(maxsize=8192)
def field_check(name: Any) -> Check:
    """The check for values of field ``name`` from its name alone (its hint, else text).

    Example:
        >>> field_check("price").__name__, field_check("price_currency").__name__
        ('is_price', 'is_meaningful')
        >>> field_check("rating_count").__name__, field_check("created_by").__name__
        ('is_count', 'is_meaningful')
    """
    decided, hint = name_rule(name if type(name) is str else str(name))
    return _CHECKS[decided or hint or "text"]


def check_field(name: Any, value: Any) -> bool:
    """Whether ``value`` passes the check chosen for field ``name`` by its name.

    Example:
        >>> check_field("price", "1.299.000đ"), check_field("rating", "4.5/5")
        (True, True)
        >>> check_field("title", "N/A"), check_field("published_date", "12 March 2024")
        (False, True)
    """
    return field_check(name)(value)
