"""The rating rule: a score on a known scale, with the units and scale words of the common
scraping languages ("4.5 out of 5 stars", "4,5 von 5 Sternen", "5 sao", "★★★★☆")."""

from __future__ import annotations

import re

from rlm_gym.quality import vocab
from rlm_gym.quality.lazy_regex import combining_marks, lazy
from rlm_gym.quality.numbers import NEGATIVE_RE

__all__ = [
    "BARE_SCORE_RE",
    "STAR_WORD_RE",
    "STATED_SCALE_RE",
    "rating_reason",
    "rating_reason_in_column",
]

# A scale stated in words or signs: "/10", "of 10", "sur 10", "von 100", "z 10", "из 10", "%".
STATED_SCALE_RE = lazy(
    r"(?:/|\bof\b|\bsur\b|\bvon\b|\bde\b|\bz\b|\bиз\b|\bout of\b)\s*(10|100)\b|(%)"
)

_SCORE = r"(\d{1,3}(?:[.,]\d{1,2})?)"
_SCALE_WORDS = "|".join(
    re.escape(word).replace(r"\ ", r"\s+")
    for word in sorted(vocab.SCALE_WORDS, key=len, reverse=True)
)
_UNITS = "|".join(re.escape(word) for word in sorted(vocab.RATING_UNITS, key=len, reverse=True))
_PREFIX = r"(?:[^\W\d_]+\s*[:.]?\s+){0,2}"
_SUFFIX = r"(?:\s+(?:rating|ratings|average|avg|overall|note|bewertung))?"
_SCALED_RE = lazy(
    rf"^{_PREFIX}{_SCORE}\s*(?:{_SCALE_WORDS})\s*(\d{{1,3}})(?:[.,]0{{1,2}})?"
    rf"(?:\s*(?:{_UNITS})\.?)?{_SUFFIX}(?:\s*\(\s*[\d.,\s]+[^\W\d_]*\s*\))?$",
    re.IGNORECASE,
)
_UNIT_RE = lazy(
    rf"^{_PREFIX}{_SCORE}\s*(?:{_UNITS}|[★⭐☆])+\.?{_SUFFIX}"
    r"(?:\s*\(\s*[\d.,\s]+[^\W\d_]*\s*\))?$",
    re.IGNORECASE,
)
_PERCENT_RE = lazy(rf"^{_PREFIX}(\d{{1,3}}(?:[.,]\d{{1,2}})?)\s*%$")
# A score alone, perhaps labelled and with a vote count: "4.5", "Rating: 4.2", "4.6 (1,234)".
BARE_SCORE_RE = lazy(rf"^{_PREFIX}{_SCORE}(?:\s*\(\s*[\d.,\s]+[^\W\d_]*\s*\))?$")
# A star count as a word, as in class names and alt texts: "Three", "star-rating Five".
STAR_WORD_RE = lazy(
    rf"^(?:star[- ]rating\s+)?({'|'.join(vocab.STAR_WORDS)})(?:\s+(?:{_UNITS}))?$",
    re.IGNORECASE,
)


# Any language's words around a score, for scores whose words the tables lack: "4.5 από 5",
# "4,5 av 5", "4.5 מתוך 5" (a scale), "4,5 hvězdičky", "4.5점", "4 tähteä" (a unit).
def _word() -> str:
    return rf"(?:[^\W\d_]|[{combining_marks()}])"


_WORD_SCALE_RE = lazy(
    lambda: rf"^{_SCORE}\s*({_word()}{{1,12}})\.?\s+(\d{{1,3}})(?:[.,]0{{1,2}})?$"
)
_WORD_UNIT_RE = lazy(lambda: rf"^[★⭐]?\s*{_SCORE}\s*({_word()}{{1,15}})\.?$")


def _foreign_words_reason(text: str) -> str | None:
    """A score with one word of any language: a scale ("4,5 av 5": valid up to that scale) or
    a unit ("4,5 hvězdičky": valid in [0, 5]). Count, time and currency words are no rating
    units ("4 reviews", "4 days": a shifted column). None when the text has neither shape."""
    match = _WORD_SCALE_RE.match(text)
    if match:
        score, scale = _score(match.group(1)), int(match.group(3))
        if not 3 <= scale <= 100:
            return None
        return "" if 0 <= score <= scale else "out of range"
    match = _WORD_UNIT_RE.match(text)
    if match:
        word = match.group(2).lower()
        if word in vocab.COUNT_UNITS or word in vocab.TIME_UNITS or word in vocab.CURRENCY_WORDS:
            return None
        if word in vocab.CURRENCY_CODES or word in vocab.NUMBER_SUFFIXES:
            return None
        return "" if 0 <= _score(match.group(1)) <= 5 else "out of range"
    return None


def rating_reason_in_column(text: str) -> str:
    """:func:`rating_reason` for a value of a column already typed a rating: a score with one
    word of any language around it counts too ("4,5 av 5", "4.5점", "4 tähteä"). What a value
    looks like *alone* (column typing, shifted columns) keeps to the known words.

    Example:
        >>> rating_reason_in_column("4,5 av 5"), rating_reason_in_column("4.5 αστέρια")
        ('', '')
        >>> rating_reason_in_column("4 reviews"), rating_reason_in_column("45 tähteä")
        ('not a rating', 'out of range')
    """
    reason = rating_reason(text)
    if reason == "not a rating":
        foreign = _foreign_words_reason(text)
        if foreign is not None:
            return foreign
    return reason


def _score(text: str) -> float:
    return float(text.replace(",", "."))


def rating_reason(text: str) -> str:
    """The reason a stripped, junk-free text is no usable rating, or ``""``.

    A score needs a known scale: "4.5/5", "8 sur 10", "88%", or, without one, a score in
    [0, 5] alone or with a star unit ("4,5 Sterne", "5 sao"); star glyphs and star words count.

    Example:
        >>> rating_reason("4.5 out of 5 stars"), rating_reason("★★★★☆"), rating_reason("Three")
        ('', '', '')
        >>> rating_reason("45"), rating_reason("6/5"), rating_reason("great")
        ('out of range', 'out of range', 'not a rating')
    """
    if all(char in vocab.STAR_GLYPHS or char.isspace() for char in text):
        return ""
    if STAR_WORD_RE.match(text):
        return ""
    match = _SCALED_RE.match(text)
    if match:
        score, scale = _score(match.group(1)), int(match.group(2))
        if not 3 <= scale <= 100:
            return "not a rating"
        return "" if 0 <= score <= scale else "out of range"
    match = _PERCENT_RE.match(text)
    if match:
        return "" if 0 <= _score(match.group(1)) <= 100 else "out of range"
    match = _UNIT_RE.match(text) or BARE_SCORE_RE.match(text)
    if match:
        return "" if 0 <= _score(match.group(1)) <= 5 else "out of range"
    if NEGATIVE_RE.match(text):
        return "out of range"
    return "not a rating"
