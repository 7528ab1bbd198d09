"""The crawl reward's configuration: its keys, their default tables and cross-key rules.

Every constant of the crawl reward lives in one table here and is overridable through the
``crawl`` policy's config (and ``crawl_reward(config=...)``). Table-valued keys (``weights``,
``quantity_targets``, ``thresholds``, ...) are merged entry by entry over their defaults, so
``{"weights": {"validation": 0.5}}`` changes one weight and keeps the others.
:mod:`rlm_gym.crawl.settings` turns a config into the settings the scorer reads.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.crawl.patterns import DEFAULT_PATTERN_TYPE, PATTERN_THRESHOLDS, QUANTITY_TARGETS

__all__ = [
    "COMPONENT_NAMES",
    "WEIGHTED_COMPONENTS",
    "COMPONENT_WEIGHTS",
    "DEFECT_RULES",
    "EFFICIENCY_ERROR_RULES",
    "VALIDATION_WEIGHTS",
    "SCHEMALESS_VALIDATION_WEIGHTS",
    "TIME_BUDGETS",
    "THRESHOLD_KEYS",
    "default_crawl_config",
    "merge_tables",
    "check_crawl_config",
]

WEIGHTED_COMPONENTS = ("success", "has_data", "validation", "quantity", "efficiency")
"""The components weighted by config ``weights`` (each weight times a raw score in [0, 1])."""

COMPONENT_NAMES = (*WEIGHTED_COMPONENTS, "defects")
"""Every component ``crawl_reward`` emits: the weighted five and the ``defects`` penalty."""

COMPONENT_WEIGHTS: dict[str, float] = {
    "success": 0.25,
    "has_data": 0.15,
    "validation": 0.30,
    "quantity": 0.15,
    "efficiency": 0.15,
}
"""Weight of each raw score in the reward (config ``weights``)."""

VALIDATION_WEIGHTS: dict[str, float] = {"presence": 0.4, "completeness": 0.3, "quality": 0.3}
"""Per-item validation mix over the schema's required fields (config ``validation_weights``)."""

SCHEMALESS_VALIDATION_WEIGHTS: dict[str, float] = {"completeness": 0.5, "quality": 0.5}
"""Per-item mix over an item's own fields when there is no schema."""

TIME_BUDGETS: dict[str, float] = {
    "single_page_budget_ms": 30000.0,
    "single_page_penalty_span_ms": 60000.0,
    "single_page_max_penalty": 0.3,
    "multi_page_budget_ms": 15000.0,
    "multi_page_penalty_span_ms": 45000.0,
    "multi_page_max_penalty": 0.4,
    "fast_page_ms": 10000.0,
    "fast_page_bonus": 0.1,
}
"""Efficiency: penalty = min(max, (time_per_page - budget) / span) above the budget; a bonus
below ``fast_page_ms`` for multi-page crawls."""

DEFECT_RULES: dict[str, float] = {
    "defect_penalty": 0.15,
    "max_defects": 3,
    "defect_min_items": 5,
    "defect_field_share": 0.20,
    "defect_duplicate_share": 0.20,
    "excellent_valid_share": 0.95,
}
"""Systematic defects: with at least ``defect_min_items`` distinct items, a checked
field invalid on ``defect_field_share`` of them, or exact duplicates making up
``defect_duplicate_share`` of the rows, is a defect costing ``defect_penalty`` (at most
``max_defects`` count); "excellent" also needs ``excellent_valid_share`` of the values valid."""

EFFICIENCY_ERROR_RULES = ("any", "graded")
"""``efficiency_errors``: "any" zeroes efficiency on the first error (the document's rule);
"graded" scales it by max(0, 1 - ``error_step`` x errors)."""

THRESHOLD_KEYS = ("failure", "success", "excellent", "min_items")

_TABLE_KEYS = (
    "weights",
    "validation_weights",
    "schemaless_validation_weights",
    "quantity_targets",
    "thresholds",
)


def default_crawl_config() -> dict[str, Any]:
    """The ``crawl`` policy's default configuration (a fresh, deep-copied dict).

    Example:
        >>> config = default_crawl_config()
        >>> config["weights"]["validation"], config["quantity_targets"]["product_list"]
        (0.3, 10)
    """
    return copy.deepcopy(
        {
            "weights": COMPONENT_WEIGHTS,
            "validation_weights": VALIDATION_WEIGHTS,
            "schemaless_validation_weights": SCHEMALESS_VALIDATION_WEIGHTS,
            "schemaless_validation_cap": 0.85,
            "quantity_targets": QUANTITY_TARGETS,
            "efficiency_cap": 1.0,
            **TIME_BUDGETS,
            "efficiency_errors": "any",
            "error_step": 0.25,
            **DEFECT_RULES,
            "thresholds": PATTERN_THRESHOLDS,
            "knowledge_store": None,
            "adaptive_thresholds": False,
        }
    )


