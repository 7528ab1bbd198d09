"""Per-step overhead of RewardPolicyWrapper on CartPole-v1, side by side with a reference.

Variants, timed in one process with interleaved repetitions:
  * bare ``gym.make("CartPole-v1")``;
  * the same plus a hand-written minimal shaping wrapper (a function making a 5-float dict,
    summing, clamping, writing it to ``info``): the reference;
  * the same plus ``RewardPolicyWrapper`` with each built-in policy, with everything it does
    per step: the non-finite reward check, the generic ``ActionResult``, the components, the
    episode sums and the bounded ``context.history`` (1,000 entries).

Each variant runs many short repetitions in turn and keeps its fastest: timing noise (other
processes on the machine, frequency changes) only ever adds time, so the minimum is the
estimate least disturbed by it (as ``timeit`` advises) - on a busy 2-core machine medians of
paired differences moved the ratio between 1.5x and 3.4x from run to run. Overhead = variant
µs/step - bare µs/step; the ratio is our overhead over the reference's. CPU time is measured.

Run: ``.venv/bin/python benchmarks/wrapper_overhead.py [--steps 5000] [--repetitions 61]
[--no-save]``
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import gymnasium as gym

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import clock, interleaved_samples, print_table, save_results

from rlm_gym import RewardPolicyWrapper

POLICIES = ("default", "strict", "lenient", "research", "binary")


def minimal_shaping(reward: float, terminated: bool) -> dict[str, float]:
    return {
        "base": 0.1,
        "success": 0.7 if reward > 0 else 0.0,
        "failure": 0.0 if reward > 0 else -0.3,
        "error": 0.0,
        "final": 0.5 if terminated else 0.0,
    }


class MinimalShapingWrapper(gym.Wrapper):
    """The reference: the least a shaping wrapper that reports components can do."""

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        components = minimal_shaping(reward, terminated)
        value = max(-1.0, min(1.0, sum(components.values())))
        info["reward_components"] = components
        return obs, value, terminated, truncated, info


def stepper(env: gym.Env, steps: int):
    """A closure timing ``steps`` steps of ``env`` (resetting at episode ends), in µs/step."""
    env.reset(seed=0)
    actions = [0, 1, 1, 0, 1, 0, 0, 1]

    def run() -> float:
        step = env.step
        started = clock()
        for index in range(steps):
            _, _, terminated, truncated, _ = step(actions[index & 7])
            if terminated or truncated:
                env.reset()
        return (clock() - started) / steps * 1e6

    return run


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5_000, help="steps per repetition")
    parser.add_argument("--repetitions", type=int, default=61)
    parser.add_argument(
        "--no-save", action="store_true", help="print only; leave benchmarks/results.json as is"
    )
    args = parser.parse_args(argv)

    variants = {
        "bare": stepper(gym.make("CartPole-v1"), args.steps),
        "reference": stepper(MinimalShapingWrapper(gym.make("CartPole-v1")), args.steps),
    }
    for policy in POLICIES:
        wrapped = RewardPolicyWrapper(gym.make("CartPole-v1"), policy)
        variants[policy] = stepper(wrapped, args.steps)
    samples = interleaved_samples(variants, args.repetitions)
    fastest = {name: min(values) for name, values in samples.items()}
    overheads = {name: micros - fastest["bare"] for name, micros in fastest.items()}

    reference_overhead = overheads["reference"]
    rows, payload = [], {}
    for name, micros in fastest.items():
        overhead = overheads[name]
        ratio = overhead / reference_overhead if name not in ("bare", "reference") else None
        rows.append(
            [name, f"{micros:.2f}", f"{overhead:.2f}", "" if ratio is None else f"{ratio:.2f}x"]
        )
        payload[name] = {"us_per_step": micros, "overhead_us": overhead, "ratio": ratio}
    print(
        f"CartPole-v1, {args.steps} steps x {args.repetitions} interleaved repetitions "
        "(fastest repetition of each variant)"
    )
    print_table(["variant", "us/step", "overhead us", "vs reference"], rows)
    if not args.no_save:
        save_results("wrapper_overhead", payload)
    return payload


if __name__ == "__main__":
    main()
