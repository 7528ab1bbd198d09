"""``rlm-gym demo``: train an agent on the crawl env (~5 min on 2 cores) and print the table."""

from __future__ import annotations

import argparse
from typing import Any

from rlm_gym.cli.evaluate import print_comparison
from rlm_gym.cli.options import add_quiet, positive_int
from rlm_gym.envs import CRAWL_ENV_ID

__all__ = ["register"]


def _run_demo(args: argparse.Namespace) -> int:
    from rlm_gym.training import require

    require("torch", "stable_baselines3", "matplotlib", "rich")
    from rlm_gym.training import DEMO_VARIANT, run_demo

    run_demo(
        args.out,
        total_timesteps=args.timesteps,
        n_eval_episodes=args.eval_episodes,
        seed=args.seed,
        variant=args.variant or DEMO_VARIANT,
        quick=True if args.quick else None,
        progress_bar=not args.quiet,
        show_table=lambda rows: print_comparison(
            rows, f"{CRAWL_ENV_ID}: true crawl score", "table"
        ),
    )
    return 0


def register(subparsers: Any) -> None:
    """Add ``demo`` to an argparse subparsers object."""
    demo = subparsers.add_parser(
        "demo", help="train an agent on the crawl env (~5 min on 2 cores) and print the table"
    )
    demo.add_argument(
        "--variant",
        default=None,
        help="a recipe of the `defaults` study (default: the measured best, DEMO_VARIANT)",
    )
    demo.add_argument("--timesteps", type=positive_int, default=None)
    demo.add_argument("--eval-episodes", type=positive_int, default=None)
    demo.add_argument("--seed", type=int, default=0)
    demo.add_argument("--out", default="runs/demo")
    demo.add_argument("--quick", action="store_true", help="tiny budget (as RLM_GYM_QUICK=1)")
    add_quiet(demo)
    demo.set_defaults(func=_run_demo)
