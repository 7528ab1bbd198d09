"""Value checks: is this value a usable price, rating, count, date, email, phone, url or text,
and if not, why not.

:func:`check_value` returns ``""`` for a valid value, else a short reason from
:data:`REASONS`. Strings pass the junk checks every type shares
(:func:`rlm_gym.quality.junk.text_junk`) and then their type's rule (``prices``, ``ratings``,
``counts``, ``dates``, ``contacts``, ``text``); they are judged once and cached. Numbers take a
fast path; records and lists are judged element by element, the values of a nested record by
the type its own key names (:mod:`rlm_gym.quality.names`, a layer below: the value checks never
call back into column typing).

Example:
    >>> check_value("price", "US $12.99"), check_value("price", "Â£51.77")
    ('', 'mis-encoded text')
    >>> check_value("rating", "4.5 out of 5 stars"), check_value("rating", "45")
    ('', 'out of range')
"""

from __future__ import annotations

import math
from datetime import date
from functools import lru_cache
from typing import Any

from rlm_gym.quality import vocab
from rlm_gym.quality.contacts import email_reason, phone_reason, url_reason
from rlm_gym.quality.counts import count_reason
from rlm_gym.quality.dates import EPOCH_SECONDS, date_reason, year_ok
from rlm_gym.quality.joined import UI_TEXT, joined_reason, ui_text
from rlm_gym.quality.junk import MAX_SCAN, text_junk
from rlm_gym.quality.kinds import value_kind
from rlm_gym.quality.names import name_hint, name_type
from rlm_gym.quality.numbers import ascii_digits, finite, parse_number
from rlm_gym.quality.prices import price_reason
from rlm_gym.quality.ratings import rating_reason_in_column
from rlm_gym.quality.text import text_reason

__all__ = ["EXPECTED", "FIELD_TYPES", "REASONS", "check_value", "check_string_uncached"]

_MAX_DEPTH = 6  # nested containers deeper than this are not looked into
_MAX_ELEMENTS = 64  # elements of a list / dict checked (the first ones)
_CACHE_LIMIT = 600  # strings longer than this are judged uncached

FIELD_TYPES = ("price", "rating", "count", "date", "email", "phone", "url", "text")
"""The field types a value is judged as."""

REASONS: dict[str, str] = {
    "empty": "None, an empty or blank string, an empty list or dict",
    "placeholder": "a stand-in for missing data: N/A, null, none, unknown, -, NaN, Non renseigné…",
    "too short": "text of one character",
    "markup residue": "HTML tags or entities left in the value",
    "code residue": "template, script, style or program text ({{…}}, function(){, <built-in …>)",
    "stringified container": "a list or dict written as a string: \"['a', 'b']\"",
    "error page text": "an error, anti-bot or loading page: Access Denied, 404 Not Found, Loading…",
    "page chrome": "the page's own furniture: a cookie banner, a navigation label, a breadcrumb",
    "mis-encoded text": "mojibake: Â£, Ã©, C1 controls, U+FFFD, '?' for lost letters",
    "truncated": "text cut off right after an opening quotation mark («, », „) it never closes",
    "not a price": "no positive amount, or too much text around it",
    "zero amount": "a price of 0 that is not stated as free",
    "not a rating": "no score on a known scale",
    "not a count": "no number, or a sentence, date, price or notice holding digits",
    "not a date": "no parseable absolute or relative date",
    "not an email": "not an address of the form name@domain.tld",
    "not a phone": "not 7-15 digits with the usual punctuation",
    "joined values": "several values in one field: '$9,980$165/mo', two phones, glued hours",
    "ui text": "a page's link or button text, alone or glued on: 'READ MORE', '» Share your…'",
    "not a url": "neither an absolute http(s) URL nor a site-relative /path",
    "negative": "a negative amount or count",
    "out of range": "a number outside its scale (rating > 5 with no scale stated, a year outside "
    "1900-2100 in every calendar the value may use, an infinite count)",
    "not a number": "a boolean or another non-numeric value where a number is needed",
}
"""Every reason :func:`check_value` can return, with what it means (the keys are stable)."""


EXPECTED: dict[str, str] = {
    "price": "a positive amount, with or without a currency ('1 299 Kč', '$19.99/mo', 'Free')",
    "rating": "a score on a known scale ('4.5', '4.5/5', '8/10', '★★★★☆'; bare scores above 5 "
    "when the column stays within 10 or the crawl states the scale once)",
    "count": "a non-negative number with at most a short unit ('2,920', '1.5K', '197 reviews')",
    "date": "a date or time of any calendar, absolute or relative ('2024-11-26', '26 พ.ย. "
    "2567', '3 days ago', '11/26(火)')",
    "email": "an address name@domain.tld",
    "phone": "7-15 digits with the usual punctuation ('+420 777 123 456')",
    "url": "an absolute http(s) URL or a site-relative /path",
    "text": "readable text of two characters or more",
}
"""What a value of each field type should look like, in a scraper author's words."""


