"""CPU cost of ``VectorRewardPolicyWrapper`` per sub-env step, against its speed goals.

Three measurements, each timed in one process with interleaved repetitions (medians):

* **own time** at 64 and 1,024 sub-envs: the wrapper over a *recorded-steps* vector env that
  replays pre-recorded CartPole obs / rewards / terminations / truncations / infos, minus the
  bare replay, so the inner env's own time drops out (goal ≤ 0.3 µs at 64, ≤ 0.05 µs at 1,024);
* **in place** over ``SyncVectorEnv`` CartPole x64: wrapped minus bare (goal ≤ 0.5 µs);
* **per-env wrapping** for comparison: a ``SyncVectorEnv`` of ``RewardPolicyWrapper``-wrapped
  CartPoles x64 minus the bare ``SyncVectorEnv``;
* **a minimal hand-written table wrapper** for reference (``MinimalTableWrapper``: table rows,
  sums and the components in ``infos``, nothing else), in place and over EnvPool: the floor a
  numpy wrapper in Python meets once the inner env's step has run;
* **over EnvPool** (when ``envpool`` is installed, e.g. in the clients venv): EnvPool's CartPole
  x64 (``env_type="gymnasium"``) wrapped, over bare, as a ratio (goal ≤ 1.2x).

The policy is a built-in (``default``) on generic results. Every figure is µs of CPU per
sub-env step; the ratios are the figure over its goal.

The whole measurement runs in ``--rounds`` consecutive rounds: the figures are medians over all
repetitions pooled, and each round's figures are kept (``per_round``), so a goal can be read as
met only when it holds in every round, not in one lucky run.

Run: ``.venv/bin/python benchmarks/vector_wrapper.py [--steps 200] [--repetitions 21]
[--rounds 3] [--policy default] [--no-save]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import warnings
from pathlib import Path
from time import thread_time
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, SyncVectorEnv, VectorEnv, VectorWrapper

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (
    clock,
    interleaved_samples,
    paired_median_difference,
    print_table,
    save_results,
)

from rlm_gym import RewardPolicyWrapper, VectorRewardPolicyWrapper

GOALS = {"own_64": 0.3, "own_1024": 0.05, "in_place_64": 0.5}
ENVPOOL_GOAL = 1.2


class RecordedVectorEnv(VectorEnv):
    """Replays recorded vector steps (``NEXT_STEP`` autoreset), cycling through them."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, source: VectorEnv, steps: int, seed: int = 0) -> None:
        self.num_envs = source.num_envs
        self.single_observation_space = source.single_observation_space
        self.single_action_space = source.single_action_space
        self.observation_space = source.observation_space
        self.action_space = source.action_space
        self.spec = source.spec
        self._reset = source.reset(seed=seed)
        source.action_space.seed(seed)
        self.actions = [source.action_space.sample() for _ in range(steps)]
        self._record = [source.step(action) for action in self.actions]
        self._index = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self._index = 0
        obs, infos = self._reset
        return obs, dict(infos)

    def step(self, actions: Any):
        obs, rewards, terminated, truncated, infos = self._record[self._index]
        self._index = (self._index + 1) % len(self._record)
        return obs, rewards, terminated, truncated, dict(infos)


class MinimalTableWrapper(VectorWrapper):
    """The reference: the least a vector shaping wrapper that reports components can do.

    Each sub-env's row of a fixed (components + value) table by success and finality, the
    episode sums, the components in ``infos`` and the finished episodes' sums: no checks, no
    weights, no resets, no hooks. Written with the cheapest numpy forms measured here (uint8
    views rather than casts, ``count_nonzero`` rather than ``any``, ``zip`` without its
    keyword), as the wrapper's short path is, so it is a floor and not a straw man.
    """

    NAMES = ("base", "success", "failure", "error", "final", "partial")

    def __init__(self, env: VectorEnv) -> None:
        super().__init__(env)
        self.table = np.random.default_rng(0).random((len(self.NAMES) + 1, 4))
        self.sums = np.zeros((len(self.NAMES) + 1, env.num_envs))

    def step(self, actions: Any):
        obs, rewards, terminated, truncated, infos = self.env.step(actions)
        flags = terminated.view(np.uint8)
        code = np.add(flags, flags)
        np.add(code, np.greater(rewards, 0.0).view(np.uint8), out=code)
        rows = self.table.take(code, axis=1)
        self.sums += rows
        infos["reward_components"] = dict(zip(self.NAMES, rows))  # noqa: B905
        dones = np.logical_or(terminated, truncated)
        if np.count_nonzero(dones):
            report = np.where(dones, self.sums, 0.0)
            infos["episode_reward_components"] = dict(zip(self.NAMES, report))  # noqa: B905
            self.sums -= report
        return obs, rows[-1], terminated, truncated, infos


