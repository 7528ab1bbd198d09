"""Regular expressions compiled on first use.

The value rules hold a few dozen patterns, some of them built from the word tables; compiling
them all costs about 20 ms, which ``import rlm_gym`` should not pay for a program that never
judges a value.

Example:
    >>> pattern = lazy(r"\\d+")
    >>> pattern.findall("12 apples, 3 pears")
    ['12', '3']
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from typing import Any

__all__ = ["LazyPattern", "lazy", "combining_marks"]


@lru_cache(maxsize=1)
def combining_marks() -> str:
    """A character-class body of every combining mark of the Basic Multilingual Plane (Thai
    and Indic vowel signs, Hebrew points, Arabic harakat...): the letters ``[^\\W\\d_]`` leaves
    out of a word. Built once, on first use (about 10 ms)."""
    ranges: list[list[int]] = []
    for code in range(0x300, 0x10000):
        if unicodedata.category(chr(code))[0] == "M":
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    return "".join(
        re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
        for a, b in ranges
    )


class LazyPattern:
    """A regular expression compiled on its first use, then as fast as a compiled one.

    Args:
        pattern: The pattern, as for :func:`re.compile`.
        flags: The flags, as for :func:`re.compile`.
    """

    _METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "split")

    def __init__(self, pattern: str | Callable[[], str], flags: int = 0) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        pattern, flags = self._args
        compiled = re.compile(pattern() if callable(pattern) else pattern, flags)
        for method in self._METHODS:  # later calls find plain attributes, no __getattr__
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


def lazy(pattern: str | Callable[[], str], flags: int = 0) -> LazyPattern:
    """A :class:`LazyPattern` of ``pattern`` (or of what a callable returns, called on first
    use: a pattern built from tables that are costly to make) and ``flags``."""
    return LazyPattern(pattern, flags)
