"""Field checks for crawl validation quality, chosen by the tokens of the field name.

A field name is split into lower-case tokens (on non-alphanumerics and camelCase), and the
first row of :data:`FIELD_CHECKS` whose trigger tokens meet the name's tokens (and whose
excluded tokens do not) picks the check; other fields get :func:`is_meaningful`. The lookup is
cached per field name, so scoring an item costs one dict lookup and one call per field.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from email.utils import parsedate_to_datetime
from functools import lru_cache
from numbers import Real
from typing import Any

__all__ = [
    "FieldCheck",
    "FIELD_CHECKS",
    "PLACEHOLDERS",
    "CURRENCY_MARKERS",
    "DATE_FORMATS",
    "field_tokens",
    "field_check",
    "check_field",
    "is_empty",
    "is_meaningful",
    "is_count",
    "is_price",
    "is_rating",
    "is_date",
    "parse_number",
]

Check = Callable[[Any], bool]

PLACEHOLDERS = frozenset({"n/a", "na", "null", "none", "unknown", "undefined", "nan", "-", ""})
"""Generic strings that carry no data (compared stripped and lower-cased)."""

CURRENCY_MARKERS = tuple(
    sorted(
        (
            "us$", "$", "€", "£", "¥", "₫", "đ", "₹", "₩", "₽", "฿", "vnđ", "vnd", "usd", "eur",
            "gbp", "jpy", "cny", "rmb", "inr", "krw", "sgd", "thb", "aud", "cad", "chf", "đồng",
        ),
        key=len,
        reverse=True,
    )
)  # fmt: skip
"""Currency symbols and codes stripped from either end of a price (lower-cased, longest first)."""

DATE_FORMATS = (
    ("%d/%m/%Y", "/"),
    ("%Y/%m/%d", "/"),
    ("%d-%m-%Y", "-"),
    ("%d.%m.%Y", "."),
    ("%d %B %Y", " "),
    ("%d %b %Y", " "),
    ("%B %d, %Y", ","),
    ("%b %d, %Y", ","),
    ("%B %d %Y", " "),
)
"""``datetime.strptime`` formats tried after ISO 8601 and RFC 2822, each with a character the
text must contain for the format to be worth trying."""

_SPACES = (" ", "\u00a0", "\u202f", "\u2009", "'")
_MAX_RATING = 5.0


def is_empty(value: Any) -> bool:
    """Whether ``value`` is one of the empty values ``None``, ``""``, ``[]``, ``{}``.

    Example:
        >>> [is_empty(v) for v in (None, "", [], {}, 0, " ", False)]
        [True, True, True, True, False, False, False]
    """
    return value is None or (isinstance(value, (str, list, dict)) and not value)


def _real(value: Any) -> float | None:
    """``value`` as a finite float if it is a real number (bools are not numbers), else None."""
    kind = type(value)
    if kind is not float and kind is not int and (kind is bool or not isinstance(value, Real)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _group_ok(groups: list[str]) -> bool:
    """Digit groups of a grouped integer: 1-3 digits first, exactly 3 after."""
    head, *rest = groups
    return (
        head.isdigit()
        and len(head) <= 3
        and all(len(group) == 3 and group.isdigit() for group in rest)
    )


def _parse_plain_number(text: str) -> float | None:
    """Parse digits with optional thousands groups and a decimal part, in either convention."""
    sign = 1.0
    if text[:1] in "+-":
        sign = -1.0 if text[0] == "-" else 1.0
        text = text[1:]
    if not text:
        return None
    spaced = any(space in text for space in _SPACES)
    if spaced:
        for space in _SPACES:
            text = text.replace(space, " ")
    last_dot, last_comma = text.rfind("."), text.rfind(",")
    if last_dot >= 0 and last_comma >= 0:
        decimal = "." if last_dot > last_comma else ","
    elif last_dot >= 0 or last_comma >= 0:
        separator = "." if last_dot >= 0 else ","
        head, _, tail = text.rpartition(separator)
        # One separator before exactly three digits reads as thousands ("1.299", "1,299");
        # repeated separators always do ("1.299.000").
        is_thousands = text.count(separator) > 1 or (
            len(tail) == 3 and head.strip(" ") not in ("", "0")
        )
        decimal = "" if is_thousands else separator
    else:
        decimal = ""
    integer, _, fraction = text.rpartition(decimal) if decimal else (text, "", "")
    if decimal and not integer:
        integer = "0"
    if fraction and not fraction.isdigit():
        return None
    thousands = {".", ",", " "} - {decimal}
    grouped = [integer]
    for separator in thousands:
        if separator in integer:
            grouped = integer.split(separator)
            break
    if len(grouped) > 1:
        if not _group_ok(grouped):
            return None
    elif not integer.isdigit():
        return None
    return sign * float(f"{''.join(grouped)}.{fraction or '0'}")


def parse_number(text: str, *, currency: bool = False) -> float | None:
    """Parse a human-written number, or return None.

    Accepts both thousands conventions ("1,299.99", "1.299,99", "1 299,99") and, with
    ``currency=True``, currency symbols or codes at either end ("$1,299.99", "1.299.000đ",
    "VND 250000"). A single separator followed by exactly three digits is a thousands
    separator ("1.299" is 1299), except after a lone 0 ("0.125").

    Example:
        >>> parse_number("1.299.000đ", currency=True), parse_number("1 299,99 €", currency=True)
        (1299000.0, 1299.99)
        >>> parse_number("$1,299.99"), parse_number("12,5"), parse_number("1,29,9")
        (None, 12.5, None)
    """
    text = text.strip()
    if currency:
        text = _strip_currency(text)
    if not text or not (text[0].isdigit() or text[0] in "+-.,"):
        return None
    if text.isdigit():
        return float(text)
    try:
        return _parse_plain_number(text)
    except ValueError:
        return None


def _markers_by(position: int) -> dict[str, tuple[str, ...]]:
    table: dict[str, tuple[str, ...]] = {}
    for marker in CURRENCY_MARKERS:
        table[marker[position]] = (*table.get(marker[position], ()), marker)
    return table


_MARKERS_BY_FIRST = _markers_by(0)
_MARKERS_BY_LAST = _markers_by(-1)


def _strip_marker(text: str, at_start: bool) -> str | None:
    """``text`` without the currency marker at its start (or end), or None if there is none."""
    lowered = text.lower()
    if at_start:
        for marker in _MARKERS_BY_FIRST.get(lowered[0], ()):
            if lowered.startswith(marker):
                return text[len(marker) :].strip()
    else:
        for marker in _MARKERS_BY_LAST.get(lowered[-1], ()):
            if lowered.endswith(marker):
                return text[: -len(marker)].strip()
    return None


def _strip_currency(text: str) -> str:
    while text and not (text[0].isdigit() or text[0] in "+-.,"):
        stripped = _strip_marker(text, at_start=True)
        if stripped is None:
            return text
        text = stripped
    while text and not text[-1].isdigit():
        stripped = _strip_marker(text, at_start=False)
        if stripped is None:
            return text
        text = stripped
    return text


def is_meaningful(value: Any) -> bool:
    """The generic check: a string that is not a placeholder and longer than one character;
    any other non-empty value.

    Example:
        >>> [is_meaningful(v) for v in ("iPhone 15", " N/A ", "Unknown", "x", None, 0, [1])]
        [True, False, False, False, False, True, True]
    """
    if isinstance(value, str):
        text = value.strip()
        return len(text) > 1 and text.lower() not in PLACEHOLDERS
    return not is_empty(value)


def is_count(value: Any) -> bool:
    """A number >= 0 (or a numeric string such as "1,523").

    Example:
        >>> [is_count(v) for v in (1523, 0, "1,523", -1, True, "many")]
        [True, True, True, False, False, False]
    """
    number = _real(value)
    if number is None and isinstance(value, str):
        number = parse_number(value)
    return number is not None and number >= 0.0


@lru_cache(maxsize=8192)
def _price_text(text: str) -> float | None:
    # Shops repeat the same price strings across items and pages.
    return parse_number(text, currency=True)


def is_price(value: Any) -> bool:
    """A number > 0, or a price string with currency symbols or codes and either thousands
    convention.

    Example:
        >>> [is_price(v) for v in (999.99, "$1,299.99", "1.299.000đ", "1 299,99 €", "VND 250000")]
        [True, True, True, True, True]
        >>> [is_price(v) for v in (0, -5, "Liên hệ", "N/A", True, "$")]
        [False, False, False, False, False, False]
    """
    number = _real(value)
    if number is None and isinstance(value, str):
        number = _price_text(value)
    return number is not None and number > 0.0


def is_rating(value: Any) -> bool:
    """A number in [0, 5], also written as "4.5", "4,5" or "4.5/5".

    Example:
        >>> [is_rating(v) for v in (4.5, 0, 5, "4.5", "4.5/5", 5.1, "9/10", True, "five")]
        [True, True, True, True, True, False, False, False, False]
    """
    number = _real(value)
    if number is None and isinstance(value, str):
        number = _rating_text(value)
    return number is not None and 0.0 <= number <= _MAX_RATING


@lru_cache(maxsize=4096)
def _rating_text(text: str) -> float | None:
    value, slash, scale = text.partition("/")
    if slash and scale.strip() not in ("5", "5.0"):
        return None
    return parse_number(value)


@lru_cache(maxsize=4096)
def _parse_date_text(text: str) -> bool:
    iso = text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text
    try:
        datetime.fromisoformat(iso)
        return True
    except ValueError:
        pass
    if "," in text or ":" in text:
        try:
            parsedate_to_datetime(text)
            return True
        except (TypeError, ValueError, IndexError):
            pass
    for pattern, needed in DATE_FORMATS:
        if needed not in text:
            continue
        try:
            datetime.strptime(text, pattern)
            return True
        except ValueError:
            continue
    return False


def is_date(value: Any) -> bool:
    """A parseable date: ISO 8601, RFC 2822, d/m/Y, Y/m/d, "12 March 2024", "March 12, 2024"
    (see :data:`DATE_FORMATS`); ``date``/``datetime`` objects and non-negative numbers (POSIX
    timestamps) pass too.

    Example:
        >>> [is_date(v) for v in ("2024-03-12T10:00:00Z", "Tue, 12 Mar 2024 10:00:00 +0000",
        ...                       "12/03/2024", "2024/03/12", "12 March 2024", "March 12, 2024")]
        [True, True, True, True, True, True]
        >>> [is_date(v) for v in ("31/02/2024", "yesterday", "N/A", "", None, True)]
        [False, False, False, False, False, False]
    """
    if isinstance(value, str):
        text = value.strip()
        return any(char.isdigit() for char in text) and _parse_date_text(text)
    if isinstance(value, (date, datetime)):
        return True
    number = _real(value)
    return number is not None and number >= 0.0


@dataclass(frozen=True)
class FieldCheck:
    """One row of the field-check table.

    Args:
        name: What the check is about (``"price"``).
        tokens: Any of these tokens in a field name selects the row.
        excluded: Any of these tokens in the field name skips the row.
        check: The value check.
    """

    name: str
    tokens: frozenset[str]
    excluded: frozenset[str]
    check: Check


FIELD_CHECKS: tuple[FieldCheck, ...] = (
    FieldCheck(
        "count",
        frozenset({"count", "num", "number", "total", "qty", "quantity"}),
        frozenset(),
        is_count,
    ),
    FieldCheck(
        "price",
        frozenset({"price", "cost", "amount"}),
        frozenset({"currency", "unit", "type", "id"}),
        is_price,
    ),
    FieldCheck("rating", frozenset({"rating", "stars"}), frozenset(), is_rating),
    FieldCheck(
        "date",
        frozenset({"date", "published", "updated", "created", "modified", "timestamp"}),
        frozenset({"by", "author"}),
        is_date,
    ),
)
"""Field checks in priority order: the first matching row wins, else :func:`is_meaningful`."""


@lru_cache(maxsize=8192)
def field_tokens(name: str) -> tuple[str, ...]:
    """Lower-case tokens of a field name, split on non-alphanumerics and camelCase.

    Example:
        >>> field_tokens("productName"), field_tokens("rating_count"), field_tokens("HTTPStatus")
        (('product', 'name'), ('rating', 'count'), ('http', 'status'))
    """
    tokens: list[str] = []
    current = ""
    previous = ""
    for index, char in enumerate(str(name)):
        if not char.isalnum():
            if current:
                tokens.append(current)
            current = previous = ""
            continue
        following = name[index + 1] if index + 1 < len(name) else ""
        starts_word = char.isupper() and (
            previous.islower() or previous.isdigit() or (previous.isupper() and following.islower())
        )
        if starts_word and current:
            tokens.append(current)
            current = ""
        current += char.lower()
        previous = char
    if current:
        tokens.append(current)
    return tuple(tokens)


@lru_cache(maxsize=8192)
def field_check(name: str) -> Check:
    """The check for values of field ``name`` (cached per name).

    Example:
        >>> field_check("price").__name__, field_check("price_currency").__name__
        ('is_price', 'is_meaningful')
        >>> field_check("rating_count").__name__, field_check("created_by").__name__
        ('is_count', 'is_meaningful')
    """
    tokens = set(field_tokens(name))
    for row in FIELD_CHECKS:
        if tokens & row.tokens and not tokens & row.excluded:
            return row.check
    return is_meaningful


def check_field(name: str, value: Any) -> bool:
    """Whether ``value`` passes the check chosen for field ``name``.

    Example:
        >>> check_field("price", "1.299.000đ"), check_field("rating", "4.5/5")
        (True, True)
        >>> check_field("title", "N/A"), check_field("published_date", "12 March 2024")
        (False, True)
    """
    return field_check(name)(value)
