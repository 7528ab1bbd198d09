"""Studies: the learning experiments behind every number the README reports.

A :class:`Study` (defined with ``STUDIES`` in ``plans``) is a question answered by
training one agent per (variant, seed) at equal budget and scoring every agent and the
baselines on the same seeded episodes with the env's own, full crawl reward. ``run_study``
writes ``results/<name>.json`` (``summary``): per variant the mean and 95 % CI over
seeds, the **paired** difference to the study's reference variant (same seeds, same
evaluation episodes; Student t over the per-seed differences) and per-seed rows, plus the
baselines. The README's learning tables are rendered from those files (``make readme``).

The baselines are scored on every env a variant trains on (a variant's ``"env_id"``, else the
study's), and each variant is compared with its own env's: ``baselines`` holds the study
env's, ``baselines_by_env`` the other envs' (``summary`` describes the schema).

Every run keeps its model, config and logs under ``runs/studies/<name>/<variant>/seed_<n>``
and a ``row.json`` once scored; running a study again resumes: finished runs are read back, an
interrupted run continues from its checkpoint, the rest are trained. Runs are ordered
seed-major, so a study cut short still holds whole seeds of every variant.

The results file is a record, not a cache: every finished run it holds counts as finished (a
fresh clone has the file but no ``runs/``), new finished runs are *merged* into it, and it is
only rewritten when there is something new (a run, more seeds planned, or an env a variant
uses whose baselines it lacks: those are scored, the baselines it holds are kept) or when asked
to (``resummarise``: the code that summarises runs changed, and the file is written anew from
the runs and baselines it holds, retraining nothing); so it never
ends with fewer finished runs than it had. A file written with other settings (budget, evaluation
episodes, a variant's recipe) is refused, not mixed in. It is strict JSON: a value that does
not exist (no finished seed, no interval from one seed) is ``null``.

Example:
    >>> sorted(STUDIES)[:4]
    ['ablation', 'ablation-16envs', 'ablation-300k', 'ablation-half']
    >>> STUDIES["ablation"].reference
    'binary'
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import replace
from pathlib import Path
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.training.evaluation import evaluate
from rlm_gym.training.numerics import segments_numerics
from rlm_gym.training.pools import pool_context
from rlm_gym.training.runs import write_json_atomic
from rlm_gym.training.studies.plans import (
    STUDIES,
    STUDY_EVAL_EPISODES,
    STUDY_EVAL_SEED,
    Study,
    variant_budget,
)
from rlm_gym.training.studies.summary import study_env_ids, summarise_study
from rlm_gym.training.trainer import TrainResult, resume, train

__all__ = [
    "STUDIES",
    "STUDY_EVAL_EPISODES",
    "STUDY_EVAL_SEED",
    "Study",
    "run_study",
    "summarise_study",
    "variant_budget",
]


def _run_dir(root: Path, study: Study, variant: str, seed: int) -> Path:
    return root / study.name / variant / f"seed_{seed}"


def run_spec(study: Study, variant: str, seed: int, run_dir: str | Path) -> dict[str, Any]:
    """One run of ``study`` as ``run_study`` trains it: what :func:`train_run` takes."""
    settings = study.variants[variant]
    return {
        "variant": variant,
        "seed": seed,
        "settings": dict(settings),
        "run_dir": str(run_dir),
        "env_id": settings.get("env_id", study.env_id),
        "total_timesteps": variant_budget(study, variant),
        "n_envs": study.n_envs,
        "hyperparams": dict(study.hyperparams),
        "n_eval_episodes": study.n_eval_episodes,
        "eval_seed": study.eval_seed,
        "curve_eval": dict(study.curve_eval),
        "vector_resets": study.vector_resets,
    }


def train_run(spec: Mapping[str, Any]) -> TrainResult:
    """Train one run of a study from its spec (:func:`run_spec`) into ``spec["run_dir"]``,
    its learning-curve points in ``evaluations.json``; no final evaluation."""
    settings = spec["settings"]
    return train(
        spec["env_id"],
        settings.get("policy", "crawl"),
        config=settings.get("config"),
        disable=tuple(settings.get("disable", ())),
        total_timesteps=int(spec["total_timesteps"]),
        n_envs=int(settings.get("n_envs", spec["n_envs"])),
        seed=int(spec["seed"]),
        hyperparams={**spec["hyperparams"], **dict(settings.get("hyperparams") or {})},
        algo=settings.get("algo"),
        shaping=settings.get("shaping"),
        reward_schedule=settings.get("reward_schedule"),
        log_dir=Path(spec["run_dir"]),
        vector_resets=settings.get("vector_resets", spec.get("vector_resets", "exact")),
        tensorboard=False,
        progress_bar=False,
        **{"eval_freq": 0, "n_eval_episodes": 0, **spec["curve_eval"]},
    )


def _train_and_score(spec: Mapping[str, Any]) -> dict[str, Any]:
    """Train (or resume) one run and score it; writes ``row.json`` in its run directory."""
    run_dir = Path(spec["run_dir"])
    config_path = run_dir / "config.json"
    started = time.perf_counter()
    if config_path.exists() and (run_dir / "checkpoint.zip").exists():
        trained = resume(run_dir, progress_bar=False)
    else:
        if run_dir.exists():  # a run killed before its first checkpoint: nothing to keep
            shutil.rmtree(run_dir)
        trained = train_run(spec)
    evaluation = evaluate(
        trained.model, spec["env_id"], int(spec["n_eval_episodes"]), int(spec["eval_seed"])
    )
    row = {
        "variant": spec["variant"],
        "seed": int(spec["seed"]),
        **evaluation.summary(),
        **({"curve": _curve(run_dir)} if spec["curve_eval"] else {}),
        "train_timesteps": trained.metrics["timesteps"],
        "train_time_s": trained.metrics["wall_time_s"],
        "wall_s": time.perf_counter() - started,
        # The float platform of each part of the run: a re-run elsewhere parts from it.
        "numerics": segments_numerics(trained.config.get("segments", [])),
    }
    write_json_atomic(run_dir / "row.json", row)
    return row


def _curve(run_dir: Path) -> list[dict[str, Any]]:
    """The run's evaluations during training: ``{"timestep", "score"}`` in step order."""
    evaluations = json.loads((run_dir / "evaluations.json").read_text(encoding="utf-8"))
    return [{"timestep": e["timestep"], "score": e["score"]} for e in evaluations]


