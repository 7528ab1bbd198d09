"""The efficiency score: time per page against the budgets, errors, the cap."""

from __future__ import annotations

import pytest

from rlm_gym.crawl import crawl_reward
from tests.crawl import crawl_examples as examples
from tests.crawl.crawl_examples import TOL


def test_failed_empty_crawl_scores_only_efficiency_when_error_free():
    signal = crawl_reward({"success": False, "data": []})
    assert signal.value == pytest.approx(0.15)
    assert signal.details["validation"] == 0.0
    assert signal.details["tier"] == "poor"


def test_any_error_zeroes_efficiency():
    for errors in ({"errors": ["HTTP 429"]}, {"error": "Timeout after 30s"}):
        signal = crawl_reward({"success": True, "data": [{"title": "Tin tức"}], **errors})
        assert signal.details["efficiency"] == 0.0
        assert signal.components["efficiency"] == 0.0


@pytest.mark.parametrize(
    ("pages", "time_ms", "penalty"),
    [
        (1, 30000, 0.0),
        (1, 45000, 0.25),
        (1, 60000, 0.3),
        (1, 500000, 0.3),
        (1, 9000, 0.0),
        (3, 45000, 0.0),
        (3, 60000, 5000 / 45000),
        (3, 29999, -0.1),
        (3, 30000, 0.0),
        (2, 10**7, 0.4),
    ],
)
def test_time_penalty_single_and_multi_page(pages, time_ms, penalty):
    result = {"success": True, "data": [], "execution_time_ms": time_ms}
    result["navigation_result"] = {"pages_collected": pages}
    assert crawl_reward(result).details["time_penalty"] == pytest.approx(penalty, abs=TOL)


def test_raising_efficiency_cap_lets_the_fast_page_bonus_count():
    signal = crawl_reward(examples.example_1_arithmetic(), config={"efficiency_cap": 1.1})
    assert signal.details["efficiency"] == pytest.approx(1.1)
    assert signal.components["efficiency"] == pytest.approx(0.165)
    assert signal.value == 1.0