_STRING_RULES = {
    "price": price_reason,
    "rating": rating_reason_in_column,
    "count": count_reason,
    "date": date_reason,
    "email": email_reason,
    "phone": phone_reason,
    "url": url_reason,
    "text": text_reason,
}


def check_string_uncached(field_type: str, value: str) -> str:
    """:func:`check_value` of a string, without the cache (for timing the rules themselves).

    Example:
        >>> check_string_uncached("price", " US $12.99 "), check_string_uncached("url", "#")
        ('', 'placeholder')
    """
    text = value.strip()
    if not text:
        return "empty"
    junk = text_junk(text)
    if junk == "markup residue" and field_type == "url" and "<" not in text:
        junk = ""  # "&amp;" between query parameters: the URL still works as scraped
    if junk:
        return junk
    joined = joined_reason(field_type, text)
    if joined:
        return joined
    if field_type == "text" and ui_text(text):
        return UI_TEXT
    if not text.isascii():
        digits = ascii_digits(text)
        if field_type == "date":
            return date_reason(digits, text)  # the digits' script can name the calendar
        text = digits
    return _STRING_RULES[field_type](text)


_check_string = lru_cache(maxsize=65536)(check_string_uncached)


# --------------------------------------------------------------------------------------------
# numbers, records, containers
# --------------------------------------------------------------------------------------------
def _number_verdict(field_type: str, number: float) -> str:
    if number != number:  # NaN: pandas' missing value
        return "placeholder"
    if field_type == "price":
        if number < 0:
            return "negative"
        if number == 0:
            return "zero amount"
        return "" if number < 1e15 else "out of range"
    if field_type == "rating":
        return "" if 0 <= number <= 5 else "out of range"
    if field_type == "count":
        if number < 0:
            return "negative"
        # Any finite count: view and download counts, populations, token supplies run to
        # billions and beyond.
        return "" if math.isfinite(number) else "out of range"
    if field_type == "date":
        if number.is_integer() and year_ok(int(number)):
            return ""
        if (
            EPOCH_SECONDS[0] <= number <= EPOCH_SECONDS[1]
            or EPOCH_SECONDS[0] <= number / 1000 <= EPOCH_SECONDS[1]
        ):
            return ""
        return "not a date"
    if field_type == "phone":
        if number.is_integer() and 0 < number < 1e16:
            return "" if 7 <= len(str(int(number))) <= 15 else "not a phone"
        return "not a phone"
    if field_type == "text":
        return "" if math.isfinite(number) else "out of range"
    return _NOT_A[field_type]


# Closed ranges of valid plain numbers per type: one comparison decides most env values.
_VALID_NUMBERS: dict[str, tuple[float, float]] = {
    "price": (5e-324, 1e15 - 1),
    "rating": (0.0, 5.0),
    "count": (0.0, 1.7e308),
    "text": (-1.7e308, 1.7e308),
}

_NOT_A = {
    "price": "not a price",
    "rating": "not a rating",
    "count": "not a count",
    "date": "not a date",
    "email": "not an email",
    "phone": "not a phone",
    "url": "not a url",
    "text": "out of range",
}


def _structured_price(value: dict, depth: int) -> str:
    found = False
    for key, element in value.items():
        if str(key).replace("_", "").lower() not in vocab.PRICE_KEYS:
            continue
        if element is None or element == "":
            continue
        reason = _verdict("price", element, depth + 1)
        if reason:
            return reason
        found = True
    return "" if found else "not a price"


def _structured_rating(value: dict, depth: int) -> str | None:
    keys = {str(key).replace("_", "").lower(): element for key, element in value.items()}
    score = next((keys[key] for key in vocab.SCORE_KEYS if key in keys), None)
    if score is None:
        return None
    scale = next((keys[key] for key in vocab.SCALE_KEYS if key in keys), None)
    number = finite(score)
    if number is None and isinstance(score, str):
        number = parse_number(score.strip())
    if number is None:
        return _verdict("rating", score, depth + 1)
    top = finite(scale)
    if top is None and isinstance(scale, str):
        top = parse_number(scale.strip())
    top = top if top is not None and 3 <= top <= 100 else 5.0
    return "" if 0 <= number <= top else "out of range"


