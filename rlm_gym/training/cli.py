"""``rlm-gym train | evaluate | ablate | demo``: the training subcommands.

``register(subparsers)`` adds them to the main parser. Nothing heavy is imported here: torch,
stable-baselines3, matplotlib, rich and ray load when a command runs, and a missing extra ends
the command with an "install rlm-gym[train]" message instead of a traceback (``rlm_gym.cli.main``
turns every bad-input error into one line on stderr and exit code 2).

Runs never overwrite each other: ``train`` writes to a new directory (default
``runs/train/<env>-<policy>[-no_<component>...][-<component>x<weight>...]-seed<seed>``; when it
already holds anything a ``-2``, ``-3`` ... suffix is added and the command says where it wrote),
and ``train --resume RUN_DIR`` continues an interrupted or killed run from its last checkpoint.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rlm_gym._validation import did_you_mean, unknown_name_error
from rlm_gym.envs import CRAWL_ENV_ID

__all__ = [
    "check_env_id",
    "non_negative_int",
    "parse_assignments",
    "parse_seeds",
    "positive_int",
    "register",
]

# `train` defaults, applied after --hyperparams so a YAML file can set what no flag set.
TRAIN_DEFAULTS: dict[str, Any] = {
    "env": CRAWL_ENV_ID,
    "policy": "crawl",
    "timesteps": 300_000,
    "n_envs": 4,
    "seed": 0,
    "vec_env": "dummy",
}
# `train` flags that define a run; `--resume` takes them from the run's config.json instead.
RUN_FLAGS: tuple[str, ...] = (
    "env", "policy", "disable", "weight", "config", "timesteps", "n_envs", "seed", "hp",
    "hyperparams", "env_kwarg", "shaping", "vec_env", "log_dir", "algo", "checkpoint_freq",
    "eval_freq", "eval_episodes",
)  # fmt: skip


def positive_int(text: str) -> int:
    """argparse type: an integer > 0.

    Example:
        >>> positive_int("3")
        3
        >>> positive_int("0")
        Traceback (most recent call last):
        ...
        argparse.ArgumentTypeError: expected a positive integer, got '0'
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def non_negative_int(text: str) -> int:
    """argparse type: an integer >= 0 (0 switches a periodic action off)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}")
    return value


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
    if not seeds:
        raise ValueError(f"Expected `--seeds` to name at least one seed, got {text!r}")
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


def check_env_id(env_id: str) -> None:
    """Raise a ``ValueError`` with a suggestion when ``env_id`` is not registered.

    Example:
        >>> check_env_id("CartPole-v9")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: Unknown env id 'CartPole-v9'. Did you mean 'CartPole-v1'? ...
    """
    import gymnasium as gym

    import rlm_gym.envs  # noqa: F401  (registers rlm_gym's env ids)

    if env_id not in gym.registry:
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


def _note(args: argparse.Namespace, message: str) -> None:
    """A progress or information line on stderr (stdout carries the command's output)."""
    if not getattr(args, "quiet", False):
        print(f"rlm-gym {args.command}: {message}", file=sys.stderr, flush=True)


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


def _train_settings(args: argparse.Namespace) -> dict[str, Any]:
    """Flag values over the ``--hyperparams`` file over ``TRAIN_DEFAULTS``."""
    settings = {key: getattr(args, key) for key in TRAIN_DEFAULTS}
    settings["env"] = settings["env"] or TRAIN_DEFAULTS["env"]
    check_env_id(settings["env"])
    hyperparams: dict[str, Any] = {}
    if args.hyperparams is not None:
        from rlm_gym.training.hyperparams import load_zoo_hyperparams

        zoo = load_zoo_hyperparams(args.hyperparams, settings["env"], args.algo or "ppo")
        hyperparams.update(zoo["hyperparams"])
        if settings["timesteps"] is None:
            settings["timesteps"] = zoo["total_timesteps"]
        if settings["n_envs"] is None:
            settings["n_envs"] = zoo["n_envs"]
    overrides = parse_assignments(args.hp, "--hp")
    _check_hp(overrides, args.algo)
    hyperparams.update(overrides)
    for key, default in TRAIN_DEFAULTS.items():
        if settings[key] is None:
            settings[key] = default
    settings["hyperparams"] = hyperparams
    return settings


def _check_hp(overrides: dict[str, Any], algo: str | None) -> None:
    from rlm_gym.training.hyperparams import check_hyperparams, parse_policy_kwargs

    if "policy_kwargs" in overrides:
        overrides["policy_kwargs"] = parse_policy_kwargs(overrides["policy_kwargs"])
    check_hyperparams(overrides, algo or "ppo", source="--hp")


def _run_train(args: argparse.Namespace) -> int:
    from rlm_gym.training._deps import require

    require("torch", "stable_baselines3")
    if args.resume is not None:
        return _run_resume(args)
    settings = _train_settings(args)
    disable = _split_names(args.disable)
    weights = parse_assignments(args.weight, "--weight")
    _check_policy(settings["policy"], disable, weights)
    from rlm_gym.training.runs import default_run_name
    from rlm_gym.training.trainer import crawl_potential, train

    name = default_run_name(settings["policy"], settings["seed"], disable, weights, settings["env"])
    log_dir = args.log_dir or f"runs/train/{name}"
    optional = {
        key: value
        for key, value in (
            ("checkpoint_freq", args.checkpoint_freq),
            ("eval_freq", args.eval_freq),
            ("n_eval_episodes", args.eval_episodes),
        )
        if value is not None
    }
    result = train(
        settings["env"],
        settings["policy"],
        config=parse_assignments(args.config, "--config") or None,
        disable=disable,
        weights=weights or None,
        total_timesteps=settings["timesteps"],
        n_envs=settings["n_envs"],
        seed=settings["seed"],
        hyperparams=settings["hyperparams"],
        log_dir=log_dir,
        algo=args.algo,
        env_kwargs=parse_assignments(args.env_kwarg, "--env-kwarg"),
        shaping=crawl_potential if args.shaping == "crawl" else args.shaping,
        vec_env=settings["vec_env"],
        progress_bar=not args.quiet,
        **optional,
    )
    return _report_run(args, result, log_dir)


def _run_resume(args: argparse.Namespace) -> int:
    given = [
        f"--{key.replace('_', '-')}" for key in RUN_FLAGS if getattr(args, key) not in (None, [])
    ]
    if given:
        raise ValueError(
            f"`--resume` takes the run's settings from its config.json; drop {', '.join(given)}"
        )
    from rlm_gym.training.runs import read_run_config
    from rlm_gym.training.trainer import resume

    config = read_run_config(args.resume)
    _note(
        args,
        f"resuming {args.resume} at {config.get('timesteps_done', 0):,} of "
        f"{config.get('total_timesteps', 0):,} steps",
    )
    result = resume(args.resume, progress_bar=not args.quiet)
    return _report_run(args, result, args.resume)


def _report_run(args: argparse.Namespace, result: Any, asked: str | Path) -> int:
    print(json.dumps(result.metrics, indent=2))
    if Path(asked) != result.log_dir:
        # Not progress: said even with --quiet, since the run is not where it was asked to be.
        print(
            f"rlm-gym {args.command}: {asked} already holds a run; wrote this one to "
            f"{result.log_dir}",
            file=sys.stderr,
        )
    names = ("model.zip", "best_model.zip", "config.json", "metrics.json", "episodes.csv")
    saved = [name for name in names if (result.log_dir / name).is_file()]
    print(f"Saved {', '.join(saved)} and the SB3 / TensorBoard logs in {result.log_dir}")
    return 0


def _resolve_agents(args: argparse.Namespace) -> tuple[list[Any], str, dict[str, Any]]:
    """Agents (baseline names, model paths), the env id and env kwargs to evaluate them on.

    A run directory brings its own env id and env kwargs (its ``config.json``); all run
    directories must agree, and ``--env`` may not contradict them.
    """
    from rlm_gym.training.evaluation import BASELINES
    from rlm_gym.training.runs import RUN_CONFIG_FILE, find_model, read_run_config

    agents: list[Any] = []
    env_ids: dict[str, str] = {}
    kwargs_of: dict[str, str] = {}
    env_kwargs: dict[str, Any] = {}
    for agent in args.agents:
        if agent in BASELINES:
            agents.append(agent)
            continue
        path = Path(agent)
        if not path.exists():
            if "/" in agent or agent.endswith(".zip"):
                raise FileNotFoundError(f"No such model file or run directory: {agent}")
            raise unknown_name_error("agent (baseline or model path)", agent, BASELINES)
        model = find_model(path)
        run_dir = model.parent
        if (run_dir / RUN_CONFIG_FILE).is_file():
            config = read_run_config(run_dir)
            env_ids[agent] = config.get("env_id", CRAWL_ENV_ID)
            kwargs_of[agent] = json.dumps(config.get("env_kwargs") or {}, sort_keys=True)
            env_kwargs = dict(config.get("env_kwargs") or {})
            if path.is_dir() and model.name != "model.zip":
                _note(
                    args,
                    f"{agent} has no model.zip (status {config.get('status', '?')}): "
                    f"evaluating its {model.name} ({config.get('timesteps_done', 0):,} steps)",
                )
        agents.append(str(model))
    if len(set(env_ids.values())) > 1:
        listed = ", ".join(f"{agent}: {env}" for agent, env in env_ids.items())
        raise ValueError(f"The runs were trained on different envs ({listed}); evaluate apart")
    if len(set(kwargs_of.values())) > 1:
        raise ValueError("The runs were trained with different --env-kwarg; evaluate them apart")
    env_id = next(iter(env_ids.values()), None)
    if args.env is not None and env_id is not None and args.env != env_id:
        raise ValueError(
            f"The run(s) were trained on '{env_id}' (their config.json); got `--env` {args.env}"
        )
    env_id = args.env or env_id or CRAWL_ENV_ID
    check_env_id(env_id)
    env_kwargs.update(parse_assignments(args.env_kwarg, "--env-kwarg"))
    return agents, env_id, env_kwargs


def _run_evaluate(args: argparse.Namespace) -> int:
    from rlm_gym.training.evaluation import BASELINES, comparison_table, evaluate

    agents, env_id, env_kwargs = _resolve_agents(args)
    if args.baselines:
        agents = [*agents, *(b for b in BASELINES if b not in agents)]
    if not agents:
        raise ValueError("Give at least one AGENT (a run directory or a baseline) or --baselines")
    order = {name: i for i, name in enumerate(BASELINES)}
    agents.sort(key=lambda a: order.get(a, order["oracle"] - 0.5))  # models before the oracle
    results = []
    for number, agent in enumerate(agents, 1):
        started = time.perf_counter()
        result = evaluate(
            agent,
            env_id,
            args.episodes,
            args.seed,
            env_kwargs=env_kwargs,
            label=agent if agent in BASELINES else str(agent),
        )
        results.append(result)
        _note(
            args,
            f"[{number}/{len(agents)}] {result.label}: {args.episodes} episodes, score "
            f"{result.summary()['score']:.3f} ({time.perf_counter() - started:.1f} s)",
        )
    title = f"{env_id}: {args.episodes} seeded episodes (seed {args.seed}), true score"
    _print_rows(comparison_table(results), title, args.format)
    return 0


def _run_ablate(args: argparse.Namespace) -> int:
    check_env_id(args.env)
    from rlm_gym.training.ablation import ablate

    hyperparams = parse_assignments(args.hp, "--hp")
    _check_hp(hyperparams, args.algo)
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
        hyperparams=hyperparams,
        binary=not args.no_binary,
        address=args.address,
        progress=not args.quiet,
    )
    print(result.table())
    print(f"\nWrote ablation.csv, ablation.md, ablation.png and curves.png to {result.out_dir}")
    return 0


