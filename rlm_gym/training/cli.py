"""``rlm-gym train | evaluate | ablate | demo``: the training subcommands.

``register(subparsers)`` adds them to the main parser. Nothing heavy is imported here: torch,
stable-baselines3, matplotlib, rich and ray load when a command runs, and a missing extra ends
the command with an "install rlm-gym[train]" message instead of a traceback.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from rlm_gym._validation import unknown_name_error

__all__ = ["parse_assignments", "parse_seeds", "register"]

CRAWL_ENV_ID = "rlm_gym/Crawl-v0"


def parse_seeds(text: str) -> list[int]:
    """Seeds from ``"0-4"``, ``"0,3,7"`` or a mix (``"0-2,9"``).

    Example:
        >>> parse_seeds("0-2,9")
        [0, 1, 2, 9]
        >>> parse_seeds("a")
        Traceback (most recent call last):
        ...
        ValueError: Expected `--seeds` like '0-4' or '0,3,7', got 'a'
    """
    seeds: list[int] = []
    try:
        for part in text.split(","):
            low, _, high = part.strip().partition("-")
            seeds.extend(range(int(low), int(high or low) + 1))
    except ValueError:
        raise ValueError(f"Expected `--seeds` like '0-4' or '0,3,7', got {text!r}") from None
    return seeds


def parse_assignments(items: Sequence[str] | None, flag: str) -> dict[str, Any]:
    """``KEY=VALUE`` pairs; each value is parsed as JSON when it can be, else kept as text.

    Example:
        >>> parse_assignments(["lr=0.001", "net={\\"a\\": [1]}", "name=x"], "--hp")
        {'lr': 0.001, 'net': {'a': [1]}, 'name': 'x'}
    """
    result: dict[str, Any] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"Expected `{flag}` as KEY=VALUE, got {item!r}")
        try:
            result[key] = json.loads(value)
        except json.JSONDecodeError:
            result[key] = value
    return result


def _split_names(values: Sequence[str] | None) -> list[str]:
    return [name.strip() for value in values or () for name in value.split(",") if name.strip()]


def _check_env_id(env_id: str) -> None:
    import gymnasium as gym

    import rlm_gym.envs  # noqa: F401  (registers rlm_gym/Crawl-v0)

    if env_id not in gym.registry:
        from rlm_gym._validation import did_you_mean

        ours = ", ".join(repr(name) for name in sorted(gym.registry) if name.startswith("rlm_gym"))
        raise ValueError(
            f"Unknown env id '{env_id}'.{did_you_mean(env_id, gym.registry)} rlm_gym's envs: "
            f"{ours}; every registered id: `python -c 'import gymnasium; "
            "gymnasium.pprint_registry()'`"
        )


def _check_policy(policy: str, disable: Sequence[str], weights: dict[str, Any]) -> None:
    from rlm_gym.policies import PolicyRegistry

    names = PolicyRegistry.get_reward_class(policy).component_names
    for name in (*disable, *weights):
        if name not in names:
            raise unknown_name_error("component", name, names, f"of policy '{policy}'")


def _friendly(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn a missing extra into a one-line error and exit code 2."""

    @functools.wraps(run)
    def wrapper(args: argparse.Namespace) -> int:
        from rlm_gym.training._deps import MissingExtraError

        try:
            return run(args)
        except MissingExtraError as error:
            print(f"rlm-gym {args.command}: error: {error}", file=sys.stderr)
            return 2

    return wrapper


def _console() -> Any:
    from rlm_gym.training._deps import require

    require("rich")
    from rich.console import Console

    return Console(width=max(Console().width, 170))


def _print_rows(rows: list[dict[str, Any]], title: str, fmt: str) -> None:
    from rlm_gym.training.evaluation import format_table, table_cells

    if fmt == "json":
        print(json.dumps(rows, indent=2))
        return
    if fmt == "markdown":
        print(format_table(rows))
        return
    from rich.table import Table

    cells = [table_cells(row) for row in rows]
    keep = [i for i in range(len(cells[0])) if any(c[i][1] for c in cells)]
    table = Table(title=title)
    for i in keep:
        table.add_column(cells[0][i][0], justify="left" if i == 0 else "right")
    for row_cells in cells:
        table.add_row(*(row_cells[i][1] for i in keep))
    _console().print(table)