def _baselines(study: Study, env_id: str) -> dict[str, dict[str, Any]]:
    """The study's baselines on ``env_id``, on the study's evaluation episodes."""
    baselines = {
        name: evaluate(name, env_id, study.n_eval_episodes, study.eval_seed).summary()
        for name in study.baselines
    }
    if study.curve_eval and "heuristic" in baselines:
        # The bar of steps-to-heuristic: the heuristic on the training evaluations' episodes.
        curve = evaluate(
            "heuristic",
            env_id,
            study.curve_eval["n_eval_episodes"],
            study.curve_eval["eval_seed"],
        )
        baselines["heuristic"]["curve_score"] = curve.summary()["score"]
    return baselines


def _summarise(
    study: Study,
    rows: Sequence[Mapping[str, Any]],
    baselines: Mapping[str, Mapping[str, Mapping[str, Any]]],
) -> dict[str, Any]:
    """``summarise_study`` with the baselines of every env, by env id."""
    others = {env: baselines[env] for env in study_env_ids(study)[1:]}
    return summarise_study(study, rows, baselines[study.env_id], others)


def run_study(
    name: str | Study,
    *,
    runs_dir: str | Path = "runs/studies",
    results_dir: str | Path = "results",
    n_workers: int | None = None,
    seeds: Sequence[int] | None = None,
    total_timesteps: int | None = None,
    n_eval_episodes: int | None = None,
    progress: bool = True,
    train: bool = True,
    resummarise: bool = False,
) -> dict[str, Any]:
    """Run (or resume) a study and write ``<results_dir>/<name>.json``.

    Args:
        name: A name in :data:`STUDIES`, or a :class:`Study`.
        runs_dir: Where each run's directory goes.
        results_dir: Where the results JSON goes.
        n_workers: Concurrent runs (default: the number of cores).
        seeds: Override the study's seeds (e.g. a quick check).
        total_timesteps: Override the budget.
        n_eval_episodes: Override the evaluation episodes.
        progress: A line on stderr per finished run.
        train: False writes the results of the runs already finished and trains nothing (a
            study still running elsewhere, or cut short); the baselines are scored anyway.
        resummarise: Write the file anew from what it holds even when nothing is new (after
            a change to ``summarise_study``).

    The runs an existing results file holds count as finished and are kept; the file is only
    rewritten when a run finished that it does not hold (see the module's docstring).

    Returns:
        The results (as written, or as the existing file holds them when nothing is new).

    Raises:
        ValueError: An unknown study name (with a suggestion); an existing results file of the
            study run with other settings, or not JSON.
    """
    study = name if isinstance(name, Study) else STUDIES.get(name)
    if study is None:
        raise unknown_name_error("study", str(name), STUDIES)
    overrides: dict[str, Any] = {}
    if seeds is not None:
        overrides["seeds"] = tuple(int(seed) for seed in seeds)
    if total_timesteps is not None:
        overrides["total_timesteps"] = int(total_timesteps)
        # A forced budget (a quick check) is every variant's, their own budgets included.
        overrides["variants"] = {
            variant: {key: value for key, value in settings.items() if key != "total_timesteps"}
            for variant, settings in study.variants.items()
        }
    if n_eval_episodes is not None:
        overrides["n_eval_episodes"] = int(n_eval_episodes)
    study = replace(study, **overrides)
    out = Path(results_dir) / f"{study.name}.json"
    recorded = _recorded_runs(out, study)
    runs_root = Path(runs_dir)
    rows: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    for seed in study.seeds:
        for variant in study.variants:
            if (variant, seed) in recorded:
                continue
            run_dir = _run_dir(runs_root, study, variant, seed)
            row_path = run_dir / "row.json"
            if row_path.exists():
                rows.append(json.loads(row_path.read_text(encoding="utf-8")))
                continue
            pending.append(run_spec(study, variant, seed, run_dir))
    started = time.perf_counter()
    if progress and (rows or recorded):
        print(
            f"study {study.name}: {len(rows) + len(recorded)} runs already done "
            f"({len(recorded)} in {out})",
            file=sys.stderr,
        )
    # Seeds the file holds stay in the summary even when this call ran fewer (``seeds=``).
    seeds = tuple(sorted({*study.seeds, *(s for _, s in recorded)}))
    summarised = replace(study, seeds=seeds)
    if recorded and not rows and not (train and pending):
        # Nothing finished that the file does not hold: its baselines stand (those of an env it
        # lacks are scored), and unless the plan grew (more seeds) or baselines were scored it
        # stays as it is, byte for byte.
        previous = json.loads(out.read_text(encoding="utf-8"))
        held = {**previous.get("baselines_by_env", {}), study.env_id: previous["baselines"]}
        missing = [env for env in study_env_ids(study) if env not in held]
        if progress and missing:
            print(f"study {study.name}: scoring the baselines on {missing}", file=sys.stderr)
        baselines = {**held, **{env: _baselines(study, env) for env in missing}}
        results = _summarise(summarised, list(recorded.values()), baselines)
        unchanged = results["seeds_planned"] == previous.get("seeds_planned") and not missing
        if unchanged and not resummarise:
            if progress:
                left = f"; {len(pending)} runs left untrained" if pending else ""
                print(f"study {study.name}: nothing new for {out}{left}", file=sys.stderr)
            return previous
    else:
        if train:
            n_workers = max(1, min(n_workers or os.cpu_count() or 1, len(pending) or 1))
            baselines = _run_pending(study, pending, rows, n_workers, progress, started)
        else:
            if progress and pending:
                print(f"study {study.name}: {len(pending)} runs left untrained", file=sys.stderr)
            baselines = {env: _baselines(study, env) for env in study_env_ids(study)}
        results = _summarise(summarised, [*recorded.values(), *rows], baselines)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out, results, strict=True)
    if progress:
        print(f"study {study.name}: wrote {out}", file=sys.stderr)
    return results


