# ruff: noqa: RUF001 - ordinal signs are the point
"""The count rule: a non-negative number with its units ("197 đánh giá", "1.5K", "3 тыс.
отзывов"), not a sentence, date, price or notice that happens to hold digits."""

from __future__ import annotations

import re

from rlm_gym.quality import vocab
from rlm_gym.quality.lazy_regex import lazy
from rlm_gym.quality.numbers import NEGATIVE_RE, amounts, leftover_words

__all__ = ["count_reason"]

_NOT_COUNT_RE = lazy(
    r"©|®|™|copyright|all rights reserved|https?://|www\.|\.(?:com|org|net)\b|@|"
    r"\b(?:19|20)\d\d\s*[-–]\s*(?:19|20)\d\d\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}:\d{2}\b|"
    r"\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b|"
    # ordinals are positions, not counts ("Planta 2ª", "3rd floor", "1er étage")
    r"\d\s*[ªº°]|\b\d+(?:st|nd|rd|th|er|e|ème|eme)\b",
    re.IGNORECASE,
)
_ISO_DURATION_RE = lazy(r"^P(?:\d+[YMWD])*(?:T(?:\d+(?:\.\d+)?[HMS])+)?$", re.IGNORECASE)


def count_reason(text: str) -> str:
    """The reason a stripped, junk-free text is no usable count, or ``""``.

    A count is a number (K/M suffixes, ranges and "+" allowed) with at most a few words of
    units around it, or an ISO 8601 duration; copyright lines, URLs, dates, times, prices and
    ordinals hold digits but are no counts.

    Example:
        >>> count_reason("1,000+ sold"), count_reason("Dibaca 34.743 kali"), count_reason("PT45M")
        ('', '', '')
        >>> count_reason("© 1996-2024, Amazon.com, Inc."), count_reason("3rd floor")
        ('not a count', 'not a count')
    """
    if _ISO_DURATION_RE.match(text) and len(text) > 1:
        return ""
    numbers = amounts(text)
    if not numbers:
        return "not a count"
    if NEGATIVE_RE.match(text) and not text.startswith("("):
        return "negative"
    if _NOT_COUNT_RE.search(text) or any(char in vocab.CURRENCY_SYMBOLS for char in text):
        return "not a count"
    words = [word for word in leftover_words(text) if word.isalpha()]
    if len(words) > 8 or len(text) > 80 or len(numbers) > 4:
        return "not a count"
    return ""