@_friendly
def _run_train(args: argparse.Namespace) -> int:
    from rlm_gym.training._deps import require

    require("torch", "stable_baselines3")
    _check_env_id(args.env)
    disable = _split_names(args.disable)
    weights = parse_assignments(args.weight, "--weight")
    _check_policy(args.policy, disable, weights)
    from rlm_gym.training.trainer import crawl_potential, train

    log_dir = args.log_dir or f"runs/train/{args.policy}-seed{args.seed}"
    result = train(
        args.env,
        args.policy,
        config=parse_assignments(args.config, "--config") or None,
        disable=disable,
        weights=weights or None,
        total_timesteps=args.timesteps,
        n_envs=args.n_envs,
        seed=args.seed,
        hyperparams=parse_assignments(args.hp, "--hp"),
        log_dir=log_dir,
        algo=args.algo,
        env_kwargs=parse_assignments(args.env_kwarg, "--env-kwarg"),
        shaping=crawl_potential if args.shaping == "crawl" else args.shaping,
        vec_env=args.vec_env,
        progress_bar=not args.no_progress,
    )
    print(json.dumps(result.metrics, indent=2))
    print(f"Saved the model, config.json, metrics.json and TensorBoard logs in {log_dir}")
    return 0


@_friendly
def _run_evaluate(args: argparse.Namespace) -> int:
    _check_env_id(args.env)
    from rlm_gym.training.evaluation import BASELINES, comparison_table, evaluate

    env_kwargs = parse_assignments(args.env_kwarg, "--env-kwarg")
    agents = list(args.agents)
    if args.baselines:
        agents = [*agents, *(b for b in BASELINES if b not in agents)]
    if not agents:
        raise ValueError("Give at least one AGENT (a run directory or a baseline) or --baselines")
    order = {name: i for i, name in enumerate(BASELINES)}
    agents.sort(key=lambda a: order.get(a, order["oracle"] - 0.5))  # models before the oracle
    results = [
        evaluate(
            agent,
            args.env,
            args.episodes,
            args.seed,
            env_kwargs=env_kwargs,
            label=agent if agent in BASELINES else str(agent),
        )
        for agent in agents
    ]
    title = f"{args.env}: {args.episodes} seeded episodes (seed {args.seed}), true score"
    _print_rows(comparison_table(results), title, args.format)
    return 0


@_friendly
def _run_ablate(args: argparse.Namespace) -> int:
    _check_env_id(args.env)
    from rlm_gym.training.ablation import ablate

    result = ablate(
        args.env,
        args.policy,
        _split_names(args.components) or None,
        parse_seeds(args.seeds),
        args.timesteps,
        args.backend,
        n_workers=args.workers,
        out_dir=args.out,
        n_eval_episodes=args.eval_episodes,
        n_envs=args.n_envs,
        algo=args.algo,
        hyperparams=parse_assignments(args.hp, "--hp"),
        binary=not args.no_binary,
        address=args.address,
    )
    print(result.table())
    print(f"\nWrote ablation.csv, ablation.md, ablation.png and curves.png to {args.out}")
    return 0


@_friendly
def _run_demo(args: argparse.Namespace) -> int:
    from rlm_gym.training._deps import require

    require("torch", "stable_baselines3", "matplotlib", "rich")
    from rlm_gym.training.demo import run_demo

    run_demo(
        args.out,
        total_timesteps=args.timesteps,
        n_eval_episodes=args.eval_episodes,
        seed=args.seed,
        algo=args.algo,
        quick=True if args.quick else None,
        progress_bar=not args.no_progress,
        shaping=not args.no_shaping,
        show_table=lambda rows: _print_rows(rows, "rlm_gym/Crawl-v0: true crawl score", "table"),
    )
    return 0


def _add_common(parser: argparse.ArgumentParser, env: bool = True) -> None:
    if env:
        parser.add_argument("--env", default=CRAWL_ENV_ID, help="a registered env id")
    parser.add_argument(
        "--algo",
        choices=("ppo", "maskable_ppo"),
        default=None,
        help="PPO or sb3-contrib's MaskablePPO (default: maskable_ppo)",
    )


