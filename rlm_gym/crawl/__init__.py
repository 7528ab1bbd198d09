"""The crawl domain: the multi-dimensional crawl reward, pattern types and the knowledge store."""

from __future__ import annotations

from typing import Any

from rlm_gym.crawl.adaptive_thresholds import ADAPTIVE_RULE
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
from rlm_gym.crawl.settings import CrawlSettings, crawl_settings
from rlm_gym.crawl.store_errors import KnowledgeStoreError
from rlm_gym.quality import (
    FIELD_CHECKS,
    PLACEHOLDERS,
    check_field,
    classify_pattern_type,
    field_tokens,
)


def __getattr__(name: str) -> Any:
    # The knowledge store (and sqlite3) loads on first access: most programs never open one.
    if name == "KnowledgeStore":
        from rlm_gym.crawl.store import KnowledgeStore

        return KnowledgeStore
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
    "crawl_settings",
    "CrawlSettings",
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