def _run_study(args: argparse.Namespace) -> int:
    from rlm_gym.training._deps import require

    require("torch", "stable_baselines3")
    from rlm_gym.training.study import STUDIES, run_study

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
        paired = (
            ""
            if name == reference
            else f"  vs {reference}: {row['vs_reference']:+.3f} ± {row['vs_reference_ci95']:.3f}"
        )
        print(
            f"  {name:<26} {row['score']:.3f} ± {row['score_ci95']:.3f}"
            f"  normalised {row['normalised']:.2f}{paired}"
        )
    return 0


def _run_replay(args: argparse.Namespace) -> int:
    from rlm_gym.training._deps import require

    require("torch", "stable_baselines3")
    if args.gif is not None:
        require("PIL")
    from rlm_gym.training.replay import replay

    replay(args.run, episodes=args.episodes, seed=args.seed, gif=args.gif)
    return 0


def _run_demo(args: argparse.Namespace) -> int:
    from rlm_gym.training._deps import require

    require("torch", "stable_baselines3", "matplotlib", "rich")
    from rlm_gym.training.demo import DEMO_VARIANT, run_demo

    run_demo(
        args.out,
        total_timesteps=args.timesteps,
        n_eval_episodes=args.eval_episodes,
        seed=args.seed,
        variant=args.variant or DEMO_VARIANT,
        quick=True if args.quick else None,
        progress_bar=not args.quiet,
        show_table=lambda rows: _print_rows(rows, f"{CRAWL_ENV_ID}: true crawl score", "table"),
    )
    return 0


