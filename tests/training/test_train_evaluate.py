"""train + evaluate end to end on the crawl env, on tiny budgets."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("stable_baselines3")

from rlm_gym.envs import CRAWL_ENV_ID
from rlm_gym.training.episodes import RAW_SCORES
from rlm_gym.training.evaluation import (
    BASELINES,
    comparison_table,
    evaluate,
    evaluate_baselines,
    format_table,
)
from rlm_gym.training.trainer import load_model, train

pytestmark = pytest.mark.slow
CRAWL = CRAWL_ENV_ID


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    log_dir = tmp_path_factory.mktemp("run")
    return train(CRAWL, "crawl", total_timesteps=512, n_envs=2, seed=3, log_dir=log_dir)


def test_train_writes_model_config_metrics_and_episodes(trained):
    files = {path.name for path in trained.log_dir.iterdir()}
    assert {"model.zip", "config.json", "metrics.json", "episodes.csv", "progress.csv"} <= files
    config = json.loads((trained.log_dir / "config.json").read_text())
    assert config["policy"] == "crawl" and config["seed"] == 3
    assert config["algo"] == "maskable_ppo"
    metrics = json.loads((trained.log_dir / "metrics.json").read_text())
    assert metrics["timesteps"] == 512
    assert metrics["episodes"] == len(trained.episodes) > 0


def test_training_episodes_carry_the_true_crawl_score(trained):
    record = trained.episodes[0]
    assert 0.0 <= record["true_score"] <= 1.0
    assert record["true_score"] == pytest.approx(record["shaped_return"])  # crawl == env reward
    assert set(RAW_SCORES) <= set(record)


def test_reloaded_model_evaluates_identically(trained):
    first = evaluate(trained.model, CRAWL, n_episodes=8, seed=11)
    again = evaluate(load_model(trained.log_dir), CRAWL, n_episodes=8, seed=11)
    assert first.episodes == again.episodes


def test_evaluation_reports_raw_scores_items_pages_and_tiers(trained):
    summary = evaluate(trained.model, CRAWL, n_episodes=6, seed=0).summary()
    for key in (*RAW_SCORES, "items", "pages", "time_per_page_ms", "tier_excellent"):
        assert key in summary
    tiers = sum(summary[f"tier_{t}"] for t in ("excellent", "good", "acceptable", "poor"))
    assert tiers == pytest.approx(1.0)


def test_baselines_play_the_same_seeded_episodes():
    results = evaluate_baselines(CRAWL, n_episodes=6, seed=5)
    assert list(results) == list(BASELINES)
    patterns = {name: [e["pattern_type"] for e in r.episodes] for name, r in results.items()}
    assert len({tuple(p) for p in patterns.values()}) == 1
    rows = comparison_table(results)
    assert rows[0]["normalised"] == 0.0 and rows[-1]["normalised"] == 1.0
    assert format_table(rows).startswith("| agent | score |")


def test_maskable_ppo_trains_and_evaluates_with_masks():
    result = train(CRAWL, "crawl", total_timesteps=256, n_envs=2, seed=0, algo="maskable_ppo")
    evaluation = evaluate(result.model, CRAWL, n_episodes=4, seed=0)
    assert len(evaluation.episodes) == 4


def test_disabled_components_are_zero_while_true_score_is_not():
    result = train(CRAWL, "crawl", disable=("validation",), total_timesteps=256, n_envs=2)
    assert any(e["true_score"] > e["shaped_return"] for e in result.episodes)


def test_unknown_algo_is_rejected_with_a_suggestion():
    with pytest.raises(ValueError, match="Did you mean 'ppo'"):
        train(CRAWL, "crawl", total_timesteps=64, algo="ppo2")
