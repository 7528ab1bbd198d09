"""The crawl reward's view of pattern types: tier thresholds, quantity targets, quality tiers
and storage buckets.

The pattern types themselves (their names and how a result is classified) are
:mod:`rlm_gym.quality.pattern_types`; this module keys the reward's tables by them.
"""

from __future__ import annotations

from collections.abc import Mapping

from rlm_gym.quality.pattern_types import DEFAULT_PATTERN_TYPE, LISTING_TYPES, PATTERN_TYPES

__all__ = [
    "PATTERN_TYPES",
    "DEFAULT_PATTERN_TYPE",
    "PATTERN_THRESHOLDS",
    "QUANTITY_TARGETS",
    "LISTING_TYPES",
    "TIERS",
    "BUCKETS",
    "pattern_thresholds",
    "classify_quality_tier",
    "storage_bucket",
]

_LISTING = {"failure": 0.40, "success": 0.70, "excellent": 0.90, "min_items": 5}

PATTERN_THRESHOLDS: dict[str, dict[str, float]] = {
    "article_extraction": {"failure": 0.50, "success": 0.80, "excellent": 0.95, "min_items": 1},
    "contact_info": {"failure": 0.45, "success": 0.75, "excellent": 0.95, "min_items": 1},
    "price_extraction": {"failure": 0.45, "success": 0.75, "excellent": 0.90, "min_items": 3},
    "product_list": {"failure": 0.40, "success": 0.70, "excellent": 0.90, "min_items": 5},
    "review_extraction": {"failure": 0.35, "success": 0.65, "excellent": 0.85, "min_items": 5},
    "product_with_reviews": {"failure": 0.35, "success": 0.65, "excellent": 0.85, "min_items": 3},
    "generic_extraction": {"failure": 0.35, "success": 0.65, "excellent": 0.85, "min_items": 1},
    "job_listing": dict(_LISTING),
    "event_listing": dict(_LISTING),
    "real_estate_listing": dict(_LISTING),
    "business_listing": dict(_LISTING),
}
"""Per pattern type: tier thresholds on the reward and the item count below which the tier is
capped at "acceptable". The failure column is success - 0.30; the keys are
:data:`PATTERN_TYPES`, in their order."""

QUANTITY_TARGETS: dict[str, int] = {name: 5 for name in PATTERN_TYPES} | dict.fromkeys(
    ("product_list", *LISTING_TYPES), 10
)
"""Items needed for a full quantity score, per pattern type (unknown types: generic's)."""

TIERS = ("excellent", "good", "acceptable", "poor")
BUCKETS = ("successful", "acceptable", "failure")


def pattern_thresholds(
    pattern_type: str, table: Mapping[str, Mapping[str, float]] | None = None
) -> Mapping[str, float]:
    """The thresholds of ``pattern_type`` in ``table`` (default :data:`PATTERN_THRESHOLDS`);
    unknown types get ``generic_extraction``'s.

    Example:
        >>> pattern_thresholds("product_list")["success"], pattern_thresholds("recipes")["success"]
        (0.7, 0.65)
    """
    table = PATTERN_THRESHOLDS if table is None else table
    found = table.get(pattern_type)
    return found if found is not None else table[DEFAULT_PATTERN_TYPE]


def classify_quality_tier(
    reward: float, thresholds: Mapping[str, float], items: int | None = None
) -> str:
    """The quality tier of a reward: "excellent", "good", "acceptable" or "poor".

    ``reward >= excellent`` is excellent, ``>= success`` good, ``>= failure`` acceptable, else
    poor. Fewer than ``thresholds["min_items"]`` items cap the tier at "acceptable"; an unknown
    item count (None) caps nothing.

    Example:
        >>> product_list = pattern_thresholds("product_list")
        >>> classify_quality_tier(0.85, product_list), classify_quality_tier(0.95, product_list, 3)
        ('good', 'acceptable')
        >>> classify_quality_tier(0.90, product_list), classify_quality_tier(0.3999, product_list)
        ('excellent', 'poor')
    """
    if reward >= thresholds["failure"]:
        if items is not None and items < thresholds.get("min_items", 0):
            return "acceptable"
        if reward >= thresholds["excellent"]:
            return "excellent"
        if reward >= thresholds["success"]:
            return "good"
        return "acceptable"
    return "poor"


def storage_bucket(reward: float, thresholds: Mapping[str, float]) -> str:
    """Where a finished crawl is stored, from its reward alone.

    ``reward > success`` is "successful", ``reward < failure`` "failure", else "acceptable"
    (both boundaries are "acceptable").

    Example:
        >>> article = pattern_thresholds("article_extraction")
        >>> storage_bucket(0.7447, article), storage_bucket(0.81, article)
        ('acceptable', 'successful')
        >>> storage_bucket(0.80, article), storage_bucket(0.49, article)
        ('acceptable', 'failure')
    """
    if reward > thresholds["success"]:
        return "successful"
    if reward < thresholds["failure"]:
        return "failure"
    return "acceptable"
