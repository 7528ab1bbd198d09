"""crawl_reward: the document's worked examples, components, details, schema and thresholds."""

from __future__ import annotations

import pytest

from rlm_gym.crawl import COMPONENT_NAMES, crawl_reward
from tests.crawl import crawl_examples as examples
from tests.crawl.crawl_examples import TOL

DETAIL_KEYS = {
    "success",
    "has_data",
    "validation",
    "quantity",
    "efficiency",
    "presence",
    "completeness",
    "quality",
    "pattern_type",
    "tier",
    "bucket",
    "time_per_page_ms",
    "time_penalty",
    "items",
    "distinct_items",
    "junk_items",
    "valid_share",
    "defects",
    "fields",
}
# The document's arithmetic examples predate systematic defects: they check the five weighted
# components with the defect penalty off (they check the arithmetic only).
ARITHMETIC = {"defect_penalty": 0.0}


def test_example_1_recomputed_gives_09955():
    signal = crawl_reward(examples.example_1_arithmetic())
    assert signal.details["quality"] == pytest.approx(0.95, abs=TOL)
    assert signal.details["validation"] == pytest.approx(0.985, abs=TOL)
    assert signal.details["efficiency"] == 1.0
    assert signal.value == pytest.approx(0.9955, abs=TOL)
    assert signal.details["tier"] == "excellent"


def test_example_1_fast_pagination_bonus_is_clamped_away_by_the_default_cap():
    signal = crawl_reward(examples.example_1_arithmetic())
    assert signal.details["time_per_page_ms"] == 9000.0
    assert signal.details["time_penalty"] == pytest.approx(-0.1)
    assert signal.details["efficiency"] == 1.0


def test_example_1_document_data_gives_reward_one():
    signal = crawl_reward(examples.example_1_document())
    assert signal.details["validation"] == 1.0
    assert signal.value == pytest.approx(1.0, abs=TOL)
    assert signal.details["pattern_type"] == "product_list"


def test_example_2_recomputed_gives_08654():
    signal = crawl_reward(examples.example_2_arithmetic(), config=ARITHMETIC)
    details = signal.details
    assert (details["presence"], details["completeness"], details["quality"]) == pytest.approx(
        (0.67, 0.53, 0.60), abs=TOL
    )
    assert details["validation"] == pytest.approx(0.607, abs=TOL)
    assert details["efficiency"] == pytest.approx(1 - 5000 / 45000, abs=TOL)
    assert signal.value == pytest.approx(0.8654, abs=5e-5)
    assert signal.value == pytest.approx(0.25 + 0.15 + 0.3 * 0.607 + 0.15 + 0.15 * 8 / 9, abs=TOL)
    assert details["tier"] == "good"
    assert details["bucket"] == "successful"


def test_example_3_recomputed_gives_07447_and_bucket_acceptable():
    signal = crawl_reward(examples.example_3_arithmetic())
    details = signal.details
    assert (details["presence"], details["completeness"], details["quality"]) == pytest.approx(
        (1.0, 0.33, 0.25), abs=TOL
    )
    assert details["validation"] == pytest.approx(0.574, abs=TOL)
    assert details["quantity"] == pytest.approx(0.4, abs=TOL)
    assert details["efficiency"] == pytest.approx(0.75, abs=TOL)
    assert signal.value == pytest.approx(0.7447, abs=TOL)
    assert details["bucket"] == "acceptable"
    assert details["tier"] == "acceptable"


def test_example_3_document_data_gives_07225():
    signal = crawl_reward(examples.example_3_document())
    details = signal.details
    assert details["pattern_type"] == "article_extraction"
    assert (details["presence"], details["completeness"], details["quality"]) == pytest.approx(
        (1.0, 1 / 3, 1 / 3), abs=TOL
    )
    assert details["validation"] == pytest.approx(0.60, abs=TOL)
    assert (details["items"], details["distinct_items"], details["junk_items"]) == (2, 2, 1)
    assert details["quantity"] == pytest.approx(1 / 5, abs=TOL)
    assert details["defects"] == []
    assert signal.components["defects"] == 0.0
    assert signal.value == pytest.approx(0.7225, abs=TOL)
    assert (details["tier"], details["bucket"]) == ("acceptable", "acceptable")