def _add_algo(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--algo",
        choices=("ppo", "maskable_ppo"),
        default=None,
        help="PPO or sb3-contrib's MaskablePPO (default: maskable_ppo when the env has "
        "action_masks(), else ppo)",
    )


def _add_quiet(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--quiet",
        "--no-progress",
        dest="quiet",
        action="store_true",
        help="no progress bar or progress lines",
    )


def _add_train(subparsers: Any) -> None:
    train = subparsers.add_parser(
        "train",
        help="train PPO against a reward policy (a new run directory each time; --resume)",
        description="Train an agent. Each run gets a new directory (an existing one is never "
        "reused: a -2, -3 ... suffix is added); SIGINT/SIGTERM save a checkpoint and mark the "
        "run interrupted; --resume RUN_DIR continues it.",
    )
    train.add_argument("--env", default=None, help=f"a registered env id (default {CRAWL_ENV_ID})")
    _add_algo(train)
    train.add_argument("--policy", default=None, help="a registered reward policy (crawl)")
    train.add_argument(
        "--disable",
        action="append",
        metavar="NAMES",
        help="components to switch off (comma-separated, repeatable)",
    )
    train.add_argument("--weight", action="append", metavar="NAME=W", help="component weight")
    train.add_argument("--config", action="append", metavar="KEY=VALUE", help="policy config")
    train.add_argument("--timesteps", type=positive_int, default=None, help="default 300000")
    train.add_argument("--n-envs", type=positive_int, default=None, help="default 4")
    train.add_argument("--seed", type=int, default=None, help="default 0")
    train.add_argument(
        "--hp",
        action="append",
        metavar="KEY=VALUE",
        help="PPO hyperparameter override (JSON value; wins over --hyperparams)",
    )
    train.add_argument(
        "--hyperparams",
        metavar="FILE.yml",
        default=None,
        help="rl-zoo3-style YAML: a section per env id (or 'default') with n_timesteps, "
        "policy, n_envs and PPO arguments; flags win over it",
    )
    train.add_argument("--env-kwarg", action="append", metavar="KEY=VALUE")
    train.add_argument(
        "--shaping",
        default=None,
        metavar="METHOD",
        help="potential-based shaping: 'crawl' (the crawl score so far) or an env method name",
    )
    train.add_argument("--vec-env", choices=("dummy", "subproc"), default=None)
    train.add_argument(
        "--log-dir",
        default=None,
        help="run directory (default runs/train/<env>-<policy>[-no_<c>...]-seed<seed>; "
        "a suffix is added when it already holds a run)",
    )
    train.add_argument(
        "--checkpoint-freq", type=non_negative_int, default=None, help="steps (default 25000)"
    )
    train.add_argument(
        "--eval-freq",
        type=non_negative_int,
        default=None,
        help="steps between evaluations for best_model.zip (default 25000; 0: final only)",
    )
    train.add_argument(
        "--eval-episodes", type=non_negative_int, default=None, help="per evaluation (50)"
    )
    train.add_argument(
        "--resume",
        metavar="RUN_DIR",
        default=None,
        help="continue an interrupted or killed run from its last checkpoint",
    )
    _add_quiet(train)
    train.set_defaults(func=_run_train)


