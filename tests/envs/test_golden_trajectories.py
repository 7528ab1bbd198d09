"""Golden trajectories: the env's behaviour is pinned, so speed-ups cannot change it.

``golden_trajectories.json`` holds, for a fixed set of seeds, env configurations and policies,
every step of every episode: the action, a hash of the observation's bytes, the reward (``repr``,
so the type and every bit count), the end flags, the action result's fields and a hash of the
``repr`` of the whole ``info`` (which includes the crawl result). Agents are being trained on this
env, so a change that alters any of it is a behaviour change, not an optimisation.

Regenerate only for an intended behaviour change (and commit the file with the change):
``.venv/bin/python tests/envs/test_golden_trajectories.py``
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import numpy as np
import pytest

from rlm_gym.envs import BEST_FIXED_STRATEGY, CrawlEnv

GOLDEN_PATH = Path(__file__).with_name("golden_trajectories.json")
SEEDS = range(30)
ORACLE_SEEDS = range(10)
# (name, constructor arguments): every site, and rate-limited listings (429 and backoff paths).
CONFIGS = {
    "default": {},
    "rate_limited_listing": {"pattern_types": ["product_list"], "protection": "rate_limit"},
}


def _random_valid(env: CrawlEnv, rng: random.Random) -> int:
    return rng.choice(np.flatnonzero(env.action_masks()).tolist())


def _any_action(env: CrawlEnv, rng: random.Random) -> int:
    return rng.randrange(len(CrawlEnv.ACTIONS))


POLICIES = {
    "random_valid": _random_valid,
    "any_action": _any_action,
    "env_random": lambda env, rng: env.random_action(),
    "heuristic": lambda env, rng: env.heuristic_action(),
    "best_fixed": lambda env, rng: env.fixed_strategy_action(BEST_FIXED_STRATEGY),
    "oracle": lambda env, rng: env.oracle_action(),
}


def _digest(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode()
    return hashlib.sha256(data).hexdigest()[:12]


# Keys the last step gained in 0.3 (the task outcome, tests/envs/test_task_outcome.py): left
# out of the digest, so the golden file still pins everything Crawl-v1 reported before.
ADDED_FINAL_KEYS = ("task", "true_crawl_score")


def _info_digest(info: dict) -> str:
    return _digest(repr({key: value for key, value in info.items() if key not in ADDED_FINAL_KEYS}))


def _observation_digest(obs: np.ndarray) -> str:
    return _digest(f"{obs.dtype}{obs.shape}".encode() + obs.tobytes())


def record_episode(config: str, policy: str, seed: int) -> list[list]:
    """One episode's rows: the reset, then one row per step (the render line when ansi)."""
    render_mode = "ansi" if seed % 2 else None
    env = CrawlEnv(render_mode=render_mode, **CONFIGS[config])
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    rows: list[list] = [[_observation_digest(obs), _digest(repr(info)), repr(env.profile)]]
    choose = POLICIES[policy]
    while True:
        action = choose(env, rng)
        obs, reward, terminated, truncated, info = env.step(action)
        result = info["action_result"]
        rows.append(
            [
                action,
                _observation_digest(obs),
                repr(reward),
                terminated,
                truncated,
                result.action_type,
                result.success,
                result.error,
                repr(result.duration_ms),
                repr(result.tokens_used),
                _info_digest(info),
                None if render_mode is None else _digest(env.render()),
            ]
        )
        if terminated or truncated:
            return rows


def episode_keys() -> list[tuple[str, str, int]]:
    keys = []
    for config in CONFIGS:
        for policy in POLICIES:
            seeds = ORACLE_SEEDS if policy == "oracle" else SEEDS
            keys.extend((config, policy, seed) for seed in seeds)
    return keys


def record_all() -> dict[str, list[list]]:
    return {f"{c}/{p}/{s}": record_episode(c, p, s) for c, p, s in episode_keys()}


@pytest.fixture(scope="module")
def golden() -> dict[str, list[list]]:
    return json.loads(GOLDEN_PATH.read_text())


def test_golden_file_covers_every_episode(golden):
    assert sorted(golden) == sorted(f"{c}/{p}/{s}" for c, p, s in episode_keys())


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("policy", list(POLICIES))
def test_trajectories_match_the_golden_file(golden, config, policy):
    seeds = ORACLE_SEEDS if policy == "oracle" else SEEDS
    for seed in seeds:
        expected = golden[f"{config}/{policy}/{seed}"]
        actual = json.loads(json.dumps(record_episode(config, policy, seed)))
        for index, (want, got) in enumerate(zip(expected, actual, strict=False)):
            assert got == want, f"{config}/{policy}/seed {seed}: row {index} differs"
        assert len(actual) == len(expected), f"{config}/{policy}/seed {seed}: length differs"


if __name__ == "__main__":
    episodes = record_all()
    lines = ",\n".join(
        f"{json.dumps(key)}:{json.dumps(rows, separators=(',', ':'))}"
        for key, rows in episodes.items()
    )
    GOLDEN_PATH.write_text("{\n" + lines + "\n}\n")
    print(f"wrote {len(episodes)} episodes to {GOLDEN_PATH}")
