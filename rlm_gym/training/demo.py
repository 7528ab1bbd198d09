"""``rlm-gym demo``: train an agent on the crawl env (`crawl` policy) and compare baselines.

The training recipe is the ``DEMO_VARIANT`` of the ``demo-cost`` study
(``rlm_gym.training.studies.plans.STUDIES``): graded efficiency and gamma 0.999 (the
``defaults`` study's best) with the studies' quarter-cost recipe (128 envs, minibatches of
1,024, 5 epochs at a learning rate of 4e-3) at 450k steps, which the study measured against the
earlier demo recipe (16 envs, 450k steps) on 3 seeds (``rlm-gym study demo-cost`` writes
``results/demo-cost.json``, from which the README's tables are rendered). The demo trains it
with the study's envs, budget and PPO settings, so ``rlm-gym demo --seed N`` reproduces the
study's run of seed ``N``. The baselines (the oracle plans, so it is the slow one) are scored on
the second core while the agent trains on the first; then ``DEMO_EVAL_EPISODES`` seeded episodes
per agent. ``RLM_GYM_QUICK=1`` (or ``quick=True``) shrinks both budgets for CI.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rlm_gym.envs import CURRENT_CRAWL_ENV_ID
from rlm_gym.training.evaluation import BASELINES, comparison_table, evaluate, format_table
from rlm_gym.training.models import DEFAULT_ALGO
from rlm_gym.training.plots import plot_curves
from rlm_gym.training.pools import pool_context
from rlm_gym.training.runs import write_json_atomic, write_text_atomic
from rlm_gym.training.studies.plans import STUDY_EVAL_EPISODES, STUDY_EVAL_SEED
from rlm_gym.training.studies.recipes import DEMO_STUDY, DEMO_VARIANT, study_recipe
from rlm_gym.training.trainer import train

__all__ = [
    "DEMO_ENV_ID",
    "DEMO_EVAL_EPISODES",
    "DEMO_VARIANT",
    "demo_recipe",
    "is_quick",
    "run_demo",
]

# The version the demo trains on, chosen from results/demo-version.json (the recipe on Crawl-v1
# and Crawl-v2, seeds 0-2): see docs/training.md, "Which version the demo trains on".
DEMO_ENV_ID = CURRENT_CRAWL_ENV_ID
DEMO_EVAL_EPISODES = STUDY_EVAL_EPISODES
QUICK_TIMESTEPS = 4_096
QUICK_EVAL_EPISODES = 20
EVAL_SEED = STUDY_EVAL_SEED
# How the table names each of ``BASELINES``.
BASELINE_LABELS = ("random", "heuristic", "best fixed", "oracle")


def demo_recipe(variant: str = DEMO_VARIANT) -> dict[str, Any]:
    """The ``train`` keyword arguments of a ``demo-cost``-study variant (the demo's by default).

    Example:
        >>> recipe = demo_recipe()
        >>> recipe["n_envs"], recipe["total_timesteps"], recipe["hyperparams"]["n_steps"]
        (128, 450000, 32)
        >>> demo_recipe("demo-16envs-450k")["n_envs"]
        16
    """
    return study_recipe(DEMO_STUDY, variant).train_kwargs()


def is_quick() -> bool:
    """True when ``RLM_GYM_QUICK`` is set to a non-empty value other than ``0``.

    Example:
        >>> import os
        >>> os.environ.pop("RLM_GYM_QUICK", None) and None
        >>> is_quick()
        False
    """
    return os.environ.get("RLM_GYM_QUICK", "") not in ("", "0")


def _evaluate_baselines(n_episodes: int) -> list[Any]:
    return [
        evaluate(name, DEMO_ENV_ID, n_episodes, EVAL_SEED, label=label)
        for name, label in zip(BASELINES, BASELINE_LABELS, strict=True)
    ]


def run_demo(
    out_dir: str | Path = "runs/demo",
    total_timesteps: int | None = None,
    n_eval_episodes: int | None = None,
    seed: int = 0,
    variant: str = DEMO_VARIANT,
    quick: bool | None = None,
    progress_bar: bool = True,
    echo: Any = print,
    show_table: Any = None,
) -> list[dict[str, Any]]:
    """Train, evaluate against the baselines, print the table, write ``curves.png``.

    Args:
        out_dir: Run directory (model, config, metrics, ``evaluation.md``/``.json``,
            ``curves.png``); a taken one gets a ``-2`` suffix (the run's own directory is used).
        total_timesteps: Training budget (default: the recipe's; quick: ``QUICK_TIMESTEPS``).
        n_eval_episodes: Evaluation episodes per agent.
        seed: Training seed.
        variant: A ``demo-cost``-study variant (default ``DEMO_VARIANT``).
        quick: Small budgets (default: ``is_quick()``).
        progress_bar: Show the training progress bar.
        echo: Where to print lines (``print``; a rich console's ``print`` works too).
        show_table: Called with the rows to show the table (default: ``echo`` the Markdown).

    Returns:
        The comparison rows (random, heuristic, best fixed, trained, oracle).
    """
    recipe = demo_recipe(variant)
    quick = is_quick() if quick is None else quick
    recipe["total_timesteps"] = total_timesteps or (
        QUICK_TIMESTEPS if quick else recipe["total_timesteps"]
    )
    n_eval_episodes = n_eval_episodes or (QUICK_EVAL_EPISODES if quick else DEMO_EVAL_EPISODES)
    algo = recipe.pop("algo") or DEFAULT_ALGO
    started = time.perf_counter()
    echo(
        f"Training {algo} on {DEMO_ENV_ID} with the 'crawl' policy, recipe '{variant}': "
        f"{recipe['total_timesteps']:,} steps, {recipe['n_envs']} envs"
    )
    with ProcessPoolExecutor(1, mp_context=pool_context()) as pool:
        pending = pool.submit(_evaluate_baselines, n_eval_episodes)
        trained = train(
            DEMO_ENV_ID,
            seed=seed,
            algo=algo,
            log_dir=out_dir,
            progress_bar=progress_bar,
            **recipe,
        )
        metrics = trained.metrics
        echo(
            f"  {metrics['timesteps']:,} steps in {metrics['wall_time_s']:.1f} s "
            f"({metrics['steps_per_s']:,.0f} steps/s), {metrics['episodes']:,} episodes"
        )
        echo(f"Evaluating on {n_eval_episodes} seeded episodes (the true, full crawl reward)")
        agent = evaluate(trained.model, DEMO_ENV_ID, n_eval_episodes, EVAL_SEED, label="trained")
        baselines = pending.result()
    results = [*baselines[:3], agent, baselines[3]]
    rows = comparison_table(results)
    table = format_table(rows)
    # train() never reuses a directory: a re-run writes into out_dir-2, and so does this.
    out_dir = trained.log_dir or Path(out_dir)
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
        f"Wrote {out_dir}/curves.png, evaluation.md, evaluation.json, model.zip, metrics.json "
        f"(total {time.perf_counter() - started:.0f} s)"
    )
    return rows
