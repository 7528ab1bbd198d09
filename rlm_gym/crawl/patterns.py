"""Pattern types of crawl results, their thresholds, quality tiers and storage buckets."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from rlm_gym.crawl.fields import field_tokens

__all__ = [
    "PATTERN_TYPES",
    "DEFAULT_PATTERN_TYPE",
    "PATTERN_THRESHOLDS",
    "QUANTITY_TARGETS",
    "PATTERN_RULES",
    "TIERS",
    "BUCKETS",
    "classify_pattern_type",
    "pattern_thresholds",
    "classify_quality_tier",
    "storage_bucket",
]

DEFAULT_PATTERN_TYPE = "generic_extraction"

PATTERN_THRESHOLDS: dict[str, dict[str, float]] = {
    "article_extraction": {"failure": 0.50, "success": 0.80, "excellent": 0.95, "min_items": 1},
    "contact_info": {"failure": 0.45, "success": 0.75, "excellent": 0.95, "min_items": 1},
    "price_extraction": {"failure": 0.45, "success": 0.75, "excellent": 0.90, "min_items": 3},
    "product_list": {"failure": 0.40, "success": 0.70, "excellent": 0.90, "min_items": 5},
    "review_extraction": {"failure": 0.35, "success": 0.65, "excellent": 0.85, "min_items": 5},
    "product_with_reviews": {"failure": 0.35, "success": 0.65, "excellent": 0.85, "min_items": 3},
    "generic_extraction": {"failure": 0.35, "success": 0.65, "excellent": 0.85, "min_items": 1},
}
"""Per pattern type: tier thresholds on the reward and the item count below which the tier is
capped at "acceptable". The failure column is success - 0.30 (SPEC §5)."""

PATTERN_TYPES: tuple[str, ...] = tuple(PATTERN_THRESHOLDS)

QUANTITY_TARGETS: dict[str, int] = {name: 5 for name in PATTERN_TYPES} | {"product_list": 10}
"""Items needed for a full quantity score, per pattern type (unknown types: generic's)."""

TIERS = ("excellent", "good", "acceptable", "poor")
BUCKETS = ("successful", "acceptable", "failure")

# Field categories, read off a field name's tokens; the rules below combine them.
_PRICE = frozenset({"price", "cost", "amount"})
_DISCOUNT = frozenset({"discount"})
_NAME = frozenset({"name", "title"})
_REVIEW_CONTENT = frozenset({"review", "reviews", "comment", "comments", "feedback"})
_RATING = frozenset({"rating", "stars"})
_ARTICLE = frozenset({"headline", "title", "content", "body", "article", "post", "author"})
_ARTICLE |= frozenset({"published"})
_CONTACT = frozenset({"email", "phone", "address", "contact"})
_COUNT = frozenset({"count", "num", "number", "total", "qty", "quantity"})

PATTERN_RULES: tuple[tuple[str, frozenset[str]], ...] = (
    ("product_with_reviews", frozenset({"price", "name", "review_content"})),
    ("product_list", frozenset({"price", "name"})),
    ("product_list", frozenset({"product_name"})),
    ("price_extraction", frozenset({"price_like"})),
    ("review_extraction", frozenset({"review_like"})),
    ("article_extraction", frozenset({"article"})),
    ("contact_info", frozenset({"contact"})),
)
"""Ordered rules: the first whose categories are all present in the data names the type."""


@lru_cache(maxsize=8192)
def _field_categories(name: str) -> frozenset[str]:
    tokens = frozenset(field_tokens(name))
    categories = set()
    if tokens & _PRICE:
        categories |= {"price", "price_like"}
    if tokens & _DISCOUNT:
        categories.add("price_like")
    if tokens & _NAME:
        categories.add("name")
        if "product" in tokens:
            categories.add("product_name")
    # "review_count" counts reviews; it is not review content.
    if tokens & _REVIEW_CONTENT and not tokens & _COUNT:
        categories |= {"review_content", "review_like"}
    if tokens & _RATING:
        categories.add("review_like")
    if tokens & _ARTICLE:
        categories.add("article")
    if tokens & _CONTACT:
        categories.add("contact")
    return frozenset(categories)


def classify_pattern_type(data: Iterable[Any] | None) -> str:
    """The pattern type of extracted items, from the union of their field names.

    Non-dict items are ignored; no items (or none with fields) give ``generic_extraction``.
    A field counting reviews (``review_count``) is not review content.

    Args:
        data: The extracted items.

    Returns:
        One of :data:`PATTERN_TYPES`.

    Example:
        >>> classify_pattern_type([{"product_name": "iPhone 15", "price": 999.99, "rating": 4.5}])
        'product_list'
        >>> classify_pattern_type([{"headline": "N/A", "author": None, "content": ""}])
        'article_extraction'
        >>> classify_pattern_type([{"title": "Ốp lưng", "price": "99.000đ", "reviews": ["Tốt"]}])
        'product_with_reviews'
        >>> classify_pattern_type([{"email": "a@b.vn"}]), classify_pattern_type([])
        ('contact_info', 'generic_extraction')
    """
    names: set[str] = set()
    for item in data or ():
        if isinstance(item, dict):
            names.update(item)
    categories: set[str] = set()
    for name in names:
        categories |= _field_categories(str(name))
    for pattern_type, needed in PATTERN_RULES:
        if needed <= categories:
            return pattern_type
    return DEFAULT_PATTERN_TYPE


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
