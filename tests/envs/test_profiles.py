"""Site profiles: overrides fix, validate and normalise the drawn site."""

from __future__ import annotations

import numpy as np
import pytest

from rlm_gym.crawl import PATTERN_TYPES
from rlm_gym.envs import SCHEMAS, SIMULATED_PATTERN_TYPES, CrawlEnv
from rlm_gym.envs.profiles import MULTI_ITEM_TYPES


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("target_items", 0),
        ("target_items", 2.5),
        ("items_per_page", -1),
        ("items_per_page", "12"),
        ("total_pages", True),
        ("total_pages", 0),
        ("time_budget_ms", 0),
        ("ttfb_ms", 10**9),
        ("rendering", 5),
        ("rendering", 1.0),
        ("pagination", -1),
        ("protection", None),
        ("json_ld", "yes"),
        ("click_overlay", 1),
        ("domain", ""),
    ],
)
def test_bad_profile_override_raises_value_error_naming_it(key, value):
    with pytest.raises(ValueError, match=f"`{key}`"):
        CrawlEnv(**{key: value})


def test_valid_profile_overrides_are_normalised():
    env = CrawlEnv(rendering=np.int64(2), json_ld=np.bool_(True), items_per_page=np.int32(12))
    assert env.profile_overrides == {"rendering": 2, "json_ld": True, "items_per_page": 12}
    env.reset(seed=0)
    assert type(env.profile.items_per_page) is int


def test_profile_overrides_fix_the_site():
    env = CrawlEnv(pattern_types=["article_extraction"], rendering="client_only", protection=0)
    for seed in range(5):
        env.reset(seed=seed)
        assert env.profile.pattern_type == "article_extraction"
        assert env.profile.rendering == 2 and env.profile.protection == 0


def test_simulated_pattern_types_are_crawl_reward_pattern_types():
    assert set(SIMULATED_PATTERN_TYPES) < set(PATTERN_TYPES)
    assert set(SIMULATED_PATTERN_TYPES) > MULTI_ITEM_TYPES
    assert set(SCHEMAS) == set(SIMULATED_PATTERN_TYPES)
