"""evaluate on the crawl env: the true score, raw scores, baselines and the comparison table."""

from __future__ import annotations

import pytest

pytest.importorskip("stable_baselines3")

from rlm_gym.crawl import WEIGHTED_COMPONENTS as RAW_SCORES
from rlm_gym.envs import CRAWL_ENV_ID
from rlm_gym.training.evaluation import (
    BASELINES,
    comparison_table,
    evaluate,
    evaluate_baselines,
    format_table,
)

# Tiny budgets on purpose (seconds per run): each cuts PPO's rollout to fit, which
# tests/training/test_short_budget.py asserts warns; here the warning is expected and silenced.
_SHORT_BUDGET = pytest.mark.filterwarnings("ignore::rlm_gym.training.run_config.ShortBudgetWarning")
pytestmark = [pytest.mark.slow, _SHORT_BUDGET]
CRAWL = CRAWL_ENV_ID


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


def test_without_baselines_no_normalised_score_and_no_nan_column():
    from rlm_gym.training.evaluation import format_table, normalised_rows

    rows = normalised_rows([{"label": "trained", "score": 0.5, "score_ci95": 0.1}])
    assert "normalised" not in rows[0]
    table = format_table(rows)
    assert "normalised" not in table and "nan" not in table
