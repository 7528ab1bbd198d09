"""Generated items: distinct entities, sporadic defects, systematic breaks, re-served pages."""

from __future__ import annotations

import pytest

from rlm_gym.crawl import crawl_reward
from rlm_gym.envs import SCHEMAS
from rlm_gym.envs.items import BREAKS, build_items, defective_copy, entity
from rlm_gym.envs.profiles import SIMULATED_PATTERN_TYPES


def _score(pattern_type, items):
    return crawl_reward(
        {
            "success": True,
            "data": items,
            "extraction_schema": {"required": list(SCHEMAS[pattern_type])},
            "pattern_type": pattern_type,
        }
    )


@pytest.mark.parametrize("pattern_type", SIMULATED_PATTERN_TYPES)
def test_clean_rows_are_distinct_and_fully_valid(pattern_type):
    items = build_items(pattern_type, ((0, 50, 6, 0, 0, False),))
    signal = _score(pattern_type, items)
    assert signal.details["distinct_items"] == len(items) == 300
    assert signal.details["validation"] == 1.0 and signal.details["valid_share"] == 1.0
    assert signal.details["defects"] == []


@pytest.mark.parametrize("pattern_type", SIMULATED_PATTERN_TYPES)
@pytest.mark.parametrize("extractor", [0, 1, 2])
def test_sporadic_defects_lower_validation_but_never_become_systematic(pattern_type, extractor):
    share = {0: 0.15, 1: 0.15, 2: 0.15}[extractor]
    for rows in (5, 7, 12, 20, 33, 48, 96):
        defective = int(rows * share)
        items = build_items(pattern_type, ((extractor, rows, 1, 0, defective, False),))
        signal = _score(pattern_type, items)
        assert signal.details["defects"] == [], (rows, signal.details["defects"])
        assert signal.details["distinct_items"] == rows
        if defective:
            assert signal.details["validation"] < 1.0


@pytest.mark.parametrize("pattern_type", SIMULATED_PATTERN_TYPES)
@pytest.mark.parametrize("extractor", [0, 1])
def test_a_systematic_break_is_one_defect_on_its_field(pattern_type, extractor):
    field, _ = BREAKS[("css", "heuristic")[extractor]][pattern_type]
    items = build_items(pattern_type, ((extractor, 12, 2, 0, 0, True),))
    signal = _score(pattern_type, items)
    assert len(signal.details["defects"]) == 1
    assert signal.details["defects"][0].startswith(f"{field}: 100% of 24")
    assert signal.components["defects"] == -0.15
    assert signal.details["valid_share"] < 0.95  # never "excellent"


@pytest.mark.parametrize("pattern_type", SIMULATED_PATTERN_TYPES)
def test_re_served_pages_repeat_rows_exactly(pattern_type):
    items = build_items(pattern_type, ((2, 10, 2, 1, 3, False),))
    assert len(items) == 30 and items[20:] == items[:10]
    signal = _score(pattern_type, items)
    assert signal.details["distinct_items"] == 20
    assert signal.details["defects"] == [
        "duplicate rows: 10 of 30 rows (33%) repeat another row exactly"
    ]


def test_entities_are_distinct_across_blocks_and_stable():
    blocks = ((0, 12, 2, 0, 0, False), (1, 11, 1, 0, 1, False), (2, 12, 3, 0, 5, False))
    for pattern_type in SIMULATED_PATTERN_TYPES:
        items = build_items(pattern_type, blocks)
        assert len({repr(sorted(item.items())) for item in items}) == len(items) == 71
        assert build_items(pattern_type, blocks) == items
        assert entity(pattern_type, 5) == entity(pattern_type, 5)


def test_defective_copy_leaves_the_entity_untouched():
    item = {"a": 1, "b": 2, "c": 3}
    defective_copy(item, ("b", "c"), "missing")
    assert item == {"a": 1, "b": 2, "c": 3}
    before = dict(entity("product_list", 0))
    build_items("product_list", ((1, 5, 1, 0, 5, True),))
    assert entity("product_list", 0) == before
