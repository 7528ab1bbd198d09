"""``ablate``: train one agent per (variant, seed) and compare them on the true crawl score.

Variants are ``full`` (the policy as is), ``no_<component>`` (that component disabled) for each
ablated component, and ``binary`` (the 0/1 success policy, the crawl document's "before"). Every
agent is evaluated on the same seeded episodes with the env's own reward (for the crawl env the
full, unablated crawl reward), so variants differ only in what they were trained on.

``backend="local"`` runs the grid in a process pool sized to the cores; ``backend="ray"`` runs
the same grid as a Ray Tune experiment (``pip install "rlm-gym[ray]"``). Both return the same
``AblationResult`` and write the same files, atomically, into a new output directory (an
existing, non-empty ``out_dir`` gets a ``-2``, ``-3`` ... suffix: one ablation never overwrites
another). A line per finished run goes to stderr (``progress=False`` silences it).
"""

from __future__ import annotations

import csv
import json
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.envs import CRAWL_ENV_ID
from rlm_gym.policies import PolicyRegistry
from rlm_gym.training.runs import atomic_write, unique_run_dir, write_json_atomic, write_text_atomic
from rlm_gym.training.stats import mean_ci95

__all__ = [
    "ABLATION_BACKENDS",
    "AblationResult",
    "ablate",
    "ablation_variants",
    "run_variant",
    "summarise_ablation",
]

ABLATION_BACKENDS: tuple[str, ...] = ("local", "ray")
CURVE_POINTS = 20
# Columns of ablation.csv, in order (a run's per-episode means follow the score).
ROW_KEYS: tuple[str, ...] = (
    "variant", "seed", "policy", "disabled", "score", "normalised", "success", "has_data",
    "validation", "quantity", "efficiency", "items", "pages", "time_per_page_ms", "length",
    "train_timesteps", "train_time_s",
)  # fmt: skip


def ablation_variants(
    policy: str = "crawl", components: Iterable[str] | None = None, binary: bool = True
) -> dict[str, dict[str, Any]]:
    """The ablation grid's variants: name -> ``{"policy", "disable"}``.

    Args:
        policy: The registered policy to ablate.
        components: Components to disable one at a time (default: all of the policy's).
        binary: Add the ``binary`` policy as a variant.

    Raises:
        ValueError: Unknown policy or component (with suggestions).

    Example:
        >>> list(ablation_variants("lenient", ["success"]))
        ['full', 'no_success', 'binary']
        >>> ablation_variants("lenient", ["sucess"])
        Traceback (most recent call last):
        ...
        ValueError: Unknown component 'sucess' of policy 'lenient'. Did you mean 'success'? Available: 'attempt', 'success', 'failure', 'progress', 'final'
    """  # noqa: E501
    names = PolicyRegistry.get_reward_class(policy).component_names
    components = tuple(names if components is None else components)
    for name in components:
        if name not in names:
            raise unknown_name_error("component", name, names, f"of policy '{policy}'")
    variants = {"full": {"policy": policy, "disable": ()}}
    for name in components:
        variants[f"no_{name}"] = {"policy": policy, "disable": (name,)}
    if binary and policy != "binary":
        variants["binary"] = {"policy": "binary", "disable": ()}
    return variants


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
        """The per-variant Markdown table (mean ± 95 % CI over seeds)."""
        lines = [
            "| variant | runs | true crawl score (mean ± 95% CI) | normalised (mean ± 95% CI) |",
            "|---|---|---|---|",
        ]
        for row in self.summary:
            lines.append(
                f"| {row['variant']} | {row['runs']} | {row['score']:.3f} ± "
                f"{row['score_ci95']:.3f} | {row['normalised']:.2f} ± "
                f"{row['normalised_ci95']:.2f} |"
            )
        for name, score in self.baselines.items():
            lines.append(f"| *{name} (baseline)* | - | {score:.3f} | {_norm(score, self):.2f} |")
        return "\n".join(lines)


def _norm(score: float, result: AblationResult) -> float:
    low, high = result.baselines.get("random"), result.baselines.get("oracle")
    if low is None or high is None or high == low:
        return math.nan
    return (score - low) / (high - low)


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
    from rlm_gym.training.evaluation import evaluate
    from rlm_gym.training.trainer import train

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


def _pool_context() -> multiprocessing.context.BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


