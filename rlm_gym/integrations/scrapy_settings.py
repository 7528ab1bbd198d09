"""The ``RLM_GYM_*`` Scrapy settings of the crawl-reward extension, read and checked once.

Values come as Scrapy settings do: Python values from ``settings.py`` or a spider's
``custom_settings``, or strings from the command line (``-s RLM_GYM_MIN_TIER=good``): booleans
as ``True``/``False``/``1``/``0``, lists as comma-separated names, the config as a JSON object.
A bad value raises ``ValueError`` naming the setting, the value and what is accepted.

This module does not import Scrapy: it reads any mapping with ``.get(name)``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.crawl.patterns import PATTERN_TYPES, TIERS
from rlm_gym.crawl.policy import CrawlRewardPolicy

__all__ = ["SETTINGS", "ExtensionOptions", "read_options"]

SETTINGS: dict[str, tuple[Any, str]] = {
    "RLM_GYM_ENABLED": (False, "score the crawl; off by default, so listing the extension is safe"),
    "RLM_GYM_REQUIRED_FIELDS": (
        [],
        "the fields every item must have (a list or 'f1,f2'); none: each item is judged on its "
        "own fields (zero-config)",
    ),
    "RLM_GYM_PATTERN_TYPE": (None, "the crawl's pattern type; None: detected from the items"),
    "RLM_GYM_MIN_TIER": (
        None,
        "close the spider with reason `rlm_gym_below_min_tier` when the tier is lower; one of "
        "'excellent', 'good', 'acceptable', 'poor'",
    ),
    "RLM_GYM_SAMPLE_SIZE": (
        10_000,
        "distinct items kept for scoring (a uniform sample beyond it; memory is bounded by it)",
    ),
    "RLM_GYM_CONFIG": (
        {},
        "overrides of the crawl reward's config (a dict or a JSON object), as for "
        "CrawlRewardPolicy",
    ),
    "RLM_GYM_DOMAIN": (
        None,
        "the site's name in the score; None: the spider's first allowed domain, else its name",
    ),
    "RLM_GYM_EXPLAIN": (True, "log the per-field report of `rlm-gym score --explain`"),
}
"""Each setting's default and meaning (the table of ``docs/crawl-reward.md``)."""

_TRUE = frozenset({"1", "true", "True"})
_FALSE = frozenset({"0", "false", "False"})


@dataclass(frozen=True)
class ExtensionOptions:
    """The checked values of the ``RLM_GYM_*`` settings (see :data:`SETTINGS`)."""

    enabled: bool = False
    required_fields: tuple[str, ...] = ()
    pattern_type: str | None = None
    min_tier: str | None = None
    sample_size: int = 10_000
    config: dict[str, Any] = field(default_factory=dict)
    domain: str | None = None
    explain: bool = True


def _bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value in _TRUE | _FALSE:
        return value in _TRUE
    raise ValueError(f"`{name}` must be a boolean (True/False, 1/0, 'true'/'false'), got {value!r}")


def _names(name: str, value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    names = value.split(",") if isinstance(value, str) else value
    if not isinstance(names, (list, tuple)):
        raise ValueError(
            f"`{name}` must be a list of field names or a comma-separated string, got {value!r}"
        )
    if isinstance(value, str) and not value.strip():
        return ()
    cleaned = tuple(item.strip() if isinstance(item, str) else item for item in names)
    if not all(isinstance(item, str) and item for item in cleaned):
        raise ValueError(
            f"`{name}` must be a list of non-empty field names or a comma-separated string, "
            f"got {value!r}"
        )
    return cleaned


def _choice(name: str, value: Any, choices: tuple[str, ...], what: str) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or value not in choices:
        raise unknown_name_error(what, str(value), choices, f"in setting `{name}`")
    return value


def _sample_size(name: str, value: Any) -> int:
    try:
        number = int(value) if isinstance(value, str) else value
    except ValueError:
        number = None
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ValueError(f"`{name}` must be an integer >= 1, got {value!r}")
    return number


def _config(name: str, value: Any) -> dict[str, Any]:
    if value is None or value == "":
        return {}
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as error:
            raise ValueError(
                f"`{name}` must be a dict or a JSON object, got {value!r}: {error}"
            ) from None
    if not isinstance(value, Mapping):
        raise ValueError(f"`{name}` must be a dict or a JSON object, got {value!r}")
    config = dict(value)
    try:  # checked now, where the user sees which setting it came from
        CrawlRewardPolicy(config)
    except (TypeError, ValueError) as error:
        raise ValueError(f"`{name}`: {error}") from None
    return config


def _domain(name: str, value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ValueError(f"`{name}` must be a string (the site's name), got {value!r}")
    return value


def read_options(settings: Any) -> ExtensionOptions:
    """The extension's options from Scrapy settings (or any mapping with ``.get``).

    Raises:
        ValueError: A setting with a value it does not accept (the message names the setting,
            the value and the accepted values).

    Example:
        >>> options = read_options({"RLM_GYM_ENABLED": "1", "RLM_GYM_REQUIRED_FIELDS": "a,b"})
        >>> options.enabled, options.required_fields, options.min_tier
        (True, ('a', 'b'), None)
        >>> read_options({"RLM_GYM_MIN_TIER": "godo"})
        Traceback (most recent call last):
        ...
        ValueError: Unknown tier 'godo' in setting `RLM_GYM_MIN_TIER`. Did you mean 'good'? \
Available: 'excellent', 'good', 'acceptable', 'poor'
    """

    def get(name: str) -> Any:
        value = settings.get(name)
        return SETTINGS[name][0] if value is None else value

    return ExtensionOptions(
        enabled=_bool("RLM_GYM_ENABLED", get("RLM_GYM_ENABLED")),
        required_fields=_names("RLM_GYM_REQUIRED_FIELDS", get("RLM_GYM_REQUIRED_FIELDS")),
        pattern_type=_choice(
            "RLM_GYM_PATTERN_TYPE", get("RLM_GYM_PATTERN_TYPE"), PATTERN_TYPES, "pattern type"
        ),
        min_tier=_choice("RLM_GYM_MIN_TIER", get("RLM_GYM_MIN_TIER"), TIERS, "tier"),
        sample_size=_sample_size("RLM_GYM_SAMPLE_SIZE", get("RLM_GYM_SAMPLE_SIZE")),
        config=_config("RLM_GYM_CONFIG", get("RLM_GYM_CONFIG")),
        domain=_domain("RLM_GYM_DOMAIN", get("RLM_GYM_DOMAIN")),
        explain=_bool("RLM_GYM_EXPLAIN", get("RLM_GYM_EXPLAIN")),
    )
