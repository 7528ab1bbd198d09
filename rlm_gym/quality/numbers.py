# ruff: noqa: RUF001, RUF002 - currency signs, digits of every script and multilingual punctuation are the point
"""Numbers in scraped values: one written number in either decimal convention, the amounts of a
text with their K/M suffixes, and the words left around them (currencies, units, qualifiers).

Example:
    >>> parse_number("1.299,99"), amounts("1.5K sold"), leftover_words("From $19.99/mo")
    (1299.99, [(1500.0, 3)], ['from', '$', 'mo'])
    >>> is_currency("zł"), is_currency("us$"), is_currency("sold")
    (True, True, False)
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any

from rlm_gym.quality import vocab
from rlm_gym.quality.lazy_regex import lazy

__all__ = [
    "ascii_digits",
    "NUMBER_RE",
    "NEGATIVE_RE",
    "PRICE_LEVEL_RE",
    "AREA_RE",
    "parse_number",
    "finite",
    "amounts",
    "leftover_words",
    "is_currency",
]

# A written number: grouped thousands (1,299 / 1.299.000 / 2 000 000 / 1,09,900) with an
# optional decimal part, or plain digits with an optional decimal part.
_NUMBER = r"\d{1,3}(?:[ ,.'\u00a0\u202f\u2009]\d{2,3})*(?:[.,]\d+)?(?!\d)|\d+(?:[.,]\d+)?"
NUMBER_RE = lazy(_NUMBER)
_SPACES_RE = lazy(r"[ '\u00a0\u202f\u2009]")


# Marks of other scripts and of full-width forms that a number is read with: the Arabic decimal
# and grouping marks and percent sign, full-width punctuation (CJK pages).
_MARKS = {
    "\u066b": ".",
    "\u066c": ",",
    "\u066a": "%",
    "\u060c": ",",
    "\uff0e": ".",
    "\uff0c": ",",
    "\uff05": "%",
    "\uff0f": "/",
    "\uff1a": ":",
    "\uff0d": "-",
    "\uff0b": "+",
    "\u2212": "-",
}


class _DigitMap(dict):
    """``str.translate`` table: every Unicode decimal digit (any script) to its ASCII digit,
    number marks to ASCII; other characters kept. Filled on first sight of each character."""

    def __missing__(self, code: int) -> int | str:
        char = chr(code)
        value = unicodedata.decimal(char, None)
        result: int | str = (
            str(value) if value is not None else _MARKS.get(char, code)  # type: ignore[arg-type]
        )
        self[code] = result
        return result


_DIGITS = _DigitMap()


def ascii_digits(text: str) -> str:
    """``text`` with every decimal digit of any script ("٣", "۳", "๓", "३", "３") as its
    ASCII digit and the Arabic and full-width number marks as ASCII ones; ASCII text as is.

    Example:
        >>> ascii_digits("۱۲۰٬۰۰۰ تومان"), ascii_digits("๒๕๖๗"), ascii_digits("１２３")
        ('120,000 تومان', '2567', '123')
    """
    if text.isascii():
        return text
    return text.translate(_DIGITS)


def parse_number(text: str) -> float | None:
    """The value of one written number in either decimal convention, or None.

    A single separator before exactly three digits is a thousands separator ("1.299", "2,920"),
    except after a lone 0 ("0.125"); repeated separators always are ("1.299.000", "1,09,900").

    Example:
        >>> parse_number("1.299,99"), parse_number("1,299.99"), parse_number("2 000 000")
        (1299.99, 1299.99, 2000000.0)
        >>> parse_number("4,7"), parse_number("1,09,900"), parse_number("12a")
        (4.7, 109900.0, None)
    """
    text = _SPACES_RE.sub("", ascii_digits(text.strip()))
    if not text or not text[0].isdecimal() or not text[-1].isdecimal():
        return None
    if text.isdecimal():
        return float(text)
    last_dot, last_comma = text.rfind("."), text.rfind(",")
    if last_dot >= 0 and last_comma >= 0:
        decimal = "." if last_dot > last_comma else ","
        thousands = "," if decimal == "." else "."
        integer, fraction = text.rsplit(decimal, 1)
        integer = integer.replace(thousands, "")
    else:
        sep = "." if last_dot >= 0 else ","
        head, tail = text.rsplit(sep, 1)
        if text.count(sep) > 1 or (len(tail) == 3 and head != "0"):
            integer, fraction = text.replace(sep, ""), ""
        else:
            integer, fraction = head, tail
    if not integer.isdecimal() or (fraction and not fraction.isdecimal()):
        return None
    try:
        return float(f"{integer}.{fraction or '0'}")
    except (OverflowError, ValueError):
        return None


def finite(value: Any) -> float | None:
    """``value`` as a finite float when it is an int or float (not a bool), else None."""
    kind = type(value)
    if kind is bool or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf
    return number


_STRIP_PUNCT = "()[]{}:;,|*~≈+!?\"'«»“”‘’•·–—-/\\."


def leftover_words(text: str) -> list[str]:
    """The lower-cased words and symbols of ``text`` once its numbers are removed."""
    rest = NUMBER_RE.sub(" ", text.lower())
    out = []
    for chunk in rest.split():
        if chunk in vocab.CURRENCY_WORDS or chunk in vocab.PRICE_QUALIFIERS:
            out.append(chunk)
            continue
        stripped = chunk.strip(_STRIP_PUNCT)
        if stripped:
            out.append(stripped)
        elif any(char in vocab.CURRENCY_SYMBOLS for char in chunk):
            out.append(chunk)
    return out


def is_currency(word: str) -> bool:
    """Whether a lower-cased word of a value names a currency ("usd", "zł", "rs.", "us$")."""
    if word in vocab.CURRENCY_WORDS or word in vocab.CURRENCY_CODES:
        return True
    if word.rstrip(".") in vocab.CURRENCY_WORDS:
        return True
    # Symbols glued to letters or to each other ("us$", "$$", "r$", "€/mo" split earlier).
    letters = word.strip("".join(vocab.CURRENCY_SYMBOLS))
    return letters != word and (not letters or letters in vocab.CURRENCY_WORDS)


def amounts(text: str) -> list[tuple[float, int]]:
    """The numbers of ``text`` (K/M suffixes applied) with their end offsets.

    A number glued to a smaller one after its CJK scale word is one amount ("1億2000万円" is
    120,000,000; "12万3000円" 123,000); a scale word followed by a word that is no currency,
    unit or scale is no scale word ("3 mie ayam": three noodle dishes, not 3,000).

    Example:
        >>> amounts("1億2000万円"), amounts("3 mie ayam"), amounts("3 mil pesos")
        ([(120000000.0, 6)], [(3.0, 1)], [(3000.0, 1)])
    """
    out: list[tuple[float, int]] = []
    low = text.lower()
    glued_at = -1  # where a CJK scale word ends: a number starting there adds to the last
    scale = 0.0
    for match in NUMBER_RE.finditer(text):
        number = parse_number(match.group())
        if number is None:
            continue
        end = match.end()
        tail = low[end : end + _SUFFIX_REACH].lstrip(" \xa0")
        gap = len(low[end : end + _SUFFIX_REACH]) - len(tail)
        multiplier = 1.0
        suffix_end = -1
        for length in _SUFFIX_LENGTHS:
            suffix = tail[:length]
            if (
                suffix in vocab.NUMBER_SUFFIXES
                and _word_ends(suffix, tail[length : length + 1])
                and _scales(suffix, tail[len(suffix) :])
            ):
                multiplier = vocab.NUMBER_SUFFIXES[suffix]
                suffix_end = end + gap + len(suffix)
                break
        number *= multiplier
        if out and match.start() == glued_at and number < scale:
            out[-1] = (out[-1][0] + number, end)
        else:
            out.append((number, end))
        unspaced = suffix_end > 0 and ord(low[suffix_end - 1]) >= _UNSPACED_SCRIPTS
        glued_at, scale = (suffix_end, multiplier) if unspaced else (-1, 0.0)
    return out


def _scales(suffix: str, rest: str) -> bool:
    """Whether a scale word of letters is one where it stands: not when another word follows
    that is no currency, unit or scale ("3 mie ayam")."""
    if len(suffix) < 3 or not suffix.isalpha():
        return True
    following = rest.split(maxsplit=1)
    if not following:
        return True
    word = following[0].strip(".,;:!?()")
    if not word or not word.isalpha():
        return True
    return (
        is_currency(word)
        or word in vocab.COUNT_UNITS
        or word in vocab.NUMBER_SUFFIXES
        or word in vocab.PRICE_QUALIFIERS
    )


def _word_ends(suffix: str, following: str) -> bool:
    """Whether a scale word ends before ``following``: at a non-letter, or anywhere in the
    scripts written without spaces ("450万円", "3억원": the scale word glued to the unit)."""
    return not following.isalpha() or ord(suffix[-1]) >= _UNSPACED_SCRIPTS


_UNSPACED_SCRIPTS = 0x2E80
"""The first code point of the CJK radicals: from there on, Han, kana and Hangul."""
# The longest scale word first: "nghìn tỷ" before "nghìn", "mio." before "mio".
_SUFFIX_LENGTHS = tuple(sorted({len(word) for word in vocab.NUMBER_SUFFIXES}, reverse=True))
_SUFFIX_REACH = _SUFFIX_LENGTHS[0] + 2
"""How far after a number its scale word is looked for: the longest word and two spaces."""
# A minus sign (or accounting parentheses) before the first digit: "-$5", "- 5 €", "($12)".
NEGATIVE_RE = lazy(
    r"^[^\w\d]{0,3}[-−‑]\s*[^\W\d_]{0,3}\s*[^\w\s]?\s*\d|^\(\s*[^\w\s]?\s*\d[^)]*\)$"
)

# A price level: "$$" .. "$$$$" (a lone "$" is no level).
PRICE_LEVEL_RE = lazy(r"^([$€£¥₹₩₽₦₫৳₺])\1{1,3}$")

# A number with an area unit after it ("85 m²", "120 sq ft", "45 ㎡"): a size, in any language
# CLDR writes units for.
AREA_RE = lazy(
    lambda: (
        r"\d\s*(?:"
        + "|".join(re.escape(unit) for unit in sorted(vocab.AREA_UNITS, key=len, reverse=True))
        + r")(?:\s|$|[.,)])"
    ),
    re.IGNORECASE,
)
