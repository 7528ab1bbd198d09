"""A study variant's task outcome: means over seeds, 95 % CIs, paired differences.

The crawl env reports on every episode's last step what a crawl operator judges a crawler by
(``info["task"]``); ``evaluate`` averages it per run. A study compares variants on those means,
seed by seed against its reference variant, beside the true crawl score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rlm_gym.training.studies.stats import mean_ci95

__all__ = ["TASK_MEASURES", "mean_and_ci", "paired_differences", "paired_task_measures"]


def mean_and_ci(values: Sequence[float]) -> tuple[float | None, float | None]:
    """Mean and 95 % half-width; None where it does not exist (no value; one value's CI)."""
    mean, half = mean_ci95(values)
    return (mean if values else None), (half if len(values) > 1 else None)


# What a crawl operator measures (the crawl env's task outcome, ``evaluate``'s summary names).
TASK_MEASURES: tuple[str, ...] = (
    "job_done",
    "valid_items",
    "requests",
    "time_ms",
    "banned",
    "time_per_valid_item_ms",
)


def paired_task_measures(
    runs: Sequence[Mapping[str, Any]], reference: Sequence[Mapping[str, Any]]
) -> dict[str, dict[str, float | None]]:
    """Per task measure: the mean over seeds with its 95 % CI and the paired difference to the
    reference variant (by seed), where every run reports the measure (runs before 0.3 do not).

    Example:
        >>> runs = [{"job_done": 0.8}, {"job_done": 0.9}]
        >>> reference = [{"job_done": 0.7}, {"job_done": 0.7}]
        >>> measure = paired_task_measures(runs, reference)["job_done"]
        >>> round(measure["mean"], 2), round(measure["vs_reference"], 2)
        (0.85, 0.15)
    """
    measures: dict[str, dict[str, float | None]] = {}
    for key in TASK_MEASURES:
        values = [run.get(key) for run in runs]
        base = [run.get(key) for run in reference]
        if not values or None in values or None in base:
            continue
        mean, half = mean_and_ci(values)
        diff, diff_half = mean_and_ci([a - b for a, b in zip(values, base, strict=True)])
        measures[key] = {
            "mean": mean,
            "ci95": half,
            "vs_reference": diff,
            "vs_reference_ci95": diff_half,
        }
    return measures


def paired_differences(
    runs: Sequence[Mapping[str, Any]], other: Sequence[Mapping[str, Any]]
) -> dict[str, dict[str, float | None]]:
    """Per measure (``score`` and the task measures): the mean paired difference ``runs -
    other`` (by seed) with its 95 % CI, where every run of both reports the measure.

    Example:
        >>> runs = [{"score": 0.8, "job_done": 0.5}, {"score": 0.9, "job_done": 0.7}]
        >>> other = [{"score": 0.7, "job_done": 0.6}, {"score": 0.7, "job_done": 0.6}]
        >>> diffs = paired_differences(runs, other)
        >>> round(diffs["score"]["diff"], 2), round(diffs["job_done"]["diff"], 2)
        (0.15, 0.0)
    """
    differences: dict[str, dict[str, float | None]] = {}
    for key in ("score", *TASK_MEASURES):
        values = [run.get(key) for run in runs]
        base = [run.get(key) for run in other]
        if not values or None in values or None in base:
            continue
        diff, half = mean_and_ci([a - b for a, b in zip(values, base, strict=True)])
        differences[key] = {"diff": diff, "ci95": half}
    return differences
