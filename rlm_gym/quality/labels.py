# ruff: noqa: RUF001, RUF002 - the full-width colon and typographic apostrophes are the point
"""A value that carries its own label: "Price: 3,7 mld" under ``price``, "Area: 120 m2" under
``area`` — the scraper took the label's element with the value's (issue 35).

The label is read off the value's start (a word or two before a colon, "：" included) and
compared, accents folded, with the field name's own tokens in any language ("Cena: 1.700 €"
under ``cena``) and, for the typed columns whose name words are tables (price, count, rating,
date), with those words ("Preis: 12 €" under ``price``). Phone, e-mail and link columns are
left alone: "Tel: 030 1234" is how a contact page writes a number; so are texts longer than
``LABELLED_MAX_CHARS`` (a "Job Description: ..." heading opens a body of text).

Example:
    >>> carried_label("Price: 3,7 mld", "price", "price"), carried_label("37", "price", "price")
    ('price', None)
    >>> carried_label("Cena: 1.700 €", "Cena", "price"), carried_label("Note: ok", "title", "text")
    ('cena', None)
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from rlm_gym.quality import vocab
from rlm_gym.quality.names import field_tokens

__all__ = ["LABELLED_VALUE", "LABELLED_MAX_CHARS", "carried_label"]

LABELLED_VALUE = "label in the value"
"""The reason of a value that carries its own label."""

LABELLED_MAX_CHARS = 60
"""Longer values are texts, which may open with a heading."""

_LABEL_RE = re.compile(r"^\s*([^\W\d_][^\W\d_.'’-]*(?:[ -][^\W\d_][^\W\d_.'’-]*)?)\s*[:：]\s*\S")
_TABLE_TYPES = frozenset({"price", "count", "rating", "date"})


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
