"""The crawl config's one path to settings: overrides merge, bad configs are rejected."""

from __future__ import annotations

import math

import pytest

from rlm_gym.crawl import crawl_reward
from tests.crawl import crawl_examples as examples


def test_config_overrides_merge_into_the_weight_table():
    signal = crawl_reward(examples.example_1_document(), config={"weights": {"efficiency": 0.0}})
    assert signal.components["efficiency"] == 0.0
    assert signal.components["success"] == 0.25
    assert signal.value == pytest.approx(0.85)


def test_config_quantity_target_override():
    signal = crawl_reward(
        examples.example_3_document(), config={"quantity_targets": {"article_extraction": 1}}
    )
    assert signal.details["quantity"] == 1.0


@pytest.mark.parametrize(
    ("config", "error", "message"),
    [
        ({"wieghts": {}}, ValueError, "Did you mean 'weights'"),
        ({"weights": {"valdation": 0.3}}, ValueError, "Did you mean 'validation'"),
        ({"weights": {"success": "0.25"}}, TypeError, "weights"),
        ({"weights": {"success": -0.1}}, ValueError, "weights"),
        ({"efficiency_cap": math.inf}, ValueError, "efficiency_cap"),
        ({"thresholds": {"product_list": {"sucess": 0.7}}}, ValueError, "Did you mean 'success'"),
        ({"thresholds": {"product_list": {"success": 0.95}}}, ValueError, "ordered"),
        ({"quantity_targets": {"product_list": 0}}, ValueError, "quantity_targets"),
        ({"knowledge_store": 3}, TypeError, "knowledge_store"),
        ({"multi_page_budget_ms": 0}, ValueError, "multi_page_budget_ms"),
    ],
)
def test_bad_config_is_rejected_like_policy_config(config, error, message):
    with pytest.raises(error, match=message):
        crawl_reward(examples.example_1_document(), config=config)


def test_default_call_path_does_not_revalidate(monkeypatch):
    import rlm_gym.crawl.reward as reward_module

    def fail(config):
        raise AssertionError("validated on the default path")

    monkeypatch.setattr(reward_module, "crawl_settings", fail)
    assert crawl_reward(examples.example_1_document()).value == pytest.approx(1.0)
