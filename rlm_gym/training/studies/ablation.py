"""``ablate``: train one agent per (variant, seed) and compare them on the true crawl score.

Variants are ``full`` (the policy as is), ``no_<component>`` (that component disabled) for each
ablated component, and ``binary`` (the 0/1 success policy, the crawl document's "before"). Every
agent is evaluated on the same seeded episodes with the env's own reward (for the crawl env the
full, unablated crawl reward), so variants differ only in what they were trained on.

``backend="local"`` runs the grid in a process pool sized to the cores; ``backend="ray"`` runs
the same grid as a Ray Tune experiment (``pip install -e ".[ray]"``); see
``rlm_gym.training.studies.ablation_runs``. Both return the same ``AblationResult`` and write
the same files, atomically, into a new output directory (an existing, non-empty ``out_dir`` gets a
``-2``, ``-3`` ... suffix: one ablation never overwrites another). A line per finished run goes
to stderr (``progress=False`` silences it).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.envs import CURRENT_CRAWL_ENV_ID
from rlm_gym.policies import PolicyRegistry
from rlm_gym.training.env_factory import check_policy_fits, make_env
from rlm_gym.training.evaluation import evaluate
from rlm_gym.training.hyperparams import check_hyperparams
from rlm_gym.training.models import choose_algo
from rlm_gym.training.runs import unique_run_dir
from rlm_gym.training.studies.ablation_results import (
    AblationResult,
    normalised_score,
    summarise_ablation,
    write_ablation,
)
from rlm_gym.training.studies.ablation_runs import progress_line, run_local, run_ray

__all__ = ["ABLATION_BACKENDS", "ablate", "ablation_variants"]

ABLATION_BACKENDS: tuple[str, ...] = ("local", "ray")


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


def ablate(
    env_id: str = CURRENT_CRAWL_ENV_ID,
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
        report = progress_line(len(specs), time.perf_counter()) if progress else None
        rows = run_local(specs, min(n_workers, len(specs)), report)
    else:
        runs = len(grid) * len(seeds)
        report = progress_line(runs, time.perf_counter()) if progress else None
        rows = run_ray(base, grid, seeds, n_workers, out_dir, address, report)
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
        row["normalised"] = normalised_score(row["score"], baselines)
    result.summary = summarise_ablation(rows, list(grid))
    settings = {**base, "variants": grid, "seeds": list(seeds), "backend": backend}
    write_ablation(result, settings, plots)
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
    return choose_algo(algo, masks, env_id)
