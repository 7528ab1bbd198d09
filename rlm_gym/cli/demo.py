"""``rlm-gym demo``: train an agent on the crawl env (~5 min on 2 cores) and print the table."""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import Any

from rlm_gym.cli.evaluate import FORMATS, print_comparison
from rlm_gym.cli.options import add_command, add_quiet, positive_int
from rlm_gym.tables import terminal_width

__all__ = ["register"]


def _run_demo(args: argparse.Namespace) -> int:
    from rlm_gym.training import require

    require("torch", "stable_baselines3", "matplotlib", "rich")
    from rlm_gym.training import DEMO_ENV_ID, DEMO_VARIANT, run_demo

    # json and csv are for programs: stdout holds the rows alone, the progress goes to stderr.
    for_programs = args.format in ("json", "csv")
    run_demo(
        args.out,
        total_timesteps=args.timesteps,
        n_eval_episodes=args.eval_episodes,
        seed=args.seed,
        variant=args.variant or DEMO_VARIANT,
        quick=True if args.quick else None,
        progress_bar=not (args.quiet or for_programs),
        echo=(lambda line: print(line, file=sys.stderr)) if for_programs else print,
        show_table=lambda rows: _show(rows, f"{DEMO_ENV_ID}: true crawl score", args.format),
    )
    return 0


def _show(rows: list[dict[str, Any]], title: str, fmt: str) -> None:
    print_comparison(rows, title, fmt)
    if fmt == "table":
        note = (
            "On another CPU the trained row differs a little (torch and MKL take other float "
            "kernels, PPO another trajectory); the README's demo table gives the measured range."
        )
        print(textwrap.fill(note, terminal_width() or len(note)))


def register(subparsers: Any) -> None:
    """Add ``demo`` to an argparse subparsers object."""
    demo = add_command(
        subparsers,
        "demo",
        "train an agent on the crawl env and print its true score beside the baselines",
        [
            "rlm-gym demo",
            "rlm-gym demo --seed 1 --out runs/demo-seed1",
            "rlm-gym demo --quick",
            "rlm-gym demo --format json",
        ],
        description="The main job (`make demo`): train PPO with the `crawl` policy and the "
        "quarter-cost recipe of the `demo-cost` study (about a minute on 2 cores), on the "
        "current crawl env, then print the "
        "true crawl score of random / heuristic / best fixed / trained / oracle on the same "
        "seeded episodes and write evaluation.json and curves.png into the run directory.",
    )
    from rlm_gym.training.studies.plans import STUDIES
    from rlm_gym.training.studies.recipes import DEMO_STUDY, DEMO_VARIANT

    demo.add_argument(
        "--variant",
        default=None,
        help=f"a variant of the `{DEMO_STUDY}` study: "
        + ", ".join(STUDIES[DEMO_STUDY].variants)
        + f" (default: {DEMO_VARIANT}, what `rlm-gym train --recipe demo` trains)",
    )
    demo.add_argument(
        "--timesteps",
        type=positive_int,
        default=None,
        help="training steps (default: the recipe's budget)",
    )
    demo.add_argument(
        "--eval-episodes",
        type=positive_int,
        default=None,
        help="seeded evaluation episodes per agent (default: the studies', DEMO_EVAL_EPISODES)",
    )
    demo.add_argument("--seed", type=int, default=0, help="training seed")
    demo.add_argument(
        "--out", default="runs/demo", help="run directory (a suffix is added if taken)"
    )
    demo.add_argument(
        "--quick", action="store_true", help="tiny budgets, for a smoke test (as RLM_GYM_QUICK=1)"
    )
    demo.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="the results as a table that fits the terminal, markdown, json (the rows, every "
        "value; progress on stderr) or csv",
    )
    add_quiet(demo)
    demo.set_defaults(func=_run_demo)