# What must agree between a results file and the study writing into it, so that merged runs
# answer the same question: the env, the training and evaluation settings.
_SAME_STUDY_KEYS = (
    "env_id",
    "n_envs",
    "hyperparams",
    "n_eval_episodes",
    "eval_seed",
    "reference",
    "curve_eval",
    "vector_resets",
)


def _recorded_runs(out: Path, study: Study) -> dict[tuple[str, int], dict[str, Any]]:
    """The finished runs ``out`` holds, by (variant, seed); {} when there is no file.

    Raises:
        ValueError: ``out`` is not JSON, or holds a study run with other settings (merging
            would mix two questions; nor may it be overwritten: it would lose finished runs).
    """
    if not out.exists():
        return {}
    try:
        recorded = json.loads(out.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{out} is not JSON ({error}); move it away to write the study") from None
    scale = {"random": {"score": 0.0}, "oracle": {"score": 1.0}}
    expected = _summarise(study, [], {env: scale for env in study_env_ids(study)})
    differences = [
        f"`{key}` {recorded.get(key)!r} there, {expected.get(key)!r} here"
        for key in _SAME_STUDY_KEYS
        if recorded.get(key) != expected.get(key)
    ]
    old_variants = recorded.get("variants") or {}
    for name, row in old_variants.items():
        if name not in study.variants:
            differences.append(f"variant `{name}` there, not in the study")
            continue
        # Files older than per-variant budgets hold the study's budget only.
        found = {
            "settings": row.get("settings"),
            "total_timesteps": recorded.get("total_timesteps"),
        }
        found.update((key, row[key]) for key in found if key in row)
        for key, value in found.items():
            if value != expected["variants"][name][key]:
                differences.append(
                    f"variant `{name}` `{key}` {value!r} there, "
                    f"{expected['variants'][name][key]!r} here"
                )
    if differences:
        raise ValueError(
            f"{out} holds study '{study.name}' run with other settings "
            f"({'; '.join(differences[:3])}); its finished runs would be lost or mixed: "
            "write elsewhere with `--results-dir` (`results_dir`), or move the file away"
        )
    runs = [row for row in old_variants.values() for row in row.get("per_seed", [])]
    runs += recorded.get("unpaired_runs", [])
    return {(row["variant"], int(row["seed"])): row for row in runs}


def _run_pending(
    study: Study,
    pending: list[dict[str, Any]],
    rows: list[dict[str, Any]],
    n_workers: int,
    progress: bool,
    started: float,
) -> dict[str, dict[str, dict[str, Any]]]:
    """Train the pending runs (and score the baselines alongside); returns the baselines of
    every env the study uses, by env id."""
    total = len(pending) + len(rows)
    with ProcessPoolExecutor(max_workers=n_workers, mp_context=pool_context()) as pool:
        baselines_futures = {
            env: pool.submit(_baselines, study, env) for env in study_env_ids(study)
        }
        futures = [pool.submit(_train_and_score, spec) for spec in pending]
        for future in as_completed(futures):
            row = future.result()
            rows.append(row)
            if progress:
                print(
                    f"study {study.name}: [{len(rows)}/{total}] {row['variant']} seed "
                    f"{row['seed']}: true score {row['score']:.3f} ({row['wall_s']:.0f} s; "
                    f"{time.perf_counter() - started:.0f} s elapsed)",
                    file=sys.stderr,
                    flush=True,
                )
        return {env: future.result() for env, future in baselines_futures.items()}
