"""Texts cut short: a summary column whose values end their sentences, holding a few values
that stop mid-sentence — the selector stopped at the first inline element, or the scraper cut
the text at a length (issue 35's *truncate* defect). One rule, one reason (``"cut short"``).

Language-free: a value's length and its end against its column's. A column is read when at
least ``min_values`` texts have a median length of ``min_median_chars`` or more and at least
``ended_share`` of them end a sentence (a full stop, a question or exclamation mark of any
script — ".", "。", "।", "؟" —, an ellipsis, a closing quote or bracket). A value there that does
not end a sentence is cut short when

- it is at most ``max_length_ratio`` of the median long ("Il a réalisé «"), or
- it ends *dangling*, on a space or a bare number of up to three digits ("... au titre de la
  18", "Organisé par "): a sentence does not stop there.

Columns of titles, names or short reviews, which seldom end a sentence, are never read.

Example:
    >>> summary = "Le conseil a voté la loi numéro {} après un long débat sur le budget."
    >>> summaries = [summary.format(n) for n in range(9)]
    >>> cut = "Le conseil a voté la loi après un long débat sur le budget de la 18"
    >>> sorted(truncated_values(summaries + ["Il a réalisé «", cut]))
    ['Il a réalisé «', 'Le conseil a voté la loi après un long débat sur le budget de la 18']
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

__all__ = ["TRUNCATED", "TRUNCATION_SETTINGS", "ends_a_sentence", "truncated_values"]

TRUNCATED = "cut short"
"""The reason of a text cut short."""

TRUNCATION_SETTINGS: dict[str, float] = {
    "min_values": 10,
    "min_median_chars": 60,
    "ended_share": 0.7,
    "max_length_ratio": 0.25,
}
"""When a text is cut short (see the module); ``ended_share`` and ``max_length_ratio`` are the
setting chosen by leave-one-corpus-out in ``benchmarks/judge_signals.py``."""

# Punctuation that goes on, whatever the script: a comma, a colon, a dash, an ideographic comma.
_NOT_TERMINAL = frozenset(",;:-\u2013\u2014\u3001\uff0c\uff1b\uff1a\u060c")
_DANGLING_DIGITS = 3


def ends_a_sentence(text: str) -> bool:
    """Whether a stripped, non-empty ``text`` ends a sentence, in any script: final punctuation
    (a full stop, "?", "!", "。", "।", "؟", "…"), a closing quote or bracket, or a symbol
    (an emoji closing a review).

    Example:
        >>> ends_a_sentence("Fin."), ends_a_sentence("यह ठीक है।"), ends_a_sentence("Organisé par")
        (True, True, False)
    """
    last = text[-1]
    category = unicodedata.category(last)
    return category in ("Pf", "Pe", "So") or (category == "Po" and last not in _NOT_TERMINAL)


def _dangling(raw: str, bare: str) -> bool:
    """Whether a text stops where no sentence does: on a space, or on a short bare number."""
    if raw != raw.rstrip():
        return True
    last = bare.rsplit(maxsplit=1)[-1]
    return last.isdecimal() and len(last) <= _DANGLING_DIGITS


def truncated_values(
    values: Sequence[Any], settings: dict[str, float] | None = None
) -> frozenset[str]:
    """The texts of ``values`` cut short against their column (none when the column is not a
    column of sentences).

    Args:
        values: The column's values (non-strings are ignored).
        settings: Overrides of :data:`TRUNCATION_SETTINGS`.

    Returns:
        The texts cut short, as they appear in ``values``.
    """
    chosen = TRUNCATION_SETTINGS if settings is None else {**TRUNCATION_SETTINGS, **settings}
    texts = [value for value in values if type(value) is str and value.strip()]
    if len(texts) < chosen["min_values"]:
        return frozenset()
    stripped = {text: text.strip() for text in dict.fromkeys(texts)}
    lengths = sorted(len(stripped[text]) for text in texts)
    median = lengths[len(lengths) // 2]
    if median < chosen["min_median_chars"]:
        return frozenset()
    ended = {text: ends_a_sentence(bare) for text, bare in stripped.items()}
    if sum(ended[text] for text in texts) < chosen["ended_share"] * len(texts):
        return frozenset()
    limit = chosen["max_length_ratio"] * median
    return frozenset(
        text
        for text, bare in stripped.items()
        if not ended[text] and (len(bare) <= limit or _dangling(text, bare))
    )
