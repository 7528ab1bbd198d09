"""Batch scoring: crawl results (or their JSON lines) scored one at a time with any policy.

The engine of ``rlm-gym score``, usable on its own: :func:`iter_scores` turns lines into scored
rows in constant memory, :class:`Summary` counts them per pattern type, :func:`explain_lines`
says why a crawl scored as it did, :func:`bad_rows` lists the items
:func:`~rlm_gym.crawl.reward.check_items` rejects. Nothing here reads files or prints: the
command line does that.

A scored row is ``{"line", "domain", "pattern_type", "tier", "bucket", "reward", "components"}``
(:data:`ROW_KEYS` and the per-component values). A crawl without a single item (an object) is
never better than ``poor``, whatever its reward.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from rlm_gym._validation import too_deep
from rlm_gym.crawl.patterns import (
    TIERS,
    classify_quality_tier,
    pattern_thresholds,
    storage_bucket,
)
from rlm_gym.crawl.policy import CrawlRewardPolicy
from rlm_gym.crawl.reward import check_items, crawl_reward
from rlm_gym.policies.base import RewardPolicy
from rlm_gym.policies.types import ActionResult, PolicyContext
from rlm_gym.tables import text_table

__all__ = [
    "EXPLAIN_KEYS",
    "ROW_KEYS",
    "Summary",
    "bad_rows",
    "explain_lines",
    "explanation",
    "iter_scores",
    "score_lines",
    "short_repr",
    "summarize",
]

ROW_KEYS = ("line", "domain", "pattern_type", "tier", "bucket", "reward")
"""The keys of a scored row besides ``components``, in column order."""

EXPLAIN_KEYS = ("items", "distinct_items", "junk_items", "valid_share", "defects")
"""The crawl-wide diagnostics of a score's details (beside the per-field ``fields``)."""

_FINAL = {"action": "final"}


def _describe(value: Any) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def _score_one(
    result: dict[str, Any], policy: RewardPolicy, context: PolicyContext
) -> dict[str, Any]:
    crawl_policy = isinstance(policy, CrawlRewardPolicy)
    # The crawl policy's own score is crawl_reward's: validate and score in one pass.
    crawl = None if crawl_policy else crawl_reward(result)  # validates the line whatever the policy
    action_result = ActionResult(
        "final", bool(result.get("success")), metadata={"crawl_result": result}
    )
    policy.on_episode_start(context)
    signal = policy.calculate(_FINAL, action_result, context)
    policy.on_episode_end(context, signal.value)
    details = signal.details if crawl is None else crawl.details
    own = signal.details if "tier" in signal.details else {}
    pattern_type = details["pattern_type"]
    thresholds = pattern_thresholds(pattern_type)
    data = result["data"] or ()
    tier = own.get("tier") or classify_quality_tier(signal.value, thresholds, len(data))
    if not any(isinstance(item, dict) for item in data):
        tier = "poor"  # a crawl that extracted nothing, however fast and error-free, is poor
    return {
        "domain": str(result.get("domain") or "unknown"),
        "pattern_type": pattern_type,
        "tier": tier,
        "bucket": own.get("bucket") or storage_bucket(signal.value, thresholds),
        "reward": signal.value,
        "components": {name: float(value) for name, value in signal.components.items()},
        "details": details,
    }


def _parse_line(
    raw: bytes | str | dict[str, Any],
    schema: dict[str, Any] | None,
    overrides: Mapping[str, Any],
) -> dict[str, Any] | str:
    """A crawl result from one line (or a parsed result), or the problem with it (a string)."""
    if isinstance(raw, dict):
        result = raw
    elif isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            return f"not UTF-8: byte {raw[error.start]:#04x} at column {error.start + 1}"
    if not isinstance(raw, dict):
        try:
            result = json.loads(raw)
        except json.JSONDecodeError as error:
            return f"invalid JSON: {error.msg} (column {error.colno})"
        except RecursionError:
            return str(too_deep())
    if not isinstance(result, dict):
        return f"expected a JSON object (one crawl result), got {_describe(result)}"
    if schema is not None:
        result = {**result, "extraction_schema": schema}
    if overrides:
        result = {**result, **overrides}
    return result


