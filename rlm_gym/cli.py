"""The ``rlm-gym`` command line: ``policies``, ``compare`` and the subsystems' commands."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from rlm_gym.crawl import cli as crawl_cli
from rlm_gym.policies import PolicyRegistry
from rlm_gym.training import cli as training_cli

__all__ = ["build_parser", "main"]


def _run_policies(args: argparse.Namespace) -> int:
    rows = []
    for entry in PolicyRegistry.list_reward_policies():
        policy_cls = PolicyRegistry.get_reward_class(entry["name"])
        rows.append(
            {
                **entry,
                "components": list(policy_cls.component_names),
                "value_range": list(policy_cls.value_range),
                "default_config": policy_cls.get_default_config(),
            }
        )
    if args.format == "json":
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        low, high = row["value_range"]
        print(f"{row['name']}  [{low:g}, {high:g}]  {row['description']}")
        print(f"    components: {', '.join(row['components']) or '(free-form)'}")
        config = ", ".join(f"{key}={value!r}" for key, value in row["default_config"].items())
        print(f"    config: {config or '(none)'}")
    return 0


def compare_policies(
    env_id: str, policies: Sequence[str], episodes: int, seed: int
) -> list[dict[str, object]]:
    """Run the same seeded random-action episodes under each policy; mean episode sums.

    Returns one row per policy: ``{"policy", "episode_reward", "components": {name: mean}}``.
    """
    from rlm_gym.make import make

    rows = []
    for name in policies:
        env = make(env_id, name)
        env.action_space.seed(seed)
        totals: dict[str, float] = dict.fromkeys(env.component_names, 0.0)
        reward_sum = 0.0
        for episode in range(episodes):
            env.reset(seed=seed + episode)
            done = False
            while not done:
                _, _, terminated, truncated, info = env.step(env.action_space.sample())
                done = terminated or truncated
            reward_sum += info["episode_reward"]
            for component, value in info["episode_reward_components"].items():
                totals[component] = totals.get(component, 0.0) + value
        env.close()
        rows.append(
            {
                "policy": name,
                "episode_reward": reward_sum / episodes,
                "components": {key: value / episodes for key, value in totals.items()},
            }
        )
    return rows


def _run_compare(args: argparse.Namespace) -> int:
    policies = args.policy or [entry["name"] for entry in PolicyRegistry.list_reward_policies()]
    for name in policies:
        PolicyRegistry.get_reward_class(name)
    rows = compare_policies(args.env, policies, args.episodes, args.seed)
    if args.format == "json":
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{args.env}: mean per-episode reward components over {args.episodes} seeded episodes")
    print(f"of random actions (seeds {args.seed}..{args.seed + args.episodes - 1})")
    for row in rows:
        print(f"\n{row['policy']:<10} episode reward {row['episode_reward']:+.4f}")
        for component, value in row["components"].items():
            print(f"    {component:<18} {value:+.4f}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available subcommand."""
    parser = argparse.ArgumentParser(
        prog="rlm-gym", description="Reward policies and the simulated crawl environment."
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    policies = subparsers.add_parser("policies", help="list reward policies and their config")
    policies.add_argument("--format", choices=("text", "json"), default="text")
    policies.set_defaults(func=_run_policies)

    compare = subparsers.add_parser(
        "compare", help="score the same seeded episodes with each reward policy"
    )
    compare.add_argument("--env", default="CartPole-v1", help="a registered env id")
    compare.add_argument(
        "--policy", action="append", help="a policy to include (repeatable; default: all)"
    )
    compare.add_argument("--episodes", type=int, default=5)
    compare.add_argument("--seed", type=int, default=0)
    compare.add_argument("--format", choices=("text", "json"), default="text")
    compare.set_defaults(func=_run_compare)

    crawl_cli.register(subparsers)
    # Parsers only: the training commands import SB3 / torch when they run, and say which
    # extra to install when it is missing.
    training_cli.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (ValueError, TypeError) as error:
        # Bad names, config or input files: say what was wrong, without a traceback.
        print(f"rlm-gym {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
