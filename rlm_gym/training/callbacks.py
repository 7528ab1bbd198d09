"""``RewardComponentsCallback``: log every reward component and the true score to SB3's logger."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from rlm_gym.crawl import WEIGHTED_COMPONENTS
from rlm_gym.crawl.patterns import TIERS
from rlm_gym.training.episodes import episode_record

__all__ = ["RewardComponentsCallback"]

# The logged keys of a finished crawl episode's record fields, and of its tier shares.
_CRAWL_KEYS = tuple(
    (name, f"crawl/{name}") for name in (*WEIGHTED_COMPONENTS, "items", "pages", "time_per_page_ms")
)
_TIER_KEYS = tuple((tier, f"crawl/tier_{tier}") for tier in TIERS)


class RewardComponentsCallback(BaseCallback):
    """Log a ``RewardPolicyWrapper``'s components and each finished episode's crawl details.

    Every step, for every env, the callback keeps ``info["reward_components"]``; at the end of
    the rollout each component's mean over those steps goes to
    ``logger.record_mean("reward/<name>", mean)``, so the dumped ``reward/<name>`` is the mean
    of the component over the rollout's steps (one rollout per dump with PPO's default
    ``log_interval=1``; one ``record_mean`` per component and rollout instead of one per step
    and env, which cost a tenth of a study run's CPU). The finished episodes' values are logged
    the same way: summed per key over the rollout, one ``record_mean`` of their mean per key at
    its end (twenty calls per episode were a fifth of the callback's CPU). Per episode:

    * ``episode_reward/<name>``: the episode's per-component sums
      (``info["episode_reward_components"]``);
    * ``episode/true_score``: the sum of ``info["env_reward"]`` over the episode (the env's own,
      unablated reward: for the crawl env, the full crawl reward);
    * with a crawl result: ``crawl/<raw score>``, ``crawl/items``, ``crawl/pages``,
      ``crawl/time_per_page_ms``, ``crawl/tier_<tier>`` (share of episodes per tier) and
      ``crawl/score_<pattern_type>``.

    The episodes are also kept in ``self.episodes`` (dicts with ``timestep``, ``shaped_return``
    and the ``episode_record`` fields) for learning curves. Works with ``DummyVecEnv`` and
    ``SubprocVecEnv``, since it reads only ``self.locals["infos"]``.

    Args:
        verbose: SB3 verbosity.

    Example - train two rollouts on CartPole and read the logged means:
        >>> import rlm_gym  # doctest: +SKIP
        >>> from stable_baselines3 import PPO  # doctest: +SKIP
        >>> env = rlm_gym.make("CartPole-v1", "lenient")  # doctest: +SKIP
        >>> callback = RewardComponentsCallback()  # doctest: +SKIP
        >>> _ = PPO("MlpPolicy", env, n_steps=64).learn(128, callback=callback)  # doctest: +SKIP
        >>> callback.episodes[0]["true_score"] > 0  # doctest: +SKIP
        True
    """

    def __init__(self, verbose: int = 0) -> None:
        super().__init__(verbose)
        self.episodes: list[dict[str, Any]] = []
        self.tier_counts: Counter[str] = Counter()
        self._true_returns: np.ndarray | None = None
        self._shaped_returns: np.ndarray | None = None
        self._lengths: np.ndarray | None = None
        self._components: list[dict[str, float]] = []
        # The rollout's finished episodes, per logged key: [sum, count].
        self._episode_sums: dict[str, list[float]] = {}

    def _on_step(self) -> bool:
        infos = self.locals["infos"]
        rewards = self.locals.get("rewards")
        dones = self.locals.get("dones")
        if self._true_returns is None or len(self._true_returns) != len(infos):
            self._reset_returns(len(infos))
        # Whole-vector sums (each env's float64 running sums take the same additions as one
        # env at a time would); only finished episodes are visited one by one.
        self._components.extend(
            step for step in (info.get("reward_components") for info in infos) if step
        )
        self._true_returns += [info.get("env_reward", 0.0) for info in infos]
        if rewards is not None:
            self._shaped_returns += rewards
        self._lengths += 1
        if dones is None:
            finished = [i for i, info in enumerate(infos) if "episode_reward" in info]
        else:
            finished = np.flatnonzero(dones).tolist()
        for index in finished:
            self._on_episode_end(index, infos[index])
        return True

    def _on_rollout_end(self) -> None:
        self._record_components()
        self._record_episodes()

    def _on_training_end(self) -> None:
        # Steps after the last rollout's end (none with PPO).
        self._record_components()
        self._record_episodes()

    def _record_episodes(self) -> None:
        sums, self._episode_sums = self._episode_sums, {}
        for key, (total, count) in sums.items():
            self.logger.record_mean(key, total / count)

    def _add(self, key: str, value: float) -> None:
        found = self._episode_sums.get(key)
        if found is None:
            self._episode_sums[key] = [value, 1]
        else:
            found[0] += value
            found[1] += 1

    def _record_components(self) -> None:
        rows, self._components = self._components, []
        if not rows:
            return
        sums: dict[str, float] = {}
        counts: dict[str, int] = {}
        for row in rows:
            for name, value in row.items():
                sums[name] = sums.get(name, 0.0) + value
                counts[name] = counts.get(name, 0) + 1
        for name, total in sums.items():
            self.logger.record_mean(f"reward/{name}", total / counts[name])

    def _reset_returns(self, n_envs: int) -> None:
        self._true_returns = np.zeros(n_envs)
        self._shaped_returns = np.zeros(n_envs)
        self._lengths = np.zeros(n_envs, dtype=np.int64)

    def _on_episode_end(self, index: int, info: dict[str, Any]) -> None:
        add = self._add
        for name, value in info.get("episode_reward_components", {}).items():
            add(f"episode_reward/{name}", value)
        record = episode_record(info, self._true_returns[index], self._lengths[index])
        record["true_score"] = record["score"]
        record["shaped_return"] = float(self._shaped_returns[index])
        record["timestep"] = int(self.num_timesteps)
        self.episodes.append(record)
        add("episode/true_score", record["score"])
        if "tier" in record:
            for name, key in _CRAWL_KEYS:
                add(key, record[name])
            tier = record["tier"]
            self.tier_counts[tier] += 1
            for known, key in _TIER_KEYS:
                add(key, 1.0 if tier == known else 0.0)
            add(f"crawl/score_{record['pattern_type']}", record["score"])
        self._true_returns[index] = 0.0
        self._shaped_returns[index] = 0.0
        self._lengths[index] = 0
