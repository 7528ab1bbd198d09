"""Texts cut short: a summary column whose values end their sentences, holding a few values
that stop mid-sentence and are far shorter than the rest ("Il a réalisé «", "La 46") — the
selector stopped at the first inline element (issue 35's *truncate* defect).

Language-free: a value's length and its last character against its column's. A column is read
when at least ``min_values`` texts have a median length of ``min_median_chars`` or more and at
least ``ended_share`` of them end with a sentence's end (".", "!", "?", "…", "。", a closing
quote or bracket); a value there is cut short when it is at most ``max_length_ratio`` of the
median long and does not end so. Columns of titles, names or short reviews, which seldom end
with a full stop, are never read.

Example:
    >>> summary = "Le conseil a voté la loi numéro {} après un long débat sur le budget."
    >>> summaries = [summary.format(n) for n in range(9)]
    >>> sorted(truncated_values(summaries + ["Il a réalisé «"]))
    ['Il a réalisé «']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["TRUNCATED", "TRUNCATION_SETTINGS", "truncated_values"]

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

_ENDS = (
    ".",
    "!",
    "?",
    "\u2026",
    "\u3002",
    "\uff01",
    "\uff1f",
    "\u00bb",
    '"',
    "\u201d",
    ")",
    "\uff09",
    "\u300d",
    "\u300f",
)


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
    ended = sum(stripped[text].endswith(_ENDS) for text in texts)
    if ended < chosen["ended_share"] * len(texts):
        return frozenset()
    limit = chosen["max_length_ratio"] * median
    return frozenset(
        text for text, bare in stripped.items() if len(bare) <= limit and not bare.endswith(_ENDS)
    )
