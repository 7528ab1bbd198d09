"""The results of an ablation: one row per (variant, seed), the per-variant summary, the files.

``write_ablation`` writes, atomically, ``ablation.csv`` (the rows), ``ablation.md`` (the
summary table), ``ablation.json`` (settings, summary, baselines; strict JSON: null where a
value does not exist) and the two plots.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlm_gym.crawl import WEIGHTED_COMPONENTS
from rlm_gym.tables import markdown_table, mean_and_ci
from rlm_gym.training.plots import plot_ablation, plot_ablation_curves
from rlm_gym.training.runs import atomic_write, write_json_atomic, write_text_atomic
from rlm_gym.training.studies.stats import mean_ci95

__all__ = ["ROW_KEYS", "AblationResult", "normalised_score", "summarise_ablation", "write_ablation"]

# Columns of ablation.csv, in order (a run's per-episode means follow the score).
ROW_KEYS: tuple[str, ...] = (
    "variant", "seed", "policy", "disabled", "score", "normalised", *WEIGHTED_COMPONENTS,
    "items", "pages", "time_per_page_ms", "length", "train_timesteps", "train_time_s",
)  # fmt: skip
TABLE_HEADERS: tuple[str, ...] = (
    "variant",
    "runs",
    "true crawl score (mean ± 95% CI)",
    "normalised (mean ± 95% CI)",
)


@dataclass
class AblationResult:
    """Rows of one ablation and their per-variant summary.

    Attributes:
        rows: One dict per (variant, seed) with ``ROW_KEYS`` (true-score means over the
            evaluation episodes).
        summary: One dict per variant: ``variant``, ``runs``, ``score`` and ``score_ci95``
            (mean over seeds and its 95 % CI half-width), ``normalised`` and its CI.
        curves: (variant, seed) -> list of (timestep, mean true score of the training episodes
            in that bin).
        baselines: Mean true scores of ``random`` and ``oracle`` on the evaluation episodes.
        out_dir: Where ``ablation.csv``, ``ablation.md``, ``ablation.png`` and ``curves.png`` are.
    """

    rows: list[dict[str, Any]]
    summary: list[dict[str, Any]]
    curves: dict[tuple[str, int], list[tuple[int, float]]] = field(default_factory=dict)
    baselines: dict[str, float] = field(default_factory=dict)
    out_dir: Path | None = None

    def table(self) -> str:
        """The per-variant Markdown table (mean ± 95 % CI over seeds; ``n/a`` where a variant
        has one run: one seed gives no interval).

        Example:
            >>> result = AblationResult([], [{"variant": "full", "runs": 2, "score": 0.8,
            ...     "score_ci95": 0.01, "normalised": 0.5, "normalised_ci95": 0.02}],
            ...     baselines={"random": 0.6, "oracle": 1.0})
            >>> print(result.table())
            | variant | runs | true crawl score (mean ± 95% CI) | normalised (mean ± 95% CI) |
            |---|---|---|---|
            | full | 2 | 0.800 ± 0.010 | 0.50 ± 0.02 |
            | *random (baseline)* | - | 0.600 | 0.00 |
            | *oracle (baseline)* | - | 1.000 | 1.00 |
        """
        rows = [
            [
                row["variant"],
                str(row["runs"]),
                mean_and_ci(row["score"], row["score_ci95"], row["runs"]),
                mean_and_ci(row["normalised"], row["normalised_ci95"], row["runs"], "{:.2f}"),
            ]
            for row in self.summary
        ]
        rows += [
            [
                f"*{name} (baseline)*",
                "-",
                f"{score:.3f}",
                f"{normalised_score(score, self.baselines):.2f}",
            ]
            for name, score in self.baselines.items()
        ]
        return markdown_table(TABLE_HEADERS, rows)


def normalised_score(score: float, baselines: Mapping[str, float]) -> float:
    """(score - random) / (oracle - random); NaN without both baselines or when they tie.

    Example:
        >>> normalised_score(0.75, {"random": 0.5, "oracle": 1.0})
        0.5
    """
    low, high = baselines.get("random"), baselines.get("oracle")
    if low is None or high is None or high == low:
        return math.nan
    return (score - low) / (high - low)


def summarise_ablation(
    rows: Sequence[Mapping[str, Any]], variants: Sequence[str]
) -> list[dict[str, Any]]:
    """Per-variant mean ± 95 % CI of ``score`` and ``normalised`` over seeds, in ``variants`` order.

    Example:
        >>> rows = [{"variant": "full", "score": s, "normalised": s} for s in (0.8, 0.9)]
        >>> summary = summarise_ablation(rows, ["full"])[0]
        >>> summary["runs"], round(summary["score"], 2)
        (2, 0.85)
    """
    summary = []
    for variant in variants:
        scores = [row["score"] for row in rows if row["variant"] == variant]
        normalised = [row["normalised"] for row in rows if row["variant"] == variant]
        score, score_half = mean_ci95(scores)
        norm, norm_half = mean_ci95(normalised)
        summary.append(
            {
                "variant": variant,
                "runs": len(scores),
                "score": score,
                "score_ci95": score_half,
                "normalised": norm,
                "normalised_ci95": norm_half,
            }
        )
    return summary


def _json_summary(row: Mapping[str, Any]) -> dict[str, Any]:
    """A summary row as ``ablation.json`` holds it: no interval (null) from fewer than 2 runs,
    where ``mean_ci95`` gives 0.0 (NaN becomes null when written)."""
    if row["runs"] >= 2:
        return dict(row)
    return {**row, "score_ci95": None, "normalised_ci95": None}


def write_ablation(result: AblationResult, settings: Mapping[str, Any], plots: bool) -> None:
    """Write the ablation's files into ``result.out_dir``.

    Args:
        result: The ablation (its ``out_dir`` set).
        settings: What was run (env, budgets, variants, seeds, backend), for ``ablation.json``.
        plots: Also draw ``ablation.png`` and ``curves.png`` (needs matplotlib).
    """
    out_dir = result.out_dir
    assert out_dir is not None
    with atomic_write(out_dir / "ablation.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(ROW_KEYS), extrasaction="ignore")
        writer.writeheader()
        writer.writerows(result.rows)
    write_text_atomic(out_dir / "ablation.md", result.table() + "\n")
    write_json_atomic(
        out_dir / "ablation.json",
        {
            "config": dict(settings),
            "summary": [_json_summary(row) for row in result.summary],
            "baselines": result.baselines,
        },
        strict=True,
    )
    if plots:
        plot_ablation(result.summary, result.baselines, out_dir / "ablation.png")
        variants = [row["variant"] for row in result.summary]
        plot_ablation_curves(variants, result.curves, out_dir / "curves.png")
