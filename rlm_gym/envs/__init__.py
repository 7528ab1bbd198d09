"""Simulated environments: ``rlm_gym/Crawl-v0`` (``CrawlEnv``), registered on import.

Example:
    >>> import gymnasium as gym
    >>> import rlm_gym.envs
    >>> env = gym.make("rlm_gym/Crawl-v0")
    >>> env.spec.max_episode_steps
    30
"""

from __future__ import annotations

import gymnasium as gym

from rlm_gym.envs.baselines import (
    BEST_FIXED_STRATEGY,
    FIXED_STRATEGIES,
    Oracle,
    fixed_strategy_action,
    heuristic_action,
    random_action,
)
from rlm_gym.envs.crawl_env import DEFAULT_MAX_STEPS, CrawlEnv
from rlm_gym.envs.observation import OBSERVATION_FIELDS
from rlm_gym.envs.profiles import DISTRIBUTIONS, PATTERN_TYPES, SCHEMAS, SiteProfile

__all__ = [
    "CRAWL_ENV_ID",
    "CrawlEnv",
    "DEFAULT_MAX_STEPS",
    "OBSERVATION_FIELDS",
    "DISTRIBUTIONS",
    "PATTERN_TYPES",
    "SCHEMAS",
    "SiteProfile",
    "FIXED_STRATEGIES",
    "BEST_FIXED_STRATEGY",
    "Oracle",
    "random_action",
    "heuristic_action",
    "fixed_strategy_action",
    "register_envs",
]

CRAWL_ENV_ID = "rlm_gym/Crawl-v0"


def register_envs() -> None:
    """Register ``rlm_gym/Crawl-v0`` with Gymnasium (a no-op when already registered)."""
    if CRAWL_ENV_ID in gym.registry:
        return
    gym.register(
        id=CRAWL_ENV_ID,
        entry_point="rlm_gym.envs.crawl_env:CrawlEnv",
        max_episode_steps=DEFAULT_MAX_STEPS,
    )


register_envs()
