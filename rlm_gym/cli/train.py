"""``rlm-gym train``: train an agent against a reward policy, or ``--resume`` a run.

Runs never overwrite each other: ``train`` writes to a new directory (default
``runs/train/<env>-<policy>[-no_<component>...][-<component>x<weight>...]-seed<seed>``; when it
already holds anything a ``-2``, ``-3`` ... suffix is added and the command says where it wrote),
and ``train --resume RUN_DIR`` continues an interrupted or killed run from its last checkpoint.
torch and stable-baselines3 load when the command runs; a missing extra says what to install.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.cli.options import (
    add_algo,
    add_command,
    add_quiet,
    check_env_id,
    check_hp,
    non_negative_int,
    note,
    parse_assignments,
    parse_weights,
    positive_int,
    split_names,
)
from rlm_gym.envs import CURRENT_CRAWL_ENV_ID
from rlm_gym.training.env_factory import REWARD_WRAPPINGS, VECTOR_RESETS

__all__ = ["RUN_FLAGS", "TRAIN_DEFAULTS", "default_recipe_note", "register"]

TRAIN_DEFAULTS: dict[str, Any] = {
    "env": CURRENT_CRAWL_ENV_ID,
    "policy": "crawl",
    "timesteps": 300_000,
    "n_envs": 4,
    "seed": 0,
    "vec_env": "dummy",
}
"""``train`` defaults, applied after ``--hyperparams`` so a YAML file can set what no flag set."""


def default_recipe_note() -> str:
    """What a plain ``rlm-gym train`` trains with, and the named recipes, for ``--help``
    (written from ``RECIPES``, so the advice follows the studies' plans). The Python defaults
    stay: the studies measured recipes on the crawl env only, and ``train`` serves every env."""
    from rlm_gym.training.studies.recipes import RECIPES

    recipes = "; ".join(f"{name}: {recipe.summary}" for name, recipe in RECIPES.items())
    return (
        "Without --recipe, --hyperparams or --hp, PPO trains with "
        "rlm_gym.training.DEFAULT_HYPERPARAMS: 4 envs x 1,024-step rollouts and gamma 0.99, the "
        "recipe the project's `defaults` study (results/defaults.json, docs/training.md) found "
        "worse on the crawl env than the demo's. --recipe NAME trains a recipe of the studies "
        f"(flags beside it win over its settings; --print shows its flags): {recipes}. "
        f"`--recipe demo` is `{RECIPES['demo'].command()}` (`rlm-gym demo` trains it and "
        "scores the baselines)."
    )


RUN_FLAGS: tuple[str, ...] = (
    "env", "policy", "disable", "weight", "config", "timesteps", "n_envs", "seed", "hp",
    "hyperparams", "env_kwarg", "shaping", "vec_env", "log_dir", "algo", "checkpoint_freq",
    "eval_freq", "eval_episodes", "reward_schedule", "reward_schedule_interpolation",
    "reward_wrapping", "vector_resets", "recipe",
)  # fmt: skip
"""``train`` flags that define a run; ``--resume`` takes them from the run's config.json instead."""


def _check_policy(
    policy: str, disable: Sequence[str], weights: dict[str, Any], schedule: Any = None
) -> None:
    from rlm_gym.policies import PolicyRegistry

    names = PolicyRegistry.get_reward_class(policy).component_names
    for name in (*disable, *weights):
        if name not in names:
            raise unknown_name_error("component", name, names, f"of policy '{policy}'")
    if schedule is not None:
        source, schedule = schedule
        try:
            schedule.check_components(names, disable, weights, f" of policy '{policy}'")
        except ValueError as error:
            raise ValueError(f"{source}: {error}") from None


def _reward_schedule(args: argparse.Namespace, from_file: Any) -> tuple[str, Any] | None:
    """``(source, WeightSchedule)`` of ``--reward-schedule`` (which wins over the
    ``--hyperparams`` file's ``reward_schedule:``), or None.
    ``--reward-schedule-interpolation`` applies to either."""
    from rlm_gym.wrappers.schedule import WeightSchedule

    interpolation = args.reward_schedule_interpolation
    if args.reward_schedule is not None:
        try:
            schedule = WeightSchedule.from_text(args.reward_schedule, interpolation or "linear")
        except ValueError as error:
            raise ValueError(f"`--reward-schedule`: {error}") from None
        return "`--reward-schedule`", schedule
    if from_file is None:
        if interpolation is not None:
            raise ValueError(
                "`--reward-schedule-interpolation` applies to a schedule: give "
                "--reward-schedule NAME=STEP:WEIGHT,... or reward_schedule: in the "
                "--hyperparams file"
            )
        return None
    if interpolation is not None:
        from_file = WeightSchedule(from_file.breakpoints, interpolation)
    return f"`reward_schedule` in {args.hyperparams}", from_file


def _recipe(args: argparse.Namespace) -> Any:
    """The ``--recipe`` (None without one); ``--print`` needs one and nothing else."""
    if args.recipe is None:
        if args.print:
            raise ValueError("`--print` prints a recipe's flags: give --recipe NAME")
        return None
    from rlm_gym.training.studies.recipes import get_recipe

    recipe = get_recipe(args.recipe)
    if args.hyperparams is not None:
        raise ValueError("`--recipe` and `--hyperparams` both give a recipe: keep one")
    if args.print:
        given = [
            f"--{key.replace('_', '-')}"
            for key in RUN_FLAGS
            if key != "recipe" and getattr(args, key) not in (None, [])
        ]
        if given or args.resume is not None:
            raise ValueError(
                f"`--print` prints the recipe as it is; drop {', '.join(given) or '--resume'}"
            )
    return recipe


def _train_settings(args: argparse.Namespace, recipe: Any = None) -> dict[str, Any]:
    """Flag values over the ``--hyperparams`` file or ``--recipe`` over ``TRAIN_DEFAULTS``."""
    settings = {key: getattr(args, key) for key in TRAIN_DEFAULTS}
    hyperparams: dict[str, Any] = {}
    settings["config"] = {}
    settings["disable"] = split_names(args.disable)
    settings["algo"] = args.algo
    if recipe is not None:
        for key, value in (
            ("env", recipe.env_id),
            ("policy", recipe.policy),
            ("timesteps", recipe.total_timesteps),
            ("n_envs", recipe.n_envs),
            ("algo", recipe.algo),
        ):
            if settings[key] is None:
                settings[key] = value
        hyperparams.update(recipe.hyperparams)
        settings["vector_resets"] = args.vector_resets or recipe.vector_resets
        settings["config"].update(recipe.config)
        settings["disable"] = [*recipe.disable, *settings["disable"]]
    settings["config"].update(parse_assignments(args.config, "--config"))
    settings["env"] = settings["env"] or TRAIN_DEFAULTS["env"]
    check_env_id(settings["env"])
    if args.hyperparams is not None:
        from rlm_gym.training import load_zoo_hyperparams

        try:
            zoo = load_zoo_hyperparams(args.hyperparams, settings["env"], args.algo or "ppo")
        except (ValueError, TypeError) as error:
            raise type(error)(f"`--hyperparams`: {error}") from None
        hyperparams.update(zoo["hyperparams"])
        settings["reward_schedule"] = zoo["reward_schedule"]
        if settings["timesteps"] is None:
            settings["timesteps"] = zoo["total_timesteps"]
        if settings["n_envs"] is None:
            settings["n_envs"] = zoo["n_envs"]
    overrides = parse_assignments(args.hp, "--hp")
    check_hp(overrides, args.algo)
    hyperparams.update(overrides)
    for key, default in TRAIN_DEFAULTS.items():
        if settings[key] is None:
            settings[key] = default
    settings["hyperparams"] = hyperparams
    settings["vector_resets"] = settings.get("vector_resets") or args.vector_resets or "exact"
    settings["reward_schedule"] = _reward_schedule(args, settings.get("reward_schedule"))
    return settings


def _run_train(args: argparse.Namespace) -> int:
    recipe = _recipe(args)
    if recipe is not None and args.print:
        print(recipe.command())
        return 0
    from rlm_gym.training import require

    require("torch", "stable_baselines3")
    if args.hyperparams is not None:
        require("yaml")
    if args.resume is not None:
        return _run_resume(args)
    settings = _train_settings(args, recipe)
    disable = settings["disable"]
    weights = parse_weights(args.weight)
    _check_policy(settings["policy"], disable, weights, settings["reward_schedule"])
    from rlm_gym.training import default_run_name

    schedule = settings["reward_schedule"]
    name = default_run_name(
        settings["policy"],
        settings["seed"],
        disable,
        weights,
        settings["env"],
        scheduled=schedule[1].names if schedule else (),
    )
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
    from rlm_gym.training.run_config import ShortBudgetWarning, short_budget_message

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ShortBudgetWarning)  # said below, once, as a CLI line
        result = _train(settings, args, disable, weights, log_dir, optional)
    short = short_budget_message(settings["timesteps"], settings["n_envs"], settings["hyperparams"])
    if short is not None:
        # After the run (a budget below one rollout trains in seconds), so a refused run gets
        # its one-line error alone. Not progress: said even with --quiet.
        print(f"rlm-gym train: warning: {short}", file=sys.stderr, flush=True)
    return _report_run(args, result, log_dir)


