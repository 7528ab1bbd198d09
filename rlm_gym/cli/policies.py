"""``rlm-gym policies`` and ``rlm-gym compare``: the registered reward policies, side by side.

``compare`` plays the same seeded random-action episodes under each policy and prints the mean
per-episode reward components, so two policies' views of the same behaviour can be read
together.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from rlm_gym.cli.options import add_command, check_env_id, positive_int
from rlm_gym.policies import PolicyRegistry

__all__ = ["compare_policies", "fitting_policies", "register"]


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


def _compare_one(env_id: str, name: str, episodes: int, seed: int) -> dict[str, Any]:
    from rlm_gym.make import make

    env = make(env_id, name)
    try:
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
    finally:
        env.close()
    return {
        "policy": name,
        "episode_reward": reward_sum / episodes,
        "components": {key: value / episodes for key, value in totals.items()},
    }


def compare_policies(
    env_id: str, policies: Sequence[str], episodes: int, seed: int
) -> list[dict[str, object]]:
    """Run the same seeded random-action episodes under each policy; mean episode sums.

    Returns one row per policy: ``{"policy", "episode_reward", "components": {name: mean}}``.

    Raises:
        ValueError: ``episodes`` <= 0, or a policy that does not fit the env (the ``crawl``
            policy needs a crawl result, which CartPole does not give), naming the policy.

    Example:
        >>> compare_policies("CartPole-v1", ["binary"], episodes=1, seed=0)[0]["policy"]
        'binary'
    """
    if episodes <= 0:
        raise ValueError(f"Expected `episodes` to be a positive integer, got {episodes}")
    rows = []
    for name in policies:
        try:
            rows.append(_compare_one(env_id, name, episodes, seed))
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            raise ValueError(f"Policy '{name}' does not fit env '{env_id}': {error}") from None
    return rows


def fitting_policies(env_id: str, seed: int = 0) -> tuple[list[str], dict[str, str]]:
    """The registered policies that score ``env_id``'s steps, and why the others do not.

    Each policy plays one seeded random-action episode; one that raises is left out.

    Example:
        >>> fits, skipped = fitting_policies("CartPole-v1")
        >>> "lenient" in fits, "crawl" in skipped
        (True, True)
    """
    fits: list[str] = []
    skipped: dict[str, str] = {}
    for entry in PolicyRegistry.list_reward_policies():
        try:
            _compare_one(env_id, entry["name"], 1, seed)
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            skipped[entry["name"]] = str(error)
            continue
        fits.append(entry["name"])
    return fits, skipped


def _run_compare(args: argparse.Namespace) -> int:
    check_env_id(args.env)
    if args.policy:
        policies = list(args.policy)
        for name in policies:
            PolicyRegistry.get_reward_class(name)
    else:
        policies, skipped = fitting_policies(args.env, args.seed)
        if skipped:
            reasons = "; ".join(f"{name} ({reason})" for name, reason in skipped.items())
            print(
                f"rlm-gym compare: skipped the policies that do not fit {args.env}: {reasons}",
                file=sys.stderr,
            )
        if not policies:
            raise ValueError(f"No registered policy fits env '{args.env}'")
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


def register(subparsers: Any) -> None:
    """Add ``policies`` and ``compare`` to an argparse subparsers object."""
    policies = add_command(
        subparsers,
        "policies",
        "list the registered reward policies, their components and default config",
        ["rlm-gym policies", "rlm-gym policies --format json"],
    )
    policies.add_argument(
        "--format", choices=("text", "json"), default="text", help="how to print the list"
    )
    policies.set_defaults(func=_run_policies)

    compare = add_command(
        subparsers,
        "compare",
        "score the same seeded random-action episodes with each reward policy",
        [
            "rlm-gym compare --env CartPole-v1",
            "rlm-gym compare --env CartPole-v1 --policy lenient --policy strict --episodes 20",
        ],
        description="Score the same seeded random-action episodes with each reward policy "
        "that fits the env and print the mean per-episode sum of every component, so two "
        "policies' views of the same behaviour can be read side by side.",
    )
    compare.add_argument("--env", default="CartPole-v1", help="a registered Gymnasium env id")
    compare.add_argument(
        "--policy",
        action="append",
        help="a policy to include (repeatable; default: every policy that fits the env)",
    )
    compare.add_argument(
        "--episodes", type=positive_int, default=5, help="seeded episodes per policy"
    )
    compare.add_argument("--seed", type=int, default=0, help="seed of the first episode")
    compare.add_argument(
        "--format", choices=("text", "json"), default="text", help="how to print the rows"
    )
    compare.set_defaults(func=_run_compare)
