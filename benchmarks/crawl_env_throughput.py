"""Steps per second of ``rlm_gym/Crawl-v1``: bare, with the ``crawl`` and ``lenient`` policies,
single env and ``gymnasium.make_vec`` (sync) with 8 envs; and ``CrawlEnv()`` without
``gym.make``'s wrappers (``TimeLimit``, ``OrderEnforcing``, ``PassiveEnvChecker``), to show
what the env itself costs.

Actions come from a fixed pseudo-random sequence over all 10 actions (invalid ones are cheap
failed steps, as in early training), so every variant sees the same work.

Many short interleaved runs (15 x 10,000 steps by default): on a shared 2-core VM the same code's
speed drifts by up to 50 % from one second to the next, and the median of many short runs
follows the machine's usual speed where a few long runs follow its bursts.

Run: ``.venv/bin/python benchmarks/crawl_env_throughput.py [--steps 10000] [--repetitions 15]``
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import clock, interleaved_medians, print_table, save_results

import rlm_gym
from rlm_gym import RewardPolicyWrapper
from rlm_gym.envs import CRAWL_ENV_ID

ENV_ID = CRAWL_ENV_ID
VEC_ENVS = 8


def single_env_runner(policy: str | None, steps: int, wrapped: bool = True):
    env = gym.make(ENV_ID) if wrapped else rlm_gym.CrawlEnv()
    if policy is not None:
        env = RewardPolicyWrapper(env, policy)
    actions = np.random.default_rng(0).integers(0, env.action_space.n, size=4096).tolist()
    env.reset(seed=0)

    def run() -> float:
        step, reset = env.step, env.reset
        started = clock()
        for index in range(steps):
            _, _, terminated, truncated, _ = step(actions[index & 4095])
            if terminated or truncated:
                reset()
        return steps / (clock() - started)

    return run


def vector_env_runner(policy: str | None, steps: int):
    wrappers = [] if policy is None else [lambda env: RewardPolicyWrapper(env, policy)]
    envs = gym.make_vec(ENV_ID, num_envs=VEC_ENVS, vectorization_mode="sync", wrappers=wrappers)
    batches = np.random.default_rng(0).integers(0, 10, size=(512, VEC_ENVS))
    envs.reset(seed=0)
    vector_steps = max(1, steps // VEC_ENVS)

    def run() -> float:
        started = clock()
        for index in range(vector_steps):
            envs.step(batches[index & 511])
        return vector_steps * VEC_ENVS / (clock() - started)

    return run


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--repetitions", type=int, default=15)
    args = parser.parse_args(argv)
    assert rlm_gym.CrawlEnv  # importing rlm_gym registers the env

    variants = {"single/env class": single_env_runner(None, args.steps, wrapped=False)}
    for label, policy in (("bare", None), ("crawl", "crawl"), ("lenient", "lenient")):
        variants[f"single/{label}"] = single_env_runner(policy, args.steps)
        variants[f"vec8/{label}"] = vector_env_runner(policy, args.steps)
    medians = interleaved_medians(variants, args.repetitions)

    rows = [[name, f"{rate:,.0f}", f"{1e6 / rate:.2f}"] for name, rate in medians.items()]
    print(f"{ENV_ID}: {args.steps} steps x {args.repetitions} interleaved repetitions")
    print_table(["variant", "steps/s", "us/step"], rows)
    payload = {name: {"steps_per_s": rate} for name, rate in medians.items()}
    save_results("crawl_env_throughput", payload)
    return payload


if __name__ == "__main__":
    main()
