"""The price rule: a positive amount in any currency and decimal convention, with the words a
shop writes around it ("From", "/mo", "inkl. MwSt."), a price level ("$$") or "Free"."""

from __future__ import annotations

from rlm_gym.quality import vocab
from rlm_gym.quality.numbers import (
    AREA_RE,
    NEGATIVE_RE,
    PRICE_LEVEL_RE,
    amounts,
    is_currency,
    leftover_words,
)

__all__ = ["price_reason"]


def price_reason(text: str) -> str:
    """The reason a stripped, junk-free text is no usable price, or ``""``.

    A price is a positive amount with at most two unknown words around it (currencies,
    qualifiers such as "From" or "/mo", "Free" and number suffixes are known), or a price level
    ("$$"), or a stated zero ("Free", "Kostenlos").

    Example:
        >>> price_reason("From $19.99/mo"), price_reason("Kostenlos"), price_reason("$0.00")
        ('', '', 'zero amount')
        >>> price_reason("Price on application"), price_reason("-5.00 €")
        ('not a price', 'negative')
        >>> price_reason("13 m²"), price_reason("1.200 €/m²")
        ('not a price', '')
    """
    low = text.lower()
    if PRICE_LEVEL_RE.match(text):
        return ""
    words = leftover_words(text)
    numbers = amounts(text)
    if not numbers:
        return "" if words and any(word in vocab.FREE_WORDS for word in words) else "not a price"
    if NEGATIVE_RE.match(text) and not low.startswith("("):
        return "negative"
    unknown = [
        word
        for word in words
        if not is_currency(word)
        and word not in vocab.PRICE_QUALIFIERS
        and word not in vocab.FREE_WORDS
        and word not in vocab.NUMBER_SUFFIXES
    ]
    if len(unknown) > 2 or len(numbers) > 4 or len(text) > 80:
        return "not a price"
    # A size and no currency ("13 m²" where the price should be): an area, not an amount.
    if AREA_RE.search(text) and not _has_currency(text, words):
        return "not a price"
    if any(number <= 0 for number, _ in numbers):
        return "zero amount"
    return ""


def _has_currency(text: str, words: list[str]) -> bool:
    return any(is_currency(word) for word in words) or any(
        char in vocab.CURRENCY_SYMBOLS for char in text
    )