def _add_evaluate(subparsers: Any) -> None:
    evaluate = subparsers.add_parser(
        "evaluate", help="true score of trained models and baselines, in one table"
    )
    evaluate.add_argument(
        "agents",
        nargs="*",
        metavar="AGENT",
        help="a run directory / model file, or random, heuristic, best_fixed, oracle",
    )
    evaluate.add_argument(
        "--env",
        default=None,
        help=f"a registered env id (default: the runs' env from config.json, else {CRAWL_ENV_ID})",
    )
    evaluate.add_argument("--baselines", action="store_true", help="add every baseline")
    evaluate.add_argument("--episodes", type=positive_int, default=200)
    evaluate.add_argument("--seed", type=int, default=1_000_000)
    evaluate.add_argument("--env-kwarg", action="append", metavar="KEY=VALUE")
    evaluate.add_argument("--format", choices=("table", "markdown", "json"), default="table")
    _add_quiet(evaluate)
    evaluate.set_defaults(func=_run_evaluate)


def _add_ablate(subparsers: Any) -> None:
    ablate = subparsers.add_parser(
        "ablate", help="train one agent per (variant, seed) and compare them on the true score"
    )
    ablate.add_argument("--env", default=CRAWL_ENV_ID, help="a registered env id")
    _add_algo(ablate)
    ablate.add_argument("--policy", default="crawl")
    ablate.add_argument(
        "--components",
        action="append",
        metavar="NAMES",
        help="components to disable one at a time (default: all)",
    )
    ablate.add_argument("--seeds", default="0-4", help="e.g. 0-4 or 0,3,7")
    ablate.add_argument("--timesteps", type=positive_int, default=30_000)
    ablate.add_argument("--backend", choices=("local", "ray"), default="local")
    ablate.add_argument("--workers", type=positive_int, default=None, help="default: the cores")
    ablate.add_argument("--address", default=None, help="Ray cluster address (ray backend)")
    ablate.add_argument(
        "--out", default="runs/ablation", help="output directory (a suffix is added if taken)"
    )
    ablate.add_argument("--eval-episodes", type=positive_int, default=200)
    ablate.add_argument("--n-envs", type=positive_int, default=4)
    ablate.add_argument("--hp", action="append", metavar="KEY=VALUE")
    ablate.add_argument("--no-binary", action="store_true", help="leave out the binary variant")
    _add_quiet(ablate)
    ablate.set_defaults(func=_run_ablate)