def test_picare_recomputed_gives_091859():
    signal = crawl_reward(examples.picare_arithmetic(), config=ARITHMETIC)
    assert signal.details["validation"] == pytest.approx(0.75, abs=TOL)
    assert signal.details["time_per_page_ms"] == pytest.approx(16923.5)
    assert signal.details["efficiency"] == pytest.approx(1 - 1923.5 / 45000, abs=TOL)
    assert signal.details["efficiency"] == pytest.approx(0.957256, abs=5e-7)
    assert signal.value == pytest.approx(0.91859, abs=5e-6)


def test_picare_with_a_quarter_of_junk_rows_is_not_excellent():
    signal = crawl_reward(examples.picare_arithmetic(), config=ARITHMETIC)
    assert signal.details["valid_share"] == pytest.approx(0.75)
    assert signal.details["tier"] == "good"


def test_components_are_the_weighted_scores_and_add_up_to_the_value():
    signal = crawl_reward(examples.example_2_arithmetic())
    weights = {"success": 0.25, "has_data": 0.15, "validation": 0.3, "quantity": 0.15}
    weights["efficiency"] = 0.15
    assert tuple(signal.components) == COMPONENT_NAMES
    for name, weight in weights.items():
        assert signal.components[name] == pytest.approx(weight * signal.details[name], abs=TOL)
    assert signal.components["defects"] == pytest.approx(-0.15 * len(signal.details["defects"]))
    assert signal.value == pytest.approx(sum(signal.components.values()), abs=TOL)


def test_details_have_exactly_the_spec_keys():
    assert set(crawl_reward(examples.example_1_document()).details) == DETAIL_KEYS


def test_schema_argument_overrides_the_results_schema():
    result = examples.example_3_document()
    signal = crawl_reward(result, schema={"required": ["headline"]})
    assert signal.details["presence"] == 1.0
    assert signal.details["quality"] == pytest.approx(0.5)


def test_without_schema_validation_is_capped_at_085():
    result = examples.example_1_document()
    del result["extraction_schema"]
    signal = crawl_reward(result)
    assert signal.details["validation"] == pytest.approx(0.85)
    assert signal.details["presence"] == 1.0


def test_without_schema_items_are_judged_on_their_own_fields():
    result = {"success": True, "data": [{"title": "Tin tức", "author": "N/A"}, {"title": None}]}
    details = crawl_reward(result).details
    assert details["completeness"] == pytest.approx((0.5 + 0.0) / 2)
    assert details["quality"] == pytest.approx((0.5 + 0.0) / 2)
    assert details["validation"] == pytest.approx(0.5 * 0.25 + 0.5 * 0.25)


def test_non_dict_items_score_zero_but_count():
    result = examples.example_1_document()
    result["data"] = [*result["data"][:3], "<div>broken</div>", None, 42]
    details = crawl_reward(result).details
    assert details["validation"] == pytest.approx(0.5)
    assert details["junk_items"] == 3


def test_pattern_type_argument_wins_and_unknown_types_use_generic_thresholds():
    signal = crawl_reward(examples.example_3_document(), pattern_type="recipes")
    assert signal.details["pattern_type"] == "recipes"
    assert signal.details["quantity"] == pytest.approx(1 / 5)
    assert signal.details["bucket"] == "successful"


def test_thresholds_argument_changes_tier_and_bucket():
    result = examples.example_2_arithmetic()
    signal = crawl_reward(
        result, thresholds={"success": 0.87, "excellent": 0.95}, config=ARITHMETIC
    )
    assert signal.details["tier"] == "acceptable"
    assert signal.details["bucket"] == "acceptable"


def test_unknown_threshold_name_suggests_the_closest():
    with pytest.raises(ValueError, match="Did you mean 'success'"):
        crawl_reward(examples.example_2_arithmetic(), thresholds={"sucess": 0.9})