def iter_scores(
    lines: Iterable[tuple[int, bytes | str]] | Iterable[bytes | str],
    policy: RewardPolicy,
    schema_fields: Sequence[str] | None = None,
    task: str = "",
    overrides: Mapping[str, Any] | None = None,
) -> Iterator[tuple[int, dict[str, Any], dict[str, Any] | str]]:
    """Score crawl-result lines one at a time; blank lines are skipped.

    ``lines`` are ``bytes`` (decoded as UTF-8 one by one) or ``str``, numbered from 1, or
    ``(number, line)`` pairs. Yields ``(number, result, row)`` for a scored line (``row`` as in
    :func:`score_lines`, plus ``details``: the score's details) and ``(number, {}, problem)``
    for an invalid one. Nothing is kept between lines.

    Example:
        >>> for number, _, row in iter_scores([b'{"success": true, "data": []}', b'[1]'],
        ...                                   CrawlRewardPolicy()):
        ...     print(number, row if isinstance(row, str) else row["reward"])
        1 0.4
        2 expected a JSON object (one crawl result), got an array
    """
    schema = {"required": list(schema_fields)} if schema_fields else None
    overrides = dict(overrides or {})
    for number, line in enumerate(lines, start=1):
        if isinstance(line, tuple):
            number, line = line
        if not isinstance(line, dict) and not line.strip():
            continue
        result = _parse_line(line, schema, overrides)
        if isinstance(result, str):
            yield number, {}, result
            continue
        try:
            row = _score_one(result, policy, PolicyContext(task=task))
        except (ValueError, TypeError) as error:
            yield number, {}, str(error)
            continue
        yield number, result, {"line": number, **row}


def score_lines(
    lines: Iterable[str],
    policy: RewardPolicy,
    schema_fields: Sequence[str] | None = None,
    task: str = "",
) -> tuple[list[dict[str, Any]], list[tuple[int, str]]]:
    """Score JSON lines; blank lines are ignored (a list-returning :func:`iter_scores`).

    Returns:
        The scored rows (``line``, ``domain``, ``pattern_type``, ``tier``, ``bucket``,
        ``reward``, ``components``) and the invalid lines as ``(line_number, problem)``.

    Example:
        >>> rows, invalid = score_lines(['{"success": true, "data": []}', '', '[1]', '{"data": 1}'],
        ...                             CrawlRewardPolicy())
        >>> [(row["line"], row["reward"]) for row in rows]
        [(1, 0.4)]
        >>> invalid
        [(3, 'expected a JSON object (one crawl result), got an array'), (4, 'Invalid crawl result: missing `success` (a crawl result needs `success` and `data`)')]
    """  # noqa: E501
    rows: list[dict[str, Any]] = []
    invalid: list[tuple[int, str]] = []
    for number, _, row in iter_scores(lines, policy, schema_fields, task):
        if isinstance(row, str):
            invalid.append((number, row))
        else:
            row.pop("details")
            rows.append(row)
    return rows, invalid


class Summary:
    """Per pattern type (in order of first appearance) and overall: count, mean, min, max of
    the reward and the count of each tier, updated one row at a time (constant memory).

    Example:
        >>> summary = Summary()
        >>> summary.add({"pattern_type": "product_list", "reward": 0.9, "tier": "excellent"})
        >>> summary.add({"pattern_type": "product_list", "reward": 0.5, "tier": "acceptable"})
        >>> [(s["pattern_type"], s["count"], round(s["mean"], 4)) for s in summary.rows()]
        [('product_list', 2, 0.7), ('all', 2, 0.7)]
    """

    def __init__(self) -> None:
        self._groups: dict[str, dict[str, Any]] = {}
        self._all = self._empty("all")

    @staticmethod
    def _empty(pattern_type: str) -> dict[str, Any]:
        return {
            "pattern_type": pattern_type,
            "count": 0,
            "total": 0.0,
            "min": math.inf,
            "max": -math.inf,
            **dict.fromkeys(TIERS, 0),
        }

    def add(self, row: Mapping[str, Any]) -> None:
        """Count one scored row (``pattern_type``, ``reward``, ``tier``)."""
        group = self._groups.get(row["pattern_type"])
        if group is None:
            group = self._groups[row["pattern_type"]] = self._empty(row["pattern_type"])
        reward = row["reward"]
        for entry in (group, self._all):
            entry["count"] += 1
            entry["total"] += reward
            entry["min"] = min(entry["min"], reward)
            entry["max"] = max(entry["max"], reward)
            if row["tier"] in TIERS:
                entry[row["tier"]] += 1

    @property
    def count(self) -> int:
        """How many rows were added."""
        return self._all["count"]

    def rows(self) -> list[dict[str, Any]]:
        """The summary rows: ``pattern_type, count, mean, min, max`` and one count per tier."""
        entries = [*self._groups.values(), self._all] if self.count else []
        return [
            {
                "pattern_type": entry["pattern_type"],
                "count": entry["count"],
                "mean": entry["total"] / entry["count"],
                "min": entry["min"],
                "max": entry["max"],
                **{tier: entry[tier] for tier in TIERS},
            }
            for entry in entries
        ]