def _add_study(subparsers: Any) -> None:
    study = subparsers.add_parser(
        "study",
        help="run (or resume) a learning study and write results/<name>.json",
    )
    study.add_argument("name", help="defaults or ablation (rlm_gym.training.study.STUDIES)")
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
    _add_quiet(study)
    study.set_defaults(func=_run_study)


def _add_replay(subparsers: Any) -> None:
    replay = subparsers.add_parser(
        "replay", help="watch a trained agent crawl step by step (or save a GIF)"
    )
    replay.add_argument("run", help="a run directory written by `rlm-gym train` (or its model)")
    replay.add_argument("--episodes", type=positive_int, default=1)
    replay.add_argument("--seed", type=int, default=2_000_000, help="seed of the first episode")
    replay.add_argument("--gif", default=None, metavar="OUT.gif", help="save the frames as a GIF")
    replay.set_defaults(func=_run_replay)


def _add_demo(subparsers: Any) -> None:
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
    _add_quiet(demo)
    demo.set_defaults(func=_run_demo)


def register(subparsers: Any) -> None:
    """Add ``train``, ``evaluate``, ``ablate`` and ``demo`` to an argparse subparsers object."""
    _add_train(subparsers)
    _add_evaluate(subparsers)
    _add_ablate(subparsers)
    _add_study(subparsers)
    _add_replay(subparsers)
    _add_demo(subparsers)
