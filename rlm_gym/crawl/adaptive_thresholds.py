"""Adaptive thresholds: a pattern type's success threshold rises once the agent is reliably good.

A knowledge store with ``adaptive_thresholds`` applies :data:`ADAPTIVE_RULE` to the rewards
it recorded for a pattern type, so "success" keeps meaning "better than usual" as the agent
improves (see ``docs/crawl-reward.md``).
"""

from __future__ import annotations

from collections.abc import Mapping

from rlm_gym._validation import unknown_name_error

__all__ = ["ADAPTIVE_RULE", "checked_adaptive_rule", "adapted_thresholds"]

ADAPTIVE_RULE: dict[str, float] = {"min_records": 100, "min_mean": 0.80, "margin": 0.10}
"""Adaptive thresholds: once a type has ``min_records`` records with mean reward above
``min_mean``, its success threshold becomes max(static, mean - margin), at most excellent."""


def checked_adaptive_rule(overrides: Mapping[str, float] | None) -> dict[str, float]:
    """:data:`ADAPTIVE_RULE` with ``overrides`` (None: none).

    Raises:
        ValueError: An unknown key (with the closest valid one).

    Example:
        >>> checked_adaptive_rule({"margin": 0.05})
        {'min_records': 100, 'min_mean': 0.8, 'margin': 0.05}
    """
    rule = dict(overrides or {})
    for key in rule:
        if key not in ADAPTIVE_RULE:
            raise unknown_name_error("adaptive rule key", key, ADAPTIVE_RULE)
    return {**ADAPTIVE_RULE, **rule}


def adapted_thresholds(
    row: dict[str, float], count: int, mean: float, rule: Mapping[str, float]
) -> dict[str, float]:
    """``row`` (a pattern type's static thresholds, changed in place and returned) with its
    success threshold raised by ``rule`` for ``count`` records of mean reward ``mean``.

    Example:
        >>> static = {"failure": 0.3, "success": 0.6, "excellent": 0.85, "min_items": 1}
        >>> round(adapted_thresholds(dict(static), 100, 0.88, ADAPTIVE_RULE)["success"], 6)
        0.78
        >>> adapted_thresholds(dict(static), 99, 0.88, ADAPTIVE_RULE)["success"]
        0.6
    """
    if count >= rule["min_records"] and mean > rule["min_mean"]:
        raised = max(row["success"], mean - rule["margin"])
        row["success"] = min(row["excellent"], raised)
    return row
