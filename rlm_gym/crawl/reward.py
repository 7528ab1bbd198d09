"""``crawl_reward``: the five weighted components of a crawl result (SPEC §5)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from numbers import Real
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.crawl.config import THRESHOLD_KEYS, CrawlSettings, default_crawl_config
from rlm_gym.crawl.fields import Check, field_check
from rlm_gym.crawl.patterns import classify_pattern_type, classify_quality_tier, storage_bucket
from rlm_gym.policies.types import RewardSignal

__all__ = [
    "crawl_reward",
    "score_crawl_result",
    "required_fields",
    "validation_scores",
    "pages_collected",
]

_MISSING = object()
_DEFAULT_SETTINGS = CrawlSettings.from_config(default_crawl_config())


def crawl_reward(
    result: Mapping[str, Any],
    schema: Mapping[str, Any] | Sequence[str] | None = None,
    pattern_type: str | None = None,
    config: Mapping[str, Any] | None = None,
    thresholds: Mapping[str, float] | None = None,
) -> RewardSignal:
    """Score one crawl result with the five weighted components of SPEC §5.

    ``components`` hold the weighted contributions (success, has_data, validation, quantity,
    efficiency), which add up to the value before it is clamped to [0, 1]; ``details`` hold
    the raw scores, validation's sub-scores, the pattern type, tier, bucket, time per page and
    time penalty.

    Args:
        result: The crawl result (``success`` and ``data`` required; 1 page, 0 ms and no
            errors by default).
        schema: ``{"required": [field, ...]}`` or a list of field names; None uses the
            result's ``extraction_schema`` (no required fields when absent).
        pattern_type: None uses the result's ``pattern_type``, else classifies the data.
        config: Overrides of the ``crawl`` policy's config, validated like it (None: defaults,
            with no validation cost).
        thresholds: Thresholds in force for this pattern type (e.g. a knowledge store's
            adaptive ones), merged over the config's row.

    Returns:
        The reward signal.

    Raises:
        ValueError: If ``result`` is not a dict, lacks ``success`` or ``data``, or holds
            values of the wrong kind; or if ``config`` / ``thresholds`` are invalid.

    Example:
        >>> result = {
        ...     "success": True,
        ...     "data": [{"product_name": "iPhone 15", "price": 999.99, "rating": 4.5}] * 40,
        ...     "navigation_result": {"pages_collected": 2, "strategy_used": "url_navigation"},
        ...     "execution_time_ms": 18000,
        ...     "extraction_schema": {"required": ["product_name", "price", "rating"]},
        ... }
        >>> signal = crawl_reward(result)
        >>> signal.value, signal.details["pattern_type"], signal.details["tier"]
        (1.0, 'product_list', 'excellent')
        >>> signal.components
        {'success': 0.25, 'has_data': 0.15, 'validation': 0.3, 'quantity': 0.15, 'efficiency': 0.15}
    """
    settings = _DEFAULT_SETTINGS if config is None else _validated_settings(config)
    return score_crawl_result(result, settings, schema, pattern_type, thresholds)


def _validated_settings(config: Mapping[str, Any]) -> CrawlSettings:
    # The policy owns config validation; it imports this module, hence the late import.
    from rlm_gym.crawl.policy import CrawlRewardPolicy

    return CrawlRewardPolicy(config).settings


def _is_mapping(value: Any) -> bool:
    # `type is dict` first: ABC isinstance checks cost more than the rest of a small call.
    return type(value) is dict or isinstance(value, Mapping)


def _bad_result(message: str) -> ValueError:
    return ValueError(f"Invalid crawl result: {message}")


def _number(result: Mapping[str, Any], key: str, value: Any) -> float:
    kind = type(value)
    if (kind is float or kind is int) and value >= 0.0 and value != math.inf:
        return float(value)
    if isinstance(value, bool) or not isinstance(value, Real) or not value >= 0.0:
        raise _bad_result(f"expected `{key}` to be a number >= 0, got {value!r}")
    number = float(value)
    if number == math.inf:
        raise _bad_result(f"expected `{key}` to be finite, got {value!r}")
    return number


def pages_collected(result: Mapping[str, Any]) -> float:
    """Pages the crawl collected: ``navigation_result.pages_collected``, else a top-level
    ``pages_collected``, else 1."""
    navigation = result.get("navigation_result")
    pages = navigation.get("pages_collected") if _is_mapping(navigation) else None
    if pages is None:
        pages = result.get("pages_collected", 1)
    return _number(result, "pages_collected", pages)


def _has_errors(result: Mapping[str, Any]) -> bool:
    return bool(result.get("errors")) or bool(result.get("error"))


def required_fields(schema: Mapping[str, Any] | Sequence[str] | None) -> tuple[str, ...]:
    """The required field names of a schema (``{"required": [...]}`` or a list of names).

    Example:
        >>> required_fields({"required": ["title", "price"]}), required_fields(None)
        (('title', 'price'), ())
    """
    if schema is None:
        return ()
    fields = schema.get("required", ()) if _is_mapping(schema) else schema
    if isinstance(fields, str) or not isinstance(fields, (list, tuple)):
        raise _bad_result(f"expected the schema's `required` to be a list of names, got {fields!r}")
    for name in fields:
        if not isinstance(name, str):
            raise _bad_result(f"expected required field names to be strings, got {name!r}")
    return tuple(fields)


@lru_cache(maxsize=1024)
def _checks_for(fields: tuple[str, ...]) -> tuple[tuple[str, Check], ...]:
    return tuple((name, field_check(name)) for name in fields)


def _with_schema(
    items: Sequence[Any], checks: tuple[tuple[str, Check], ...]
) -> tuple[float, float, float]:
    """Summed per-item presence, completeness and quality over the required fields."""
    presence = completeness = quality = 0.0
    share = 1.0 / len(checks)
    missing = _MISSING
    for item in items:
        if not isinstance(item, dict):
            continue
        present = complete = passed = 0
        for name, check in checks:
            value = item.get(name, missing)
            if value is missing:
                continue
            present += 1
            if value is None:
                continue
            # `fields.is_empty`, inlined: this runs once per field of every item.
            kind = type(value)
            if (kind is str or kind is list or kind is dict) and not value:
                continue
            complete += 1
            if check(value):
                passed += 1
        if present:
            presence += present * share
            completeness += complete * share
            quality += passed / present
    return presence, completeness, quality


def _without_schema(items: Sequence[Any]) -> tuple[float, float]:
    """Summed per-item completeness and quality over each item's own fields."""
    completeness = quality = 0.0
    for item in items:
        if not isinstance(item, dict) or not item:
            continue
        complete = passed = 0
        for name, value in item.items():
            if value is None:
                continue
            # `fields.is_empty`, inlined: this runs once per field of every item.
            kind = type(value)
            if (kind is str or kind is list or kind is dict) and not value:
                continue
            complete += 1
            if field_check(name)(value):
                passed += 1
        completeness += complete / len(item)
        quality += passed / len(item)
    return completeness, quality


