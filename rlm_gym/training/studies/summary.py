"""A study's results file: per-variant means, 95 % CIs and paired differences by seed.

``summarise_study`` turns finished runs (one row per variant and seed, as ``run_study``
scores them) and the baselines into the JSON the README's tables are rendered from. Only the
seeds every variant has finished are compared, so a partial study never pairs a variant with
a different set of seeds; the finished runs of other seeds are kept as ``unpaired_runs``.

A variant may train and be scored on another env than the study's (``"env_id"`` in its
settings); it is then compared with the baselines *of its own env* (its normalised score, the
"beats heuristic / best fixed" flags, the steps to the heuristic). The file holds the baselines
by env:

* ``baselines``: the study's ``env_id``'s (every results file has it);
* ``baselines_by_env``: ``{env_id: baselines}`` for each *other* env a variant uses, in the
  variants' order (left out when every variant is on the study's env, so such files are as
  they always were);
* each variant's ``env_id``: the env it trained and was scored on.

Readers take a variant's baselines with :func:`variant_baselines`, which also reads files
written before variants recorded their env.

Raw true crawl scores of two envs are not one scale (each env has its own random and oracle),
so in a study whose variants train on more than one env each variant's difference to the
reference is also taken on the normalised scale, each run normalised by its own env's
baselines (``vs_reference_normalised``, per seed in ``normalised_scores``), the raw difference
(``vs_reference``) beside it.
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

__all__ = [
    "steps_to_beat",
    "study_env_ids",
    "summarise_study",
    "variant_baselines",
    "variant_env_id",
]


def variant_env_id(study: Study, variant: str) -> str:
    """The env ``variant`` trains and is scored on: its own ``env_id``, else the study's.

    Example:
        >>> study = Study("t", "?", {"a": {}, "b": {"env_id": "rlm_gym/Crawl-v2"}}, "a")
        >>> variant_env_id(study, "a"), variant_env_id(study, "b")
        ('rlm_gym/Crawl-v1', 'rlm_gym/Crawl-v2')
    """
    return str(study.variants[variant].get("env_id", study.env_id))


def study_env_ids(study: Study) -> tuple[str, ...]:
    """Every env the study's baselines are scored on: its ``env_id``, then the other envs
    its variants use, in the variants' order.

    Example:
        >>> study = Study("t", "?", {"a": {}, "b": {"env_id": "rlm_gym/Crawl-v2"}}, "a")
        >>> study_env_ids(study)
        ('rlm_gym/Crawl-v1', 'rlm_gym/Crawl-v2')
    """
    envs = [study.env_id, *(variant_env_id(study, name) for name in study.variants)]
    return tuple(dict.fromkeys(envs))


def variant_baselines(results: Mapping[str, Any], variant: str) -> Mapping[str, Any]:
    """The baselines a variant of a results file is compared with: those of its env.

    The env is the variant's recorded ``env_id``, else its settings' ``env_id`` (files written
    before variants recorded it), else the study's.

    Raises:
        KeyError: ``variant`` is not a variant of the results.
        ValueError: The file holds no baselines for the variant's env (a file written before
            baselines were scored per env: ``rlm-gym study NAME --no-train`` scores them).

    Example:
        >>> results = {"env_id": "v1", "baselines": {"oracle": {"score": 0.9}},
        ...            "baselines_by_env": {"v2": {"oracle": {"score": 0.8}}},
        ...            "variants": {"a": {"env_id": "v1"}, "b": {"env_id": "v2"}}}
        >>> variant_baselines(results, "a")["oracle"], variant_baselines(results, "b")["oracle"]
        ({'score': 0.9}, {'score': 0.8})
    """
    row = results["variants"][variant]
    study_env = results.get("env_id")
    env_id = row.get("env_id") or (row.get("settings") or {}).get("env_id") or study_env
    if env_id == study_env:
        return results.get("baselines") or {}
    by_env = results.get("baselines_by_env") or {}
    if env_id not in by_env:
        raise ValueError(
            f"Expected baselines for `{env_id}` (variant '{variant}' of study "
            f"'{results.get('study')}') in the results' `baselines_by_env`, got "
            f"{sorted(by_env)}; `rlm-gym study {results.get('study')} --no-train` scores them"
        )
    return by_env[env_id]


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


def _normalised_runs(scores: Sequence[float], baselines: Mapping[str, Any]) -> list[float]:
    """Scores on the scale of ``baselines``: (score - random) / (oracle - random)."""
    low, high = baselines["random"]["score"], baselines["oracle"]["score"]
    return [(score - low) / (high - low) for score in scores]


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
    study: Study,
    rows: Sequence[Mapping[str, Any]],
    baselines: Mapping[str, Mapping[str, Any]],
    baselines_by_env: Mapping[str, Mapping[str, Mapping[str, Any]]] | None = None,
) -> dict[str, Any]:
    """Per-variant means, 95 % CIs and paired differences to the reference (by seed).

    Every variant is also paired with each of ``study.compare_to`` (``vs``: the score and the
    task measures), and, when its runs were evaluated during training, reports the steps it
    took to first beat the heuristic on the same evaluation episodes (``steps_to_heuristic``;
    the baselines' ``heuristic`` carries its ``curve_score`` on them).

    Args:
        study: The study.
        rows: Its finished runs, one per variant and seed.
        baselines: Baseline name -> summary on ``study.env_id``; ``random`` and ``oracle``
            are the ends of the normalised scale.
        baselines_by_env: Env id -> baselines (as ``baselines``) of each other env a variant
            trains on (``study_env_ids``). A variant is normalised and compared with the
            baselines of its own env.

    Raises:
        ValueError: A variant's env has no baselines.

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
    by_env = {**(baselines_by_env or {}), study.env_id: baselines}
    missing = sorted({variant_env_id(study, name) for name in study.variants} - set(by_env))
    if missing:
        raise ValueError(
            f"Expected baselines for every env the variants of study '{study.name}' train on "
            f"({list(study_env_ids(study))}: `baselines` for {study.env_id!r}, "
            f"`baselines_by_env` for the others), got {sorted(by_env)}; missing {missing}"
        )
    reference = [by_run[(study.reference, s)]["score"] for s in seeds]
    several_envs = len(study_env_ids(study)) > 1
    reference_normalised = _normalised_runs(
        reference, by_env[variant_env_id(study, study.reference)]
    )
    variants: dict[str, Any] = {}
    for name in study.variants:
        env_id = variant_env_id(study, name)
        own = by_env[env_id]
        low, high = own["random"]["score"], own["oracle"]["score"]
        runs = [by_run[(name, s)] for s in seeds]
        scores = [run["score"] for run in runs]
        mean, half = mean_and_ci(scores)
        diff, diff_half = mean_and_ci([a - b for a, b in zip(scores, reference, strict=True)])
        variants[name] = {
            "settings": _jsonable(study.variants[name]),
            "env_id": env_id,
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
        if several_envs:
            normalised = _normalised_runs(scores, own)
            diff, diff_half = mean_and_ci(
                [a - b for a, b in zip(normalised, reference_normalised, strict=True)]
            )
            variants[name].update(
                normalised_scores=normalised,
                vs_reference_normalised=diff,
                vs_reference_normalised_ci95=diff_half,
            )
        task = paired_task_measures(runs, [by_run[(study.reference, s)] for s in seeds])
        if task:
            variants[name]["task"] = task
        if study.compare_to:
            variants[name]["vs"] = {
                other: paired_differences(runs, [by_run[(other, s)] for s in seeds])
                for other in study.compare_to
            }
        efficiency = _sample_efficiency(runs, own.get("heuristic"))
        if efficiency is not None:
            variants[name]["steps_to_heuristic"] = efficiency
        for baseline in ("heuristic", "best_fixed"):
            if baseline in own:
                beat = [score > own[baseline]["score"] for score in scores]
                variants[name][f"beats_{baseline}_every_seed"] = bool(seeds) and all(beat)
    others = {
        env_id: {name: dict(summary) for name, summary in by_env[env_id].items()}
        for env_id in study_env_ids(study)[1:]
    }
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
        # Only when not the default: the files of exact resets read as they were written.
        **({"vector_resets": study.vector_resets} if study.vector_resets != "exact" else {}),
        "seeds_planned": list(study.seeds),
        "seeds_complete": seeds,
        "runs_done": len(by_run),
        "runs_planned": len(study.variants) * len(study.seeds),
        "baselines": {name: dict(summary) for name, summary in baselines.items()},
        **({"baselines_by_env": others} if others else {}),
        "variants": variants,
        # Finished runs of seeds some variant has not finished (left out when there are none):
        # kept, so the file holds every finished run and a later run merges into it.
        **({"unpaired_runs": unpaired} if unpaired else {}),
    }
