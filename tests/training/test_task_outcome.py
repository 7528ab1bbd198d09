"""Evaluation reports the task outcome beside the true crawl score (no training needed)."""

from __future__ import annotations

import pytest

from rlm_gym.envs import CRAWL_ENV_ID, CRAWL_V2_ENV_ID
from rlm_gym.training.episodes import TASK_KEYS, episode_record
from rlm_gym.training.evaluation import evaluate, format_table, task_summary


def test_an_episode_record_carries_every_task_measure_as_a_number():
    result = evaluate("heuristic", CRAWL_ENV_ID, n_episodes=3, seed=0)
    for record in result.episodes:
        assert all(isinstance(record[key], float | int) for key in TASK_KEYS)
        assert record["job_done"] in (0.0, 1.0) and record["banned"] in (0.0, 1.0)


def test_the_summary_has_task_means_with_cis_and_time_per_valid_item():
    summary = evaluate("heuristic", CRAWL_ENV_ID, n_episodes=12, seed=0).summary()
    for key in ("job_done", "valid_items", "requests", "time_ms", "banned"):
        assert f"{key}_ci95" in summary
    assert 0.0 <= summary["job_done"] <= 1.0
    assert summary["time_per_valid_item_ms"] > 0
    assert "| job done % | valid items | s/valid item |" in format_table([summary])


def test_v2_is_scored_on_the_ground_truth_like_v1():
    on_v1 = evaluate("heuristic", CRAWL_ENV_ID, n_episodes=15, seed=3)
    on_v2 = evaluate("heuristic", CRAWL_V2_ENV_ID, n_episodes=15, seed=3)
    assert on_v2.scores == on_v1.scores
    assert [r["job_done"] for r in on_v2.episodes] == [r["job_done"] for r in on_v1.episodes]


def test_the_true_score_comes_from_the_last_step_when_it_reports_one():
    assert episode_record({"true_crawl_score": 0.25}, 0.9, 4)["score"] == 0.25
    assert episode_record({}, 0.9, 4)["score"] == 0.9


def test_time_per_valid_item_is_a_ratio_of_sums_and_absent_without_valid_items():
    rows = [{"valid_items": 0.0, "time_ms": 1000.0}, {"valid_items": 4.0, "time_ms": 3000.0}]
    assert task_summary(rows)["time_per_valid_item_ms"] == pytest.approx(1000.0)
    assert "time_per_valid_item_ms" not in task_summary([rows[0]])
