"""``rlm-gym demo``: train PPO on the crawl env with the ``crawl`` policy and compare baselines.

Budget: ``DEMO_TIMESTEPS`` env steps (about two minutes of MaskablePPO training on one core while
the baselines are scored on the other, measured), then
``DEMO_EVAL_EPISODES`` seeded evaluation episodes per agent. ``RLM_GYM_QUICK=1`` (or
``quick=True``) shrinks both for CI.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rlm_gym.envs import CRAWL_ENV_ID

__all__ = ["DEMO_EVAL_EPISODES", "DEMO_TIMESTEPS", "is_quick", "run_demo"]

DEMO_TIMESTEPS = 250_000
DEMO_EVAL_EPISODES = 300
QUICK_TIMESTEPS = 4_096
QUICK_EVAL_EPISODES = 20
EVAL_SEED = 1_000_000
BASELINE_NAMES = ("random", "heuristic", "best_fixed", "oracle")
BASELINE_LABELS = ("random", "heuristic", "best fixed", "oracle")


def is_quick() -> bool:
    """True when ``RLM_GYM_QUICK`` is set to a non-empty value other than ``0``.

    Example:
        >>> import os
        >>> os.environ.pop("RLM_GYM_QUICK", None) and None
        >>> is_quick()
        False
    """
    return os.environ.get("RLM_GYM_QUICK", "") not in ("", "0")


def _context() -> multiprocessing.context.BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _evaluate_baselines(n_episodes: int) -> list[Any]:
    from rlm_gym.training.evaluation import evaluate

    return [
        evaluate(name, CRAWL_ENV_ID, n_episodes, EVAL_SEED, label=label)
        for name, label in zip(BASELINE_NAMES, BASELINE_LABELS, strict=True)
    ]


def run_demo(
    out_dir: str | Path = "runs/demo",
    total_timesteps: int | None = None,
    n_eval_episodes: int | None = None,
    seed: int = 0,
    algo: str | None = None,
    quick: bool | None = None,
    progress_bar: bool = True,
    shaping: bool = True,
    echo: Any = print,
    show_table: Any = None,
) -> list[dict[str, Any]]:
    """Train, evaluate against the baselines, print the table, write ``curves.png``.

    Args:
        out_dir: Run directory (model, config, metrics, ``evaluation.md``/``.json``,
            ``curves.png``).
        total_timesteps: Training budget (default ``DEMO_TIMESTEPS``, quick: ``QUICK_TIMESTEPS``).
        n_eval_episodes: Evaluation episodes per agent.
        seed: Training seed.
        algo: ``"ppo"`` or ``"maskable_ppo"`` (default: ``DEFAULT_ALGO``).
        quick: Small budgets (default: ``is_quick()``).
        progress_bar: Show the training progress bar.
        shaping: Add potential-based shaping with the crawl potential (``crawl_potential``):
            it leaves the optimal policy unchanged and measured 0.778 vs 0.657 true score.
        echo: Where to print lines (``print``; a rich console's ``print`` works too).
        show_table: Called with the rows to show the table (default: ``echo`` the Markdown).

    Returns:
        The comparison rows (random, heuristic, best fixed, trained, oracle).
    """
    from rlm_gym.training.evaluation import comparison_table, evaluate, format_table
    from rlm_gym.training.plots import plot_curves
    from rlm_gym.training.runs import write_json_atomic, write_text_atomic
    from rlm_gym.training.trainer import DEFAULT_ALGO, crawl_potential, train

    quick = is_quick() if quick is None else quick
    total_timesteps = total_timesteps or (QUICK_TIMESTEPS if quick else DEMO_TIMESTEPS)
    n_eval_episodes = n_eval_episodes or (QUICK_EVAL_EPISODES if quick else DEMO_EVAL_EPISODES)
    algo = algo or DEFAULT_ALGO
    out_dir = Path(out_dir)
    started = time.perf_counter()
    extra = " + potential shaping" if shaping else ""
    echo(f"Training {algo} on {CRAWL_ENV_ID}: 'crawl' policy{extra}, {total_timesteps:,} steps")
    # The baselines (the oracle plans, so it is the slow one) are scored on the second core
    # while the agent trains on the first.
    with ProcessPoolExecutor(1, mp_context=_context()) as pool:
        pending = pool.submit(_evaluate_baselines, n_eval_episodes)
        trained = train(
            CRAWL_ENV_ID,
            "crawl",
            total_timesteps=total_timesteps,
            seed=seed,
            algo=algo,
            log_dir=out_dir,
            progress_bar=progress_bar,
            shaping=crawl_potential if shaping else None,
        )
        metrics = trained.metrics
        echo(
            f"  {metrics['timesteps']:,} steps in {metrics['wall_time_s']:.1f} s "
            f"({metrics['steps_per_s']:,.0f} steps/s), {metrics['episodes']:,} episodes"
        )
        echo(f"Evaluating on {n_eval_episodes} seeded episodes (the true, full crawl reward)")
        agent = evaluate(trained.model, CRAWL_ENV_ID, n_eval_episodes, EVAL_SEED, label="trained")
        baselines = pending.result()
    results = [*baselines[:3], agent, baselines[3]]
    rows = comparison_table(results)
    table = format_table(rows)
    # train() never reuses a directory: a re-run writes into out_dir-2, and so does this.
    out_dir = trained.log_dir or out_dir
    write_text_atomic(out_dir / "evaluation.md", table + "\n")
    write_json_atomic(out_dir / "evaluation.json", rows)
    reference = {row["label"]: row["score"] for row in rows if row["label"] != "trained"}
    plot_curves(trained.episodes, out_dir / "curves.png", reference, window=500)
    echo("")
    if show_table is None:
        echo(table)
    else:
        show_table(rows)
    echo("")
    echo(
        f"Wrote {out_dir}/curves.png, evaluation.md, model.zip, metrics.json "
        f"(total {time.perf_counter() - started:.0f} s)"
    )
    return rows