def summarize(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per pattern type (in order of first appearance) and overall: count, mean, min, max of
    the reward and the count of each tier.

    Example:
        >>> rows = [{"pattern_type": "product_list", "reward": 0.9, "tier": "excellent"},
        ...         {"pattern_type": "product_list", "reward": 0.5, "tier": "acceptable"}]
        >>> summary = summarize(rows)
        >>> [(s["pattern_type"], s["count"], round(s["mean"], 4), s["excellent"]) for s in summary]
        [('product_list', 2, 0.7, 1), ('all', 2, 0.7, 1)]
    """
    summary = Summary()
    for row in rows:
        summary.add(row)
    return summary.rows()


# --- explanations -------------------------------------------------------------------------


def short_repr(value: Any, width: int = 40) -> str:
    """A value as it would be written in Python (strings quoted), cut to about ``width``.

    Example:
        >>> short_repr("N/A"), short_repr(["a", 1]), short_repr("x" * 50, width=8)
        ("'N/A'", '["a", 1]', "'xxxxxxx…'")
    """
    if isinstance(value, str):
        return repr(value if len(value) <= width else value[: width - 1] + "…")
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= width else text[: width - 1] + "…"


def _share(part: Any, whole: Any) -> str:
    try:
        return f"{100.0 * float(part) / float(whole):.1f} %" if whole else "-"
    except (TypeError, ValueError):
        return "-"


def explain_lines(details: Mapping[str, Any]) -> list[str]:
    """Readable lines explaining a crawl's score from its details: items, the share of valid
    required values, the systematic defects, and per field its type, how many values were
    checked and invalid, and up to 3 bad values (see ``docs/crawl-reward.md``).

    Example:
        >>> details = {"items": 20, "distinct_items": 20, "junk_items": 0, "valid_share": 0.5,
        ...            "defects": ["rating: invalid on 100 % of items (e.g. '45', '50')"],
        ...            "fields": {"rating": {"type": "rating", "checked": 20, "invalid": 20,
        ...                                  "examples": ["45", "50"]}}}
        >>> print("\\n".join(explain_lines(details)))
        items 20, distinct 20, junk 0; valid required values 50.0 %
        defects:
          - rating: invalid on 100 % of items (e.g. '45', '50')
        field   type    checked  invalid  invalid %  bad values
        rating  rating       20       20    100.0 %  '45', '50'
    """
    if not any(key in details for key in (*EXPLAIN_KEYS, "fields")):
        return ["no per-field diagnostics: this policy's details have none"]
    valid_share = details.get("valid_share")
    share = f"{100.0 * valid_share:.1f} %" if isinstance(valid_share, (int, float)) else "-"
    lines = [
        f"items {details.get('items', '-')}, distinct {details.get('distinct_items', '-')}, "
        f"junk {details.get('junk_items', '-')}; valid required values {share}"
    ]
    defects = details.get("defects") or []
    lines.append("defects:" if defects else "defects: none")
    lines += [f"  - {defect}" for defect in defects]
    fields = details.get("fields") or {}
    if fields:
        headers = ["field", "type", "checked", "invalid", "invalid %", "bad values"]
        records = [
            [
                str(name),
                str(info.get("type", "-")),
                str(info.get("checked", "-")),
                str(info.get("invalid", "-")),
                _share(info.get("invalid"), info.get("checked")),
                ", ".join(short_repr(example) for example in info.get("examples") or ()),
            ]
            for name, info in fields.items()
        ]
        right_aligned = [False, False, True, True, True, False]
        lines += text_table(headers, records, right_aligned=right_aligned).split("\n")
        lines += _why_lines(fields)
    return lines


def _why_lines(fields: Mapping[str, Any]) -> list[str]:
    """Per field with rejected values: the rules that rejected them, in words, and the shape
    that was expected ("rating: out of range (168 values): a number outside its scale ...;
    expected a score on a known scale ...")."""
    from rlm_gym.quality.values import EXPECTED, REASONS

    lines: list[str] = []
    for name, info in fields.items():
        reasons = info.get("reasons") or {}
        if not reasons:
            continue
        if not lines:
            lines.append("why values were rejected:")
        kind = str(info.get("type", "text"))
        lines.append(f"  {name} (read as {kind}; expected {EXPECTED.get(kind, kind)}):")
        for reason, count in reasons.items():
            meaning = (
                _TYPED_REASON_WORDS.get((kind, reason))
                or _REASON_WORDS.get(reason)
                or REASONS.get(reason, "")
            )
            plural = "value" if count == 1 else "values"
            lines.append(f"    - {reason} ({count} {plural})" + (f": {meaning}" if meaning else ""))
    return lines


_TYPED_REASON_WORDS = {
    ("rating", "out of range"): "a score above 5 (or below 0) in a column that goes "
    "beyond 10, no other scale stated anywhere in the crawl ('45': a 4.5 scraped x10?)",
    ("date", "out of range"): "a year outside 1900-2100 in every calendar the value may be "
    "written in",
    ("count", "out of range"): "an infinite count",
    ("price", "out of range"): "an amount of 10^15 or more",
}
_REASON_WORDS = {
    "missing": "the item has no such field",
    "not a dict item": "the item is not a record",
    "header row": "the value is a field name: a table header scraped as data",
    "shifted column": "a bare rating, count, price or date where names or text belong: the "
    "selector took a neighbouring column",
    "page-wide value": "one value on every item: a selector not scoped to the item",
    "cut short": "far shorter than its column's other texts and stopping mid-sentence, where "
    "they end theirs: the selector stopped at an inline element",
    "label in the value": "the value carries its own label ('Price: 3,7 mld'): the label's "
    "element was scraped with it",
    "section heading": "a one- or two-word heading among sentence-long headlines",
    "not a name": "a sentence where a person's name belongs",
    "copy of another field": "the value repeats another field of the same item",
    "widget label": "one text on every item of several columns, a wrong value in one of them: "
    "a card's constant badge taken by their selectors",
}


def explanation(details: Mapping[str, Any]) -> dict[str, Any]:
    """The diagnostics of a score's details (:data:`EXPLAIN_KEYS` and ``fields``), as data."""
    return {key: details.get(key) for key in (*EXPLAIN_KEYS, "fields")}


def bad_rows(
    result: Mapping[str, Any],
    line: int,
    check: Callable[[Mapping[str, Any]], list[dict[str, tuple[bool, str]]]] | None = None,
) -> Iterator[dict[str, Any]]:
    """The items of ``result`` that ``check`` (default :func:`~rlm_gym.crawl.reward.check_items`)
    rejects: ``{"line", "index", "item", "reasons": {field: reason}}`` for each item with an
    invalid field, in order.

    Example:
        >>> result = {"success": True, "data": [{"price": "€ 5"}, {"price": "N/A"}]}
        >>> verdicts = lambda r: [{"price": (True, "")}, {"price": (False, "placeholder")}]
        >>> list(bad_rows(result, 3, verdicts))
        [{'line': 3, 'index': 1, 'item': {'price': 'N/A'}, 'reasons': {'price': 'placeholder'}}]
    """
    items = result.get("data") or []
    verdicts_per_item = (check or check_items)(result)
    for index, (item, verdicts) in enumerate(zip(items, verdicts_per_item, strict=False)):
        reasons = {field: reason for field, (valid, reason) in verdicts.items() if not valid}
        if reasons:
            yield {"line": line, "index": index, "item": item, "reasons": reasons}
