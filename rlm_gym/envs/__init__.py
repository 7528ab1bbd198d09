"""Simulated environments: ``rlm_gym/Crawl-v1`` (``CrawlEnv``) and ``rlm_gym/Crawl-v2``
(``CrawlEnvV2``: the reward scores the crawler's own recorded success), registered on import,
with ``rlm_gym/CrawlLive-v0`` (``rlm_gym.live.CrawlLiveEnv``: Crawl-v2's job on real HTTP sites
of a local farm; its module loads, and needs the ``live`` extra, only when the env is made),
and ``rlm_gym/RLM-v0`` (``rlm_gym.envs.rlm.RLMEnv``: a Recursive Language Model's code actions
in a sandboxed REPL; loaded when made).

``CRAWL_ENV_ID`` (v1), ``CRAWL_V2_ENV_ID`` and ``CRAWL_LIVE_ENV_ID`` are the one place the ids
are spelt; other modules read them. ``CURRENT_CRAWL_ENV_ID`` is the version a newcomer meets:
the one the demo, the command line's defaults and the docs use, Crawl-v2. Gymnasium calls v1
"out of date" when it is made (a newer version of the name is registered), and that is what we
mean: v1 stays registered and unchanged so that the studies run on it (``ablation-v1``,
``defaults``, ``demo-version``) can be reproduced, and new work uses v2. ``rlm_gym/Crawl-v0``
(step budget as ``truncated``, no observation memory, crawl reward 0.1) is no longer registered:
``gym.make("rlm_gym/Crawl-v0")`` raises Gymnasium's ``DeprecatedEnv``, which names v1.

Example:
    >>> import gymnasium as gym
    >>> import rlm_gym.envs
    >>> env = gym.make(CURRENT_CRAWL_ENV_ID)
    >>> env.spec.id, env.spec.max_episode_steps
    ('rlm_gym/Crawl-v2', 30)
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
from rlm_gym.envs.crawl_env_v2 import CrawlEnvV2
from rlm_gym.envs.observation import OBSERVATION_FIELDS
from rlm_gym.envs.profiles import DISTRIBUTIONS, SCHEMAS, SIMULATED_PATTERN_TYPES, SiteProfile
from rlm_gym.envs.snapshot import CrawlSnapshot

__all__ = [
    "CRAWL_ENV_ID",
    "CRAWL_V2_ENV_ID",
    "CURRENT_CRAWL_ENV_ID",
    "CRAWL_LIVE_ENV_ID",
    "RLM_ENV_ID",
    "CrawlEnv",
    "CrawlEnvV2",
    "CrawlSnapshot",
    "DEFAULT_MAX_STEPS",
    "OBSERVATION_FIELDS",
    "DISTRIBUTIONS",
    "SIMULATED_PATTERN_TYPES",
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

CRAWL_ENV_ID = "rlm_gym/Crawl-v1"
CRAWL_V2_ENV_ID = "rlm_gym/Crawl-v2"
# What the demo, the CLI's defaults and the docs use (see the module docstring).
CURRENT_CRAWL_ENV_ID = CRAWL_V2_ENV_ID
CRAWL_LIVE_ENV_ID = "rlm_gym/CrawlLive-v0"
# The Recursive Language Model env (rlm_gym.envs.rlm): its module loads when the env is made.
RLM_ENV_ID = "rlm_gym/RLM-v0"
RLM_MAX_STEPS = 12
_ENTRY_POINTS = {
    CRAWL_ENV_ID: "rlm_gym.envs.crawl_env:CrawlEnv",
    CRAWL_V2_ENV_ID: "rlm_gym.envs.crawl_env_v2:CrawlEnvV2",
    CRAWL_LIVE_ENV_ID: "rlm_gym.live.env:CrawlLiveEnv",
}
# Crawl-v2 stepped as one batch (``gym.make_vec(CRAWL_V2_ENV_ID, num_envs=N)``).
_VECTOR_ENTRY_POINTS = {CRAWL_V2_ENV_ID: "rlm_gym.envs.crawl_vector:CrawlVectorEnv"}


def register_envs() -> None:
    """Register ``rlm_gym/Crawl-v1``, ``-v2``, ``CrawlLive-v0`` and ``RLM-v0`` with Gymnasium
    (no-op when already registered).

    ``max_episode_steps`` equals the env's ``max_steps``: the ``TimeLimit`` may then mark
    ``truncated`` on the budget's last step, which every library reads as terminal because
    the env sets ``terminated`` on that same step.
    """
    for env_id, entry_point in _ENTRY_POINTS.items():
        if env_id not in gym.registry:
            gym.register(
                id=env_id,
                entry_point=entry_point,
                vector_entry_point=_VECTOR_ENTRY_POINTS.get(env_id),
                max_episode_steps=DEFAULT_MAX_STEPS,
            )
    if RLM_ENV_ID not in gym.registry:
        gym.register(
            id=RLM_ENV_ID,
            entry_point="rlm_gym.envs.rlm.env:RLMEnv",
            max_episode_steps=RLM_MAX_STEPS,
        )


register_envs()
