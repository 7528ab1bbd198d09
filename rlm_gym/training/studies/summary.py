"""A study's results file: per-variant means, 95 % CIs and paired differences by seed.

``summarise_study`` turns finished runs (one row per variant and seed, as ``run_study``
scores them) and the baselines into the JSON the README's tables are rendered from. Only the
seeds every variant has finished are compared, so a partial study never pairs a variant with
a different set of seeds; the finished runs of other seeds are kept as ``unpaired_runs``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rlm_gym.training.studies.plans import Study, variant_budget
from rlm_gym.training.studies.task_measures import (
    mean_and_ci,
    paired_differences,
    paired_task_measures,
)

__all__ = ["steps_to_beat", "summarise_study"]


def steps_to_beat(curve: Sequence[Mapping[str, Any]], score: float) -> int | None:
    """The first training step at which an evaluation scored above ``score`` (None: never).

    Example:
        >>> curve = [{"timestep": 20480, "score": 0.6}, {"timestep": 40960, "score": 0.8}]
        >>> steps_to_beat(curve, 0.7), steps_to_beat(curve, 0.9)
        (40960, None)
    """
    for point in curve:
        if point["score"] > score:
            return int(point["timestep"])
    return None


def _scaled(value: float | None, offset: float, scale: float) -> float | None:
    return None if value is None else (value - offset) / scale


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=list))


def _sample_efficiency(
    runs: Sequence[Mapping[str, Any]], heuristic: Mapping[str, Any] | None
) -> dict[str, Any] | None:
    """Steps to the heuristic per seed; a mean and CI only when every seed got there."""
    if not runs or heuristic is None or "curve_score" not in heuristic:
        return None
    if any("curve" not in run for run in runs):
        return None
    steps = [steps_to_beat(run["curve"], heuristic["curve_score"]) for run in runs]
    reached = [s for s in steps if s is not None]
    mean, half = mean_and_ci(reached) if len(reached) == len(steps) else (None, None)
    return {"per_seed": steps, "reached": len(reached), "mean": mean, "ci95": half}


def summarise_study(
    study: Study, rows: Sequence[Mapping[str, Any]], baselines: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any]:
    """Per-variant means, 95 % CIs and paired differences to the reference (by seed).

    Every variant is also paired with each of ``study.compare_to`` (``vs``: the score and the
    task measures), and, when its runs were evaluated during training, reports the steps it
    took to first beat the heuristic on the same evaluation episodes (``steps_to_heuristic``;
    the baselines' ``heuristic`` carries its ``curve_score`` on them).

    Example:
        >>> study = Study("t", "?", {"a": {}, "b": {}}, reference="b", seeds=(0, 1))
        >>> rows = [{"variant": v, "seed": s, "score": x}
        ...         for v, s, x in (("a", 0, .8), ("a", 1, .9), ("b", 0, .7), ("b", 1, .7))]
        >>> baselines = {"random": {"score": .3}, "oracle": {"score": .9}}
        >>> summary = summarise_study(study, rows, baselines)["variants"]["a"]
        >>> round(summary["score"], 2), round(summary["vs_reference"], 2), summary["seeds"]
        (0.85, 0.15, [0, 1])
    """
    by_run = {(row["variant"], row["seed"]): row for row in rows}
    seeds = [s for s in study.seeds if all((v, s) in by_run for v in study.variants)]
    low, high = baselines["random"]["score"], baselines["oracle"]["score"]
    reference = [by_run[(study.reference, s)]["score"] for s in seeds]
    variants: dict[str, Any] = {}
    for name in study.variants:
        runs = [by_run[(name, s)] for s in seeds]
        scores = [run["score"] for run in runs]
        mean, half = mean_and_ci(scores)
        diff, diff_half = mean_and_ci([a - b for a, b in zip(scores, reference, strict=True)])
        variants[name] = {
            "settings": _jsonable(study.variants[name]),
            "total_timesteps": variant_budget(study, name),
            "seeds": seeds,
            "scores": scores,
            "score": mean,
            "score_ci95": half,
            "normalised": _scaled(mean, low, high - low),
            "normalised_ci95": _scaled(half, 0.0, high - low),
            "vs_reference": diff,
            "vs_reference_ci95": diff_half,
            "per_seed": runs,
        }
        task = paired_task_measures(runs, [by_run[(study.reference, s)] for s in seeds])
        if task:
            variants[name]["task"] = task
        if study.compare_to:
            variants[name]["vs"] = {
                other: paired_differences(runs, [by_run[(other, s)] for s in seeds])
                for other in study.compare_to
            }
        efficiency = _sample_efficiency(runs, baselines.get("heuristic"))
        if efficiency is not None:
            variants[name]["steps_to_heuristic"] = efficiency
        for baseline in ("heuristic", "best_fixed"):
            if baseline in baselines:
                beat = [score > baselines[baseline]["score"] for score in scores]
                variants[name][f"beats_{baseline}_every_seed"] = bool(seeds) and all(beat)
    order = {name: i for i, name in enumerate(study.variants)}
    unpaired = sorted(
        (row for key, row in by_run.items() if key[1] not in seeds),
        key=lambda row: (row["seed"], order.get(row["variant"], len(order))),
    )
    return {
        "study": study.name,
        "question": study.question,
        "reference": study.reference,
        **({"compare_to": list(study.compare_to)} if study.compare_to else {}),
        "env_id": study.env_id,
        "total_timesteps": study.total_timesteps,
        "n_envs": study.n_envs,
        "hyperparams": _jsonable(study.hyperparams),
        "n_eval_episodes": study.n_eval_episodes,
        "eval_seed": study.eval_seed,
        **({"curve_eval": dict(study.curve_eval)} if study.curve_eval else {}),
        "seeds_planned": list(study.seeds),
        "seeds_complete": seeds,
        "runs_done": len(by_run),
        "runs_planned": len(study.variants) * len(study.seeds),
        "baselines": {name: dict(summary) for name, summary in baselines.items()},
        "variants": variants,
        # Finished runs of seeds some variant has not finished (left out when there are none):
        # kept, so the file holds every finished run and a later run merges into it.
        **({"unpaired_runs": unpaired} if unpaired else {}),
    }
