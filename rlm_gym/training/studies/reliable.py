"""A study's results as the field reports RL results (Agarwal et al., 2021), with ``rliable``.

From a results file's per-seed true crawl scores, normalised as the tables normalise them
((score - random) / (oracle - random) on the study's evaluation episodes, with the baselines of
the env each variant trains on), this gives per variant the **interquartile mean** (IQM) over
seeds with a 95 % **stratified bootstrap** confidence interval, the **probability of
improvement** of each variant over each reference variant (the chance that a run of the
variant outscores a run of the reference, with its bootstrap interval), and the **performance
profile** (the share of runs whose normalised score exceeds tau, for tau over [0, 1], with
bootstrap bands).

A probability of improvement compares two runs, each on the normalised scale of the env it
trained on (its own random and oracle): raw true crawl scores of two envs with different
oracles are not one scale, so a variant trained on Crawl-v2 is compared with one trained on
Crawl-v1 by how far each got from its env's random agent to its env's oracle (``POI_SCALE``).
In a study on one env this is the raw score's order.

A study answers its question on one env, so the score matrix of a variant is one column
(``runs x 1 task``): the stratified bootstrap resamples the seeds. With 3 to 5 seeds the
intervals are wide, as they should be; they stand beside the paired t-intervals of the
tables, which use the pairing by seed that these do not.

The bootstrap is seeded (``BOOTSTRAP_SEED``), so the same results file gives the same
figures (``make readme`` renders them; a test compares page and file). ``rliable`` (and its
``arch`` / ``scipy`` stack) is part of the ``train`` extra and imported when called.

Example:
    >>> results = {"reference": "a", "compare_to": [], "baselines": {
    ...     "random": {"score": 0.0}, "oracle": {"score": 1.0}}, "variants": {
    ...     "a": {"per_seed": [{"seed": s, "score": v} for s, v in enumerate([.5, .6, .7])]},
    ...     "b": {"per_seed": [{"seed": s, "score": v} for s, v in enumerate([.8, .7, .9])]}}}
    >>> report = reliable_report(results, reps=2000)  # doctest: +SKIP
    >>> round(report["variants"]["a"]["iqm"], 3), report["variants"]["b"]["vs"]["a"]["poi"]
    ... # doctest: +SKIP
    (0.6, 0.944...)
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from rlm_gym.training._deps import require
from rlm_gym.training.studies.summary import variant_baselines

__all__ = [
    "BOOTSTRAP_REPS",
    "BOOTSTRAP_SEED",
    "POI_REPS",
    "POI_SCALE",
    "PROFILE_POINTS",
    "normalised_seed_scores",
    "plot_performance_profiles",
    "reliable_report",
]

#: Bootstrap resamples of the IQM intervals and of the probabilities of improvement
#: (rliable's examples use 50,000 and 2,000; 10,000 keep ``make readme`` within seconds and
#: move an interval's ends by less than the pages' last digit).
BOOTSTRAP_REPS = 10_000
POI_REPS = 2_000
#: The bootstrap's seed: the same results file gives the same intervals.
BOOTSTRAP_SEED = 0
#: The scale a probability of improvement reads runs on: each run normalised by the baselines
#: of its own env (recorded in every report, so a report read on another scale is recomputed).
POI_SCALE = "own_env"
#: Thresholds (normalised score) at which a performance profile is read: 51 from the lowest
#: run's score, rounded down to a tenth, to 1.0 (the oracle).
PROFILE_POINTS = 51


@contextmanager
def _arch_random_state_accepted() -> Iterator[None]:
    """rliable hands its ``random_state`` to ``arch``'s bootstrap, which warns that the keyword
    is deprecated (it wants a NumPy ``Generator``, which rliable cannot pass); the RandomState
    still seeds the bootstrap, so the figures reproduce. That one warning is silenced here."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "random_state is deprecated", FutureWarning)
        yield


