"""Many seeded evaluation episodes at once: one env per episode in play, one policy call per step.

``evaluate`` plays a greedy model through :func:`play_batched`. Episode ``i`` is
``reset(seed=seed + i)`` on an env of its own, as one at a time; the envs step in lock-step and
the model picks every env's action in one batched ``predict`` call, so a 200-episode
evaluation costs a few dozen policy calls instead of a few thousand. A greedy policy picks the
same action for an observation whatever else is in the batch, so the episodes, and their
records, are the ones played one at a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np

from rlm_gym.training.env_factory import make_bare_env
from rlm_gym.training.episodes import episode_record

__all__ = ["BATCHED_EVAL_ENVS", "play_batched"]

#: Episodes a greedy model plays at once by default (measured: 50 envs make a 200-episode
#: evaluation of a crawl agent about 8x cheaper than one at a time; more gain little).
BATCHED_EVAL_ENVS = 50


def play_batched(
    model: Any,
    env_id: str,
    n_episodes: int,
    seed: int,
    n_envs: int,
    env_kwargs: Mapping[str, Any] | None = None,
    max_episode_steps: int = 10_000,
) -> list[dict[str, Any]] | None:
    """The ``episode_record`` of episodes ``seed``, ..., ``seed + n_episodes - 1``, in order,
    played greedily by ``model`` on up to ``n_envs`` envs at once.

    Returns:
        The records, or None when the env's observations are not arrays (a ``Dict`` or
        ``Tuple`` space: the caller plays them one at a time).

    Example:
        >>> from stable_baselines3 import PPO  # doctest: +SKIP
        >>> model = PPO("MlpPolicy", "CartPole-v1", n_steps=64)  # doctest: +SKIP
        >>> records = play_batched(model, "CartPole-v1", 4, 0, n_envs=2)  # doctest: +SKIP
        >>> [record["length"] > 0 for record in records]  # doctest: +SKIP
        [True, True, True, True]
    """
    masked = type(model).__name__ == "MaskablePPO"
    envs = [make_bare_env(env_id, env_kwargs) for _ in range(min(n_envs, n_episodes))]
    try:
        if not isinstance(envs[0].observation_space, gym.spaces.Box):
            return None
        records: list[dict[str, Any] | None] = [None] * n_episodes
        # Per env in play: [episode index, observation, return so far, steps so far].
        playing: dict[int, list[Any]] = {}
        next_episode = 0
        for slot, env in enumerate(envs):
            obs, _ = env.reset(seed=seed + next_episode)
            playing[slot] = [next_episode, obs, 0.0, 0]
            next_episode += 1
        while playing:
            slots = list(playing)
            batch = np.stack([playing[slot][1] for slot in slots])
            if masked:
                masks = np.stack([envs[slot].unwrapped.action_masks() for slot in slots])
                actions, _ = model.predict(batch, deterministic=True, action_masks=masks)
            else:
                actions, _ = model.predict(batch, deterministic=True)
            rows = np.asarray(actions).reshape(len(slots), -1)
            for slot, action in zip(slots, rows, strict=True):
                state = playing[slot]
                env = envs[slot]
                step = action[0] if action.shape == (1,) else action
                obs, reward, terminated, truncated, info = env.step(_as_action(step))
                state[1] = obs
                state[2] += float(reward)
                state[3] += 1
                if terminated or truncated or state[3] >= max_episode_steps:
                    records[state[0]] = episode_record(info, state[2], state[3])
                    if next_episode < n_episodes:
                        obs, _ = env.reset(seed=seed + next_episode)
                        playing[slot] = [next_episode, obs, 0.0, 0]
                        next_episode += 1
                    else:
                        del playing[slot]
        return [record for record in records if record is not None]
    finally:
        for env in envs:
            env.close()


def _as_action(action: Any) -> Any:
    """A discrete action as the ``int`` one-at-a-time evaluation passes; other actions as they
    come."""
    array = np.asarray(action)
    if array.ndim == 0 and np.issubdtype(array.dtype, np.integer):
        return int(array)
    return action
