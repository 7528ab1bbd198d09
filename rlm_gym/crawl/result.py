"""Reading a crawl result: its shape checked, its items, schema, pages, time and errors.

A crawl result is a dict with ``success`` and ``data`` (a list of items) and, optionally,
``navigation_result.pages_collected``, ``execution_time_ms``, ``errors`` / ``error``,
``extraction_schema`` and ``pattern_type`` (see ``docs/crawl-reward.md``). Anything of the
wrong kind raises ``ValueError("Invalid crawl result: ...")`` naming the problem.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from numbers import Real
from typing import Any

__all__ = [
    "bad_result",
    "checked_result",
    "required_fields",
    "given_pattern_type",
    "pages_collected",
    "checked_number",
    "error_count",
]


def _is_mapping(value: Any) -> bool:
    # `type is dict` first: ABC isinstance checks cost more than the rest of a small call.
    return type(value) is dict or isinstance(value, Mapping)


def bad_result(message: str) -> ValueError:
    """The error raised for a crawl result that is not one (``message`` says why)."""
    return ValueError(f"Invalid crawl result: {message}")


def checked_number(key: str, value: Any) -> float:
    """The result's ``key``, ``value``, as a finite float >= 0 (else :func:`bad_result`)."""
    kind = type(value)
    if kind is float and value >= 0.0 and value != math.inf:
        return value
    # An exact int is a Real and no bool: skip the checks (ABC ones are slow) for page counts.
    real = kind is int or (not isinstance(value, bool) and isinstance(value, Real))
    if not real or not value >= 0.0:
        raise bad_result(f"expected `{key}` to be a number >= 0, got {value!r}")
    try:
        number = float(value)
    except OverflowError:  # an int past float's range (10**400)
        number = math.inf
    if number == math.inf:
        raise bad_result(f"expected `{key}` to be finite, got {value!r}")
    return number


def pages_collected(result: Mapping[str, Any]) -> float:
    """Pages the crawl collected: ``navigation_result.pages_collected``, else a top-level
    ``pages_collected``, else 1."""
    navigation = result.get("navigation_result")
    pages = navigation.get("pages_collected") if _is_mapping(navigation) else None
    if pages is None:
        pages = result.get("pages_collected", 1)
    return checked_number("pages_collected", pages)


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
        raise bad_result(f"expected the schema's `required` to be a list of names, got {fields!r}")
    for name in fields:
        if not isinstance(name, str):
            raise bad_result(f"expected required field names to be strings, got {name!r}")
    return tuple(fields)


def checked_result(
    result: Mapping[str, Any], schema: Mapping[str, Any] | Sequence[str] | None
) -> tuple[Sequence[Any], tuple[str, ...]]:
    """The result's items and required fields, after checking its shape.

    ``schema`` None uses the result's ``extraction_schema``; ``data`` None means no items.
    """
    if not _is_mapping(result):
        raise bad_result(f"expected a dict, got {type(result).__name__} {result!r:.80}")
    if "success" not in result or "data" not in result:
        missing = " and ".join(f"`{key}`" for key in ("success", "data") if key not in result)
        raise bad_result(f"missing {missing} (a crawl result needs `success` and `data`)")
    data = result["data"]
    if data is None:
        data = ()
    elif not isinstance(data, (list, tuple)):
        raise bad_result(f"expected `data` to be a list of items, got {type(data).__name__}")
    if schema is None:
        schema = result.get("extraction_schema")
    return data, required_fields(schema)


def given_pattern_type(result: Mapping[str, Any], pattern_type: str | None) -> str | None:
    """The pattern type given by the caller or the result (None: classify the data)."""
    if pattern_type is None:
        pattern_type = result.get("pattern_type") or None
    if pattern_type is not None and not isinstance(pattern_type, str):
        raise bad_result(f"expected `pattern_type` to be a string, got {pattern_type!r}")
    return pattern_type


def error_count(result: Mapping[str, Any]) -> int:
    """The crawl's errors: the entries of ``errors`` (a non-list counts as one) plus one for
    a truthy ``error``."""
    errors = result.get("errors")
    count = 0
    if errors:
        count = len(errors) if isinstance(errors, (list, tuple)) else 1
    if result.get("error"):
        count += 1
    return count
