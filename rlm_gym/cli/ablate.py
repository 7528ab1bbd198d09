"""``rlm-gym ablate``: train one agent per (variant, seed) and compare them on the true score.

A variant switches one reward component off (all components by default, plus the ``binary``
policy); the seeds run locally in worker processes or on a Ray cluster.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rlm_gym.cli.options import (
    add_algo,
    add_command,
    add_format,
    add_quiet,
    check_env_id,
    check_hp,
    parse_assignments,
    parse_seeds,
    positive_int,
    print_records,
    split_names,
)
from rlm_gym.envs import CURRENT_CRAWL_ENV_ID

__all__ = ["register"]


def _run_ablate(args: argparse.Namespace) -> int:
    from rlm_gym.training import require

    require("torch", "stable_baselines3", "matplotlib")  # matplotlib: ablation.png, curves.png
    if args.backend == "ray":
        require("ray")
    check_env_id(args.env)
    from rlm_gym.training import ablate

    hyperparams = parse_assignments(args.hp, "--hp")
    check_hp(hyperparams, args.algo)
    result = ablate(
        args.env,
        args.policy,
        split_names(args.components) or None,
        parse_seeds(args.seeds),
        args.timesteps,
        args.backend,
        n_workers=args.workers,
        out_dir=args.out,
        n_eval_episodes=args.eval_episodes,
        n_envs=args.n_envs,
        algo=args.algo,
        hyperparams=hyperparams,
        binary=not args.no_binary,
        address=args.address,
        progress=not args.quiet,
    )
    if args.format == "table":
        print(result.table())
    else:
        baselines = [{"variant": name, "score": score} for name, score in result.baselines.items()]
        print_records([*result.summary, *baselines], args.format)
    print(
        f"\nWrote ablation.csv, ablation.md, ablation.png and curves.png to {result.out_dir}",
        file=sys.stdout if args.format == "table" else sys.stderr,
    )
    return 0


def register(subparsers: Any) -> None:
    """Add ``ablate`` to an argparse subparsers object."""
    ablate = add_command(
        subparsers,
        "ablate",
        "train one agent per (variant, seed) and compare the variants on the true score",
        [
            "rlm-gym ablate --seeds 0-2 --timesteps 30000",
            "rlm-gym ablate --components efficiency,defects --backend ray --workers 8",
        ],
        description="The quick ablation grid: the full reward, the reward with each component "
        "switched off in turn, and `binary`, each trained on every seed; then every agent's "
        "true crawl score on the same seeded episodes, with paired 95 % CIs against the full "
        "reward. Writes ablation.csv, ablation.md, ablation.png and curves.png. For the "
        "project's documented studies use `rlm-gym study`.",
    )
    ablate.add_argument("--env", default=CURRENT_CRAWL_ENV_ID, help="a registered env id")
    add_algo(ablate)
    ablate.add_argument("--policy", default="crawl", help="the reward policy to ablate")
    ablate.add_argument(
        "--components",
        action="append",
        metavar="NAMES",
        help="components to disable one at a time, comma-separated, repeatable (default: "
        "every component of the policy)",
    )
    ablate.add_argument("--seeds", default="0-4", help="training seeds, e.g. 0-4 or 0,3,7")
    ablate.add_argument(
        "--timesteps", type=positive_int, default=30_000, help="training steps per run"
    )
    ablate.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local processes, or Ray Tune (the `ray` extra)",
    )
    ablate.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        help="runs at a time (default: the number of cores)",
    )
    ablate.add_argument(
        "--address",
        default=None,
        help="Ray cluster address, ray backend only (default: a local Ray)",
    )
    ablate.add_argument(
        "--out", default="runs/ablation", help="output directory (a suffix is added if taken)"
    )
    ablate.add_argument(
        "--eval-episodes",
        type=positive_int,
        default=200,
        help="seeded evaluation episodes per trained agent",
    )
    ablate.add_argument("--n-envs", type=positive_int, default=4, help="training envs per run")
    ablate.add_argument(
        "--hp",
        action="append",
        metavar="KEY=VALUE",
        help="a PPO hyperparameter, JSON value, repeatable (default: DEFAULT_HYPERPARAMS)",
    )
    ablate.add_argument("--no-binary", action="store_true", help="leave out the binary variant")
    add_format(ablate, "the per-variant summary and the baselines")
    add_quiet(ablate)
    ablate.set_defaults(func=_run_ablate)
