"""The ``rlm-gym`` command line: ``policies``, ``demo`` and the subsystems' commands."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from rlm_gym.policies import PolicyRegistry

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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available subcommand."""
    parser = argparse.ArgumentParser(
        prog="rlm-gym", description="Reward policies and the simulated crawl environment."
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    policies = subparsers.add_parser("policies", help="list reward policies and their config")
    policies.add_argument("--format", choices=("text", "json"), default="text")
    policies.set_defaults(func=_run_policies)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
