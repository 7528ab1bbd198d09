"""The observation: documented entries, bounds, and the memory of the crawl (Crawl-v1)."""

from __future__ import annotations

import numpy as np
import pytest

from rlm_gym.envs import OBSERVATION_FIELDS, CrawlEnv
from rlm_gym.envs import dynamics as dyn
from rlm_gym.envs.observation import INDEX, MEMORY_METHODS
from tests.envs.episodes import play, run_episode

A = {name: index for index, name in enumerate(CrawlEnv.ACTIONS)}


def test_observation_fields_are_documented_and_bound_the_space():
    env = CrawlEnv()
    names = [name for name, _, _ in OBSERVATION_FIELDS]
    assert len(names) == len(set(names)) == env.observation_space.shape[0] == 58
    for name, meaning, upper in OBSERVATION_FIELDS:
        assert meaning and upper > 0, name
    assert env.observation_space.high.tolist() == [upper for _, _, upper in OBSERVATION_FIELDS]
    for name in CrawlEnv.ACTIONS:
        assert f"last_action_{name}" in INDEX
    for name in MEMORY_METHODS:
        assert f"failed_{name}" in INDEX
    assert {"count_403", "count_429"} <= set(INDEX)


def _last_action(obs):
    return obs[INDEX["last_action_fetch_http"] : INDEX["last_action_stop"] + 1]


def test_last_action_is_a_one_hot_of_the_action_taken():
    env = CrawlEnv()
    obs, _ = env.reset(seed=0)
    assert not _last_action(obs).any()
    for action in (A["fetch_headless"], A["extract_css"], A["extract_css"], A["backoff"]):
        obs, *_ = env.step(action)
        assert _last_action(obs).tolist() == [1.0 if a == action else 0.0 for a in range(10)]


def test_failed_methods_are_remembered_after_later_successes():
    # A client-only site: plain HTTP serves an empty shell, so extraction after it fails.
    env = CrawlEnv(rendering="client_only", protection="none", pagination="single")
    obs, _ = env.reset(seed=2)
    obs, *_ = env.step(A["fetch_http"])
    assert obs[INDEX["failed_fetch_http"]] == 0.0
    obs, *_ = env.step(A["extract_css"])
    assert obs[INDEX["failed_extract_css"]] == 1.0
    obs, *_ = env.step(A["fetch_headless"])
    obs, *_ = env.step(A["extract_css"])
    assert obs[INDEX["last_failed"]] == 0.0  # it worked on the rendered page ...
    assert obs[INDEX["failed_extract_css"]] == 1.0  # ... and the earlier failure is kept
    obs, *_ = env.step(A["url_navigation"])  # single-page site: no next page
    assert obs[INDEX["failed_url_navigation"]] == 1.0
    failed = [name for name in MEMORY_METHODS if obs[INDEX[f"failed_{name}"]]]
    assert failed == ["extract_css", "url_navigation"]


def test_an_action_in_the_wrong_phase_is_not_a_method_failure():
    env = CrawlEnv()
    env.reset(seed=0)
    obs, *_ = env.step(A["infinite_scroll"])  # fetch phase: invalid here
    assert obs[INDEX["last_failed"]] == 1.0
    assert obs[INDEX["failed_infinite_scroll"]] == 0.0
    assert obs[INDEX["last_action_infinite_scroll"]] == 1.0


def test_403_and_429_counts_follow_the_ban_limits():
    env = CrawlEnv(protection="rate_limit", pattern_types=["product_list"])
    obs, _ = env.reset(seed=5)
    counts = []
    done = False
    while not done:
        obs, _, done, _, info = env.step(A["fetch_http"])  # never backs off: 429s follow
        counts.append(obs[INDEX["count_429"]])
        assert obs[INDEX["count_429"]] == env.state[dyn.S_429] / 3
    assert counts[-1] == 1.0 and info["action_result"].metadata["end_reason"] == "banned"
    assert sorted(set(counts)) == pytest.approx([0.0, 1 / 3, 2 / 3, 1.0])

    env = CrawlEnv(protection="waf_http", pattern_types=["contact_info"])
    for seed in range(20):
        for obs, _, _, _, _ in play(env, lambda e: A["fetch_http"], seed):
            assert obs[INDEX["count_403"]] == env.state[dyn.S_BLOCKS] / 2
    assert obs[INDEX["count_403"]] in (0.5, 1.0)


def test_extreme_valid_overrides_keep_observations_in_the_space():
    env = CrawlEnv(
        target_items=1, time_budget_ms=86_400_000, ttfb_ms=600_000, items_per_page=1000,
        total_pages=1000,
    )  # fmt: skip
    for seed in range(10):
        for obs, *_ in play(env, lambda e: e.random_action(), seed):
            assert env.observation_space.contains(obs)


def test_observations_stay_in_the_space():
    env = CrawlEnv()
    for seed in range(40):
        for entry in run_episode(env, seed, lambda e: e.random_action()):
            obs = np.asarray(entry[0] if len(entry) == 2 else entry[1], dtype=np.float32)
            assert env.observation_space.contains(obs)
