"""``rlm-gym evaluate``: the true score of trained models and baselines, in one table.

An agent is a baseline name or a run directory / model file; a run directory brings its own env
id and env kwargs (its ``config.json``). The table is printed for a terminal (``rich`` when it
is installed, else aligned text), as Markdown or as JSON; :func:`print_comparison` also shows
``rlm-gym demo``'s table. The baselines need only the core; models need the ``train`` extra.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.cli.options import (
    add_command,
    add_quiet,
    check_env_id,
    model_file,
    note,
    parse_assignments,
    positive_int,
)
from rlm_gym.envs import CRAWL_ENV_ID, CRAWL_LIVE_ENV_ID, CRAWL_V2_ENV_ID, CURRENT_CRAWL_ENV_ID
from rlm_gym.tables import csv_table, print_table

__all__ = ["FORMATS", "OPTIONAL_COLUMNS", "SAME_SPACES", "print_comparison", "register"]

# An env whose agents may come from another env's runs: CrawlLive-v0 is Crawl-v2's job on live
# sites, with its spaces, so a Crawl-v2 run is evaluated there as it is (sim to live).
SAME_SPACES: dict[str, str] = {CRAWL_LIVE_ENV_ID: CRAWL_V2_ENV_ID}


# The comparison table's columns a narrow terminal leaves out, the first first: the reward's
# components, then the task outcome's details; agent, score, CI, normalised, job done and valid
# items always stay.
OPTIONAL_COLUMNS = (
    "success", "has_data", "validation", "quantity", "efficiency", "items", "pages", "s/page",
    "steps", "tiers E/G/A/P %", "s/valid item",
)  # fmt: skip
FORMATS = ("table", "markdown", "json", "csv")


def print_comparison(rows: list[dict[str, Any]], title: str, fmt: str) -> None:
    """Print ``comparison_table`` rows as ``json`` (the rows as they are), ``csv`` (one line
    per row, every key), ``markdown`` or a terminal ``table`` that fits the terminal's width."""
    from rlm_gym.training import format_table, table_cells

    if fmt == "json":
        print(json.dumps(rows, indent=2))
        return
    if fmt == "csv":
        keys = list(dict.fromkeys(key for row in rows for key in row))
        print(csv_table(keys, [[row.get(key, "") for key in keys] for row in rows]), end="")
        return
    if fmt == "markdown":
        print(format_table(rows))
        return
    cells = [table_cells(row) for row in rows]
    keep = [i for i in range(len(cells[0])) if any(c[i][1] for c in cells)]
    headers = [cells[0][i][0] for i in keep]
    values = [[row_cells[i][1] for i in keep] for row_cells in cells]
    # the agent's name on the left, the numbers on the right
    right_aligned = [i != 0 for i in keep]
    optional = [headers.index(name) for name in OPTIONAL_COLUMNS if name in headers]
    print_table(headers, values, title=title, right_aligned=right_aligned, optional=optional)


def _resolve_agents(args: argparse.Namespace) -> tuple[list[Any], str, dict[str, Any]]:
    """Agents (baseline names, model paths), the env id and env kwargs to evaluate them on.

    A run directory brings its own env id and env kwargs (its ``config.json``); all run
    directories must agree, and ``--env`` may not contradict them (except to play a run on its
    env's live twin, ``SAME_SPACES``).
    """
    from rlm_gym.training import BASELINES, RUN_CONFIG_FILE, read_run_config

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
        model = model_file(agent, "AGENT")
        run_dir = model.parent
        if (run_dir / RUN_CONFIG_FILE).is_file():
            config = read_run_config(run_dir)
            env_ids[agent] = config.get("env_id", CRAWL_ENV_ID)
            kwargs_of[agent] = json.dumps(config.get("env_kwargs") or {}, sort_keys=True)
            env_kwargs = dict(config.get("env_kwargs") or {})
            if path.is_dir() and model.name != "model.zip":
                note(
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
    twin = args.env is not None and SAME_SPACES.get(args.env) == env_id
    if args.env is not None and env_id is not None and args.env != env_id and not twin:
        raise ValueError(
            f"The run(s) were trained on '{env_id}' (their config.json); got `--env` {args.env}"
        )
    env_id = args.env or env_id or CURRENT_CRAWL_ENV_ID
    check_env_id(env_id)
    env_kwargs.update(parse_assignments(args.env_kwarg, "--env-kwarg"))
    return agents, env_id, env_kwargs


def _run_evaluate(args: argparse.Namespace) -> int:
    from rlm_gym.training import BASELINES, comparison_table, evaluate, require

    agents, env_id, env_kwargs = _resolve_agents(args)
    if any(agent not in BASELINES for agent in agents):
        require("torch", "stable_baselines3")  # the models; the baselines need only the core
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
        note(
            args,
            f"[{number}/{len(agents)}] {result.label}: {args.episodes} episodes, score "
            f"{result.summary()['score']:.3f} ({time.perf_counter() - started:.1f} s)",
        )
    title = f"{env_id}: {args.episodes} seeded episodes (seed {args.seed}), true score"
    print_comparison(comparison_table(results), title, args.format)
    return 0


def register(subparsers: Any) -> None:
    """Add ``evaluate`` to an argparse subparsers object."""
    evaluate = add_command(
        subparsers,
        "evaluate",
        "the true crawl score of trained models and baselines on the same seeded episodes",
        [
            "rlm-gym evaluate --baselines --episodes 100",
            "rlm-gym evaluate runs/train/my-run heuristic oracle --format markdown",
        ],
        description="Play every agent (a run directory, a model file, or a baseline: random, "
        "heuristic, best_fixed, oracle) on the same seeded episodes of the bare env and print "
        "one table: the true crawl score with its 95 % CI, the score normalised between random "
        "(0) and oracle (1) when both are known, the reward's components and the task outcome.",
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
        help="a registered env id (default: the runs' env from config.json, else "
        f"{CURRENT_CRAWL_ENV_ID})",
    )
    evaluate.add_argument("--baselines", action="store_true", help="add every baseline")
    evaluate.add_argument(
        "--episodes", type=positive_int, default=200, help="seeded episodes per agent"
    )
    evaluate.add_argument(
        "--seed", type=int, default=1_000_000, help="seed of the first episode (i-th: seed + i)"
    )
    evaluate.add_argument(
        "--env-kwarg",
        action="append",
        metavar="KEY=VALUE",
        help="an env constructor argument, JSON value, repeatable (default: the runs' own)",
    )
    evaluate.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="table (fits the terminal), markdown, json (the rows, every value) or csv",
    )
    add_quiet(evaluate)
    evaluate.set_defaults(func=_run_evaluate)
