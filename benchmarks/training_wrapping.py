"""``rlm-gym train``'s two reward wrappings, per env and over the vector env, timed.

For each env (CartPole with ``lenient``, the crawl env with ``crawl``) and envs per run (4 and
16), both paths of ``rlm_gym.training.vec_envs`` are timed in one process, interleaved, paired
by repetition (medians):

* **stepping**: the training vector env alone, random actions, in µs of CPU per env step (what
  the wrapping changes);
* **training**: a whole short PPO run (``train(..., log_dir=None)``), in CPU seconds.

``vector / per_env`` below 1 means the vector wrapper is faster; ``reward_wrapping="auto"``
uses it for one-process runs without shaping. Both paths train the same agent for the same
seed (``tests/training/test_vec_envs.py``).

Run: ``.venv/bin/python benchmarks/training_wrapping.py [--steps 2048] [--repetitions 9]
[--train-steps 8192] [--no-save]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import clock, interleaved_samples, print_table, save_results

from rlm_gym.envs import CRAWL_ENV_ID
from rlm_gym.training.run_config import RunConfig, ShortBudgetWarning
from rlm_gym.training.trainer import train
from rlm_gym.training.vec_envs import make_training_vec_env

CASES = (("CartPole-v1", "lenient"), (CRAWL_ENV_ID, "crawl"))
WRAPPINGS = ("per_env", "vector")


def stepping(env_id: str, policy: str, n_envs: int, wrapping: str, steps: int):
    """A closure timing ``steps`` vector steps of the run's env, in µs of CPU per env step."""
    config = RunConfig(env_id, policy, n_envs=n_envs, reward_wrapping=wrapping)
    venv = make_training_vec_env(config, seed=0)
    venv.reset()
    rng = np.random.default_rng(0)
    actions = rng.integers(0, venv.action_space.n, size=(steps, n_envs))
    per = 1e6 / (steps * n_envs)

    def run() -> float:
        step = venv.step
        started = clock()
        for row in actions:
            step(row)
        return (clock() - started) * per

    return run


def training(env_id: str, policy: str, n_envs: int, wrapping: str, budget: int):
    """A closure timing a whole PPO run of ``budget`` steps, in CPU seconds."""

    def run() -> float:
        started = clock()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ShortBudgetWarning)
            train(
                env_id,
                policy,
                total_timesteps=budget,
                n_envs=n_envs,
                hyperparams={"n_steps": max(8, budget // (4 * n_envs))},
                reward_wrapping=wrapping,
                n_eval_episodes=0,
                progress_bar=False,
                tensorboard=False,
            )
        return clock() - started

    return run


def measure(args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = []
    for env_id, policy in CASES:
        for n_envs in (4, 16):
            variants = {}
            for wrapping in WRAPPINGS:
                steps = max(1, args.steps // n_envs)
                variants[f"step_{wrapping}"] = stepping(env_id, policy, n_envs, wrapping, steps)
                variants[f"train_{wrapping}"] = training(
                    env_id, policy, n_envs, wrapping, args.train_steps
                )
            samples = interleaved_samples(variants, args.repetitions)
            row: dict[str, Any] = {"env_id": env_id, "policy": policy, "n_envs": n_envs}
            for kind in ("step", "train"):
                pairs = zip(samples[f"{kind}_vector"], samples[f"{kind}_per_env"], strict=True)
                row[f"{kind}_ratio"] = statistics.median(a / b for a, b in pairs)
                for wrapping in WRAPPINGS:
                    row[f"{kind}_{wrapping}"] = statistics.median(samples[f"{kind}_{wrapping}"])
            rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2048, help="env steps per stepping sample")
    parser.add_argument("--repetitions", type=int, default=9)
    parser.add_argument("--train-steps", type=int, default=8_192, help="budget of a PPO run")
    parser.add_argument("--no-save", action="store_true", help="print only")
    args = parser.parse_args(argv)
    rows = measure(args)
    print(
        f"rlm-gym train's reward wrappings, medians of {args.repetitions} interleaved paired "
        f"repetitions (stepping: µs of CPU per env step; training: CPU s of a "
        f"{args.train_steps:,}-step PPO run)"
    )
    headers = ["env", "envs", "step per_env", "step vector", "ratio"]
    headers += ["train per_env", "train vector", "ratio"]
    table = []
    for row in rows:
        cells = [row["env_id"], row["n_envs"]]
        for kind, digits in (("step", 1), ("train", 2)):
            cells += [f"{row[f'{kind}_{wrapping}']:.{digits}f}" for wrapping in WRAPPINGS]
            cells.append(f"{row[f'{kind}_ratio']:.2f}x")
        table.append(cells)
    print_table(headers, table)
    payload = {"train_steps": args.train_steps, "repetitions": args.repetitions, "rows": rows}
    if not args.no_save:
        save_results("training_wrapping", payload)
    return payload


if __name__ == "__main__":
    main()