Report = Callable[[Mapping[str, Any]], None]


def _progress_line(total: int, started: float) -> Report:
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


def _run_local(
    specs: list[dict[str, Any]], n_workers: int, report: Report | None = None
) -> list[dict[str, Any]]:
    rows = []
    if n_workers == 1:
        for spec in specs:
            rows.append(run_variant(spec))
            if report is not None:
                report(rows[-1])
        return rows
    with ProcessPoolExecutor(max_workers=n_workers, mp_context=_pool_context()) as pool:
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


def _run_ray(
    base: dict[str, Any],
    grid: dict[str, dict[str, Any]],
    seeds: Sequence[int],
    n_workers: int | None,
    out_dir: Path,
    address: str | None,
    report: Report | None = None,
) -> list[dict[str, Any]]:
    from rlm_gym.training._deps import require

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


def ablate(
    env_id: str = CRAWL_ENV_ID,
    policy: str = "crawl",
    components: Iterable[str] | None = None,
    seeds: Sequence[int] = (0, 1, 2, 3, 4),
    total_timesteps: int = 30_000,
    backend: str = "local",
    *,
    n_workers: int | None = None,
    out_dir: str | Path = "runs/ablation",
    n_eval_episodes: int = 200,
    eval_seed: int = 100_000,
    n_envs: int = 4,
    algo: str | None = None,
    hyperparams: Mapping[str, Any] | None = None,
    env_kwargs: Mapping[str, Any] | None = None,
    binary: bool = True,
    address: str | None = None,
    plots: bool = True,
    keep_runs: bool = False,
    progress: bool = True,
) -> AblationResult:
    """Run the ablation grid and write ``ablation.csv``, ``ablation.md`` and the plots.

    Args:
        env_id: The env to train and evaluate on.
        policy: The registered policy to ablate.
        components: Components disabled one at a time (default: all of the policy's).
        seeds: Training seeds; every variant runs once per seed.
        total_timesteps: Training budget of each run.
        backend: ``"local"`` (process pool) or ``"ray"`` (Ray Tune).
        n_workers: Concurrent runs (default: the number of cores).
        out_dir: Output directory; if it already holds anything, ``out_dir-2`` (``-3``, ...)
            is used (``AblationResult.out_dir`` says which).
        n_eval_episodes: Evaluation episodes per run (the same seeded ones for every run).
        eval_seed: Seed of the first evaluation episode (away from training seeds).
        n_envs: Envs per run.
        algo: ``"ppo"`` or ``"maskable_ppo"`` (default: ``DEFAULT_ALGO``).
        hyperparams: PPO overrides.
        env_kwargs: Passed to ``gym.make``.
        binary: Include the ``binary`` policy variant.
        address: Ray cluster address for ``ray.init`` (local Ray when None).
        plots: Write ``ablation.png`` and ``curves.png`` (needs matplotlib).
        keep_runs: Keep each run's model and logs under ``out_dir/runs`` (local backend).
        progress: A line on stderr per finished (variant, seed) run.

    Returns:
        The ``AblationResult``.

    Raises:
        ValueError: Unknown backend, policy, component or hyper-parameter (with suggestions),
            a budget <= 0, no seeds, or a policy that does not fit the env.
        TypeError: A hyper-parameter of the wrong kind.

    Example - a tiny grid (slow: trains 3 agents):
        >>> result = ablate(policy="crawl", components=["quantity"], seeds=[0],
        ...                 total_timesteps=512, n_eval_episodes=5)  # doctest: +SKIP
        >>> sorted(row["variant"] for row in result.rows)  # doctest: +SKIP
        ['binary', 'full', 'no_quantity']
    """
    from rlm_gym.training.evaluation import evaluate

    if backend not in ABLATION_BACKENDS:
        raise unknown_name_error("backend", backend, ABLATION_BACKENDS)
    grid = ablation_variants(policy, components, binary)
    seeds = list(seeds)
    if not seeds:
        raise ValueError("Expected at least one seed in `seeds`, got none")
    algo = _check_ablation_inputs(
        env_id, grid, total_timesteps, n_envs, n_eval_episodes, n_workers, algo, hyperparams,
        env_kwargs,
    )  # fmt: skip
    out_dir = unique_run_dir(out_dir)
    n_workers = n_workers or os.cpu_count() or 1
    base = {
        "env_id": env_id,
        "total_timesteps": int(total_timesteps),
        "n_envs": int(n_envs),
        "algo": algo,
        "hyperparams": dict(hyperparams or {}),
        "env_kwargs": dict(env_kwargs or {}),
        "n_eval_episodes": int(n_eval_episodes),
        "eval_seed": int(eval_seed),
    }
    if backend == "local":
        specs = [
            {
                **base,
                **variant,
                "variant": name,
                "seed": int(seed),
                "run_dir": str(out_dir / "runs" / name / f"seed_{seed}") if keep_runs else None,
            }
            for name, variant in grid.items()
            for seed in seeds
        ]
        report = _progress_line(len(specs), time.perf_counter()) if progress else None
        rows = _run_local(specs, min(n_workers, len(specs)), report)
    else:
        runs = len(grid) * len(seeds)
        report = _progress_line(runs, time.perf_counter()) if progress else None
        rows = _run_ray(base, grid, seeds, n_workers, out_dir, address, report)
    baselines = {
        name: evaluate(name, env_id, n_eval_episodes, eval_seed, env_kwargs=env_kwargs).summary()[
            "score"
        ]
        for name in ("random", "oracle")
    }
    order = {name: i for i, name in enumerate(grid)}
    rows.sort(key=lambda row: (order[row["variant"]], row["seed"]))
    curves = {(row["variant"], row["seed"]): row.pop("curve") for row in rows}
    result = AblationResult(rows, [], curves, baselines, out_dir)
    for row in rows:
        row["normalised"] = _norm(row["score"], result)
    result.summary = summarise_ablation(rows, list(grid))
    _write(result, base, grid, seeds, backend, plots)
    return result