def _dict_verdict(field_type: str, value: dict, depth: int) -> str:
    if field_type == "price":
        return _structured_price(value, depth)
    if field_type == "rating":
        reason = _structured_rating(value, depth)
        if reason is not None:
            return reason
    typed = field_type == "text"
    seen = False
    for index, (key, element) in enumerate(value.items()):
        if index >= _MAX_ELEMENTS:
            break
        if element is None or (type(element) in (str, list, dict) and not element):
            continue  # an absent optional part of a record
        seen = True
        element_type = field_type
        if typed:
            # A hinted key ("Stars") types a bare rating/count/price/date, not prose.
            element_type = (
                name_type(key)
                or (name_hint(key) if value_kind(element) is not None else None)
                or "text"
            )
        reason = _verdict(element_type, element, depth + 1)
        if reason:
            return reason
    return "" if seen else "empty"


def _verdict(field_type: str, value: Any, depth: int = 0) -> str:
    kind = type(value)
    if kind is str:
        if len(value) <= _CACHE_LIMIT:
            return _check_string(field_type, value)
        return check_string_uncached(field_type, value)
    if kind is float or kind is int:
        return _number_verdict(field_type, finite(value))
    if value is None:
        return "empty"
    if kind is bool:
        return "" if field_type == "text" else "not a number"
    if depth >= _MAX_DEPTH:
        return "" if value else "empty"
    if isinstance(value, dict):
        if not value:
            return "empty"
        return _dict_verdict(field_type, value, depth)
    if isinstance(value, (list, tuple, set, frozenset)):
        if not value:
            return "empty"
        for index, element in enumerate(value):
            if index >= _MAX_ELEMENTS:
                break
            reason = _verdict(field_type, element, depth + 1)
            if reason:
                return reason
        return ""
    if isinstance(value, (bytes, bytearray)):
        try:
            text = bytes(value[:MAX_SCAN]).decode("utf-8")
        except UnicodeDecodeError:
            return "mis-encoded text"
        return _verdict(field_type, text, depth + 1)
    if isinstance(value, date):  # datetime is a date too
        if field_type not in ("date", "text"):
            return _NOT_A[field_type]
        return "" if year_ok(value.year) else "out of range"
    if isinstance(value, (int, float)):  # numpy scalars, int / float subclasses
        try:
            return _number_verdict(field_type, float(value))
        except (OverflowError, TypeError, ValueError):
            return "out of range"
    return _verdict(field_type, str(value), depth + 1)


def check_value(field_type: str, value: Any) -> str:
    """``""`` when ``value`` is a valid value of ``field_type``, else a reason from
    :data:`REASONS`. Never raises on JSON-like values.

    Lists and dicts pass when non-empty and every element passes (the first 64 are looked at);
    structured prices (``{"value", "currency"}``, ``{"amountMin", "amountMax"}``) and ratings
    (``{"ratingValue", "bestRating"}``) are read as one amount; in a text field the values of a
    nested record are checked by the type of their own key (a review's ``Date``, ``Stars``).

    Args:
        field_type: One of :data:`FIELD_TYPES`.
        value: The raw value.

    Raises:
        ValueError: When ``field_type`` is not a field type.

    Example:
        >>> [check_value("price", v) for v in ("From $19.99/mo", "Kostenlos", -5, True)]
        ['', '', 'negative', 'not a number']
        >>> [check_value("date", v) for v in ("Há 1 semana", "13 Déc 2019", "45", "9999-01-01")]
        ['', '', 'not a date', 'out of range']
        >>> check_value("text", "N/A"), check_value("text", [{"Stars": "5.0 out of 5 stars"}])
        ('placeholder', '')
    """
    kind = type(value)
    if kind is float or kind is int:  # the fast path: env values and JSON numbers
        bounds = _VALID_NUMBERS.get(field_type)
        if bounds is not None and bounds[0] <= value <= bounds[1]:  # NaN fails both
            return ""
        if field_type not in _STRING_RULES:
            raise ValueError(_unknown_type(field_type))
        return _number_verdict(field_type, finite(value))
    if field_type not in _STRING_RULES:
        raise ValueError(_unknown_type(field_type))
    if kind is str and len(value) <= _CACHE_LIMIT:
        return _check_string(field_type, value)
    try:
        return _verdict(field_type, value)
    except RecursionError:
        return ""


def _unknown_type(field_type: Any) -> str:
    import difflib

    hint = difflib.get_close_matches(str(field_type), FIELD_TYPES, n=1)
    suffix = f" Did you mean {hint[0]!r}?" if hint else ""
    return f"`field_type` must be one of {', '.join(FIELD_TYPES)}, got {field_type!r}.{suffix}"
