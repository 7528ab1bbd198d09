"""The data passed to and returned by reward policies: ActionResult, RewardSignal, PolicyContext."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ActionResult", "RewardSignal", "PolicyContext"]

_INF = math.inf


@dataclass(slots=True)
class ActionResult:
    """The outcome of one executed action.

    Args:
        action_type: The kind of action (``"code"``, ``"fetch"``, ``"final"``, ...).
        success: Whether the action succeeded.
        output: Text the action produced.
        error: Error text, if any.
        duration_ms: Wall time of the action in milliseconds (finite, ``>= 0``).
        tokens_used: Tokens the action consumed (``>= 0``).
        metadata: Anything else (e.g. ``{"partial": 0.5}`` or ``{"crawl_result": {...}}``).

    Raises:
        ValueError: If ``duration_ms`` is negative or not finite, or ``tokens_used`` is negative.

    Example:
        >>> ActionResult(action_type="code", success=True, output="42").success
        True
        >>> ActionResult(action_type="code", success=True, duration_ms=-1.0)
        Traceback (most recent call last):
        ...
        ValueError: Expected `duration_ms` to be a finite number >= 0, got -1.0
    """

    action_type: str
    success: bool
    output: str = ""
    error: str | None = None
    duration_ms: float = 0.0
    tokens_used: int = 0
    metadata: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        duration = self.duration_ms
        # `not (x >= 0)` also rejects NaN, so two comparisons check "finite and >= 0".
        if not (duration >= 0.0) or duration == _INF:
            raise ValueError(
                f"Expected `duration_ms` to be a finite number >= 0, got {self.duration_ms!r}"
            )
        if self.tokens_used < 0:
            raise ValueError(f"Expected `tokens_used` to be >= 0, got {self.tokens_used!r}")


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


@dataclass(slots=True)
class PolicyContext:
    """What a policy knows about the episode when it scores an action.

    Args:
        task: The task description (the wrapper uses the env's spec id by default).
        step: 0-based index of the action being scored within its episode.
        max_steps: The episode's step budget.
        history: Earlier ``(action, ActionResult, value)`` entries of this episode
            (the wrapper appends one per scored step).
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
    history: list[Any] = field(default_factory=list)
    variables: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
