"""The oracle's episodes are pinned: a faster search must play the same actions, bit for bit.

``oracle_records.json`` holds, for seeded episodes of Crawl-v1 and Crawl-v2 (and rate-limited
listings, where the oracle backs off), every action the oracle took, the ``repr`` of its 18
strategy values at the start of the episode, and the ``evaluate`` record of the episode (score,
components, task outcome), as the oracle before the time-grid search (issue 30) played them.

Regenerate only for an intended change of the oracle or the env (commit the file with it):
``PYTHONPATH=. .venv/bin/python tests/envs/test_oracle_records.py``
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

import rlm_gym.envs  # noqa: F401  (registers the envs)
from rlm_gym.envs import Oracle
from rlm_gym.training.episodes import episode_record

RECORDS_PATH = Path(__file__).with_name("oracle_records.json")
# (name, env id, gym.make arguments, seeds)
CASES = (
    ("v1", "rlm_gym/Crawl-v1", {}, range(30)),
    ("v2", "rlm_gym/Crawl-v2", {}, range(30)),
    (
        "v1_rate_limited_listing",
        "rlm_gym/Crawl-v1",
        {"pattern_types": ["product_list"], "protection": "rate_limit"},
        range(10),
    ),
)


def oracle_episodes(env_id: str, kwargs: dict[str, Any], seeds: range) -> list[dict[str, Any]]:
    """Each seed's oracle episode: actions, start values (``repr``) and ``evaluate``'s record."""
    env = gym.make(env_id, **kwargs).unwrapped
    episodes = []
    for seed in seeds:
        env.reset(seed=seed)
        values = Oracle(max_sites=1).strategy_values(env.model, env.state)
        actions, total, length, done = [], 0.0, 0, False
        while not done:
            action = env.oracle_action()
            _, reward, terminated, truncated, info = env.step(action)
            actions.append(action)
            total += float(reward)
            length += 1
            done = terminated or truncated
        episodes.append(
            {
                "seed": seed,
                "actions": actions,
                "start_values": {"/".join(key): repr(value) for key, value in values.items()},
                # Through JSON, as the file holds it (floats round-trip exactly).
                "record": json.loads(json.dumps(episode_record(info, total, length))),
            }
        )
    env.close()
    return episodes


def generate() -> dict[str, Any]:
    return {name: oracle_episodes(env_id, kwargs, seeds) for name, env_id, kwargs, seeds in CASES}


@pytest.fixture(scope="module")
def pinned() -> dict[str, Any]:
    return json.loads(RECORDS_PATH.read_text())


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_oracle_plays_the_pinned_episodes(pinned, case):
    name, env_id, kwargs, seeds = case
    played = oracle_episodes(env_id, kwargs, seeds)
    assert len(played) == len(pinned[name])
    for now, before in zip(played, pinned[name], strict=True):
        assert now["actions"] == before["actions"], f"{name} seed {now['seed']}"
        assert now["start_values"] == before["start_values"], f"{name} seed {now['seed']}"
        assert now["record"] == before["record"], f"{name} seed {now['seed']}"


def test_pinned_file_covers_every_case(pinned):
    assert set(pinned) == {case[0] for case in CASES}
    for name, _, _, seeds in CASES:
        assert [episode["seed"] for episode in pinned[name]] == list(seeds)
        assert all(len(episode["start_values"]) == 18 for episode in pinned[name])


if __name__ == "__main__":
    RECORDS_PATH.write_text(json.dumps(generate(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {RECORDS_PATH}")
