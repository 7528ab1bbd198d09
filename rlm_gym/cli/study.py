"""``rlm-gym study``: run (or resume) a learning study and write ``results/<name>.json``.

A study trains every variant of a question on several seeds and reports each variant's score
with its 95 % interval and its paired difference to the reference variant.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.cli.options import (
    add_command,
    add_format,
    add_quiet,
    parse_seeds,
    positive_int,
    print_records,
)
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
        resummarise=args.resummarise,
    )
    if args.format == "json":
        print(json.dumps(results, indent=2))
        return 0
    if args.format == "csv":
        print_records(_variant_records(results), "csv")
        return 0
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
        if paired and "vs_reference_normalised" in row:  # variants of several envs
            paired += " raw, " + mean_and_ci(
                row["vs_reference_normalised"],
                row["vs_reference_normalised_ci95"],
                seeds,
                "{:+.3f}",
            )
            paired += " normalised (each on its env's scale)"
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


def _variant_records(results: dict[str, Any]) -> list[dict[str, Any]]:
    """One flat record per variant: its scores and its paired difference to the reference."""
    keys = (
        "score",
        "score_ci95",
        "normalised",
        "vs_reference",
        "vs_reference_ci95",
        "vs_reference_normalised",
        "vs_reference_normalised_ci95",
    )
    return [
        {
            "variant": name,
            "seeds": len(row["seeds"]),
            **{key: row[key] for key in keys if key in row},
        }
        for name, row in results["variants"].items()
    ]


def register(subparsers: Any) -> None:
    """Add ``study`` to an argparse subparsers object."""
    from rlm_gym.training import STUDIES

    study = add_command(
        subparsers,
        "study",
        "run (or resume) a learning study and write results/<name>.json",
        [
            "rlm-gym study ablation --workers 2",
            "rlm-gym study defaults --no-train",
        ],
        description="Train every variant of one of the project's documented questions on "
        "several seeds, then write each variant's true crawl score and task outcome with 95 % "
        "CIs and paired differences to the reference variant. A re-run continues where the "
        "last one stopped (finished runs are kept). `make readme` renders the docs' tables "
        "from the results file.",
    )
    study.add_argument(
        "name", choices=list(STUDIES), metavar="NAME", help=f"one of: {', '.join(STUDIES)}"
    )
    study.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        help="runs at a time (default: the number of cores)",
    )
    study.add_argument(
        "--seeds", default=None, help="override the study's seeds, e.g. 0-2 (default: its own)"
    )
    study.add_argument(
        "--timesteps",
        type=positive_int,
        default=None,
        help="override the training budget (default: the study's)",
    )
    study.add_argument(
        "--eval-episodes",
        type=positive_int,
        default=None,
        help="override the evaluation episodes per agent (default: the study's)",
    )
    study.add_argument("--runs-dir", default="runs/studies", help="where each run's files go")
    study.add_argument("--results-dir", default="results", help="where <name>.json goes")
    study.add_argument(
        "--no-train",
        action="store_true",
        help="write the results of the runs already finished; train nothing",
    )
    study.add_argument(
        "--resummarise",
        action="store_true",
        help="write results/<name>.json anew from the runs and baselines it holds, even when "
        "nothing is new (after a change to how runs are summarised)",
    )
    add_format(study, "the results (json: results/<name>.json as written; csv: a row per variant)")
    add_quiet(study)
    study.set_defaults(func=_run_study)
