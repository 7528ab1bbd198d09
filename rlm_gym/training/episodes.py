"""Turn the last step of an episode into a flat record: true score, crawl details, tier.

Shared by the training callback (TensorBoard scalars, learning curves) and ``evaluate``.
Only the standard library and the core are imported here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from rlm_gym.crawl import WEIGHTED_COMPONENTS
from rlm_gym.crawl.config import COMPONENT_NAMES
from rlm_gym.crawl.efficiency import efficiency_breakdown
from rlm_gym.crawl.memo import content_key, memo_for
from rlm_gym.crawl.result import error_count, required_fields
from rlm_gym.crawl.reward import score_crawl_result, value_and_tier
from rlm_gym.crawl.settings import DEFAULT_SETTINGS

__all__ = ["FINAL_CRAWL_KEY", "TASK_KEYS", "crawl_result_from_info", "episode_record"]

# Where the batched training vec env (``batched_vec_env.GymVectorToSB3``) puts the crawl env's
# ``FinalCrawl`` of a finished episode: the crawl's numbers, its result built when read.
FINAL_CRAWL_KEY = "final_crawl"

# The crawl env's task outcome (``info["task"]`` on an episode's last step), in its order.
TASK_KEYS: tuple[str, ...] = (
    "job_done",
    "valid_items",
    "items",
    "pages",
    "requests",
    "time_ms",
    "banned",
)


def crawl_result_from_info(info: Mapping[str, Any]) -> dict[str, Any] | None:
    """The crawl result carried by a final step's ``info`` (its ``action_result``'s, or its
    ``FINAL_CRAWL_KEY`` entry's), or None.

    Example:
        >>> from rlm_gym.policies import ActionResult
        >>> result = ActionResult("final", True, metadata={"crawl_result": {"success": True}})
        >>> crawl_result_from_info({"action_result": result})
        {'success': True}
        >>> crawl_result_from_info({}) is None
        True
    """
    result = info.get("action_result")
    if result is None:
        final = info.get(FINAL_CRAWL_KEY)
        return None if final is None else final.crawl_result
    metadata = result.get("metadata") if isinstance(result, Mapping) else result.metadata
    crawl_result = (metadata or {}).get("crawl_result")
    return crawl_result if isinstance(crawl_result, Mapping) else None


def episode_record(info: Mapping[str, Any], true_return: float, length: int) -> dict[str, Any]:
    """A flat record of one finished episode.

    ``score`` is the episode's *true* return: the sum of the env's own rewards (for the crawl
    env, the unablated crawl reward of the final result), whatever reward policy trained the
    agent - or, where the last step reports it, ``info["true_crawl_score"]``: the crawl score
    of the ground truth, which Crawl-v2's reward (the crawler's recorded success) is not.
    When the last step carries a crawl result, the record adds the crawl reward's raw
    scores (``WEIGHTED_COMPONENTS``), ``tier``, ``pattern_type``, ``items``, ``pages``,
    ``time_per_page_ms`` and ``strategy`` (``rlm_gym.crawl.crawl_reward``'s, through the
    scoring memo the env shares with every default-config scorer: the items an env just
    judged are not judged again); a ``FINAL_CRAWL_KEY`` entry (the batched training path's)
    gives the same fields from the crawl's numbers, its crawl result built only for a crawl
    whose content is new; when it carries the task outcome (``info["task"]``), every
    ``TASK_KEYS`` entry as a number (``job_done`` and ``banned`` as 1.0 / 0.0, so their means
    are rates).

    Args:
        info: The ``info`` of the episode's last step.
        true_return: The sum of the env's rewards over the episode.
        length: Number of steps.

    Returns:
        The record (plain Python scalars and strings).

    Example:
        >>> episode_record({}, 1.5, 3)
        {'score': 1.5, 'length': 3}
    """
    true_score = info.get("true_crawl_score", true_return)
    record: dict[str, Any] = {"score": float(true_score), "length": int(length)}
    task = info.get("task")
    if isinstance(task, Mapping):
        record.update((key, float(task[key])) for key in TASK_KEYS if key in task)
    final = info.get(FINAL_CRAWL_KEY)
    if final is not None:
        raw, tier, pattern_type, time_per_page_ms = _scored_final(final)
        record.update(zip(WEIGHTED_COMPONENTS, raw, strict=True))
        record.update(
            tier=tier,
            pattern_type=pattern_type,
            items=final.items,
            pages=final.pages,
            time_per_page_ms=time_per_page_ms,
            strategy=final.strategy,
        )
        return record
    crawl_result = crawl_result_from_info(info)
    if crawl_result is None:
        return record
    raw, tier, pattern_type, time_per_page_ms = _scored(crawl_result)
    navigation = crawl_result.get("navigation_result") or {}
    data = crawl_result.get("data")
    record.update(zip(WEIGHTED_COMPONENTS, raw, strict=True))
    record.update(
        tier=tier,
        pattern_type=pattern_type,
        items=len(data) if isinstance(data, list) else 0,
        pages=int(navigation.get("pages_collected", 1)),
        time_per_page_ms=time_per_page_ms,
        strategy=str(navigation.get("strategy_used", "")),
    )
    return record


# What a record takes from the crawl reward's details, by ``_scoring_key`` (bounded: cleared
# when full). An env ends many episodes with the same crawl, as the scoring memo assumes.
_SCORED: dict[tuple, tuple] = {}
_SCORED_MAX = 1 << 16


# The content half of a record by a ``FinalCrawl``'s content key (pattern type, success, item
# blocks: ``key[:-3]``): the raw content scores, pattern type, weighted components, extracted
# items, valid share and tier thresholds. The other half (efficiency, time per page, the
# value and tier) follows from pages, time and errors, so a crawl whose content was seen
# before is not built, nor are its items walked - whatever its time.
_CONTENT: dict[tuple, tuple] = {}
_EFFICIENCY_SLOT = COMPONENT_NAMES.index("efficiency")
_EFFICIENCY_RAW = WEIGHTED_COMPONENTS.index("efficiency")
_EFFICIENCY_WEIGHT = DEFAULT_SETTINGS.weights[WEIGHTED_COMPONENTS.index("efficiency")]


def _scored_final(final: Any) -> tuple:
    """``_scored`` of a ``FinalCrawl``'s crawl result: from its content (scored once per
    content key, on the crawl result built then) and its pages, time and errors."""
    content_key, (pages, time_ms, errors) = final.key[:-3], final.key[-3:]
    content = _CONTENT.get(content_key)
    if content is None:
        if len(_CONTENT) >= _SCORED_MAX:
            _CONTENT.clear()
        signal = score_crawl_result(
            final.crawl_result, DEFAULT_SETTINGS, memo=memo_for(DEFAULT_SETTINGS)
        )
        raw, pattern_type = signal.details, signal.details["pattern_type"]
        content = _CONTENT[content_key] = (
            tuple(float(raw[name]) for name in WEIGHTED_COMPONENTS),
            str(pattern_type),
            list(signal.components.values()),
            raw["distinct_items"] - raw["junk_items"],
            raw["valid_share"],
            DEFAULT_SETTINGS.pattern_thresholds(pattern_type),
        )
    raw_scores, pattern_type, components, extracted, valid_share, thresholds = content
    efficiency, time_per_page_ms, _ = efficiency_breakdown(
        float(pages), float(time_ms), errors, DEFAULT_SETTINGS
    )
    parts = list(components)
    parts[_EFFICIENCY_SLOT] = _EFFICIENCY_WEIGHT * efficiency
    _, tier = value_and_tier(parts, thresholds, extracted, valid_share, DEFAULT_SETTINGS)
    raw_scores = (*raw_scores[:_EFFICIENCY_RAW], efficiency, *raw_scores[_EFFICIENCY_RAW + 1 :])
    return raw_scores, tier, pattern_type, float(time_per_page_ms)


def _scored(crawl_result: Mapping[str, Any]) -> tuple:
    """``(raw weighted scores, tier, pattern_type, time_per_page_ms)`` of the crawl reward's
    details of ``crawl_result`` under the default config (cached by ``_scoring_key``)."""
    key = _scoring_key(crawl_result)
    found = _SCORED.get(key) if key is not None else None
    if found is not None:
        return found
    details = score_crawl_result(
        crawl_result, DEFAULT_SETTINGS, memo=memo_for(DEFAULT_SETTINGS)
    ).details
    found = (
        tuple(float(details[name]) for name in WEIGHTED_COMPONENTS),
        str(details["tier"]),
        str(details["pattern_type"]),
        float(details["time_per_page_ms"]),
    )
    if key is not None:
        if len(_SCORED) >= _SCORED_MAX:
            _SCORED.clear()
        _SCORED[key] = found
    return found


def _scoring_key(result: Mapping[str, Any]) -> tuple | None:
    """Everything ``score_crawl_result`` reads of ``result``, as a key, or None (not cached)
    when a value is not of the plain kind a crawl env reports (then it is scored, and any
    error raised, as without the cache).

    The items by their ``content_key`` (equal exactly when they hold the same values), the
    others by value and exact type: ``success``, the required fields, ``pattern_type``,
    the pages collected, the execution time and the error count.
    """
    if not isinstance(result, dict):
        return None
    data = result.get("data")
    success = result.get("success")
    navigation = result.get("navigation_result")
    if type(data) is not list or type(success) is not bool or type(navigation) is not dict:
        return None
    pages = navigation.get("pages_collected")
    time_ms = result.get("execution_time_ms", 0.0)
    pattern_type = result.get("pattern_type")
    if (
        type(pages) is not int
        or type(time_ms) not in (int, float)
        or not math.isfinite(time_ms)
        or (pattern_type is not None and type(pattern_type) is not str)
    ):
        return None
    items = content_key(data)
    if items is None:
        return None
    try:
        fields = required_fields(result.get("extraction_schema"))
    except ValueError:
        return None
    return (items, success, fields, pattern_type, pages, float(time_ms), error_count(result))
