"""Steps per second of Crawl-v2 with the ``crawl`` policy: the batched env (``CrawlVectorEnv``,
Crawl-v2's ``vector_entry_point``) against ``SyncVectorEnv`` over single envs and one env.

Variants, every one scoring with the ``crawl`` policy:

* ``single``: ``RewardPolicyWrapper(gym.make("rlm_gym/Crawl-v2"), "crawl")``, one env;
* ``sync<N>``: ``gym.make_vec(..., vectorization_mode="sync")`` of N such envs;
* ``batched<N>``: ``VectorRewardPolicyWrapper(gym.make_vec("rlm_gym/Crawl-v2", N), "crawl")``
  (``CrawlVectorEnv``'s default fast mode: one generator, reset sites drawn in one numpy pass);
* ``batched<N>_exact``: the same with ``exact=True`` (sub-env k replays the single env seeded
  s + k; the mode the studies train in).

Actions: a fixed pseudo-random sequence over all 10 actions (as ``crawl_env_throughput.py``);
``--valid`` draws among each sub-env's valid actions instead (longer episodes, fewer invalid
steps: closer to a trained agent's mix), every variant asking its env for the masks each step;
the single env looks its mask's valid actions up in a table (a numpy pass over one 10-entry
mask per step was a large share of its step), the vector variants pick for all sub-envs in
one numpy pass. Many short interleaved runs, medians reported, so
ratios hold on a shared machine whose speed drifts. Everything runs in one process on one core,
so "per core" is the steps/s itself.

**Warm caches.** Every variant scores finished crawls through the same process-wide caches of
the crawl score (a crawl's content is judged once, then looked up). A content met for the first
time costs a judgement of all its items, whoever meets it; the batch, timed over four times
the single env's steps, met most of them first and paid for the others too. So ``--warm-steps`` env
steps of the batch (1M by default, the actions below) fill the caches before any variant is
timed: all variants then run at the steady state of a long run, where new contents are rare
and shared alike. ``--warm-steps 0`` gives the cold figures.

The issue's bars (Must reach): ``batched128 / sync128 >= 10`` and ``batched128 / single >= 5``,
reported for both modes.

Run: ``.venv/bin/python benchmarks/crawl_vector_env.py [--envs 128] [--repetitions 9] [--save]``
(``--save`` writes ``crawl_vector_env``, or ``crawl_vector_env_valid`` with ``--valid``)
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import clock, interleaved_medians, print_table, save_results

import rlm_gym
from rlm_gym import RewardPolicyWrapper, VectorRewardPolicyWrapper
from rlm_gym.envs import CRAWL_V2_ENV_ID

POLICY = "crawl"


def _actions(count: int, width: int) -> np.ndarray:
    return np.random.default_rng(0).integers(0, 10, size=(count, width))


def _valid_choice(masks: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """One valid action per row: the ``floor(u * valid)``-th valid one."""
    counts = masks.sum(axis=1)
    ranks = (uniforms[: len(masks)] * counts).astype(np.int64)
    cumulative = masks.cumsum(axis=1)
    return (cumulative <= ranks[:, None]).sum(axis=1)


def single_runner(steps: int, valid: bool):
    env = RewardPolicyWrapper(gym.make(CRAWL_V2_ENV_ID), POLICY)
    actions = _actions(4096, 1)[:, 0].tolist()
    uniforms = np.random.default_rng(1).random(4096).tolist()
    masks = env.unwrapped.action_masks
    valid_actions: dict[bytes, list[int]] = {}
    env.reset(seed=0)

    def run() -> float:
        step, reset = env.step, env.reset
        started = clock()
        for index in range(steps):
            if valid:
                # The batch's rule in its cheapest per-env form: a mask comes in a handful of
                # kinds (one per phase), so its valid actions are looked up by its bytes.
                mask = masks()
                allowed = valid_actions.get(mask.tobytes())
                if allowed is None:
                    allowed = valid_actions[mask.tobytes()] = np.flatnonzero(mask).tolist()
                action = allowed[int(uniforms[index & 4095] * len(allowed))]
            else:
                action = actions[index & 4095]
            _, _, terminated, truncated, _ = step(action)
            if terminated or truncated:
                reset()
        return steps / (clock() - started)

    return run


def vector_runner(envs, n: int, steps: int, valid: bool, masks):
    actions = _actions(512, n)
    uniforms = np.random.default_rng(1).random((512, n))
    envs.reset(seed=0)
    vector_steps = max(1, steps // n)

    def run() -> float:
        step = envs.step
        started = clock()
        for index in range(vector_steps):
            if valid:
                step(_valid_choice(masks(), uniforms[index & 511]))
            else:
                step(actions[index & 511])
        return vector_steps * n / (clock() - started)

    return run


def warm(n: int, steps: int, valid: bool) -> None:
    """Fill the process-wide crawl score caches with ``steps`` env steps of the batch (its
    own env, seeded apart from the timed ones)."""
    if steps <= 0:
        return
    envs = gym.make_vec(CRAWL_V2_ENV_ID, num_envs=n, vectorization_mode="vector_entry_point")
    batched = VectorRewardPolicyWrapper(envs, POLICY)
    actions = np.random.default_rng(2).integers(0, 10, size=(512, n))
    uniforms = np.random.default_rng(3).random((512, n))
    batched.reset(seed=1_000_000)
    for index in range(max(1, steps // n)):
        if valid:
            batched.step(_valid_choice(envs.action_masks(), uniforms[index & 511]))
        else:
            batched.step(actions[index & 511])
    batched.close()


def sync_masks(envs):
    sub_envs = [env.unwrapped for env in envs.envs]
    return lambda: np.stack([env.action_masks() for env in sub_envs])


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=128)
    parser.add_argument("--steps", type=int, default=25_600)
    parser.add_argument("--repetitions", type=int, default=9)
    parser.add_argument("--valid", action="store_true", help="valid actions only")
    parser.add_argument(
        "--warm-steps", type=int, default=1_000_000, help="env steps filling the score caches"
    )
    parser.add_argument("--save", action="store_true", help="write benchmarks/results.json")
    args = parser.parse_args(argv)
    assert rlm_gym.CrawlEnv  # importing rlm_gym registers the envs
    n = args.envs
    sync = gym.make_vec(
        CRAWL_V2_ENV_ID,
        num_envs=n,
        vectorization_mode="sync",
        wrappers=[lambda env: RewardPolicyWrapper(env, POLICY)],
    )
    variants = {
        "single": single_runner(args.steps // 4, args.valid),
        f"sync{n}": vector_runner(sync, n, args.steps // 4, args.valid, sync_masks(sync)),
    }
    for suffix, exact in (("", False), ("_exact", True)):
        batched_env = gym.make_vec(
            CRAWL_V2_ENV_ID, num_envs=n, vectorization_mode="vector_entry_point", exact=exact
        )
        batched = VectorRewardPolicyWrapper(batched_env, POLICY)
        masks = batched_env.action_masks
        variants[f"batched{n}{suffix}"] = vector_runner(batched, n, args.steps, args.valid, masks)
    warm(n, args.warm_steps, args.valid)
    for run in variants.values():
        run()  # warm each variant (its own first sites and contents) before timing
    medians = interleaved_medians(variants, args.repetitions)
    single, vector = medians["single"], medians[f"sync{n}"]
    rows = [[name, f"{rate:,.0f}", f"{1e6 / rate:.2f}"] for name, rate in medians.items()]
    mix = "valid actions" if args.valid else "any action"
    load = os.getloadavg()[0]
    print(
        f"{CRAWL_V2_ENV_ID} + '{POLICY}' ({mix}): {args.repetitions} interleaved repetitions, "
        f"load {load:.2f}"
    )
    print_table(["variant", "steps/s", "us/step"], rows)
    payload = {
        "num_envs": n,
        "actions": mix,
        "steps_per_s": medians,
        "load_after": load,
        "warm_steps": args.warm_steps,
    }
    for suffix in ("", "_exact"):
        native = medians[f"batched{n}{suffix}"]
        payload[f"batched{suffix}_vs_sync"] = native / vector
        payload[f"batched{suffix}_vs_single"] = native / single
        print(f"batched{n}{suffix} / sync{n}: {native / vector:.2f}x (bar 10x)")
        print(f"batched{n}{suffix} / single: {native / single:.2f}x per core (bar 5x)")
    if args.save:
        save_results("crawl_vector_env" + ("_valid" if args.valid else ""), payload)
    return payload


if __name__ == "__main__":
    main()
