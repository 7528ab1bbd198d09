"""Studies: the learning experiments behind every number the README reports.

A :class:`Study` is a question answered by training one agent per (variant, seed) at equal
budget and scoring every agent and the baselines on the same seeded episodes with the env's
own, full crawl reward. ``run_study`` writes ``results/<name>.json``: per variant the mean and
95 % CI over seeds, the **paired** difference to the study's reference variant (same seeds,
same evaluation episodes; Student t over the per-seed differences) and per-seed rows, plus the
baselines. The README's learning tables are rendered from those files (``make readme``).

Every run keeps its model, config and logs under ``runs/studies/<name>/<variant>/seed_<n>``
and a ``row.json`` once scored; running a study again resumes: finished runs are read back, an
interrupted run continues from its checkpoint, the rest are trained. Runs are ordered
seed-major, so a study cut short still holds whole seeds of every variant.

The results file is a record, not a cache: every finished run it holds counts as finished (a
fresh clone has the file but no ``runs/``), new finished runs are *merged* into it, and it is
only rewritten when there is something new (a run, or more seeds planned); so it never ends
with fewer finished runs than it had. A file written with other settings (budget, evaluation
episodes, a variant's recipe) is refused, not mixed in. It is strict JSON: a value that does
not exist (no finished seed, no interval from one seed) is ``null``.

Example:
    >>> sorted(STUDIES)
    ['ablation', 'defaults']
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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.crawl import COMPONENT_NAMES
from rlm_gym.envs import CRAWL_ENV_ID
from rlm_gym.training.evaluation import BASELINES, evaluate
from rlm_gym.training.pools import pool_context
from rlm_gym.training.runs import write_json_atomic
from rlm_gym.training.task_measures import mean_and_ci, paired_task_measures
from rlm_gym.training.trainer import resume, train

__all__ = ["STUDIES", "Study", "run_study", "summarise_study", "variant_budget"]
STUDY_EVAL_SEED = 1_000_000
STUDY_EVAL_EPISODES = 300
_GRADED = {"efficiency_errors": "graded"}
# 16 envs x 256 steps: the same 4,096-step rollouts as 4 x 1,024 (DEFAULT_HYPERPARAMS) at half
# the CPU per step (SB3's per-step overhead is paid once for 16 envs; measured 19.4 vs 35.1 CPU
# seconds for 40,960 steps of MaskablePPO on Crawl-v1).
STUDY_HYPERPARAMS = {"n_steps": 256}
# gamma 0.999 rather than 0.99: the crawl score comes at the last step, and 0.99 discounts a
# 10-step crawl's score by 10 % against a 1-step one, which pulls agents toward stopping after
# the first page. With graded efficiency it scored 0.829 / 0.801 / 0.824 (seeds 0-2) against
# 0.825 / 0.726 / 0.811 at 0.99, and ent_coef 0.03 scored 0.803 / 0.815 / 0.805.
_LONG_HORIZON = {"gamma": 0.999}
# The same recipe at 450k steps: 0.833 / 0.811 / 0.833 (seeds 0-2), +0.008 on the mean.
_DEMO_BUDGET = 450_000


@dataclass(frozen=True)
class Study:
    """One learning question: variants x seeds at one budget, compared to a reference.

    Attributes:
        name: File name of the results (``results/<name>.json``).
        question: What the study answers (shown in the results).
        variants: Variant name -> training settings (``policy``, ``config``, ``disable``,
            ``shaping``, ``algo``, ``hyperparams``, ``total_timesteps``), each optional. A
            variant's ``total_timesteps`` is its own budget (a budget question, e.g. the same
            recipe trained longer); the results record every variant's budget.
        reference: The variant every other one is compared to, paired by seed.
        seeds: Training seeds (each variant runs once per seed).
        total_timesteps: Training budget of every run (unless its variant sets its own).
        n_eval_episodes: Seeded evaluation episodes per agent (the same for every agent).
        eval_seed: Seed of the first evaluation episode.
        n_envs: Envs per training run.
        hyperparams: PPO settings of every run (a variant's own ``hyperparams`` win).
    """

    name: str
    question: str
    variants: Mapping[str, Mapping[str, Any]]
    reference: str
    seeds: tuple[int, ...] = (0, 1, 2)
    total_timesteps: int = 250_000
    n_eval_episodes: int = STUDY_EVAL_EPISODES
    eval_seed: int = STUDY_EVAL_SEED
    n_envs: int = 16
    hyperparams: Mapping[str, Any] = field(default_factory=lambda: dict(STUDY_HYPERPARAMS))
    env_id: str = CRAWL_ENV_ID
    baselines: tuple[str, ...] = BASELINES
    extra: dict[str, Any] = field(default_factory=dict)


def _ablation_variants() -> dict[str, dict[str, Any]]:
    variants: dict[str, dict[str, Any]] = {"full": {}, "binary": {"policy": "binary"}}
    variants["graded"] = {"config": _GRADED}
    for name in COMPONENT_NAMES:
        variants[f"no_{name}"] = {"disable": (name,)}
    return variants


STUDIES: dict[str, Study] = {
    study.name: study
    for study in (
        Study(
            name="defaults",
            question=(
                "Which training recipe should `make demo` use: potential shaping or not, the "
                "document's all-or-nothing efficiency or the graded one? (MaskablePPO: it tied "
                "PPO without shaping and led with shaping on Crawl-v0.) And a longer horizon "
                "(gamma 0.999) for the graded one, at the study's budget and at 450k steps."
            ),
            variants={
                "shaping": {"shaping": "potential"},
                "shaping+graded": {"shaping": "potential", "config": _GRADED},
                "graded": {"config": _GRADED},
                "graded+gamma0.999": {"config": _GRADED, "hyperparams": _LONG_HORIZON},
                "graded+gamma0.999+450k": {
                    "config": _GRADED,
                    "hyperparams": _LONG_HORIZON,
                    "total_timesteps": _DEMO_BUDGET,
                },
                "plain": {},
            },
            reference="plain",
            total_timesteps=300_000,
        ),
        Study(
            name="ablation",
            question=(
                "Does the multi-dimensional crawl reward train better crawlers than the binary "
                "success reward at equal budget, and which components carry it?"
            ),
            variants=_ablation_variants(),
            reference="binary",
            # The demo recipe's PPO settings (the `defaults` study's best), for every variant.
            hyperparams={**STUDY_HYPERPARAMS, **_LONG_HORIZON},
            seeds=(0, 1, 2, 3, 4),
            total_timesteps=300_000,
        ),
    )
}


def variant_budget(study: Study, variant: str) -> int:
    """The training budget of ``variant``: its own ``total_timesteps``, else the study's.

    Example:
        >>> variant_budget(STUDIES["defaults"], "plain")
        300000
    """
    return int(study.variants[variant].get("total_timesteps", study.total_timesteps))


def _run_dir(root: Path, study: Study, variant: str, seed: int) -> Path:
    return root / study.name / variant / f"seed_{seed}"


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
        settings = spec["settings"]
        trained = train(
            spec["env_id"],
            settings.get("policy", "crawl"),
            config=settings.get("config"),
            disable=tuple(settings.get("disable", ())),
            total_timesteps=int(spec["total_timesteps"]),
            n_envs=int(spec["n_envs"]),
            seed=int(spec["seed"]),
            hyperparams={**spec["hyperparams"], **dict(settings.get("hyperparams") or {})},
            algo=settings.get("algo"),
            shaping=settings.get("shaping"),
            log_dir=run_dir,
            tensorboard=False,
            progress_bar=False,
            eval_freq=0,
            n_eval_episodes=0,
        )
    evaluation = evaluate(
        trained.model, spec["env_id"], int(spec["n_eval_episodes"]), int(spec["eval_seed"])
    )
    row = {
        "variant": spec["variant"],
        "seed": int(spec["seed"]),
        **evaluation.summary(),
        "train_timesteps": trained.metrics["timesteps"],
        "train_time_s": trained.metrics["wall_time_s"],
        "wall_s": time.perf_counter() - started,
    }
    write_json_atomic(run_dir / "row.json", row)
    return row


def _baselines(study: Study) -> dict[str, dict[str, Any]]:
    return {
        name: evaluate(name, study.env_id, study.n_eval_episodes, study.eval_seed).summary()
        for name in study.baselines
    }


def _scaled(value: float | None, offset: float, scale: float) -> float | None:
    return None if value is None else (value - offset) / scale


def summarise_study(
    study: Study, rows: Sequence[Mapping[str, Any]], baselines: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any]:
    """Per-variant means, 95 % CIs and paired differences to the reference (by seed).

    Only seeds that every variant has finished are compared, so a partial study never pairs a
    variant with a different set of seeds.

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
        scores = [by_run[(name, s)]["score"] for s in seeds]
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
            "per_seed": [by_run[(name, s)] for s in seeds],
        }
        task = paired_task_measures(
            [by_run[(name, s)] for s in seeds], [by_run[(study.reference, s)] for s in seeds]
        )
        if task:
            variants[name]["task"] = task
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
        "env_id": study.env_id,
        "total_timesteps": study.total_timesteps,
        "n_envs": study.n_envs,
        "hyperparams": _jsonable(study.hyperparams),
        "n_eval_episodes": study.n_eval_episodes,
        "eval_seed": study.eval_seed,
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


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=list))


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
        for variant, settings in study.variants.items():
            if (variant, seed) in recorded:
                continue
            run_dir = _run_dir(runs_root, study, variant, seed)
            row_path = run_dir / "row.json"
            if row_path.exists():
                rows.append(json.loads(row_path.read_text(encoding="utf-8")))
                continue
            pending.append(
                {
                    "variant": variant,
                    "seed": seed,
                    "settings": dict(settings),
                    "run_dir": str(run_dir),
                    "env_id": study.env_id,
                    "total_timesteps": variant_budget(study, variant),
                    "n_envs": study.n_envs,
                    "hyperparams": dict(study.hyperparams),
                    "n_eval_episodes": study.n_eval_episodes,
                    "eval_seed": study.eval_seed,
                }
            )
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
        # Nothing finished that the file does not hold: its baselines stand, and unless the
        # plan grew (more seeds) it stays as it is, byte for byte.
        previous = json.loads(out.read_text(encoding="utf-8"))
        results = summarise_study(summarised, list(recorded.values()), previous["baselines"])
        if results["seeds_planned"] == previous.get("seeds_planned"):
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
            baselines = _baselines(study)
        results = summarise_study(summarised, [*recorded.values(), *rows], baselines)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out, results, strict=True)
    if progress:
        print(f"study {study.name}: wrote {out}", file=sys.stderr)
    return results


# What must agree between a results file and the study writing into it, so that merged runs
# answer the same question: the env, the training and evaluation settings.
_SAME_STUDY_KEYS = ("env_id", "n_envs", "hyperparams", "n_eval_episodes", "eval_seed", "reference")


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
    expected = summarise_study(study, [], {"random": {"score": 0.0}, "oracle": {"score": 1.0}})
    differences = [
        f"`{key}` {recorded.get(key)!r} there, {expected[key]!r} here"
        for key in _SAME_STUDY_KEYS
        if recorded.get(key) != expected[key]
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
) -> dict[str, dict[str, Any]]:
    """Train the pending runs (and score the baselines alongside); returns the baselines."""
    total = len(pending) + len(rows)
    with ProcessPoolExecutor(max_workers=n_workers, mp_context=pool_context()) as pool:
        baselines_future = pool.submit(_baselines, study)
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
        return baselines_future.result()