def normalised_seed_scores(results: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """Each variant's finished runs as rliable's score matrix: normalised true scores,
    ``(seeds, 1)``, in seed order; variants without a finished run are left out. Each variant
    is normalised with the baselines of the env it trains on (``summary.variant_baselines``),
    as its ``normalised`` column is.

    Args:
        results: A study's results file, as read.

    Raises:
        ValueError: The results lack the ``random`` or ``oracle`` baseline the scale needs, or
            the baselines of a variant's env.

    Example:
        >>> results = {"baselines": {"random": {"score": 0.0}, "oracle": {"score": 0.5}},
        ...            "variants": {"a": {"per_seed": [{"seed": 1, "score": 0.25},
        ...                                            {"seed": 0, "score": 0.5}]}}}
        >>> normalised_seed_scores(results)["a"].ravel().tolist()
        [1.0, 0.5]
    """
    matrices = {}
    for name, row in results["variants"].items():
        runs = sorted(row.get("per_seed") or [], key=lambda run: run["seed"])
        if runs:
            baselines = variant_baselines(results, name)
            missing = [key for key in ("random", "oracle") if key not in baselines]
            if missing:
                raise ValueError(
                    f"Expected the baselines of variant '{name}' to hold 'random' and 'oracle' "
                    f"(the normalised scale), got {sorted(baselines)}; missing {missing}"
                )
            low = float(baselines["random"]["score"])
            high = float(baselines["oracle"]["score"])
            scores = [(float(run["score"]) - low) / (high - low) for run in runs]
            matrices[name] = np.asarray(scores, dtype=float).reshape(-1, 1)
    return matrices


def _iqm(matrix: np.ndarray) -> np.ndarray:
    from rliable import metrics

    return np.array([metrics.aggregate_iqm(matrix)])


def reliable_report(
    results: Mapping[str, Any],
    references: Sequence[str] | None = None,
    reps: int = BOOTSTRAP_REPS,
    seed: int = BOOTSTRAP_SEED,
    poi_reps: int = POI_REPS,
) -> dict[str, Any]:
    """IQM with its stratified bootstrap CI per variant and the probability of improvement
    over ``references`` (default: the study's reference and ``compare_to`` variants).

    The IQM is of each variant's score normalised by its own env's baselines; so are the runs
    the probability of improvement compares (see the module's docstring).

    Returns:
        ``{"references", "reps", "poi_reps", "poi_scale", "seed", "variants": {name: {"seeds",
        "iqm", "iqm_ci95":
        [low, high], "vs": {reference: {"poi", "poi_ci95": [low, high]}}}}}``; a variant is
        compared with a reference only when both have at least one run (not with itself).

    Raises:
        MissingExtraError: ``rliable`` is not installed (``pip install -e ".[train]"``).
        ValueError: A reference that is not a variant of the study (with the closest name).
    """
    require("rliable")
    from rliable import library, metrics

    from rlm_gym._validation import unknown_name_error

    scores = normalised_seed_scores(results)
    if references is None:
        references = [results["reference"], *results.get("compare_to", ())]
    for name in references:
        if name not in results["variants"]:
            raise unknown_name_error("reference variant", name, results["variants"])
    state = np.random.RandomState(seed)
    with _arch_random_state_accepted():
        points, intervals = library.get_interval_estimates(
            scores, _iqm, reps=reps, random_state=state
        )
    report: dict[str, Any] = {
        "references": list(references),
        "reps": reps,
        "poi_reps": poi_reps,
        "poi_scale": POI_SCALE,
        "seed": seed,
    }
    variants: dict[str, Any] = {}
    for name, matrix in scores.items():
        variants[name] = {
            "seeds": int(matrix.shape[0]),
            "iqm": float(points[name][0]),
            "iqm_ci95": [float(intervals[name][0][0]), float(intervals[name][1][0])],
            "vs": {},
        }
    for reference in references:
        if reference not in scores:
            continue
        pairs = {name: (scores[name], scores[reference]) for name in scores if name != reference}
        if not pairs:
            continue
        with _arch_random_state_accepted():
            poi_points, poi_intervals = library.get_interval_estimates(
                pairs, metrics.probability_of_improvement, reps=poi_reps, random_state=state
            )
        for name in pairs:
            variants[name]["vs"][reference] = {
                "poi": float(np.ravel(poi_points[name])[0]),
                "poi_ci95": [
                    float(np.ravel(poi_intervals[name][0])[0]),
                    float(np.ravel(poi_intervals[name][1])[0]),
                ],
            }
    report["variants"] = variants
    return report


def plot_performance_profiles(
    results: Mapping[str, Any],
    path: str | Path,
    variants: Sequence[str] | None = None,
    reps: int = 2_000,
    seed: int = BOOTSTRAP_SEED,
) -> Path:
    """Draw the performance profiles of ``variants`` (default: all with a run) to ``path``:
    the share of runs above each normalised score tau, with 95 % bootstrap bands.

    Raises:
        MissingExtraError: ``rliable`` or matplotlib is not installed.
    """
    require("rliable", "matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from rliable import library, plot_utils

    scores = normalised_seed_scores(results)
    names = [name for name in (variants or scores) if name in scores]
    np.random.seed(seed)  # rliable's profile bootstrap draws from numpy's global generator
    lowest = min(float(scores[name].min()) for name in names)
    taus = np.linspace(min(np.floor(lowest * 10) / 10, 0.9), 1.0, PROFILE_POINTS)
    profiles, bands = library.create_performance_profile(
        {name: scores[name] for name in names}, taus, reps=reps
    )
    colors = dict(zip(names, plt.get_cmap("tab20").colors, strict=False))
    figure, axes = plt.subplots(figsize=(8, 4.5))
    plot_utils.plot_performance_profiles(
        profiles,
        taus,
        performance_profile_cis=bands,
        colors=colors,
        xlabel=r"Normalised true crawl score $(\tau)$",
        ylabel=r"Share of runs with score $> \tau$",
        ax=axes,
    )
    handles = [matplotlib.lines.Line2D([], [], color=colors[name], label=name) for name in names]
    axes.legend(handles=handles, loc="upper right", fontsize=8, ncol=2)
    figure.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path
