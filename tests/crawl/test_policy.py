"""CrawlRewardPolicy: registration, final-action scoring, config, store recording, pickling."""

from __future__ import annotations

import pickle
import sqlite3

import pytest

from rlm_gym.crawl import CrawlRewardPolicy, crawl_reward
from rlm_gym.policies import ActionResult, PolicyContext, PolicyRegistry
from tests.crawl import crawl_examples as examples

FINAL = {"action": "final"}


def _final_result(crawl):
    return ActionResult("final", crawl["success"], metadata={"crawl_result": crawl})


def test_registered_as_crawl_with_six_components_in_unit_range():
    policy = PolicyRegistry.get_reward("crawl")
    assert isinstance(policy, CrawlRewardPolicy)
    assert policy.component_names == (
        "success",
        "has_data",
        "validation",
        "quantity",
        "efficiency",
        "defects",
    )
    assert policy.value_range == (0.0, 1.0)


def test_final_action_scores_the_crawl_result_like_crawl_reward():
    crawl = examples.example_2_arithmetic()
    signal = CrawlRewardPolicy().calculate(FINAL, _final_result(crawl), PolicyContext())
    expected = crawl_reward(crawl)
    assert signal.value == expected.value
    assert signal.components == expected.components
    assert signal.details == expected.details


def test_final_is_read_from_the_result_type_when_the_action_has_none():
    result = _final_result(examples.example_1_document())
    assert CrawlRewardPolicy().calculate({}, result, PolicyContext()).value == pytest.approx(1.0)


def test_before_the_final_action_the_value_is_zero_with_no_components():
    result = ActionResult("fetch_http", True, metadata={})
    signal = CrawlRewardPolicy().calculate({"action": "fetch_http"}, result, PolicyContext())
    assert (signal.value, signal.components) == (0.0, {})


def test_final_action_without_a_crawl_result_raises():
    with pytest.raises(ValueError, match="crawl_result"):
        CrawlRewardPolicy().calculate(FINAL, ActionResult("final", True), PolicyContext())


def test_config_tables_merge_entry_by_entry():
    policy = CrawlRewardPolicy({"thresholds": {"product_list": {"success": 0.75}}})
    assert policy.config["thresholds"]["product_list"] == {
        "failure": 0.4,
        "success": 0.75,
        "excellent": 0.9,
        "min_items": 5,
    }
    assert policy.config["thresholds"]["article_extraction"]["success"] == 0.8


def test_new_pattern_type_starts_from_generic_thresholds():
    policy = CrawlRewardPolicy({"thresholds": {"recipes": {"success": 0.7}}})
    assert policy.config["thresholds"]["recipes"]["excellent"] == 0.85


def test_unknown_config_key_suggests_the_closest():
    with pytest.raises(ValueError, match="Did you mean 'efficiency_cap'"):
        CrawlRewardPolicy({"efficency_cap": 1.1})


def test_unknown_weight_name_lists_the_components():
    with pytest.raises(ValueError, match="'has_data'") as excinfo:
        CrawlRewardPolicy({"weights": {"hasdata": 0.1}})
    assert "Did you mean 'has_data'" in str(excinfo.value)


def test_on_episode_end_records_the_last_scored_crawl(tmp_path):
    path = tmp_path / "kb.sqlite"
    policy = CrawlRewardPolicy({"knowledge_store": str(path), "defect_penalty": 0.0})
    context = PolicyContext()
    policy.on_episode_start(context)
    crawl = examples.picare_arithmetic()
    signal = policy.calculate(FINAL, _final_result(crawl), context)
    policy.on_episode_end(context, signal.value)
    policy.on_episode_end(context, signal.value)
    policy.close()
    rows = sqlite3.connect(path).execute(
        "SELECT domain, pattern_type, strategy, reward, items, pages, execution_time_ms, tier, "
        "bucket FROM crawl_records"
    )
    assert rows.fetchall() == [
        (
            "picare.vn",
            "product_list",
            "url_navigation",
            signal.value,
            40,
            2,
            33847.0,
            "good",
            "successful",
        )
    ]


def test_domain_and_strategy_default_to_unknown():
    policy = CrawlRewardPolicy({"knowledge_store": ":memory:"})
    crawl = {"success": True, "data": [{"email": "a@b.vn"}]}
    policy.calculate(FINAL, _final_result(crawl), PolicyContext())
    policy.on_episode_end(PolicyContext(), 0.0)
    (best,) = policy.store.get_best_practices("contact_info")
    assert (best["domain"], best["strategy"]) == ("unknown", "unknown")


def test_without_a_store_episode_end_is_a_no_op():
    policy = CrawlRewardPolicy()
    policy.calculate(FINAL, _final_result(examples.example_1_document()), PolicyContext())
    policy.on_episode_end(PolicyContext(), 1.0)
    assert policy.store is None


def test_store_opens_lazily_and_the_policy_pickles(tmp_path):
    policy = CrawlRewardPolicy({"knowledge_store": str(tmp_path / "kb.sqlite")})
    assert policy._store is None
    policy.calculate(FINAL, _final_result(examples.example_1_document()), PolicyContext())
    policy.on_episode_end(PolicyContext(), 1.0)
    assert policy._store is not None
    clone = pickle.loads(pickle.dumps(policy))
    assert clone._store is None
    assert len(clone.store) == 1
    assert clone.config == policy.config
    policy.close()
    clone.close()


def test_adaptive_thresholds_from_the_store_change_the_tier():
    policy = CrawlRewardPolicy({"knowledge_store": ":memory:", "adaptive_thresholds": True})
    for _ in range(100):
        policy.store.record("tiki.vn", "product_list", "url_navigation", 0.99)
    crawl = examples.example_2_arithmetic()
    signal = policy.calculate(FINAL, _final_result(crawl), PolicyContext())
    assert policy.store.thresholds("product_list")["success"] == pytest.approx(0.89)
    assert signal.details["tier"] == "acceptable"
    assert signal.details["bucket"] == "acceptable"


def test_components_are_python_floats_even_with_int_weights():
    import json
    from pathlib import Path

    from rlm_gym.crawl import CrawlRewardPolicy
    from rlm_gym.policies import ActionResult, PolicyContext

    policy = CrawlRewardPolicy({"weights": {"validation": 1, "success": 0}})
    examples = Path(__file__).resolve().parents[2] / "examples" / "crawl_results.jsonl"
    lines = examples.read_text().splitlines()
    for line in lines:
        result = ActionResult("final", True, metadata={"crawl_result": json.loads(line)})
        signal = policy.calculate({"action": "final"}, result, PolicyContext())
        assert policy.float_components
        assert all(type(part) is float for part in signal.components.values())
        assert type(signal.value) is float
