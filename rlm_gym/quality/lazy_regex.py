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
from typing import Any

__all__ = ["LazyPattern", "lazy"]


class LazyPattern:
    """A regular expression compiled on its first use, then as fast as a compiled one.

    Args:
        pattern: The pattern, as for :func:`re.compile`.
        flags: The flags, as for :func:`re.compile`.
    """

    _METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "split")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        compiled = re.compile(*self._args)
        for method in self._METHODS:  # later calls find plain attributes, no __getattr__
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


def lazy(pattern: str, flags: int = 0) -> LazyPattern:
    """A :class:`LazyPattern` of ``pattern`` and ``flags``."""
    return LazyPattern(pattern, flags)
