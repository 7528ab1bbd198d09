"""``crawl_reward``: the five weighted components of a crawl result and the defects penalty.

The formula (see ``docs/crawl-reward.md``): ``success``, ``has_data``, ``validation``,
``quantity`` and ``efficiency``, each a raw score in [0, 1] times its weight, minus
``defect_penalty`` per systematic defect, clamped to [0, 1]. The item-dependent scores come
from :mod:`rlm_gym.crawl.item_scores` (through the memo of :mod:`rlm_gym.crawl.memo`),
efficiency from :mod:`rlm_gym.crawl.efficiency`; the tier and storage bucket from the
pattern type's thresholds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.crawl.config import THRESHOLD_KEYS
from rlm_gym.crawl.efficiency import efficiency_breakdown
from rlm_gym.crawl.memo import fresh_fields, judged
from rlm_gym.crawl.patterns import classify_quality_tier, storage_bucket
from rlm_gym.crawl.result import (
    bad_result,
    checked_number,
    checked_result,
    error_count,
    given_pattern_type,
    pages_collected,
)
from rlm_gym.crawl.settings import DEFAULT_SETTINGS, CrawlSettings, crawl_settings
from rlm_gym.policies.types import RewardSignal
from rlm_gym.quality.judge import MISSING, judge_items

__all__ = ["crawl_reward", "score_crawl_result", "check_items", "value_and_tier"]


def crawl_reward(
    result: Mapping[str, Any],
    schema: Mapping[str, Any] | Sequence[str] | None = None,
    pattern_type: str | None = None,
    config: Mapping[str, Any] | None = None,
    thresholds: Mapping[str, float] | None = None,
) -> RewardSignal:
    """Score one crawl result with the crawl reward's components (crawl reward 0.2).

    ``data`` is reduced to its distinct items (exact duplicates count once) and every value is
    judged by its column's type and context (:func:`check_items` gives the same verdicts per
    item). ``components`` hold the weighted contributions (success, has_data, validation,
    quantity, efficiency) and the ``defects`` penalty; they add up to the value before it is
    clamped to [0, 1]. ``details`` hold the raw scores, validation's sub-scores, the pattern
    type, tier, bucket, time per page and time penalty, the item counts, the valid share, the
    systematic defects (readable strings) and per-field diagnostics.

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
        >>> data = [{"product_name": f"iPhone 15 ({n})", "price": "$999", "rating": 4.5}
        ...         for n in range(40)]
        >>> result = {
        ...     "success": True,
        ...     "data": data,
        ...     "navigation_result": {"pages_collected": 2, "strategy_used": "url_navigation"},
        ...     "execution_time_ms": 18000,
        ...     "extraction_schema": {"required": ["product_name", "price", "rating"]},
        ... }
        >>> signal = crawl_reward(result)
        >>> signal.value, signal.details["pattern_type"], signal.details["tier"]
        (1.0, 'product_list', 'excellent')
        >>> signal.components["validation"], signal.components["defects"]
        (0.3, 0.0)
        >>> broken = {**result, "data": [{**item, "rating": 45} for item in data]}
        >>> signal = crawl_reward(broken)
        >>> round(signal.value, 3), signal.details["tier"], signal.details["defects"]
        (0.82, 'good', ['rating: 100% of 40 distinct items invalid (out of range), e.g. 45'])
    """
    settings = DEFAULT_SETTINGS if config is None else crawl_settings(config)
    return score_crawl_result(result, settings, schema, pattern_type, thresholds)


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


def check_items(
    result: Mapping[str, Any], schema: Mapping[str, Any] | Sequence[str] | None = None
) -> list[dict[Any, tuple[bool, str]]]:
    """The verdict on every checked field of every item: the judgement ``crawl_reward`` uses.

    One dict per item of ``result["data"]``, in order and duplicates included, mapping each
    checked field (the required fields; with none, the item's own fields) to ``(valid,
    reason)``: reason ``""`` when valid, else a short phrase ("missing", "placeholder", "not a
    price", "header row", "shifted column", "page-wide value", "mis-encoded text", ...).
    Column-context checks see the whole result. A non-dict item maps each required field to
    ``(False, "not a dict item")`` (``{}`` with no required fields). Use it to drop the bad rows
    of a scrape.

    Args:
        result: The crawl result (``success`` and ``data`` required).
        schema: As for :func:`crawl_reward`.

    Returns:
        The per-item verdicts.

    Raises:
        ValueError: If ``result`` is not a crawl result (as :func:`crawl_reward`).

    Example:
        >>> rows = [{"name": "Phở 24", "price": "45.000đ"}, {"name": "N/A", "price": "Liên hệ"}]
        >>> check_items({"success": True, "data": rows, "extraction_schema": ["name", "price"]})
        [{'name': (True, ''), 'price': (True, '')}, {'name': (False, 'placeholder'), \
'price': (False, 'not a price')}]
    """
    data, fields = checked_result(result, schema)
    judgement = judge_items(data, fields, given_pattern_type(result, None))
    names = judgement.fields
    per_item = [
        {
            name: (not reason, reason)
            for name, reason in zip(names, row, strict=True)
            if reason is not MISSING
        }
        if not fields
        else {name: (not reason, reason) for name, reason in zip(names, row, strict=True)}
        for row in zip(*(judgement.reasons[name] for name in names), strict=True)
    ]
    if not names:
        per_item = [{} for _ in judgement.distinct]
    # Duplicate rows share their distinct item's verdicts (each row gets its own dict).
    return [dict(per_item[index]) for index in judgement.row_index]


def value_and_tier(
    components: Iterable[float],
    thresholds: Mapping[str, float],
    extracted: int,
    valid_share: float,
    settings: CrawlSettings,
) -> tuple[float, str]:
    """The crawl reward's value (its components added in order, clamped to [0, 1]) and tier.

    The tier is ``classify_quality_tier``'s under ``thresholds`` (the pattern type's, as in
    force), "excellent" kept only with ``excellent_valid_share`` of the values valid. Shared
    by ``score_crawl_result`` and the training records that rebuild a score from its parts.

    Example:
        >>> thresholds = DEFAULT_SETTINGS.pattern_thresholds("product_list")
        >>> value_and_tier([0.25, 0.15, 0.3, 0.15, 0.15, 0.0], thresholds, 20, 0.9,
        ...                DEFAULT_SETTINGS)
        (1.0, 'good')
    """
    total = sum(components)
    value = 0.0 if total < 0.0 else 1.0 if total > 1.0 else total
    tier = classify_quality_tier(value, thresholds, extracted)
    if tier == "excellent" and valid_share < settings.excellent_valid_share:
        tier = "good"
    return value, tier


def score_crawl_result(
    result: Mapping[str, Any],
    settings: CrawlSettings = DEFAULT_SETTINGS,
    schema: Mapping[str, Any] | Sequence[str] | None = None,
    pattern_type: str | None = None,
    thresholds: Mapping[str, float] | None = None,
    memo: dict[Any, Any] | None = None,
) -> RewardSignal:
    """:func:`crawl_reward` with prepared :class:`CrawlSettings` (no config validation).

    ``memo``: a dict the caller keeps for this ``settings`` (the ``crawl`` policy keeps one):
    the judgement of items already seen, keyed by :func:`~rlm_gym.crawl.memo.content_key`, is
    reused, so an env that ends many episodes with the same items judges them once. The signal
    is the same with or without it (its ``details`` are fresh copies either way).

    Example:
        >>> memo = {}
        >>> result = {"success": True, "data": [{"title": "Giá vàng", "price": "N/A"}]}
        >>> first = score_crawl_result(result, memo=memo)
        >>> again = score_crawl_result({**result, "execution_time_ms": 9000.0}, memo=memo)
        >>> len(memo), first.details["fields"] == again.details["fields"]
        (1, True)
        >>> again == crawl_reward({**result, "execution_time_ms": 9000.0})
        True
    """
    data, fields = checked_result(result, schema)
    success = result["success"]
    if success is not True and success is not False and success not in (True, False):
        raise bad_result(f"expected `success` to be a bool, got {success!r}")
    pages = pages_collected(result)
    execution_ms = checked_number("execution_time_ms", result.get("execution_time_ms", 0.0))
    item_part = judged(data, fields, given_pattern_type(result, pattern_type), settings, memo)
    pattern_type = item_part.pattern_type
    assessed = item_part.assessed
    success_score = 1.0 if success else 0.0
    quantity = min(1.0, assessed.extracted / settings.quantity_target(pattern_type))
    efficiency, time_per_page_ms, time_penalty = efficiency_breakdown(
        pages, execution_ms, error_count(result), settings
    )
    defect_count = min(len(assessed.defects), settings.max_defects)

    w_success, w_has_data, w_validation, w_quantity, w_efficiency = settings.weights
    components = {
        "success": w_success * success_score,
        "has_data": w_has_data * item_part.details["has_data"],
        "validation": w_validation * assessed.validation,
        "quantity": w_quantity * quantity,
        "efficiency": w_efficiency * efficiency,
        "defects": 0.0 - settings.defect_penalty * defect_count,
    }
    in_force = _resolve_thresholds(settings, pattern_type, thresholds)
    value, tier = value_and_tier(
        components.values(), in_force, assessed.extracted, assessed.valid_share, settings
    )
    # The item-dependent details come from the judgement; the rest are set in their places.
    details = item_part.details.copy()
    details["success"] = success_score
    details["quantity"] = quantity
    details["efficiency"] = efficiency
    details["tier"] = tier
    details["bucket"] = storage_bucket(value, in_force)
    details["time_per_page_ms"] = time_per_page_ms
    details["time_penalty"] = time_penalty
    if memo is None:
        details["defects"] = assessed.defects
        details["fields"] = assessed.fields
    else:  # fresh copies: the memoised judgement must not change with the caller's edits
        details["defects"] = list(assessed.defects)
        details["fields"] = fresh_fields(item_part.field_rows)
    explanation = f"crawl reward {value:.4f}: {pattern_type}, tier {tier}{item_part.defects_note}"
    return RewardSignal(value, components, explanation, details)
