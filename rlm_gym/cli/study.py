"""``rlm-gym study``: run (or resume) a learning study and write ``results/<name>.json``.

A study trains every variant of a question on several seeds and reports each variant's score
with its 95 % interval and its paired difference to the reference variant.
"""

from __future__ import annotations

import argparse
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.cli.options import add_quiet, parse_seeds, positive_int
from rlm_gym.tables import mean_and_ci

__all__ = ["register"]


def _run_study(args: argparse.Namespace) -> int:
    from rlm_gym.training import require

    if not args.no_train:  # --no-train only reads finished runs and scores the baselines
        require("torch", "stable_baselines3")
    from rlm_gym.training import STUDIES, run_study

    if args.name not in STUDIES:
        raise unknown_name_error("study", args.name, STUDIES)
    results = run_study(
        args.name,
        runs_dir=args.runs_dir,
        results_dir=args.results_dir,
        n_workers=args.workers,
        seeds=parse_seeds(args.seeds) if args.seeds else None,
        total_timesteps=args.timesteps,
        n_eval_episodes=args.eval_episodes,
        progress=not args.quiet,
        train=not args.no_train,
    )
    reference = results["reference"]
    print(f"{results['study']}: {results['question']}")
    print(f"seeds complete: {results['seeds_complete']} ({results['runs_done']} runs)")
    for name, row in results["variants"].items():
        seeds = len(row["seeds"])
        paired = (
            ""
            if name == reference
            else f"  vs {reference}: "
            + mean_and_ci(row["vs_reference"], row["vs_reference_ci95"], seeds, "{:+.3f}")
        )
        normalised = f"{row['normalised']:.2f}" if seeds else "n/a"
        print(
            f"  {name:<26} {mean_and_ci(row['score'], row['score_ci95'], seeds)}"
            f"  normalised {normalised}{paired}"
        )
        task = row.get("task", {})
        if "job_done" in task and "time_per_valid_item_ms" in task:
            job, time = task["job_done"], task["time_per_valid_item_ms"]
            print(
                f"  {'':<26} job done {100 * job['mean']:.1f} %"
                f"  ({100 * job['vs_reference']:+.1f} vs {reference}),"
                f" {time['mean'] / 1000:.2f} s per valid item"
            )
    return 0


def register(subparsers: Any) -> None:
    """Add ``study`` to an argparse subparsers object."""
    study = subparsers.add_parser(
        "study",
        help="run (or resume) a learning study and write results/<name>.json",
    )
    study.add_argument(
        "name",
        help="ablation, ablation-300k, ablation-v1, defaults, recipe-cost, demo-version "
        "(rlm_gym.training.STUDIES)",
    )
    study.add_argument("--workers", type=positive_int, default=None, help="default: the cores")
    study.add_argument("--seeds", default=None, help="override the study's seeds, e.g. 0-2")
    study.add_argument("--timesteps", type=positive_int, default=None, help="override the budget")
    study.add_argument("--eval-episodes", type=positive_int, default=None)
    study.add_argument("--runs-dir", default="runs/studies", help="where each run's files go")
    study.add_argument("--results-dir", default="results", help="where <name>.json goes")
    study.add_argument(
        "--no-train",
        action="store_true",
        help="write the results of the runs already finished; train nothing",
    )
    add_quiet(study)
    study.set_defaults(func=_run_study)