def stepper(env: VectorEnv, actions: list[Any], steps: int, main_thread: list | None = None):
    """A closure timing ``steps`` vector steps, in µs of CPU per sub-env step (the process's;
    with ``main_thread``, the calling thread's own CPU is appended there too)."""
    env.reset(seed=0)
    count = len(actions)
    per = 1e6 / (steps * env.num_envs)

    def run() -> float:
        step = env.step
        started, started_thread = clock(), thread_time()
        for index in range(steps):
            step(actions[index % count])
        elapsed = clock() - started
        if main_thread is not None:
            main_thread.append((thread_time() - started_thread) * per)
        return elapsed * per

    return run


def cartpoles(n: int) -> SyncVectorEnv:
    return gym.make_vec("CartPole-v1", num_envs=n, vectorization_mode="sync")


def variants_for(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, list[float]]]:
    """Every timed variant (name -> closure), and the main thread's CPU of EnvPool's (name ->
    the samples, appended as they run; empty without EnvPool)."""
    variants, recorded, threads = {}, {}, {}
    for n in (64, 1024):
        recorded[n] = RecordedVectorEnv(cartpoles(n), steps=200)
        actions = recorded[n].actions
        steps = max(1, args.steps * 64 // n)
        variants[f"replay_{n}"] = stepper(recorded[n], actions, steps)
        wrapped = VectorRewardPolicyWrapper(RecordedVectorEnv(cartpoles(n), 200), args.policy)
        variants[f"wrapped_replay_{n}"] = stepper(wrapped, actions, steps)
    actions = recorded[64].actions
    variants["sync_64"] = stepper(cartpoles(64), actions, args.steps)
    variants["wrapped_sync_64"] = stepper(
        VectorRewardPolicyWrapper(cartpoles(64), args.policy), actions, args.steps
    )
    per_env = SyncVectorEnv(
        [lambda: RewardPolicyWrapper(gym.make("CartPole-v1"), args.policy)] * 64
    )
    variants["per_env_sync_64"] = stepper(per_env, actions, args.steps)
    variants["minimal_sync_64"] = stepper(MinimalTableWrapper(cartpoles(64)), actions, args.steps)
    pools = envpools(64)
    if pools is not None:
        pool_actions = [np.asarray(a) for a in actions]
        envs = {
            "envpool_64": pools[0],
            "wrapped_envpool_64": VectorRewardPolicyWrapper(pools[1], args.policy),
            "minimal_envpool_64": MinimalTableWrapper(pools[2]),
        }
        for name, env in envs.items():
            threads[name] = []
            variants[name] = stepper(env, pool_actions, args.steps, threads[name])
    return variants, threads


def figures(samples: dict[str, list[float]], threads: dict[str, list[float]]) -> dict[str, float]:
    """The benchmark's figures from paired samples: medians of the per-repetition differences
    (µs added per sub-env step) and ratios (over EnvPool), and from the main thread's CPU over
    EnvPool the µs a wrapper adds there (to set beside its own time in the replay loop)."""

    def added(name: str, base: str) -> float:
        return paired_median_difference(samples[name], samples[base])

    return {
        "own_64": added("wrapped_replay_64", "replay_64"),
        "own_1024": added("wrapped_replay_1024", "replay_1024"),
        "in_place_64": added("wrapped_sync_64", "sync_64"),
        "per_env_64": added("per_env_sync_64", "sync_64"),
        "minimal_in_place_64": added("minimal_sync_64", "sync_64"),
        **(envpool_ratio(samples, threads) if threads else {}),
    }


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """``args.rounds`` rounds of interleaved repetitions: figures over all of them pooled, and
    each round's own, to show how far they move from one round to the next."""
    variants, threads = variants_for(args)
    with warnings.catch_warnings():  # EnvPool's seed is fixed at make(); reset's is ignored
        warnings.filterwarnings("ignore", "EnvPool seeds are fixed")
        rounds = [interleaved_samples(variants, args.repetitions) for _ in range(args.rounds)]
    pooled = {name: [value for one in rounds for value in one[name]] for name in variants}
    reps = args.repetitions
    per_round = [
        figures(one, {name: values[i * reps : (i + 1) * reps] for name, values in threads.items()})
        for i, one in enumerate(rounds)
    ]
    pooled_figures = figures(pooled, threads)
    return {
        "policy": args.policy,
        "rounds": args.rounds,
        "repetitions": args.repetitions,
        "medians_us": {name: statistics.median(values) for name, values in pooled.items()},
        **pooled_figures,
        "per_round": {name: [one[name] for one in per_round] for name in pooled_figures},
    }


def envpools(n: int) -> tuple[Any, Any] | None:
    """Three EnvPool CartPole x``n`` (gymnasium API), or None when envpool is not installed."""
    try:
        import envpool
    except ImportError:
        return None
    return tuple(
        envpool.make("CartPole-v1", env_type="gymnasium", num_envs=n, seed=0) for _ in range(3)
    )


def envpool_ratio(
    samples: dict[str, list[float]], threads: dict[str, list[float]]
) -> dict[str, float]:
    """Wrapped over bare EnvPool: the median of the paired ratios, the µs added, and the µs of
    the main thread's own CPU added (EnvPool steps on worker threads)."""
    pairs = list(zip(samples["wrapped_envpool_64"], samples["envpool_64"], strict=True))
    minimal = list(zip(samples["minimal_envpool_64"], samples["envpool_64"], strict=True))
    ratio = statistics.median(a / b for a, b in pairs)

    bare_thread = threads["envpool_64"]
    return {
        "envpool_64_ratio": ratio,
        "envpool_64_ratio_vs_goal": ratio / ENVPOOL_GOAL,
        "envpool_64_added": paired_median_difference(
            samples["wrapped_envpool_64"], samples["envpool_64"]
        ),
        "minimal_envpool_64_ratio": statistics.median(a / b for a, b in minimal),
        "envpool_64_main_thread_added": paired_median_difference(
            threads["wrapped_envpool_64"], bare_thread
        ),
        "minimal_envpool_64_main_thread_added": paired_median_difference(
            threads["minimal_envpool_64"], bare_thread
        ),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200, help="vector steps per repetition at 64")
    parser.add_argument("--repetitions", type=int, default=21, help="per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--policy", default="default")
    parser.add_argument("--no-save", action="store_true", help="print only")
    args = parser.parse_args(argv)
    np.random.seed(0)
    payload = measure(args)
    rows = []
    rounds = payload["per_round"]
    for name in ("own_64", "own_1024", "in_place_64", "per_env_64", "minimal_in_place_64"):
        goal = GOALS.get(name)
        ratio = None if goal is None else payload[name] / goal
        payload[f"{name}_vs_goal"] = ratio
        rows.append(
            [
                name,
                f"{payload[name]:.3f}",
                " / ".join(f"{value:.3f}" for value in rounds[name]),
                "" if goal is None else f"{goal:.2f}",
                "" if ratio is None else f"{ratio:.2f}x",
            ]
        )
    payload["per_env_vs_in_place"] = payload["per_env_64"] / max(payload["in_place_64"], 1e-9)
    for name, label, goal in (
        ("envpool_64_ratio", "EnvPool x64: wrapped / bare", f"{ENVPOOL_GOAL:.2f}x"),
        ("minimal_envpool_64_ratio", "EnvPool x64: minimal / bare", ""),
    ):
        if name in payload:
            per_round = " / ".join(f"{value:.2f}x" for value in rounds[name])
            rows.append([label, "", per_round, goal, f"{payload[name]:.2f}x"])
    for name, label in (
        ("envpool_64_main_thread_added", "EnvPool x64: wrapped, main thread"),
        ("minimal_envpool_64_main_thread_added", "EnvPool x64: minimal, main thread"),
    ):
        if name in payload:
            per_round = " / ".join(f"{value:.3f}" for value in rounds[name])
            rows.append([label, f"{payload[name]:.3f}", per_round, "", ""])
    print(
        f"VectorRewardPolicyWrapper ({args.policy}), µs of CPU added per sub-env step: medians "
        f"of {args.rounds} x {args.repetitions} interleaved paired repetitions, and per round"
    )
    print_table(["measure", "us/sub-env step", "rounds", "goal", "vs goal"], rows)
    bare = payload["medians_us"]
    print(
        f"bare SyncVectorEnv CartPole x64: {bare['sync_64']:.3f} µs/sub-env step; "
        f"per-env wrapping adds {payload['per_env_vs_in_place']:.1f}x the vector wrapper's cost"
    )
    if "envpool_64" in bare:
        print(f"bare EnvPool CartPole x64: {bare['envpool_64']:.3f} µs/sub-env step")
    else:
        print("EnvPool not installed: its row is skipped (`pip install envpool==1.2.5`)")
    if not args.no_save:
        save_results("vector_wrapper", payload)
    return payload


if __name__ == "__main__":
    main()