def _train(
    settings: dict[str, Any],
    args: argparse.Namespace,
    disable: Sequence[str],
    weights: dict[str, Any],
    log_dir: str,
    optional: dict[str, Any],
) -> Any:
    from rlm_gym.training import crawl_potential, train

    schedule = settings["reward_schedule"]
    return train(
        settings["env"],
        settings["policy"],
        config=settings["config"] or None,
        disable=disable,
        weights=weights or None,
        reward_schedule=schedule[1] if schedule is not None else None,
        total_timesteps=settings["timesteps"],
        n_envs=settings["n_envs"],
        seed=settings["seed"],
        hyperparams=settings["hyperparams"],
        log_dir=log_dir,
        algo=settings["algo"],
        env_kwargs=parse_assignments(args.env_kwarg, "--env-kwarg"),
        shaping=crawl_potential if args.shaping == "crawl" else args.shaping,
        vec_env=settings["vec_env"],
        reward_wrapping=args.reward_wrapping or "auto",
        vector_resets=settings["vector_resets"],
        progress_bar=not args.quiet,
        **optional,
    )


def _run_resume(args: argparse.Namespace) -> int:
    given = [
        f"--{key.replace('_', '-')}" for key in RUN_FLAGS if getattr(args, key) not in (None, [])
    ]
    if given:
        raise ValueError(
            f"`--resume` takes the run's settings from its config.json; drop {', '.join(given)}"
        )
    from rlm_gym.training import read_run_config, resume

    config = read_run_config(args.resume)
    note(
        args,
        f"resuming {args.resume} at {config.get('timesteps_done', 0):,} of "
        f"{config.get('total_timesteps', 0):,} steps",
    )
    result = resume(args.resume, progress_bar=not args.quiet)
    return _report_run(args, result, args.resume)


