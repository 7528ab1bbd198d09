"""Scripted crawls of the live env, shared by the live tests."""

from __future__ import annotations

from typing import Any

from rlm_gym.envs.dynamics import ACTIONS


def run(env: Any, names: list[str], seed: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Reset with ``seed``, take the named actions until the episode ends (``stop`` last), and
    return every step's info and the last one."""
    env.reset(seed=seed)
    infos = []
    for name in names:
        *_, terminated, truncated, info = env.step(ACTIONS.index(name))
        infos.append(info)
        if terminated or truncated:
            break
    return infos, infos[-1]


def play(env: Any, seed: int, policy: str = "heuristic", max_steps: int = 40) -> dict[str, Any]:
    """One episode of a baseline (``heuristic``, ``random``, ``oracle``); the last info."""
    env.reset(seed=seed)
    for _ in range(max_steps):
        *_, terminated, truncated, info = env.step(getattr(env.unwrapped, f"{policy}_action")())
        if terminated or truncated:
            return info
    raise AssertionError(f"episode of seed {seed} did not end in {max_steps} steps")
