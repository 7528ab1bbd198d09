"""The data passed to and returned by reward policies: ActionResult, RewardSignal, PolicyContext."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Any

import numpy as np

__all__ = ["ActionResult", "RewardSignal", "PolicyContext", "History", "DEFAULT_HISTORY_LIMIT"]

_INF = math.inf


@dataclass
class ActionResult:
    """The outcome of one executed action.

    A plain dataclass (no ``__slots__``), as in rlm-code: callers may attach attributes.

    Args:
        action_type: The kind of action (``"code"``, ``"fetch"``, ``"final"``, ...).
        success: Whether the action succeeded: a ``bool`` (a numpy bool is stored as one).
        output: Text the action produced (``None`` counts as ``""`` in the built-in policies).
        error: Error text, if any.
        duration_ms: Wall time of the action in milliseconds (finite, ``>= 0``).
        tokens_used: Tokens the action consumed (``>= 0``).
        metadata: Anything else (e.g. ``{"partial": 0.5}`` or ``{"crawl_result": {...}}``).

    Raises:
        TypeError: If ``success`` is not a bool (``"false"`` and ``1`` are refused: either
            would silently count as a success), ``duration_ms`` or ``tokens_used`` is not a
            number, ``output`` / ``error`` is not a string or None, or ``metadata`` is not
            a mapping.
        ValueError: If ``duration_ms`` is negative or not finite, or ``tokens_used`` is negative.

    Example:
        >>> ActionResult(action_type="code", success=True, output="42").success
        True
        >>> ActionResult(action_type="code", success=True, duration_ms=-1.0)
        Traceback (most recent call last):
        ...
        ValueError: Expected `duration_ms` to be a finite number >= 0, got -1.0
        >>> ActionResult(action_type="code", success="false")
        Traceback (most recent call last):
        ...
        TypeError: Expected `success` to be a bool, got str 'false'
    """

    action_type: str
    success: bool
    output: str = ""
    error: str | None = None
    duration_ms: float = 0.0
    tokens_used: int = 0
    metadata: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Exact-type fast paths first: results are built once per env step.
        success = self.success
        if success is not True and success is not False:
            if not isinstance(success, np.bool_):
                raise TypeError(_kind_error("success", "a bool", success))
            self.success = bool(success)
        duration = self.duration_ms
        kind = type(duration)
        if kind is not float and kind is not int and not _is_number(duration):
            raise TypeError(_kind_error("duration_ms", "a finite number >= 0", duration))
        # `not (x >= 0)` also rejects NaN, so two comparisons check "finite and >= 0".
        if not (duration >= 0.0) or duration == _INF:
            raise ValueError(f"Expected `duration_ms` to be a finite number >= 0, got {duration!r}")
        tokens = self.tokens_used
        if type(tokens) is not int and not _is_integer(tokens):
            raise TypeError(_kind_error("tokens_used", "an int >= 0", tokens))
        if tokens < 0:
            raise ValueError(f"Expected `tokens_used` to be >= 0, got {tokens!r}")
        output = self.output
        if type(output) is not str and output is not None and not isinstance(output, str):
            raise TypeError(_kind_error("output", "a string or None", output))
        error = self.error
        if error is not None and not isinstance(error, str):
            raise TypeError(_kind_error("error", "a string or None", error))
        if type(self.metadata) is not dict and not isinstance(self.metadata, Mapping):
            raise TypeError(_kind_error("metadata", "a dict", self.metadata))


def _kind_error(name: str, expected: str, value: Any) -> str:
    return f"Expected `{name}` to be {expected}, got {type(value).__name__} {value!r}"


def _is_number(value: Any) -> bool:
    """A real number that is not a bool (numpy floats and ints included)."""
    return isinstance(value, Real) and not isinstance(value, (bool, np.bool_))


def _is_integer(value: Any) -> bool:
    """An integer that is not a bool (numpy integers included)."""
    return isinstance(value, Integral) and not isinstance(value, (bool, np.bool_))


_new_object = object.__new__


def trusted_action_result(
    action_type: str,
    success: bool,
    output: str = "",
    error: str | None = None,
    duration_ms: float = 0.0,
    tokens_used: int = 0,
    metadata: dict[str, Any] | None = None,
) -> ActionResult:
    """An ``ActionResult`` built without ``__post_init__``'s checks, for rlm_gym's per-step
    paths whose fields are valid by construction (the crawl env's step). Anything that comes
    from outside goes through ``ActionResult(...)``.

    Example:
        >>> trusted_action_result("fetch", True, duration_ms=12.0) == ActionResult(
        ...     "fetch", True, duration_ms=12.0
        ... )
        True
    """
    result = _new_object(ActionResult)
    result.action_type = action_type
    result.success = success
    result.output = output
    result.error = error
    result.duration_ms = duration_ms
    result.tokens_used = tokens_used
    result.metadata = {} if metadata is None else metadata
    return result


@dataclass(slots=True)
class RewardSignal:
    """A reward value with its additive breakdown.

    Args:
        value: The total reward (built-in policies already clamp it to their ``value_range``).
        components: Additive parts, by name; for built-ins they sum to ``value`` before clamping.
        explanation: Human-readable explanation.
        details: Non-additive diagnostics (tier, pattern type, raw sub-scores, ...).

    Example:
        >>> RewardSignal(1.3, {"success": 0.8, "final": 0.5}).clamped
        1.0
    """

    value: float
    components: dict[str, float] = field(default_factory=dict)
    explanation: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def clamped(self) -> float:
        """The value limited to [-1, 1]."""
        return max(-1.0, min(1.0, self.value))

    def describe(self) -> str:
        """A one-line human-readable breakdown: each component, then the value.

        Example:
            >>> RewardSignal(0.8, {"base": 0.1, "success": 0.7}, "default").describe()
            'default: base +0.1000, success +0.7000 -> 0.8000'
        """
        parts = ", ".join(f"{name} {part:+.4f}" for name, part in self.components.items())
        prefix = f"{self.explanation}: " if self.explanation else ""
        return f"{prefix}{parts or 'no components'} -> {self.value:.4f}"


DEFAULT_HISTORY_LIMIT = 1_000


class History(deque):
    """The last ``limit`` entries of an episode's history, oldest first.

    A ``deque`` with a ``maxlen`` (appending past the limit drops the oldest entry in constant
    time, so a million-step episode holds ``limit`` entries, not a million) that reads like a
    list: ``len``, iteration, ``history[-1]``, slices (``history[-5:]`` is a ``list``) and
    ``==`` with a list all work as on the list rlm-code policies expect.

    Args:
        entries: Initial entries (only the last ``limit`` are kept).
        limit: The most entries kept (``>= 0``).

    Raises:
        TypeError: If ``limit`` is not an int.
        ValueError: If ``limit`` is negative.

    Example:
        >>> history = History(limit=2)
        >>> for step in range(3):
        ...     history.append({"reward": float(step)})
        >>> len(history), history[-1], history[:1], history == [{"reward": 1.0}, {"reward": 2.0}]
        (2, {'reward': 2.0}, [{'reward': 1.0}], True)
    """

    __slots__ = ()

    def __init__(self, entries: Iterable[Any] = (), limit: int = DEFAULT_HISTORY_LIMIT) -> None:
        # An exact int first: a History is built at every reset, and the ABC check is slow.
        if type(limit) is not int and (isinstance(limit, bool) or not isinstance(limit, Integral)):
            raise TypeError(_kind_error("history_limit", "an int >= 0", limit))
        if limit < 0:
            raise ValueError(f"Expected `history_limit` to be an int >= 0, got {limit!r}")
        deque.__init__(self, entries, limit if type(limit) is int else int(limit))

    @property
    def limit(self) -> int:
        """The most entries kept."""
        return self.maxlen  # type: ignore[return-value]

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return list(self)[index]
        return deque.__getitem__(self, index)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list):
            return len(self) == len(other) and list(self) == other
        return deque.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (list(self), self.maxlen)

    def __repr__(self) -> str:
        return f"History({list(self)!r}, limit={self.maxlen})"


@dataclass
class PolicyContext:
    """What a policy knows about the episode when it scores an action.

    A plain dataclass, as in rlm-code (callers may attach attributes).

    Args:
        task: The task description (the wrapper uses the env's spec id by default).
        step: 0-based index of the action being scored within its episode.
        max_steps: The episode's step budget.
        history: Earlier steps of this episode, oldest first, each a dict
            ``{"action": dict, "result": ActionResult, "reward": float}`` (rlm-code's form).
            The wrapper appends one per scored step to a :class:`History` that keeps the last
            ``history_limit`` (1,000 by default).
        variables: Free-form task variables (e.g. an expected result).
        metrics: Free-form running metrics.
        config: Free-form run configuration.

    Example:
        >>> PolicyContext(task="compute answer", step=2).max_steps
        10
    """

    task: str = ""
    step: int = 0
    max_steps: int = 10
    history: list[dict[str, Any]] = field(default_factory=list)
    variables: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
