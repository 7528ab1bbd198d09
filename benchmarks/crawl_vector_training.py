"""Steps per second of the training vector env of a Crawl-v2 + ``crawl`` run, both ways.

``make_training_vec_env`` (what ``rlm-gym train`` and the studies step) with
``reward_wrapping="per_env"`` (SB3's one-process ``DummyVecEnv`` of per-env reward wrappers,
today's ``auto`` for the crawl envs) and ``"vector"`` (Crawl-v2 stepped as one batch,
``CrawlVectorEnv`` in ``VectorRewardPolicyWrapper``, seen through ``GymVectorToSB3``). Both
train the same agent for the same seed (``tests/training/test_vec_envs.py``); this measures
which is cheaper, with MaskablePPO's mask call and a valid action per env each step (no policy
network: the env side only). CPU time, interleaved repetitions, medians.

Run: ``.venv/bin/python benchmarks/crawl_vector_training.py [--envs 128] [--repetitions 7]``
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import clock, interleaved_medians, print_table, save_results

from rlm_gym.envs import CRAWL_V2_ENV_ID
from rlm_gym.training.run_config import RunConfig
from rlm_gym.training.vec_envs import make_training_vec_env


def runner(wrapping: str, n: int, steps: int):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the short-budget notice: no training happens here
        config = RunConfig(CRAWL_V2_ENV_ID, "crawl", n_envs=n, reward_wrapping=wrapping)
    venv = make_training_vec_env(config, seed=0)
    venv.reset()
    uniforms = np.random.default_rng(0).random((256, n))
    vector_steps = max(1, steps // n)

    def run() -> float:
        started = clock()
        for index in range(vector_steps):
            masks = np.stack(venv.env_method("action_masks"))
            ranks = (uniforms[index & 255] * masks.sum(axis=1)).astype(np.int64)
            venv.step((masks.cumsum(axis=1) <= ranks[:, None]).sum(axis=1))
        return vector_steps * n / (clock() - started)

    return run


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=128)
    parser.add_argument("--steps", type=int, default=12_800)
    parser.add_argument("--repetitions", type=int, default=7)
    args = parser.parse_args(argv)
    variants = {
        wrapping: runner(wrapping, args.envs, args.steps) for wrapping in ("per_env", "vector")
    }
    for run in variants.values():
        run()  # warm the crawl score's caches
    medians = interleaved_medians(variants, args.repetitions)
    rows = [[name, f"{rate:,.0f}", f"{1e6 / rate:.2f}"] for name, rate in medians.items()]
    print(f"{CRAWL_V2_ENV_ID} + 'crawl', training vec env x {args.envs}, valid actions")
    print_table(["reward_wrapping", "steps/s", "us/step"], rows)
    ratio = medians["vector"] / medians["per_env"]
    print(f"vector (batched) / per_env: {ratio:.2f}x")
    payload = {"num_envs": args.envs, "steps_per_s": medians, "vector_vs_per_env": ratio}
    save_results("crawl_vector_training", payload)
    return payload


if __name__ == "__main__":
    main()
