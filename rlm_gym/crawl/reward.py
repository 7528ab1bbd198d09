"""``crawl_reward``: the five weighted components of a crawl result (SPEC §5)."""

from __future__ import annotations

import copy
import io
import math
import pickle
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from numbers import Real
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.crawl.config import THRESHOLD_KEYS, CrawlSettings, default_crawl_config
from rlm_gym.crawl.patterns import classify_quality_tier, storage_bucket
from rlm_gym.policies.types import RewardSignal
from rlm_gym.quality.judge import MISSING, NOT_AN_ITEM, UNUSABLE_REASONS, Judgement, judge_items

__all__ = [
    "crawl_reward",
    "check_items",
    "score_crawl_result",
    "memo_for",
    "required_fields",
    "pages_collected",
    "efficiency_score",
]

_DEFAULT_SETTINGS = CrawlSettings.from_config(default_crawl_config())


def crawl_reward(
    result: Mapping[str, Any],
    schema: Mapping[str, Any] | Sequence[str] | None = None,
    pattern_type: str | None = None,
    config: Mapping[str, Any] | None = None,
    thresholds: Mapping[str, float] | None = None,
) -> RewardSignal:
    """Score one crawl result with the components of SPEC §5 (crawl reward 0.2).

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
    if kind is float and value >= 0.0 and value != math.inf:
        return value
    # An exact int is a Real and no bool: skip the checks (ABC ones are slow) for page counts.
    real = kind is int or (not isinstance(value, bool) and isinstance(value, Real))
    if not real or not value >= 0.0:
        raise _bad_result(f"expected `{key}` to be a number >= 0, got {value!r}")
    try:
        number = float(value)
    except OverflowError:  # an int past float's range (10**400)
        number = math.inf
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


@dataclass(slots=True)
class _Quality:
    """The item-level scores of a judgement (SPEC §5 "Items" and "Systematic defects")."""

    validation: float
    presence: float
    completeness: float
    quality: float
    extracted: int
    valid_share: float
    defects: list[str]
    fields: dict[str, dict[str, Any]]


def _invalid_examples(judgement: Judgement, name: Any, reasons: list[str]) -> list[Any]:
    """Up to 3 distinct invalid values of field ``name`` (absent values have none to show)."""
    shown: dict[str, Any] = {}
    for index, reason in enumerate(reasons):
        if reason and reason is not MISSING and reason is not NOT_AN_ITEM:
            value = judgement.distinct[index][name]
            shown.setdefault(repr(value), value)
            if len(shown) == 3:
                break
    return list(shown.values())


def _item_scores(judgement: Judgement) -> tuple[float, float, float, int]:
    """Summed per-item presence, completeness and quality, and the extracted items."""
    fields = judgement.fields
    width = len(fields)
    rows = zip(*(judgement.reasons[name] for name in fields), strict=True)
    presence = completeness = quality = 0.0
    extracted = 0
    unusable = UNUSABLE_REASONS
    if not width:
        return presence, completeness, quality, extracted
    for row in rows:
        passed = row.count("")
        if passed == width:
            presence += 1.0
            completeness += 1.0
            quality += 1.0
            extracted += 1
            continue
        if passed:
            extracted += 1
        absent = row.count(MISSING)
        if judgement.required:
            present = width - absent - row.count(NOT_AN_ITEM)
            usable = passed + sum(1 for reason in row if reason and reason not in unusable)
            presence += present / width
            completeness += usable / width
            quality += passed / present if present else 0.0
        else:
            own = width - absent
            if own:
                usable = passed + sum(1 for reason in row if reason and reason not in unusable)
                completeness += usable / own
                quality += passed / own
    return presence, completeness, quality, extracted


def _defects(
    judgement: Judgement, core_invalid: dict[Any, int], rows: int, settings: CrawlSettings
) -> list[str]:
    """The systematic defects, as readable strings (none below ``defect_min_items``)."""
    count = len(judgement.distinct)
    if count < settings.defect_min_items:
        return []
    defects = []
    for name in judgement.core_fields:
        share = core_invalid[name] / count
        if share >= settings.defect_field_share:
            reasons = judgement.reasons[name]
            main = Counter(reason for reason in reasons if reason).most_common(1)[0][0]
            examples = _invalid_examples(judgement, name, reasons)
            shown = ", ".join(repr(value)[:40] for value in examples)
            defects.append(
                f"{name!s}: {share:.0%} of {count} distinct items invalid ({main})"
                + (f", e.g. {shown}" if shown else "")
            )
    duplicates = rows - count
    if rows and duplicates / rows >= settings.defect_duplicate_share:
        defects.append(
            f"duplicate rows: {duplicates} of {rows} rows ({duplicates / rows:.0%}) repeat "
            "another row exactly"
        )
    return defects


def _assess(judgement: Judgement, rows: int, settings: CrawlSettings) -> _Quality:
    """Validation, its sub-scores, extracted items, valid share, defects and field diagnostics."""
    count = len(judgement.distinct)
    presence, completeness, quality, extracted = _item_scores(judgement)
    if count:
        presence, completeness, quality = presence / count, completeness / count, quality / count
    if not judgement.required:
        presence = 1.0 if count else 0.0
        validation = min(
            settings.schemaless_cap,
            settings.schemaless_completeness_weight * completeness
            + settings.schemaless_quality_weight * quality,
        )
    else:
        validation = (
            settings.presence_weight * presence
            + settings.completeness_weight * completeness
            + settings.quality_weight * quality
        )
    core = judgement.core_fields
    # Absent from an item counts as invalid there, for the defects and the valid share.
    core_invalid = {name: count - judgement.reasons[name].count("") for name in core}
    checked_values = count * len(core)
    valid_share = 1.0 - sum(core_invalid.values()) / checked_values if checked_values else 0.0
    fields: dict[str, dict[str, Any]] = {}
    for name, reasons in judgement.reasons.items():
        checked = count if judgement.required else count - reasons.count(MISSING)
        fields[str(name)] = {
            "type": judgement.types[name],
            "checked": checked,
            "invalid": checked - reasons.count(""),
            "examples": _invalid_examples(judgement, name, reasons),
        }
    return _Quality(
        validation,
        presence,
        completeness,
        quality,
        extracted,
        valid_share,
        _defects(judgement, core_invalid, rows, settings),
        fields,
    )


def _error_count(result: Mapping[str, Any]) -> int:
    errors = result.get("errors")
    count = 0
    if errors:
        count = len(errors) if isinstance(errors, (list, tuple)) else 1
    if result.get("error"):
        count += 1
    return count


def efficiency_score(
    pages: float, execution_time_ms: float, errors: int, settings: CrawlSettings = _DEFAULT_SETTINGS
) -> float:
    """The raw ``efficiency`` score (before its weight) of a crawl that collected ``pages``
    pages in ``execution_time_ms`` with ``errors`` errors: what ``crawl_reward`` computes from
    the result's ``navigation_result``, ``execution_time_ms`` and ``errors``, without the rest
    of the scoring (the simulated env's scorer caches it per step count and time).

    Example:
        >>> efficiency_score(1.0, 4_000.0, 0)
        1.0
        >>> efficiency_score(1.0, 4_000.0, 1)  # any error voids efficiency by default
        0.0
    """
    return _efficiency(pages, execution_time_ms, errors, settings)[0]


def _efficiency(
    pages: float, execution_ms: float, errors: int, settings: CrawlSettings
) -> tuple[float, float, float]:
    """``(efficiency, time_per_page_ms, time_penalty)`` (SPEC §5 efficiency)."""
    time_per_page_ms = execution_ms / max(1.0, pages)
    time_penalty = _time_penalty(time_per_page_ms, pages, settings)
    if settings.graded_errors:
        no_errors = max(0.0, 1.0 - settings.error_step * errors)
    else:
        no_errors = 0.0 if errors else 1.0
    efficiency = no_errors * min(settings.efficiency_cap, max(0.0, 1.0 - time_penalty))
    return efficiency, time_per_page_ms, time_penalty


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


def _checked_result(
    result: Mapping[str, Any], schema: Mapping[str, Any] | Sequence[str] | None
) -> tuple[Sequence[Any], tuple[str, ...]]:
    """The result's items and required fields, after checking its shape (SPEC §7)."""
    if not _is_mapping(result):
        raise _bad_result(f"expected a dict, got {type(result).__name__} {result!r:.80}")
    if "success" not in result or "data" not in result:
        missing = " and ".join(f"`{key}`" for key in ("success", "data") if key not in result)
        raise _bad_result(f"missing {missing} (a crawl result needs `success` and `data`)")
    data = result["data"]
    if data is None:
        data = ()
    elif not isinstance(data, (list, tuple)):
        raise _bad_result(f"expected `data` to be a list of items, got {type(data).__name__}")
    if schema is None:
        schema = result.get("extraction_schema")
    return data, required_fields(schema)


def _given_pattern_type(result: Mapping[str, Any], pattern_type: str | None) -> str | None:
    """The pattern type given by the caller or the result (None: classify the data)."""
    if pattern_type is None:
        pattern_type = result.get("pattern_type") or None
    if pattern_type is not None and not isinstance(pattern_type, str):
        raise _bad_result(f"expected `pattern_type` to be a string, got {pattern_type!r}")
    return pattern_type


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
    data, fields = _checked_result(result, schema)
    judgement = judge_items(data, fields, _given_pattern_type(result, None))
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


# Entries of a scoring memo; one that outgrows it is cleared (cheaper per hit than an LRU).
MEMO_SIZE = 2048
# Longer item lists, or keys over MEMO_MAX_KEY_BYTES, are not memoised: the memo would hold
# too much (at most MEMO_SIZE x MEMO_MAX_KEY_BYTES = 32 MiB of keys per memo).
MEMO_MAX_ITEMS = 1000
MEMO_MAX_KEY_BYTES = 16_384
# Shared memos, one per distinct settings (few: one per reward config in use).
_MEMOS: list[tuple[CrawlSettings, dict[Any, Any]]] = []
_MAX_SHARED_MEMOS = 16


def memo_for(settings: CrawlSettings) -> dict[Any, Any]:
    """The scoring memo shared by every caller scoring with settings equal to ``settings``.

    The env's scorer and the ``crawl`` policy score the same items under the same config: with
    one memo, the policy reuses the judgement the env just made.

    Example:
        >>> defaults = CrawlSettings.from_config(default_crawl_config())
        >>> memo_for(defaults) is memo_for(_DEFAULT_SETTINGS)
        True
    """
    for known, memo in _MEMOS:
        if known is settings or known == settings:
            return memo
    memo: dict[Any, Any] = {}
    if len(_MEMOS) < _MAX_SHARED_MEMOS:
        _MEMOS.append((settings, memo))
    return memo


class _BuiltinsOnlyPickler(pickle.Pickler):
    """Pickles exact built-in values only: anything else raises ``_NotBuiltin``.

    ``reducer_override`` is not called for exact ``str``, ``int``, ``float``, ``bool``,
    None, ``bytes``, ``list``, ``tuple``, ``dict``, ``set`` and ``frozenset`` (pickle's
    native types); it is called for everything else, subclasses included, which a judge may
    treat differently from their base type.
    """

    def reducer_override(self, obj: Any) -> Any:
        raise _NotBuiltin


class _NotBuiltin(Exception):
    pass


def content_key(data: Sequence[Any]) -> bytes | None:
    """A key equal for two item lists exactly when they hold the same values, or None.

    The key is the lists' pickle (protocol 5) when every value in them, at any depth, is an
    exact built-in (``str``, ``int``, ``float``, ``bool``, None, ``bytes``, ``list``,
    ``tuple``, ``dict``, ``set``, ``frozenset``). Pickling is faithful, so equal keys mean
    lists that unpickle to the same values of the same types in the same order, and every
    verdict on them is the same: ``1``, ``1.0`` and ``True`` differ, and so do ``0.0`` and
    ``-0.0``, which ``==`` cannot tell apart. Equal lists may still get different keys (a
    shared object is pickled once), which only costs a memo miss. Anything else (subclasses,
    custom objects, nesting too deep to pickle), more than ``MEMO_MAX_ITEMS`` items or a key
    over ``MEMO_MAX_KEY_BYTES`` gives None: not memoised.

    Example:
        >>> content_key([{"price": 1.0}]) == content_key([{"price": 1}])
        False
        >>> content_key([{"price": 1.0}]) == content_key([{"price": 1.0}])
        True
        >>> content_key([{"price": -0.0}]) == content_key([{"price": 0.0}])
        False
        >>> class Price(float): ...
        >>> content_key([{"price": Price(1.0)}]) is None
        True
    """
    kind = type(data)
    if (kind is list or kind is tuple) and not data:
        # Most final results of the env hold no items: their keys are made once.
        return _EMPTY_KEYS[kind]
    if len(data) > MEMO_MAX_ITEMS:
        return None
    return _pickled(data)


# Idle picklers with their buffers: making a pickler costs as much as pickling a few items, so
# each is reused. A pool (list pop / append) rather than one shared pickler keeps concurrent
# calls from different threads apart.
_PICKLERS: list[tuple[_BuiltinsOnlyPickler, io.BytesIO]] = []


def _pickled(data: Sequence[Any]) -> bytes | None:
    """``data``'s protocol 5 pickle if it holds exact built-ins only and fits the key size."""
    try:
        pickler, buffer = _PICKLERS.pop()
    except IndexError:
        buffer = io.BytesIO()
        pickler = _BuiltinsOnlyPickler(buffer, 5)
    try:
        pickler.dump(data)
        key = buffer.getvalue() if buffer.tell() <= MEMO_MAX_KEY_BYTES else None
    except (_NotBuiltin, RecursionError, pickle.PicklingError, TypeError, ValueError):
        key = None
    # Forget this dump before the pickler is reused: its memo holds the items (a later dump
    # would refer back to them, and they would stay alive), its buffer the pickle (emptying
    # it frees the memory).
    pickler.clear_memo()
    buffer.seek(0)
    buffer.truncate()
    _PICKLERS.append((pickler, buffer))
    return key


_EMPTY_KEYS = {list: _pickled([]), tuple: _pickled(())}


# Immutable example values, shared between memoised rows and fresh diagnostics.
_LEAF_TYPES = frozenset({str, int, float, bool, type(None)})


@dataclass(slots=True)
class _Judged:
    """The item-dependent part of a score (what a memo keeps).

    ``details`` holds the details that depend on the items alone, already in the order of the
    signal's details, with None for those set on every call: copying it and setting those
    costs less than building the whole dict again. ``field_rows`` are the field diagnostics
    as rows ``(name, type, checked, invalid, examples, examples are leaves)`` (``()`` when not
    memoised); ``defects_note`` is the explanation's note on the systematic defects.
    """

    pattern_type: str
    assessed: _Quality
    details: dict[str, Any]
    field_rows: tuple[tuple[Any, ...], ...]
    defects_note: str


def _field_rows(fields: dict[str, dict[str, Any]]) -> tuple[tuple[Any, ...], ...]:
    leaves = _LEAF_TYPES
    return tuple(
        (
            name,
            entry["type"],
            entry["checked"],
            entry["invalid"],
            tuple(entry["examples"]),
            all(type(value) in leaves for value in entry["examples"]),
        )
        for name, entry in fields.items()
    )


def _fresh_fields(rows: tuple[tuple[Any, ...], ...]) -> dict[str, dict[str, Any]]:
    """Field diagnostics built anew from memoised rows: the caller may change them freely."""
    # A plain loop: a dict comprehension costs a function call more, per memo hit.
    fields = {}
    for name, kind, checked, invalid, examples, leaves in rows:
        fields[name] = {
            "type": kind,
            "checked": checked,
            "invalid": invalid,
            "examples": [*examples] if leaves else copy.deepcopy(list(examples)),
        }
    return fields


def _judged(
    data: Sequence[Any],
    fields: tuple[str, ...],
    pattern_type: str | None,
    settings: CrawlSettings,
    memo: dict[Any, _Judged] | None,
) -> _Judged:
    """The item-dependent part of a score: pattern type, distinct items and their assessment
    (with field rows when ``memo`` is given, else ``()``)."""
    key = None
    if memo is not None:
        content = content_key(data)
        if content is not None:
            key = (content, fields, pattern_type)
            found = memo.get(key)
            if found is not None:
                return found
    judgement = judge_items(data, fields, pattern_type)
    assessed = _assess(judgement, len(data), settings)
    distinct = len(judgement.distinct)
    details = {
        "success": None,
        "has_data": 1.0 if assessed.extracted else 0.0,
        "validation": assessed.validation,
        "quantity": None,
        "efficiency": None,
        "presence": assessed.presence,
        "completeness": assessed.completeness,
        "quality": assessed.quality,
        "pattern_type": judgement.pattern_type,
        "tier": None,
        "bucket": None,
        "time_per_page_ms": None,
        "time_penalty": None,
        "items": len(data),
        "distinct_items": distinct,
        "junk_items": distinct - assessed.extracted,
        "valid_share": assessed.valid_share,
        "defects": None,
        "fields": None,
    }
    found = _Judged(
        judgement.pattern_type,
        assessed,
        details,
        () if memo is None else _field_rows(assessed.fields),
        f", {len(assessed.defects)} systematic defect(s)" if assessed.defects else "",
    )
    if key is not None:
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[key] = found
    return found


def score_crawl_result(
    result: Mapping[str, Any],
    settings: CrawlSettings = _DEFAULT_SETTINGS,
    schema: Mapping[str, Any] | Sequence[str] | None = None,
    pattern_type: str | None = None,
    thresholds: Mapping[str, float] | None = None,
    memo: dict[Any, Any] | None = None,
) -> RewardSignal:
    """:func:`crawl_reward` with prepared :class:`CrawlSettings` (no config validation).

    ``memo``: a dict the caller keeps for this ``settings`` (the ``crawl`` policy keeps one):
    the judgement of items already seen, keyed by :func:`content_key`, is reused, so an env
    that ends many episodes with the same items judges them once. The signal is the same with
    or without it (its ``details`` are fresh copies either way).

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
    data, fields = _checked_result(result, schema)
    success = result["success"]
    if success is not True and success is not False and success not in (True, False):
        raise _bad_result(f"expected `success` to be a bool, got {success!r}")
    pages = pages_collected(result)
    execution_ms = _number(result, "execution_time_ms", result.get("execution_time_ms", 0.0))
    judged = _judged(data, fields, _given_pattern_type(result, pattern_type), settings, memo)
    pattern_type = judged.pattern_type
    assessed = judged.assessed
    success_score = 1.0 if success else 0.0
    quantity = min(1.0, assessed.extracted / settings.quantity_target(pattern_type))
    efficiency, time_per_page_ms, time_penalty = _efficiency(
        pages, execution_ms, _error_count(result), settings
    )
    defect_count = min(len(assessed.defects), settings.max_defects)

    w_success, w_has_data, w_validation, w_quantity, w_efficiency = settings.weights
    components = {
        "success": w_success * success_score,
        "has_data": w_has_data * judged.details["has_data"],
        "validation": w_validation * assessed.validation,
        "quantity": w_quantity * quantity,
        "efficiency": w_efficiency * efficiency,
        "defects": 0.0 - settings.defect_penalty * defect_count,
    }
    total = sum(components.values())
    value = 0.0 if total < 0.0 else 1.0 if total > 1.0 else total
    in_force = _resolve_thresholds(settings, pattern_type, thresholds)
    tier = classify_quality_tier(value, in_force, assessed.extracted)
    if tier == "excellent" and assessed.valid_share < settings.excellent_valid_share:
        tier = "good"
    # The item-dependent details come from the judgement; the rest are set in their places.
    details = judged.details.copy()
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
        details["fields"] = _fresh_fields(judged.field_rows)
    explanation = f"crawl reward {value:.4f}: {pattern_type}, tier {tier}{judged.defects_note}"
    return RewardSignal(value, components, explanation, details)
