"""Small statistics helpers: mean and 95 % confidence half-width (Student t)."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["mean_ci95"]

# Two-sided 95 % Student t quantiles for 1..30 degrees of freedom (normal beyond).
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def mean_ci95(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % confidence interval (0.0 for fewer than 2 values).

    Example:
        >>> mean, half = mean_ci95([1.0, 2.0, 3.0])
        >>> mean, round(half, 3)
        (2.0, 2.484)
    """
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    t = _T95[n - 2] if n - 1 <= len(_T95) else 1.960
    return mean, t * math.sqrt(variance / n)