def register(subparsers: Any) -> None:
    """Add ``train``, ``evaluate``, ``ablate`` and ``demo`` to an argparse subparsers object."""
    train = subparsers.add_parser("train", help="train PPO against a reward policy")
    _add_common(train)
    train.add_argument("--policy", default="crawl", help="a registered reward policy")
    train.add_argument(
        "--disable",
        action="append",
        metavar="NAMES",
        help="components to switch off (comma-separated, repeatable)",
    )
    train.add_argument("--weight", action="append", metavar="NAME=W", help="component weight")
    train.add_argument("--config", action="append", metavar="KEY=VALUE", help="policy config")
    train.add_argument("--timesteps", type=int, default=300_000)
    train.add_argument("--n-envs", type=int, default=4)
    train.add_argument("--seed", type=int, default=0)
    train.add_argument(
        "--hp",
        action="append",
        metavar="KEY=VALUE",
        help="PPO hyperparameter override (JSON value)",
    )
    train.add_argument("--env-kwarg", action="append", metavar="KEY=VALUE")
    train.add_argument(
        "--shaping",
        default=None,
        metavar="METHOD",
        help="potential-based shaping: 'crawl' (the crawl score so far) or an env method name",
    )
    train.add_argument("--vec-env", choices=("dummy", "subproc"), default="dummy")
    train.add_argument("--log-dir", default=None, help="default: runs/train/<policy>-seed<seed>")
    train.add_argument("--no-progress", action="store_true")
    train.set_defaults(func=_run_train, algo="maskable_ppo")

    evaluate = subparsers.add_parser(
        "evaluate", help="true crawl score of trained models and baselines, in one table"
    )
    evaluate.add_argument(
        "agents",
        nargs="*",
        metavar="AGENT",
        help="a run directory / model.zip, or random, heuristic, best_fixed, oracle",
    )
    evaluate.add_argument("--env", default=CRAWL_ENV_ID, help="a registered env id")
    evaluate.add_argument("--baselines", action="store_true", help="add every baseline")
    evaluate.add_argument("--episodes", type=int, default=200)
    evaluate.add_argument("--seed", type=int, default=1_000_000)
    evaluate.add_argument("--env-kwarg", action="append", metavar="KEY=VALUE")
    evaluate.add_argument("--format", choices=("table", "markdown", "json"), default="table")
    evaluate.set_defaults(func=_run_evaluate)

    ablate = subparsers.add_parser(
        "ablate", help="train one agent per (variant, seed) and compare them on the true score"
    )
    _add_common(ablate)
    ablate.add_argument("--policy", default="crawl")
    ablate.add_argument(
        "--components",
        action="append",
        metavar="NAMES",
        help="components to disable one at a time (default: all)",
    )
    ablate.add_argument("--seeds", default="0-4", help="e.g. 0-4 or 0,3,7")
    ablate.add_argument("--timesteps", type=int, default=30_000)
    ablate.add_argument("--backend", choices=("local", "ray"), default="local")
    ablate.add_argument("--workers", type=int, default=None, help="default: the cores")
    ablate.add_argument("--address", default=None, help="Ray cluster address (ray backend)")
    ablate.add_argument("--out", default="runs/ablation")
    ablate.add_argument("--eval-episodes", type=int, default=200)
    ablate.add_argument("--n-envs", type=int, default=4)
    ablate.add_argument("--hp", action="append", metavar="KEY=VALUE")
    ablate.add_argument("--no-binary", action="store_true", help="leave out the binary variant")
    ablate.set_defaults(func=_run_ablate)

    demo = subparsers.add_parser(
        "demo", help="train PPO on the crawl env (<= 3 min on 2 cores) and print the table"
    )
    _add_common(demo, env=False)
    demo.add_argument("--timesteps", type=int, default=None)
    demo.add_argument("--eval-episodes", type=int, default=None)
    demo.add_argument("--seed", type=int, default=0)
    demo.add_argument("--out", default="runs/demo")
    demo.add_argument("--quick", action="store_true", help="tiny budget (as RLM_GYM_QUICK=1)")
    demo.add_argument("--no-progress", action="store_true")
    demo.add_argument("--no-shaping", action="store_true", help="train without the potential")
    demo.set_defaults(func=_run_demo)
