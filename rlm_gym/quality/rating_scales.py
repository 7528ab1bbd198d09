"""The scale a rating column's bare scores are on (SPEC §11 "Scales"), read by the item judge
(:mod:`rlm_gym.quality.judge`): stated once by the crawl, in the field name ("score_10") or
in one value ("8.5/10"), else 10 for a column of bare scores within [0, 10], else 5.

Example:
    >>> rating_scale("rating", ["8.5/10", "7.2", 9])
    10.0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from rlm_gym.quality.names import field_tokens
from rlm_gym.quality.numbers import ascii_digits, parse_number
from rlm_gym.quality.ratings import STATED_SCALE_RE

__all__ = ["on_scale", "rating_scale"]


def _bare_score(value: Any) -> float | None:
    """A rating value that is a bare non-negative number (4, 8.5, "7,5", "9.99590570719603",
    any digits), or None."""
    kind = type(value)
    if kind is int or kind is float:
        if value != value or value < 0:
            return None
        return float(value) if value < 1e300 else float("inf")  # 10**400: beyond every scale
    if kind is str and len(value) <= 24:  # a float's repr: 17 significant digits
        text = ascii_digits(value.strip())
        if text and text[0].isdecimal() and text.replace(".", "", 1).replace(",", "", 1).isdigit():
            return parse_number(text)
    return None


def rating_scale(name: str, values: Sequence[Any]) -> float:
    """The scale a rating column's bare scores are on: the one the crawl states once, in the
    field name ("score_10", "Rating (/10)", "Note sur 10") or in one of the column's values
    ("8.5/10" among bare "7.9", "9"), when the bare scores all lie within it; else 10 when they
    all lie in [0, 10] (SPEC §11: a column of bare 1-10 scores is on the site's 10-point scale,
    as on IMDb and Booking); else 5, so a 45 among 4.5s stays out of range. A column within
    [0, 100] is on a percent-like scale only where its name or a value says so.

    Example:
        >>> rating_scale("rating", ["8.5/10", "7.2", 9]), rating_scale("score_100", [87, 92])
        (10.0, 100.0)
        >>> rating_scale("rating", ["9", "10", "8"]), rating_scale("rating", ["45", "43"])
        (10.0, 5.0)
    """
    scores = [score for score in map(_bare_score, values) if score is not None]
    if not scores or max(scores) <= 5:
        return 5.0  # nothing beyond the default scale: no scale to look for
    stated = _name_scale(name)
    if stated is None:
        for value in values[:200]:
            if type(value) is str and len(value) <= 40:
                stated = _stated_scale(value)
                if stated is not None:
                    break
    if stated is not None and max(scores) <= stated:
        return stated
    return 10.0 if max(scores) <= 10 else 5.0


@lru_cache(maxsize=4096)
def _name_scale(name: str) -> float | None:
    tokens = field_tokens(name)
    return 100.0 if "100" in tokens else 10.0 if "10" in tokens else _stated_scale(name)


def _stated_scale(text: str) -> float | None:
    match = STATED_SCALE_RE.search(text.lower())
    if match is None:
        return None
    return 100.0 if match.group(2) else float(match.group(1))


def on_scale(judge: Callable[[Any], str], scale: float) -> Callable[[Any], str]:
    """``judge`` with bare scores up to ``scale`` accepted (a score written with all of a
    float's digits, "9.99590570719603", is as much a score as "10.0").

    Example:
        >>> on_scale(lambda value: "out of range", 10.0)("8.5")
        ''
    """

    def judge_on_scale(value: Any) -> str:
        reason = judge(value)
        if reason in ("out of range", "not a rating"):
            score = _bare_score(value)
            if score is not None and score <= scale:
                return ""
        return reason

    return judge_on_scale
