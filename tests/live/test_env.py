"""``rlm_gym/CrawlLive-v0``: Crawl-v2's spaces and episodes on real HTTP, the task, determinism."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import rlm_gym  # noqa: F401  (registers the ids)
from rlm_gym.crawl import crawl_reward
from rlm_gym.envs import CRAWL_LIVE_ENV_ID, CrawlEnvV2
from rlm_gym.live import CrawlLiveEnv
from tests.live.helpers import play, run

# The fault-free farm never hangs, so a generous client timeout only guards against a loaded
# machine's slow answer turning into a time-out that the same seed did not meet before.
TIMEOUT_S = 2.0


@pytest.fixture
def env(farm):
    live = gym.make(CRAWL_LIVE_ENV_ID, farm_url=farm.url, timeout_s=TIMEOUT_S)
    yield live
    live.close()


def test_check_env_passes_on_the_env_with_its_own_farm():
    env = gym.make(CRAWL_LIVE_ENV_ID, timeout_s=1.0)
    try:
        check_env(env.unwrapped)
    finally:
        env.close()


def test_spaces_and_episode_budget_are_crawl_v2s(env):
    v2 = gym.make("rlm_gym/Crawl-v2")
    assert env.observation_space == v2.observation_space
    assert env.action_space == v2.action_space
    assert env.spec.max_episode_steps == v2.spec.max_episode_steps
    assert env.unwrapped.ACTIONS == CrawlEnvV2.ACTIONS


@pytest.mark.parametrize("seed", [0, 7, 41])
def test_the_site_of_a_seed_is_crawl_v2s_site_of_that_seed(env, seed):
    env.reset(seed=seed)
    v2 = CrawlEnvV2()
    v2.reset(seed=seed)
    assert env.unwrapped.site.profile == v2.profile


def test_same_seed_gives_the_same_observations_and_extracted_items(farm):
    runs = []
    for _ in range(2):
        env = gym.make(CRAWL_LIVE_ENV_ID, farm_url=farm.url, timeout_s=TIMEOUT_S)
        try:
            observations, datas = [], []
            # Sites without a rate limit (its window is wall time, see docs/live.md); site 1
            # has a WAF, whose blocks are drawn per request and replay exactly.
            for seed in (1, 2, 5, 11, 23):
                obs, _ = env.reset(seed=seed)
                observations.append(obs)
                done = False
                while not done:
                    obs, _, terminated, truncated, info = env.step(env.unwrapped.heuristic_action())
                    observations.append(obs)
                    done = terminated or truncated
                datas.append(info["crawl_result"]["data"])
            runs.append((observations, datas))
        finally:
            env.close()
    (obs_a, data_a), (obs_b, data_b) = runs
    assert data_a == data_b
    assert any(data_a)
    assert len(obs_a) == len(obs_b)
    for a, b in zip(obs_a, obs_b, strict=True):
        np.testing.assert_array_equal(a, b)


def test_last_step_carries_the_real_crawl_result_scored_by_the_crawl_reward(env):
    info = play(env, seed=3)
    result = info["crawl_result"]
    assert result is info["action_result"].metadata["crawl_result"]
    assert set(result) >= {"success", "data", "navigation_result", "errors", "pattern_type"}
    assert result["data"], "the heuristic extracts rows on site 3"
    assert result["data"][0].keys() <= set(result["extraction_schema"]["required"])
    *_, reward = env.unwrapped.crawl_result()
    assert reward == crawl_reward(result).value
    task = info["task"]
    assert set(task) == {
        "job_done",
        "valid_items",
        "items",
        "pages",
        "requests",
        "time_ms",
        "banned",
    }
    assert task["items"] == len(result["data"])
    assert 0 <= task["valid_items"] <= len(result["data"])
    true_result = {**result, "success": task["job_done"]}
    assert info["true_crawl_score"] == crawl_reward(true_result).value


def test_crawl_result_is_what_rlm_gym_score_reads(env, tmp_path, capsys):
    from rlm_gym.cli import main

    info = play(env, seed=3)
    path = tmp_path / "crawl.json"
    path.write_text(json.dumps(info["crawl_result"]))
    assert main(["score", str(path), "--format", "json"]) == 0
    scored = json.loads(capsys.readouterr().out)["results"][0]
    expected = crawl_reward(info["crawl_result"]).value
    assert scored["reward"] == pytest.approx(expected, abs=0.005)
    assert scored["pattern_type"] == info["crawl_result"]["pattern_type"]


@pytest.mark.parametrize("policy", ["random", "heuristic", "oracle"])
def test_baselines_play_episodes_to_their_end(env, policy):
    for seed in (1, 4):
        info = play(env, seed=seed, policy=policy)
        assert info["action"]["action"] == "final"


def test_best_fixed_strategy_plays(env):
    from rlm_gym.envs import BEST_FIXED_STRATEGY

    env.reset(seed=6)
    for _ in range(40):
        action = env.unwrapped.fixed_strategy_action(BEST_FIXED_STRATEGY)
        *_, terminated, _, info = env.step(action)
        if terminated:
            break
    assert info["action"]["action"] == "final"


def test_valid_items_count_rows_equal_to_the_farms_ground_truth(env):
    _, info = run(env, ["fetch_http", "extract_css", "stop"], seed=0)
    site = env.unwrapped.site
    assert site.profile.regular_markup is False  # site 0: a CSS break on every row
    assert info["task"]["valid_items"] == 0
    _, info = run(env, ["fetch_http", "extract_llm", "stop"], seed=0)
    rows = info["crawl_result"]["data"]
    # The LLM stand-in reads every row; the lazy placeholders are its only invalid ones.
    assert info["task"]["valid_items"] == len(rows) - int(len(rows) * 0.15)


def test_invalid_action_is_a_failed_step_not_an_exception(env):
    env.reset(seed=2)
    _, reward, terminated, _, info = env.step(CrawlEnvV2.ACTIONS.index("extract_css"))
    assert (reward, terminated, info["action_result"].success) == (0.0, False, False)
    assert "Invalid action 'extract_css' in phase 'fetch'" in info["action_result"].error


@pytest.mark.parametrize("action", [2.5, "3", True, 10, -1])
def test_bad_actions_raise_naming_the_action(env, action):
    env.reset(seed=0)
    with pytest.raises((TypeError, ValueError), match="action"):
        env.step(action)


def test_ansi_render_reports_the_last_step(farm):
    env = CrawlLiveEnv(render_mode="ansi", farm_url=farm.url)
    try:
        env.reset(seed=2)
        env.step(0)
        assert env.render().startswith("step  1 | fetch_http")
    finally:
        env.close()


def test_rgb_array_render_draws_the_live_crawl_as_sb3s_make_vec_env_asks(farm):
    env = CrawlLiveEnv(render_mode="rgb_array", farm_url=farm.url)
    try:
        env.reset(seed=2)
        first = env.render()
        env.step(0)
        frame = env.render()
        assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
        assert not np.array_equal(first, frame)
    finally:
        env.close()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"time_scale": 0}, "time_scale"),
        ({"timeout_s": -1.0}, "timeout_s"),
        ({"retries": 11}, "retries"),
        ({"farm_url": "localhost:1"}, "farm_url"),
        ({"render_mode": "human"}, "render_mode"),
    ],
)
def test_bad_arguments_raise_naming_them(kwargs, match):
    with pytest.raises(ValueError, match=match):
        CrawlLiveEnv(**kwargs)


def test_a_farm_serving_other_pattern_types_is_refused_at_reset(farm):
    env = CrawlLiveEnv(farm_url=farm.url, pattern_types=["contact_info"])
    try:
        with pytest.raises(ValueError, match="pattern types"):
            env.reset(seed=0)
    finally:
        env.close()


def test_pattern_types_and_overrides_reach_the_env_s_own_farm():
    env = CrawlLiveEnv(pattern_types=["contact_info"], protection="none")
    try:
        for seed in range(3):
            env.reset(seed=seed)
            profile = env.site.profile
            assert (profile.pattern_type, profile.protection) == ("contact_info", 0)
    finally:
        env.close()


def test_replaying_a_profile_is_refused_naming_the_option(env):
    from rlm_gym.envs.profiles import profile_from_uniforms

    with pytest.raises(ValueError, match="options\\['profile'\\]"):
        env.reset(seed=0, options={"profile": profile_from_uniforms([0.5] * 17)})