def _report_run(args: argparse.Namespace, result: Any, asked: str | Path) -> int:
    from rlm_gym.training.runs import EVALUATIONS_FILE

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
    best = result.config.get("best")
    if "best_model.zip" in saved:
        if best:
            # Say which evaluation made it the best: after one evaluation it is the final model.
            evaluations = json.loads((result.log_dir / EVALUATIONS_FILE).read_text())
            count = f"{len(evaluations)} evaluation{'s' if len(evaluations) != 1 else ''}"
            saved[saved.index("best_model.zip")] = (
                f"best_model.zip (the best of {count} on the true score: "
                f"{best['score']:.3f} at {best['timestep']:,} steps)"
            )
        else:
            saved.remove("best_model.zip")  # no evaluation behind it in this run's record
    print(f"Saved {', '.join(saved)} and the SB3 / TensorBoard logs in {result.log_dir}")
    return 0


def register(subparsers: Any) -> None:
    """Add ``train`` to an argparse subparsers object."""
    from rlm_gym.training.run_config import (
        DEFAULT_CHECKPOINT_FREQ,
        DEFAULT_EVAL_EPISODES,
        DEFAULT_EVAL_FREQ,
    )

    defaults = TRAIN_DEFAULTS
    train = add_command(
        subparsers,
        "train",
        "train an agent (PPO) against a reward policy into a new run directory",
        [
            "rlm-gym train --timesteps 100000",
            "rlm-gym train --recipe demo --seed 1",
            "rlm-gym train --recipe demo --print",
            "rlm-gym train --policy crawl --disable efficiency --seed 1",
            "rlm-gym train --reward-schedule 'efficiency=0:0,200000:1;defects=0:0,100000:1'",
            "rlm-gym train --resume runs/train/Crawl-v2-crawl-seed0",
        ],
        description="Train an agent. Each run gets a new directory (an existing one is never "
        "reused: a -2, -3 ... suffix is added); SIGINT/SIGTERM save a checkpoint and mark the "
        "run interrupted; --resume RUN_DIR continues it.\n\n" + default_recipe_note(),
    )
    train.add_argument(
        "--env", default=None, help=f"a registered env id (default: {defaults['env']})"
    )
    add_algo(train)
    train.add_argument(
        "--recipe",
        default=None,
        metavar="NAME",
        help="a named recipe of the studies (listed above); flags given beside it win over "
        "its settings (default: none, DEFAULT_HYPERPARAMS)",
    )
    train.add_argument(
        "--print",
        action="store_true",
        help="print the --recipe as the equivalent train flags and exit, training nothing",
    )
    train.add_argument(
        "--policy",
        default=None,
        help=f"a registered reward policy (default: {defaults['policy']})",
    )
    train.add_argument(
        "--disable",
        action="append",
        metavar="NAMES",
        help="components to switch off, comma-separated, repeatable (default: none)",
    )
    train.add_argument(
        "--weight",
        action="append",
        metavar="NAME=NUMBER",
        help="a component's weight, repeatable (default: the policy's)",
    )
    train.add_argument(
        "--reward-schedule",
        default=None,
        metavar="NAME=STEP:WEIGHT,...",
        help="component weights over the training step, breakpoints joined by ',' and "
        "components by ';', e.g. 'efficiency=0:0,200000:1' (default: fixed weights; wins "
        "over reward_schedule: in --hyperparams)",
    )
    train.add_argument(
        "--reward-schedule-interpolation",
        choices=("linear", "step"),
        default=None,
        help="weights between breakpoints (default: linear)",
    )
    train.add_argument(
        "--config",
        action="append",
        metavar="KEY=VALUE",
        help="a policy config value, repeatable (default: the policy's default config)",
    )
    train.add_argument(
        "--timesteps",
        type=positive_int,
        default=None,
        help=f"training steps (default: {defaults['timesteps']:,})",
    )
    train.add_argument(
        "--n-envs",
        type=positive_int,
        default=None,
        help=f"envs stepped together (default: {defaults['n_envs']})",
    )
    train.add_argument(
        "--seed", type=int, default=None, help=f"training seed (default: {defaults['seed']})"
    )
    train.add_argument(
        "--hp",
        action="append",
        metavar="KEY=VALUE",
        help="a PPO hyperparameter, JSON value, repeatable; wins over --hyperparams "
        "(default: DEFAULT_HYPERPARAMS)",
    )
    train.add_argument(
        "--hyperparams",
        metavar="FILE.yml",
        default=None,
        help="rl-zoo3-style YAML: a section per env id (or 'default') with n_timesteps, "
        "policy, n_envs and PPO arguments; flags win over it (default: none)",
    )
    train.add_argument(
        "--env-kwarg",
        action="append",
        metavar="KEY=VALUE",
        help="an env constructor argument, JSON value, repeatable (default: none)",
    )
    train.add_argument(
        "--shaping",
        default=None,
        metavar="METHOD",
        help="potential-based shaping: 'crawl' (the crawl score so far) or an env method "
        "name (default: no shaping)",
    )
    train.add_argument(
        "--vec-env",
        choices=("dummy", "subproc"),
        default=None,
        help="SB3's DummyVecEnv (one process) or SubprocVecEnv (a process per env) "
        f"(default: {defaults['vec_env']})",
    )
    train.add_argument(
        "--reward-wrapping",
        choices=REWARD_WRAPPINGS,
        default=None,
        help="where the reward policy runs: per_env (a wrapper in each env) or vector (one "
        "wrapper over the vector env); same rewards either way. Default: auto, which takes "
        "vector only when it measured faster: --vec-env dummy, 16 envs or more, no "
        "--shaping, and not a crawl env",
    )
    train.add_argument(
        "--vector-resets",
        choices=VECTOR_RESETS,
        default=None,
        help="how an env trained as one batch (Crawl-v2) draws its sites: exact (sub-env i "
        "replays the single env seeded seed + i) or fast (one generator for the batch: the "
        "same distributions, other per-seed numbers, less CPU) (default: exact, or the "
        "recipe's)",
    )
    train.add_argument(
        "--log-dir",
        default=None,
        help="run directory (default: runs/train/<env>-<policy>[-no_<c>...][-sched_<c>...]"
        "-seed<seed>; a suffix is added when it already holds a run)",
    )
    train.add_argument(
        "--checkpoint-freq",
        type=non_negative_int,
        default=None,
        help=f"steps between checkpoints (default: {DEFAULT_CHECKPOINT_FREQ:,}; 0: none)",
    )
    train.add_argument(
        "--eval-freq",
        type=non_negative_int,
        default=None,
        help=f"steps between evaluations for best_model.zip (default: {DEFAULT_EVAL_FREQ:,}; "
        "0: final only)",
    )
    train.add_argument(
        "--eval-episodes",
        type=non_negative_int,
        default=None,
        help=f"episodes per evaluation (default: {DEFAULT_EVAL_EPISODES})",
    )
    train.add_argument(
        "--resume",
        metavar="RUN_DIR",
        default=None,
        help="continue an interrupted or killed run from its last checkpoint (default: a new run)",
    )
    add_quiet(train)
    train.set_defaults(func=_run_train)
