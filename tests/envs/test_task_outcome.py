"""The task outcome on the last step (``info["task"]``) and ``rlm_gym/Crawl-v2``."""

from __future__ import annotations

import random

import gymnasium as gym
import numpy as np
import pytest

from rlm_gym.crawl import crawl_reward
from rlm_gym.envs import CRAWL_ENV_ID, CRAWL_V2_ENV_ID, CrawlEnv, CrawlEnvV2

TASK_KEYS = ("job_done", "valid_items", "items", "pages", "requests", "time_ms", "banned")


def _episode(env: CrawlEnv, seed: int, chooser: str) -> tuple[list, float, dict]:
    """(observations, final reward, final info) of one seeded episode."""
    rng = random.Random(seed)
    obs, _ = env.reset(seed=seed)
    observations = [obs]
    while True:
        if chooser == "random":
            action = rng.choice(np.flatnonzero(env.action_masks()).tolist())
        else:
            action = env.heuristic_action()
        obs, reward, terminated, _, info = env.step(action)
        observations.append(obs)
        if terminated:
            return observations, reward, info


@pytest.mark.parametrize("env_class", [CrawlEnv, CrawlEnvV2])
def test_every_last_step_carries_the_task_outcome(env_class):
    env = env_class()
    for seed in range(20):
        _, _, info = _episode(env, seed, "random" if seed % 2 else "heuristic")
        task = info["task"]
        assert tuple(task) == TASK_KEYS
        result = info["action_result"].metadata["crawl_result"]
        assert isinstance(task["job_done"], bool) and isinstance(task["banned"], bool)
        assert task["items"] == len(result["data"])
        assert 0 <= task["valid_items"] <= task["items"]
        assert task["pages"] == result["navigation_result"]["pages_collected"]
        assert task["time_ms"] == result["execution_time_ms"]
        assert task["banned"] == (info["action_result"].metadata["end_reason"] == "banned")
        assert task["requests"] >= 0
        if task["banned"]:
            assert not task["job_done"]


def test_steps_before_the_last_carry_no_task_outcome():
    env = CrawlEnv()
    env.reset(seed=0)
    _, _, terminated, _, info = env.step(env.ACTIONS.index("fetch_http"))
    assert not terminated and "task" not in info


def test_on_v1_the_crawl_result_reports_the_ground_truth():
    env = CrawlEnv()
    for seed in range(30):
        _, reward, info = _episode(env, seed, "random" if seed % 2 else "heuristic")
        result = info["action_result"].metadata["crawl_result"]
        assert result["success"] == info["task"]["job_done"]
        assert info["true_crawl_score"] == reward


def test_v2_has_v1s_sites_observations_and_episode_lengths():
    for seed in range(20):
        chooser = "random" if seed % 2 else "heuristic"
        v1_obs, _, v1_info = _episode(CrawlEnv(), seed, chooser)
        v2_obs, _, v2_info = _episode(CrawlEnvV2(), seed, chooser)
        assert len(v1_obs) == len(v2_obs)
        assert all(np.array_equal(a, b) for a, b in zip(v1_obs, v2_obs, strict=True))
        assert v1_info["task"] == v2_info["task"]
        assert v1_info["true_crawl_score"] == v2_info["true_crawl_score"]


def test_v2_reports_the_crawlers_recorded_success_and_scores_it():
    env = CrawlEnvV2()
    diverged = 0
    for seed in range(200):
        _, reward, info = _episode(env, seed, "random")
        task = info["task"]
        result = info["action_result"].metadata["crawl_result"]
        ended_cleanly = info["action_result"].metadata["end_reason"] not in (
            "banned",
            "time budget exceeded",
        )
        target = env.profile.target_items
        assert result["success"] == (ended_cleanly and task["items"] >= target)
        # The reward scores the recorded success; the true score the ground truth.
        assert reward == pytest.approx(crawl_reward(result).value, abs=1e-12)
        truth = dict(result, success=task["job_done"])
        assert info["true_crawl_score"] == pytest.approx(crawl_reward(truth).value, abs=1e-12)
        if task["job_done"]:
            assert result["success"]  # valid rows are rows: a done job is recorded as done
        diverged += result["success"] and not task["job_done"]
    assert diverged > 0  # junk or duplicate rows made some crawls look done to the crawler


def test_both_versions_are_registered_with_the_same_step_budget():
    v1, v2 = gym.make(CRAWL_ENV_ID), gym.make(CRAWL_V2_ENV_ID)
    assert v1.spec.max_episode_steps == v2.spec.max_episode_steps
    assert type(v2.unwrapped) is CrawlEnvV2 and not v1.unwrapped.recorded_success
