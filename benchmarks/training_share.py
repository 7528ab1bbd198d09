"""Share of PPO wall time spent in the env + reward wrapper (crawl env, ``crawl`` policy).

A timing wrapper around each ``RewardPolicyWrapper`` adds up the time of every ``step`` and
``reset`` call (env + wrapper); the share is that total over the wall time of
``model.learn`` (SB3 PPO, 1 torch thread, ``DummyVecEnv``).

Run: ``.venv/bin/python benchmarks/training_share.py [--timesteps 20000] [--n-envs 4]``
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from time import perf_counter

import gymnasium as gym

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import print_table, save_results

import rlm_gym  # noqa: F401  (registers the env)
from rlm_gym import RewardPolicyWrapper


class StepTimer(gym.Wrapper):
    """Adds the wall time of the wrapped env's ``step`` and ``reset`` to a shared counter."""

    def __init__(self, env: gym.Env, counter: list[float]) -> None:
        super().__init__(env)
        self.counter = counter

    def step(self, action):
        started = perf_counter()
        outcome = self.env.step(action)
        self.counter[0] += perf_counter() - started
        return outcome

    def reset(self, **kwargs):
        started = perf_counter()
        outcome = self.env.reset(**kwargs)
        self.counter[0] += perf_counter() - started
        return outcome


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=20_000)
    parser.add_argument("--n-envs", type=int, default=4)
    args = parser.parse_args(argv)

    import torch
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(1)
    counter = [0.0]
    envs = make_vec_env(
        lambda: StepTimer(RewardPolicyWrapper(gym.make("rlm_gym/Crawl-v1"), "crawl"), counter),
        n_envs=args.n_envs,
        seed=0,
    )
    model = PPO("MlpPolicy", envs, seed=0, verbose=0, device="cpu")
    started = perf_counter()
    model.learn(total_timesteps=args.timesteps)
    wall = perf_counter() - started
    share = counter[0] / wall
    print(f"PPO on rlm_gym/Crawl-v1 + crawl policy, {args.timesteps} steps, {args.n_envs} envs")
    print_table(
        ["learn wall s", "env+wrapper s", "share", "train steps/s"],
        [[f"{wall:.2f}", f"{counter[0]:.3f}", f"{share:.2%}", f"{args.timesteps / wall:,.0f}"]],
    )
    payload = {"learn_wall_s": wall, "env_wrapper_s": counter[0], "share": share}
    save_results("training_share", payload)
    return payload


if __name__ == "__main__":
    main()
