"""Shared helpers for clear error messages: did-you-mean hints and value-kind checks."""

from __future__ import annotations

import difflib
import math
import sys
from collections.abc import Iterable, Mapping
from numbers import Real
from typing import Any

__all__ = ["did_you_mean", "unknown_name_error", "check_config_value", "check_finite_number"]


def edit_distance(first: str, second: str) -> int:
    """Levenshtein distance: the fewest one-character insertions, deletions or substitutions.

    Example:
        >>> edit_distance("lenint", "lenient"), edit_distance("MyCrawler-v0", "CartPole-v0")
        (1, 7)
    """
    previous = list(range(len(second) + 1))
    for i, char in enumerate(first, 1):
        current = [i]
        for j, other in enumerate(second, 1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other))
            )
        previous = current
    return previous[-1]


def did_you_mean(name: str, valid: Iterable[str]) -> str:
    """Return ``" Did you mean 'x'?"`` for the closest valid name, or ``""`` if none is close.

    Close means a typo or an abbreviation away, case aside: within a quarter of the name's
    length in edits (at least 2), or sharing at least 80 % of the two names' characters in
    order (``reward_cfg`` for ``reward_config``). A name further off gets no suggestion -
    "MyCrawler-v0" is not a misspelt "CartPole-v0", however much the version suffix makes
    them look alike. Of equally close names the later one is suggested (``CartPole-v1`` for
    ``CartPole-v9``).

    Example:
        >>> did_you_mean("lenint", ["lenient", "strict"])
        " Did you mean 'lenient'?"
        >>> did_you_mean("reward_cfg", ["reward_config", "render_mode"])
        " Did you mean 'reward_config'?"
        >>> did_you_mean("MyCrawler-v0", ["CartPole-v0", "rlm_gym/Crawl-v2"])
        ''
    """
    text = str(name).lower()
    limit = max(2, len(text) // 4)
    close = []
    for index, candidate in enumerate(dict.fromkeys(map(str, valid))):
        distance = edit_distance(text, candidate.lower())
        similarity = difflib.SequenceMatcher(None, text, candidate.lower()).ratio()
        if distance <= limit or similarity >= 0.8:
            # Ties go to the later name: of versioned ids, the newest registered.
            close.append((distance, -similarity, -index, candidate))
    return f" Did you mean '{min(close)[3]}'?" if close else ""


def unknown_name_error(what: str, name: str, valid: Iterable[str], where: str = "") -> ValueError:
    """Build the ``ValueError`` for an unknown name: the name, a suggestion and the valid names."""
    valid = list(valid)
    location = f" {where.strip()}" if where else ""
    available = ", ".join(repr(v) for v in valid) if valid else "(none)"
    return ValueError(
        f"Unknown {what} '{name}'{location}.{did_you_mean(name, valid)} Available: {available}"
    )


def check_finite_number(key: str, value: Any, where: str) -> float:
    """Return ``value`` as a float, or raise if it is not a real, finite, non-bool number."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(
            f"Expected `{key}`{where} to be a number, got {type(value).__name__} {value!r}"
        )
    if not math.isfinite(value):
        raise ValueError(f"Expected `{key}`{where} to be a finite number, got {value!r}")
    return float(value)


def check_config_value(key: str, default: Any, value: Any, where: str) -> None:
    """Check that ``value`` has the kind of ``default`` (the policy's default for ``key``).

    The kind is read off the default: a bool wants a bool; a number wants a finite, non-bool
    number; a string wants a string; a tuple or list wants a tuple or list; a mapping wants a
    mapping whose entries are checked against the default mapping's entries of the same key
    (keys the default lacks are checked against the default's first value, so open mappings
    such as per-pattern targets accept new names with the right kind of value). A default of
    ``None`` accepts anything: the policy checks such keys itself.
    """
    if default is None:
        return
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise TypeError(
                f"Expected `{key}`{where} to be a bool, got {type(value).__name__} {value!r}"
            )
    elif isinstance(default, Real):
        check_finite_number(key, value, where)
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise TypeError(
                f"Expected `{key}`{where} to be a string, got {type(value).__name__} {value!r}"
            )
    elif isinstance(default, (tuple, list)):
        if not isinstance(value, (tuple, list)):
            raise TypeError(
                f"Expected `{key}`{where} to be a list or tuple, "
                f"got {type(value).__name__} {value!r}"
            )
    elif isinstance(default, Mapping):
        if not isinstance(value, Mapping):
            raise TypeError(
                f"Expected `{key}`{where} to be a mapping, got {type(value).__name__} {value!r}"
            )
        fallback = next(iter(default.values()), None)
        for sub_key, sub_value in value.items():
            check_config_value(
                f"{key}[{sub_key!r}]", default.get(sub_key, fallback), sub_value, where
            )


def too_deep(line: int | None = None) -> ValueError:
    """The error for JSON nested deeper than Python's decoder can follow (it recurses once per
    level, so a list of lists 20,000 deep exceeds the interpreter's recursion limit).

    Example:
        >>> print(too_deep(3))  # doctest: +ELLIPSIS
        line 3: JSON nested too deeply to read: Python's JSON decoder follows about ...
    """
    where = f"line {line}: " if line is not None else ""
    return ValueError(
        f"{where}JSON nested too deeply to read: Python's JSON decoder follows about "
        f"{sys.getrecursionlimit():,} levels of arrays and objects, and this value goes deeper"
    )
