"""Plots: training curves of the true score, the ablation bar chart and its learning curves.

Every plot takes plain rows (dicts, sequences of points), so anything that has the numbers can
draw them; matplotlib is imported when a plot is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rlm_gym.training._deps import require

__all__ = [
    "plot_ablation",
    "plot_ablation_curves",
    "plot_curves",
    "plot_trade_off",
    "rolling_mean",
]


def _pyplot():
    require("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _color(index: int) -> Any:
    """A distinct colour for up to 20 series (matplotlib's tab20, dark shades first)."""
    import matplotlib

    return matplotlib.colormaps["tab20"]((2 * index) % 20 + (index // 10) % 2)


def _save(plt: Any, fig: Any, path: str | Path) -> Path:
    """Lay out, write (creating the directory) and close a figure; returns the path."""
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def rolling_mean(values: Sequence[float], window: int) -> np.ndarray:
    """Trailing mean over up to ``window`` values (shorter at the start).

    Example:
        >>> rolling_mean([1.0, 2.0, 3.0, 4.0], 2).tolist()
        [1.0, 1.5, 2.5, 3.5]
    """
    values = np.asarray(values, dtype=float)
    sums = np.cumsum(np.insert(values, 0, 0.0))
    index = np.arange(1, len(values) + 1)
    start = np.maximum(0, index - window)
    return (sums[index] - sums[start]) / (index - start)


def plot_curves(
    episodes: Sequence[Mapping[str, Any]],
    path: str | Path,
    baselines: Mapping[str, float] | None = None,
    window: int = 200,
    title: str = "Training on the true crawl score",
) -> Path:
    """Plot the rolling mean of training episodes' true score (and shaped return) vs timesteps.

    Args:
        episodes: ``TrainResult.episodes`` (``timestep``, ``true_score``, ``shaped_return``).
        path: The PNG to write.
        baselines: Label -> score drawn as horizontal lines (e.g. random, best fixed, oracle).
        window: Episodes in the rolling mean.
        title: The figure title.

    Returns:
        The path written.
    """
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    if episodes:
        steps = [record["timestep"] for record in episodes]
        ax.plot(
            steps,
            rolling_mean([r["true_score"] for r in episodes], window),
            label="true crawl score (training episodes)",
            color="C0",
        )
        ax.plot(
            steps,
            rolling_mean([r["shaped_return"] for r in episodes], window),
            label="return the agent learns from",
            color="C0",
            alpha=0.4,
            ls="--",
        )
    for i, (label, score) in enumerate((baselines or {}).items()):
        ax.axhline(score, color=f"C{i + 1}", ls=":", label=f"{label} ({score:.3f})")
    ax.set_xlabel("timesteps")
    ax.set_ylabel(f"score (rolling mean of {window} episodes)")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(alpha=0.3)
    return _save(plt, fig, path)


def plot_ablation(
    summary: Sequence[Mapping[str, Any]], baselines: Mapping[str, float], path: str | Path
) -> Path:
    """Bar chart of each variant's mean true score with its 95 % CI, baselines as lines.

    Args:
        summary: One row per variant: ``variant``, ``score``, ``score_ci95``
            (``AblationResult.summary``).
        baselines: Label -> score drawn as horizontal lines (e.g. random, oracle).
        path: The PNG to write.

    Returns:
        The path written.
    """
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(summary)), 4))
    names = [row["variant"] for row in summary]
    means = [row["score"] for row in summary]
    errors = [row["score_ci95"] for row in summary]
    colors = ["C0" if n == "full" else "C3" if n == "binary" else "C7" for n in names]
    ax.bar(names, means, yerr=errors, capsize=4, color=colors)
    for i, (label, score) in enumerate(baselines.items()):
        ax.axhline(score, color=f"C{i + 1}", ls=":", label=f"{label} ({score:.3f})")
    low = min([*means, *baselines.values()]) if means else 0.0
    ax.set_ylim(max(0.0, low - 0.1), 1.0)
    ax.set_ylabel("true crawl score (mean ± 95% CI over seeds)")
    ax.set_title("Ablation: agents trained on each variant, scored by the full crawl reward")
    ax.tick_params(axis="x", rotation=30)
    ax.legend(fontsize=8)
    return _save(plt, fig, path)


def plot_ablation_curves(
    variants: Sequence[str],
    curves: Mapping[tuple[str, int], Sequence[tuple[int, float]]],
    path: str | Path,
    ylabel: str = "true crawl score of training episodes",
    baselines: Mapping[str, float] | None = None,
) -> Path:
    """Learning curves (true score of training episodes) per variant, mean over seeds.

    Args:
        variants: The variants to draw, in legend order.
        curves: (variant, seed) -> (timestep, mean true score) points
            (``AblationResult.curves``, or a study's evaluations during training).
        path: The PNG to write.
        ylabel: What the points are.
        baselines: Label -> score drawn as horizontal lines (e.g. the heuristic).

    Returns:
        The path written.
    """
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    for i, variant in enumerate(variants):
        runs = [curve for (name, _), curve in curves.items() if name == variant]
        if not runs:
            continue
        by_step: dict[int, list[float]] = {}
        for curve in runs:
            for step, score in curve:
                by_step.setdefault(int(step), []).append(score)
        steps = sorted(by_step)
        ax.plot(steps, [np.mean(by_step[s]) for s in steps], label=variant, color=_color(i))
    for label, score in (baselines or {}).items():
        ax.axhline(score, color="k", ls=":", label=f"{label} ({score:.3f})")
    ax.set_xlabel("timesteps")
    ax.set_ylabel(ylabel)
    ax.set_title("Learning curves (mean over seeds)")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return _save(plt, fig, path)


def plot_trade_off(
    points: Sequence[Mapping[str, Any]],
    path: str | Path,
    xlabel: str = "time per valid item (s, mean ± 95 % CI over seeds)",
    ylabel: str = "job done (%, mean ± 95 % CI over seeds)",
    title: str = "What each reward buys a crawl operator (Crawl-v2)",
) -> Path:
    """One point per variant with CI bars on both axes (e.g. job done against time per
    valid item: up and to the left is better).

    Args:
        points: ``label``, ``x``, ``x_ci``, ``y``, ``y_ci`` per point.
        path: The PNG to write.
        xlabel: The x axis.
        ylabel: The y axis.
        title: The figure title.

    Returns:
        The path written.
    """
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 5))
    for i, point in enumerate(points):
        highlight = point["label"] in ("full", "binary")
        ax.errorbar(
            point["x"],
            point["y"],
            xerr=point["x_ci"],
            yerr=point["y_ci"],
            fmt="o" if highlight else "s",
            ms=7 if highlight else 5,
            capsize=3,
            color=_color(i),
            label=point["label"],
        )
        ax.annotate(
            point["label"],
            (point["x"], point["y"]),
            fontsize=7,
            xytext=(4, 4),
            textcoords="offset points",
        )
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    return _save(plt, fig, path)