def merge_tables(config: Mapping[str, Any]) -> dict[str, Any]:
    """``config`` with each table merged entry by entry over its default.

    A pattern type new to ``thresholds`` starts from ``generic_extraction``'s row.

    Example:
        >>> merged = merge_tables({"weights": {"validation": 0.5}, "thresholds": {}})
        >>> merged["weights"]["validation"], merged["weights"]["success"]
        (0.5, 0.25)
    """
    defaults = default_crawl_config()
    merged = dict(config)
    for key in _TABLE_KEYS:
        if key not in merged:
            continue
        table = {**defaults[key], **merged[key]}
        if key == "thresholds":
            generic = defaults["thresholds"][DEFAULT_PATTERN_TYPE]
            table = {
                name: {**defaults["thresholds"].get(name, generic), **row}
                for name, row in table.items()
            }
        merged[key] = table
    return merged


def _require(condition: bool, key: str, expectation: str, value: Any) -> None:
    if not condition:
        raise ValueError(f"Expected `{key}` to be {expectation}, got {value!r} for policy 'crawl'")


def _check_names(what: str, given: Mapping[str, Any], valid: tuple[str, ...]) -> None:
    for name in given:
        if name not in valid:
            raise unknown_name_error(what, name, valid, "for policy 'crawl'")


def check_crawl_config(config: Mapping[str, Any]) -> None:
    """Check the crawl config's cross-key rules (names in tables, ranges, threshold order).

    Raises:
        ValueError: An unknown component / sub-score / threshold name (with a suggestion and
            the valid names), or a value out of its range.

    Example:
        >>> config = {**default_crawl_config(), "weights": {"valdation": 1.0}}
        >>> check_crawl_config(config)
        Traceback (most recent call last):
        ...
        ValueError: Unknown component 'valdation' for policy 'crawl'. Did you mean 'validation'? ...
    """
    merged = merge_tables(config)
    _check_names("component", merged["weights"], WEIGHTED_COMPONENTS)
    _check_names("validation sub-score", merged["validation_weights"], tuple(VALIDATION_WEIGHTS))
    _check_names(
        "schemaless validation sub-score",
        merged["schemaless_validation_weights"],
        tuple(SCHEMALESS_VALIDATION_WEIGHTS),
    )
    for key in ("weights", "validation_weights", "schemaless_validation_weights"):
        for name, weight in merged[key].items():
            _require(weight >= 0.0, f"{key}[{name!r}]", "a number >= 0", weight)
    for name, target in merged["quantity_targets"].items():
        _require(target > 0.0, f"quantity_targets[{name!r}]", "a number > 0", target)
    cap = merged["schemaless_validation_cap"]
    _require(0.0 <= cap <= 1.0, "schemaless_validation_cap", "in [0, 1]", cap)
    _require(merged["efficiency_cap"] >= 0.0, "efficiency_cap", ">= 0", merged["efficiency_cap"])
    for key in TIME_BUDGETS:
        given = merged[key]
        if key.endswith("_ms"):
            _require(given > 0.0, key, "a duration > 0 ms", given)
        elif key.endswith("_penalty"):
            _require(0.0 <= given <= 1.0, key, "in [0, 1]", given)
        else:
            _require(given >= 0.0, key, ">= 0", given)
    rule = merged["efficiency_errors"]
    if rule not in EFFICIENCY_ERROR_RULES:
        raise unknown_name_error(
            "efficiency_errors rule", rule, EFFICIENCY_ERROR_RULES, "for policy 'crawl'"
        )
    _require(0.0 <= merged["error_step"] <= 1.0, "error_step", "in [0, 1]", merged["error_step"])
    for key in ("defect_penalty", "defect_field_share", "defect_duplicate_share"):
        _require(0.0 <= merged[key] <= 1.0, key, "in [0, 1]", merged[key])
    _require(
        0.0 <= merged["excellent_valid_share"] <= 1.0,
        "excellent_valid_share",
        "in [0, 1]",
        merged["excellent_valid_share"],
    )
    for key in ("max_defects", "defect_min_items"):
        given = merged[key]
        _require(given >= 0 and float(given).is_integer(), key, "a whole number >= 0", given)
    for name, row in merged["thresholds"].items():
        _check_names(f"threshold of '{name}'", row, THRESHOLD_KEYS)
        where = f"thresholds[{name!r}]"
        _require(
            0.0 <= row["failure"] <= row["success"] <= row["excellent"] <= 1.0,
            where,
            "ordered as 0 <= failure <= success <= excellent <= 1",
            row,
        )
        min_items = row["min_items"]
        _require(
            min_items >= 0 and float(min_items).is_integer(),
            f"{where}['min_items']",
            "a whole number >= 0",
            min_items,
        )
    store = merged["knowledge_store"]
    if store is not None and not isinstance(store, str):
        raise TypeError(
            f"Expected `knowledge_store` for policy 'crawl' to be None or a path string "
            f"(or ':memory:'), got {type(store).__name__} {store!r}"
        )