def _check_ablation_inputs(
    env_id: str,
    grid: Mapping[str, Mapping[str, Any]],
    total_timesteps: int,
    n_envs: int,
    n_eval_episodes: int,
    n_workers: int | None,
    algo: str | None,
    hyperparams: Mapping[str, Any] | None,
    env_kwargs: Mapping[str, Any] | None,
) -> str:
    """Fail before any worker starts: budgets, hyper-parameters, a policy that does not fit.

    Returns the algorithm (the default depends on whether the env has action masks).
    """
    from functools import partial

    from rlm_gym.training.hyperparams import check_hyperparams
    from rlm_gym.training.trainer import DEFAULT_ALGO, check_policy_fits, make_env

    for name, value in (
        ("total_timesteps", total_timesteps),
        ("n_envs", n_envs),
        ("n_eval_episodes", n_eval_episodes),
        ("n_workers", 1 if n_workers is None else n_workers),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ValueError(f"Expected `{name}` to be a positive integer, got {value!r}")
    check_hyperparams(dict(hyperparams or {}), algo or "ppo", source="hyperparams")
    masks = True
    for variant in grid.values():
        factory = partial(make_env, env_id, variant["policy"], env_kwargs=env_kwargs)
        masks = check_policy_fits(factory, variant["policy"], env_id) and masks
    if algo is None:
        return DEFAULT_ALGO if masks else "ppo"
    if algo == "maskable_ppo" and not masks:
        raise ValueError(
            f"`algo` 'maskable_ppo' needs an env with action_masks(); '{env_id}' has none "
            "(use 'ppo')"
        )
    return algo


def _write(
    result: AblationResult,
    base: Mapping[str, Any],
    grid: Mapping[str, Any],
    seeds: Sequence[int],
    backend: str,
    plots: bool,
) -> None:
    out_dir = result.out_dir
    assert out_dir is not None
    with atomic_write(out_dir / "ablation.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(ROW_KEYS), extrasaction="ignore")
        writer.writeheader()
        writer.writerows(result.rows)
    write_text_atomic(out_dir / "ablation.md", result.table() + "\n")
    config = {**base, "variants": grid, "seeds": list(seeds), "backend": backend}
    write_json_atomic(
        out_dir / "ablation.json",
        {"config": config, "summary": result.summary, "baselines": result.baselines},
    )
    if plots:
        from rlm_gym.training.plots import plot_ablation, plot_ablation_curves

        plot_ablation(result, out_dir / "ablation.png")
        plot_ablation_curves(result, out_dir / "curves.png")
