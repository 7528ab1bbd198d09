"""The crawl domain: the multi-dimensional crawl reward, pattern types and the knowledge store."""

from __future__ import annotations

from typing import Any

from rlm_gym.crawl.config import (
    COMPONENT_NAMES,
    COMPONENT_WEIGHTS,
    DEFECT_RULES,
    SCHEMALESS_VALIDATION_WEIGHTS,
    TIME_BUDGETS,
    VALIDATION_WEIGHTS,
    WEIGHTED_COMPONENTS,
    default_crawl_config,
)
from rlm_gym.crawl.patterns import (
    DEFAULT_PATTERN_TYPE,
    LISTING_TYPES,
    PATTERN_THRESHOLDS,
    PATTERN_TYPES,
    QUANTITY_TARGETS,
    classify_quality_tier,
    pattern_thresholds,
    storage_bucket,
)
from rlm_gym.crawl.policy import CrawlRewardPolicy
from rlm_gym.crawl.reward import check_items, crawl_reward
from rlm_gym.quality import (
    FIELD_CHECKS,
    PLACEHOLDERS,
    check_field,
    classify_pattern_type,
    field_tokens,
)

# The knowledge store (and sqlite3) loads on first access: most programs never open one.
_STORE_NAMES = ("ADAPTIVE_RULE", "KnowledgeStore", "KnowledgeStoreError")


def __getattr__(name: str) -> Any:
    if name in _STORE_NAMES:
        from rlm_gym.crawl import store

        return getattr(store, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "crawl_reward",
    "check_items",
    "CrawlRewardPolicy",
    "KnowledgeStore",
    "KnowledgeStoreError",
    "classify_pattern_type",
    "classify_quality_tier",
    "storage_bucket",
    "pattern_thresholds",
    "check_field",
    "field_tokens",
    "default_crawl_config",
    "COMPONENT_NAMES",
    "COMPONENT_WEIGHTS",
    "WEIGHTED_COMPONENTS",
    "DEFECT_RULES",
    "LISTING_TYPES",
    "VALIDATION_WEIGHTS",
    "SCHEMALESS_VALIDATION_WEIGHTS",
    "TIME_BUDGETS",
    "PATTERN_TYPES",
    "DEFAULT_PATTERN_TYPE",
    "PATTERN_THRESHOLDS",
    "QUANTITY_TARGETS",
    "FIELD_CHECKS",
    "PLACEHOLDERS",
    "ADAPTIVE_RULE",
]
