"""Episode helpers shared by the env tests."""

from __future__ import annotations

from rlm_gym.envs import CrawlEnv


def play(env, policy, seed):
    """Yield ``(obs, reward, terminated, truncated, info)`` of every step of one episode."""
    env.reset(seed=seed)
    while True:
        step = env.step(policy(env))
        yield step
        if step[2] or step[3]:
            return


def run_episode(env: CrawlEnv, seed: int, policy) -> list[tuple]:
    obs, info = env.reset(seed=seed)
    trajectory = [(obs.tolist(), info)]
    while True:
        action = policy(env)
        obs, reward, terminated, truncated, info = env.step(action)
        trajectory.append((action, obs.tolist(), reward, terminated, truncated, info))
        if terminated or truncated:
            return trajectory