def validation_scores(
    items: Sequence[Any], fields: tuple[str, ...], settings: CrawlSettings = _DEFAULT_SETTINGS
) -> tuple[float, float, float, float]:
    """Validation score v and its sub-scores (presence, completeness, quality), item-averaged.

    Example:
        >>> items = [{"headline": "N/A", "author": None, "content": ""},
        ...          {"headline": "Some title", "author": "Unknown", "content": "Short"}]
        >>> scores = validation_scores(items, ("headline", "author", "content"))
        >>> [round(score, 6) for score in scores]
        [0.7, 1.0, 0.666667, 0.333333]
    """
    count = len(items)
    if not count:
        return 0.0, 0.0, 0.0, 0.0
    if fields:
        presence, completeness, quality = _with_schema(items, _checks_for(fields))
        presence, completeness, quality = presence / count, completeness / count, quality / count
        score = (
            settings.presence_weight * presence
            + settings.completeness_weight * completeness
            + settings.quality_weight * quality
        )
        return score, presence, completeness, quality
    completeness, quality = _without_schema(items)
    completeness, quality = completeness / count, quality / count
    score = (
        settings.schemaless_completeness_weight * completeness
        + settings.schemaless_quality_weight * quality
    )
    return min(score, settings.schemaless_cap), 1.0, completeness, quality


