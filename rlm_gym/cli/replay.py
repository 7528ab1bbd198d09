"""``rlm-gym replay``: watch a trained agent crawl step by step, or save the frames as a GIF."""

from __future__ import annotations

import argparse
from typing import Any

from rlm_gym.cli.options import add_command, model_file, positive_int

__all__ = ["register"]


def _run_replay(args: argparse.Namespace) -> int:
    from rlm_gym.training import replay, require

    require("torch", "stable_baselines3")
    if args.gif is not None:
        require("PIL")

    model_file(args.run, "RUN")
    replay(args.run, episodes=args.episodes, seed=args.seed, gif=args.gif)
    return 0


def register(subparsers: Any) -> None:
    """Add ``replay`` to an argparse subparsers object."""
    replay = add_command(
        subparsers,
        "replay",
        "watch a trained agent crawl step by step, or save its episodes as a GIF",
        ["rlm-gym replay runs/demo", "rlm-gym replay runs/demo --episodes 3 --gif crawl.gif"],
    )
    replay.add_argument("run", help="a run directory written by `rlm-gym train` (or its model)")
    replay.add_argument("--episodes", type=positive_int, default=1, help="episodes to play")
    replay.add_argument("--seed", type=int, default=2_000_000, help="seed of the first episode")
    replay.add_argument(
        "--gif",
        default=None,
        metavar="OUT.gif",
        help="save the frames as a GIF (default: print each step instead)",
    )
    replay.set_defaults(func=_run_replay)
