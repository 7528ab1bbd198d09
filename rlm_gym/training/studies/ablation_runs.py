"""Running an ablation grid: one training run per (variant, seed), locally or on Ray Tune.

``run_variant`` is the unit of work of both backends: train one agent, score it on the seeded
evaluation episodes, return its row. ``run_local`` runs the units in a process pool;
``run_ray`` runs the same units as a Ray Tune experiment (``pip install -e ".[ray]"``).
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from rlm_gym.training._deps import require
from rlm_gym.training.evaluation import evaluate
from rlm_gym.training.pools import pool_context
from rlm_gym.training.studies.ablation_results import ROW_KEYS
from rlm_gym.training.trainer import train

__all__ = ["CURVE_POINTS", "Report", "progress_line", "run_local", "run_ray", "run_variant"]

CURVE_POINTS = 20

Report = Callable[[Mapping[str, Any]], None]


def _bin_curve(
    episodes: Sequence[Mapping[str, Any]], total_timesteps: int, points: int = CURVE_POINTS
) -> list[tuple[int, float]]:
    width = max(1, math.ceil(total_timesteps / points))
    sums: dict[int, list[float]] = {}
    for record in episodes:
        sums.setdefault(min(points - 1, record["timestep"] // width), []).append(
            record["true_score"]
        )
    return [((b + 1) * width, sum(v) / len(v)) for b, v in sorted(sums.items())]


def run_variant(spec: Mapping[str, Any]) -> dict[str, Any]:
    """Train and evaluate one (variant, seed) run; the unit of work of both backends.

    ``spec`` holds ``variant``, ``seed``, ``policy``, ``disable``, ``env_id``,
    ``total_timesteps``, ``n_envs``, ``algo``, ``hyperparams``, ``env_kwargs``,
    ``n_eval_episodes``, ``eval_seed`` and ``run_dir`` (or None). Returns the row (``ROW_KEYS``
    without ``normalised``) plus ``curve`` (binned training true scores).
    """
    trained = train(
        spec["env_id"],
        spec["policy"],
        disable=tuple(spec["disable"]),
        total_timesteps=int(spec["total_timesteps"]),
        n_envs=int(spec["n_envs"]),
        seed=int(spec["seed"]),
        hyperparams=spec.get("hyperparams"),
        algo=spec["algo"],
        env_kwargs=spec.get("env_kwargs"),
        log_dir=spec.get("run_dir"),
        tensorboard=False,
        progress_bar=False,
        # The ablation evaluates every run itself, on the same episodes.
        eval_freq=0,
        n_eval_episodes=0,
    )
    evaluation = evaluate(
        trained.model,
        spec["env_id"],
        int(spec["n_eval_episodes"]),
        int(spec["eval_seed"]),
        env_kwargs=spec.get("env_kwargs"),
    )
    summary = evaluation.summary()
    row = {
        "variant": spec["variant"],
        "seed": int(spec["seed"]),
        "policy": spec["policy"],
        "disabled": "+".join(spec["disable"]),
        "train_timesteps": trained.metrics["timesteps"],
        "train_time_s": trained.metrics["wall_time_s"],
    }
    for key in ROW_KEYS:
        if key in summary:
            row[key] = summary[key]
    row["curve"] = _bin_curve(trained.episodes, int(spec["total_timesteps"]))
    return row


def progress_line(total: int, started: float) -> Report:
    """A ``Report`` printing one line per finished run to stderr."""
    done = [0]

    def report(row: Mapping[str, Any]) -> None:
        done[0] += 1
        print(
            f"ablate: [{done[0]}/{total}] {row['variant']} seed {row['seed']}: true score "
            f"{row['score']:.3f} (trained {row['train_time_s']:.0f} s; "
            f"{time.perf_counter() - started:.0f} s elapsed)",
            file=sys.stderr,
            flush=True,
        )

    return report


def run_local(
    specs: list[dict[str, Any]], n_workers: int, report: Report | None = None
) -> list[dict[str, Any]]:
    """``run_variant`` every spec, ``n_workers`` at a time (in this process when 1)."""
    rows = []
    if n_workers == 1:
        for spec in specs:
            rows.append(run_variant(spec))
            if report is not None:
                report(rows[-1])
        return rows
    with ProcessPoolExecutor(max_workers=n_workers, mp_context=pool_context()) as pool:
        for future in as_completed([pool.submit(run_variant, spec) for spec in specs]):
            rows.append(future.result())
            if report is not None:
                report(rows[-1])
    return rows


def _ray_trainable(config: dict[str, Any]) -> None:
    from ray import tune

    variant = config["variant"]
    spec = {**config["spec"], **config["grid"][variant], "variant": variant, "seed": config["seed"]}
    row = run_variant(spec)
    report = getattr(tune, "report", None)
    if report is None:  # Ray < 2.41 reports through ray.train
        from ray.train import report
    report({**row, "curve": json.dumps(row["curve"])})


def run_ray(
    base: dict[str, Any],
    grid: dict[str, dict[str, Any]],
    seeds: Sequence[int],
    n_workers: int | None,
    out_dir: Path,
    address: str | None,
    report: Report | None = None,
) -> list[dict[str, Any]]:
    """The grid ``variants x seeds`` as a Ray Tune experiment (one CPU per run)."""
    require("ray")
    import ray
    from ray import tune

    if not ray.is_initialized():
        init_kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is not None:
            init_kwargs["address"] = address
        else:
            init_kwargs["num_cpus"] = n_workers or os.cpu_count() or 1
        ray.init(**init_kwargs)
    run_config_cls = getattr(tune, "RunConfig", None)
    if run_config_cls is None:  # Ray < 2.41
        from ray.train import RunConfig as run_config_cls
    base = {**base, "run_dir": None}
    tuner = tune.Tuner(
        tune.with_resources(_ray_trainable, {"cpu": 1}),
        param_space={
            "variant": tune.grid_search(list(grid)),
            "seed": tune.grid_search(list(seeds)),
            "spec": base,
            "grid": grid,
        },
        tune_config=tune.TuneConfig(max_concurrent_trials=n_workers),
        run_config=run_config_cls(
            name="ablation", storage_path=str((out_dir / "ray").resolve()), verbose=0
        ),
    )
    rows = []
    for result in tuner.fit():
        if result.error is not None:
            raise RuntimeError(f"Ray Tune trial failed: {result.error}") from result.error
        row = {key: value for key, value in result.metrics.items() if key in (*ROW_KEYS,)}
        row["curve"] = [tuple(point) for point in json.loads(result.metrics["curve"])]
        rows.append(row)
        if report is not None:
            report(row)
    return rows