def _time_penalty(time_per_page_ms: float, pages: float, settings: CrawlSettings) -> float:
    if pages <= 1.0:
        over = time_per_page_ms - settings.single_page_budget_ms
        if over > 0.0:
            return min(
                settings.single_page_max_penalty, over / settings.single_page_penalty_span_ms
            )
        return 0.0
    over = time_per_page_ms - settings.multi_page_budget_ms
    if over > 0.0:
        return min(settings.multi_page_max_penalty, over / settings.multi_page_penalty_span_ms)
    if time_per_page_ms < settings.fast_page_ms:
        return -settings.fast_page_bonus
    return 0.0


def _resolve_thresholds(
    settings: CrawlSettings, pattern_type: str, thresholds: Mapping[str, float] | None
) -> Mapping[str, float]:
    row = settings.pattern_thresholds(pattern_type)
    if thresholds is None:
        return row
    for key in thresholds:
        if key not in THRESHOLD_KEYS:
            raise unknown_name_error("threshold", key, THRESHOLD_KEYS, "in `thresholds`")
    return {**row, **thresholds}


def score_crawl_result(
    result: Mapping[str, Any],
    settings: CrawlSettings = _DEFAULT_SETTINGS,
    schema: Mapping[str, Any] | Sequence[str] | None = None,
    pattern_type: str | None = None,
    thresholds: Mapping[str, float] | None = None,
) -> RewardSignal:
    """:func:`crawl_reward` with prepared :class:`CrawlSettings` (no config validation)."""
    if not _is_mapping(result):
        raise _bad_result(f"expected a dict, got {type(result).__name__} {result!r:.80}")
    if "success" not in result or "data" not in result:
        missing = " and ".join(f"`{key}`" for key in ("success", "data") if key not in result)
        raise _bad_result(f"missing {missing} (a crawl result needs `success` and `data`)")
    success = result["success"]
    if success is not True and success is not False and success not in (True, False):
        raise _bad_result(f"expected `success` to be a bool, got {success!r}")
    data = result["data"]
    if data is None:
        data = ()
    elif not isinstance(data, (list, tuple)):
        raise _bad_result(f"expected `data` to be a list of items, got {type(data).__name__}")
    pages = pages_collected(result)
    execution_ms = _number(result, "execution_time_ms", result.get("execution_time_ms", 0.0))
    if schema is None:
        schema = result.get("extraction_schema")
    fields = required_fields(schema)
    if pattern_type is None:
        pattern_type = result.get("pattern_type") or classify_pattern_type(data)
    if not isinstance(pattern_type, str):
        raise _bad_result(f"expected `pattern_type` to be a string, got {pattern_type!r}")

    success_score = 1.0 if success else 0.0
    has_data = 1.0 if data else 0.0
    validation, presence, completeness, quality = validation_scores(data, fields, settings)
    quantity = min(1.0, len(data) / settings.quantity_target(pattern_type))
    time_per_page_ms = execution_ms / max(1.0, pages)
    time_penalty = _time_penalty(time_per_page_ms, pages, settings)
    efficiency = 0.0
    if not _has_errors(result):
        efficiency = min(settings.efficiency_cap, max(0.0, 1.0 - time_penalty))

    w_success, w_has_data, w_validation, w_quantity, w_efficiency = settings.weights
    components = {
        "success": w_success * success_score,
        "has_data": w_has_data * has_data,
        "validation": w_validation * validation,
        "quantity": w_quantity * quantity,
        "efficiency": w_efficiency * efficiency,
    }
    total = sum(components.values())
    value = 0.0 if total < 0.0 else 1.0 if total > 1.0 else total
    in_force = _resolve_thresholds(settings, pattern_type, thresholds)
    tier = classify_quality_tier(value, in_force, len(data))
    details = {
        "success": success_score,
        "has_data": has_data,
        "validation": validation,
        "quantity": quantity,
        "efficiency": efficiency,
        "presence": presence,
        "completeness": completeness,
        "quality": quality,
        "pattern_type": pattern_type,
        "tier": tier,
        "bucket": storage_bucket(value, in_force),
        "time_per_page_ms": time_per_page_ms,
        "time_penalty": time_penalty,
    }
    explanation = f"crawl reward {value:.4f}: {pattern_type}, tier {tier}"
    return RewardSignal(value, components, explanation, details)
