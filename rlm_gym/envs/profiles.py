"""Hidden site profiles of the simulated crawl: the distributions, as data tables, and the sampler.

Every episode of ``rlm_gym/Crawl-v1`` crawls one site whose profile is drawn here at ``reset``.
The tables below are the documented distributions (their sources are summarised in the README's
profile table); ``sample_profile`` draws one profile from one
block of uniforms (one generator call; ``profile_from_uniforms`` maps the block to the profile,
and the env draws that block together with the rest of a reset's draws).

Example:
    >>> import numpy as np
    >>> profile = sample_profile(np.random.default_rng(0))
    >>> profile.pattern_type in SIMULATED_PATTERN_TYPES
    True
    >>> profile.target_items >= 1
    True
"""

from __future__ import annotations

import bisect
import itertools
import math
from statistics import NormalDist
from typing import Any, NamedTuple

import numpy as np

from rlm_gym._validation import unknown_name_error
from rlm_gym.quality import BASE_PATTERN_TYPES

__all__ = [
    "SIMULATED_PATTERN_TYPES",
    "SCHEMAS",
    "MULTI_ITEM_TYPES",
    "RENDERINGS",
    "PAGINATIONS",
    "PROTECTIONS",
    "DISTRIBUTIONS",
    "SiteProfile",
    "OVERRIDE_RANGES",
    "PROFILE_DRAWS",
    "sample_profile",
    "profile_from_uniforms",
    "check_overrides",
]

# The pattern types the simulator draws sites of, in the order of the observation's one-hot
# block: the crawl reward's seven types other than listings. The simulator has no item generator,
# extraction schema or CSS selectors for the listing types (job, event, real-estate and business
# listings), so it cannot draw their sites.
SIMULATED_PATTERN_TYPES: tuple[str, ...] = BASE_PATTERN_TYPES

# Required fields of each type's extraction schema (field names chosen so that the crawl
# reward's field checks apply: price → number > 0, rating → [0, 5], date → parseable date).
SCHEMAS: dict[str, tuple[str, ...]] = {
    "article_extraction": ("headline", "author", "date_published", "content"),
    "contact_info": ("name", "email", "phone", "address"),
    "price_extraction": ("product_name", "price", "price_currency", "availability"),
    "product_list": ("product_name", "price", "rating", "product_url"),
    "review_extraction": ("author", "rating", "review_text", "date_published"),
    "product_with_reviews": ("product_name", "price", "rating", "reviews"),
    "generic_extraction": ("title", "url", "description"),
}

# Simulated types whose pages show many items; the others show one record per page.
MULTI_ITEM_TYPES: frozenset[str] = frozenset(
    {"product_list", "price_extraction", "review_extraction"}
)

RENDERINGS: tuple[str, ...] = ("static", "hydrated", "client_only")
PAGINATIONS: tuple[str, ...] = ("single", "url_param", "next_link", "load_more", "infinite_scroll")
PROTECTIONS: tuple[str, ...] = ("none", "rate_limit", "waf_http", "waf_headless")

# (values, probabilities) of every discrete profile attribute. Sources and the places where
# we chose differently from the measured figures are in the README's profile table.
DISTRIBUTIONS: dict[str, tuple[tuple[Any, ...], tuple[float, ...]]] = {
    "rendering": ((0, 1, 2), (0.45, 0.30, 0.25)),
    "pagination": ((0, 1, 2, 3, 4), (0.15, 0.30, 0.10, 0.22, 0.23)),
    "protection": ((0, 1, 2, 3), (0.45, 0.20, 0.15, 0.20)),
    "regular_markup": ((True, False), (0.55, 0.45)),
    "click_overlay": ((True, False), (0.3, 0.7)),
    "url_replayable": ((True, False), (0.5, 0.5)),
    "items_per_page": ((12, 24, 48), (0.35, 0.40, 0.25)),
    "review_items_per_page": ((10, 20), (0.5, 0.5)),
    "listing_target_pages": ((2, 3), (0.6, 0.4)),
    "record_target_items": ((3, 5), (0.5, 0.5)),
    "extra_pages": ((1, 3, 6), (0.3, 0.4, 0.3)),
    "time_budget_ms": ((45_000, 90_000), (0.5, 0.5)),
}

# Probability that the site publishes JSON-LD structured data, by pattern type.
JSON_LD_RATE: dict[str, float] = {
    "article_extraction": 0.6,
    "contact_info": 0.3,
    "price_extraction": 0.5,
    "product_list": 0.5,
    "review_extraction": 0.4,
    "product_with_reviews": 0.5,
    "generic_extraction": 0.2,
}

# Server time to first byte: a lognormal site median, rounded to the 100 ms time grid.
TTFB_MEDIAN_MS = 600.0
TTFB_LOG_SD = 0.75
TTFB_RANGE_MS = (100, 6000)
# The job asks for this share of (target pages x items per page) valid items.
TARGET_ITEM_SHARE = 0.8

# Uniform draws per profile (``profile_from_uniforms``).
PROFILE_DRAWS = 17
_STANDARD_NORMAL = NormalDist()

DOMAIN_WORDS: tuple[str, ...] = (
    "acme", "nimbus", "harbor", "quill", "orbit", "maple", "vertex", "lumen",
    "cobalt", "ember", "tandem", "juniper", "atlas", "pioneer", "sable", "willow",
)  # fmt: skip
DOMAIN_SUFFIXES: tuple[str, ...] = ("shop.com", "store.io", "news.net", "reviews.org", "co.uk")


class SiteProfile(NamedTuple):
    """The hidden profile of the simulated site (what the oracle knows and the agent probes).

    Attributes:
        pattern_type: One of ``SIMULATED_PATTERN_TYPES``.
        rendering: Index into ``RENDERINGS`` (2 = client-only: plain HTTP sees an empty shell).
        pagination: Index into ``PAGINATIONS``.
        protection: Index into ``PROTECTIONS``.
        regular_markup: Whether CSS selector templates are reliable on this site.
        json_ld: Whether the pages carry JSON-LD structured data.
        click_overlay: Whether an overlay (cookie banner, modal) intercepts JavaScript clicks on
            link pagination (numbered or next links); load-more buttons are not covered.
        url_replayable: Whether next-link, load-more or infinite-scroll pages are backed by a
            plain URL (an href or a replayable XHR endpoint) that URL navigation can drive;
            without one the server ignores ``?page=N`` and re-serves page 1 (duplicate rows).
        items_per_page: Items shown per page (1 on record types).
        total_pages: Pages the site has (1 for single-page sites).
        target_items: Valid items the job asks for (crawl success needs them).
        ttfb_ms: Median server time to first byte, on the 100 ms grid.
        time_budget_ms: The job's time budget; exceeding it aborts the crawl.
        domain: The site's (fictional) domain name.
    """

    pattern_type: str
    rendering: int
    pagination: int
    protection: int
    regular_markup: bool
    json_ld: bool
    click_overlay: bool
    url_replayable: bool
    items_per_page: int
    total_pages: int
    target_items: int
    ttfb_ms: int
    time_budget_ms: int
    domain: str


def _cumulative(probabilities: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(itertools.accumulate(probabilities))[:-1]


# Each discrete attribute as ``(values, cumulative probabilities)``, one module constant each.
_CHOICES = {name: (values, _cumulative(p)) for name, (values, p) in DISTRIBUTIONS.items()}
_RENDERING = _CHOICES["rendering"]
_PAGINATION = _CHOICES["pagination"]
_PROTECTION = _CHOICES["protection"]
_REGULAR_MARKUP = _CHOICES["regular_markup"]
_CLICK_OVERLAY = _CHOICES["click_overlay"]
_URL_REPLAYABLE = _CHOICES["url_replayable"]
_ITEMS_PER_PAGE = _CHOICES["items_per_page"]
_REVIEW_ITEMS_PER_PAGE = _CHOICES["review_items_per_page"]
_LISTING_TARGET_PAGES = _CHOICES["listing_target_pages"]
_RECORD_TARGET_ITEMS = _CHOICES["record_target_items"]
_EXTRA_PAGES = _CHOICES["extra_pages"]
_TIME_BUDGET = _CHOICES["time_budget_ms"]
_TTFB_LOW, _TTFB_HIGH = TTFB_RANGE_MS


def _choice(table: tuple[tuple[Any, ...], tuple[float, ...]], u: float) -> Any:
    """The value of a discrete attribute for the uniform draw ``u`` (inverse CDF)."""
    values, cumulative = table
    return values[bisect.bisect_right(cumulative, u)]


def sample_profile(
    rng: np.random.Generator,
    pattern_types: tuple[str, ...] | None = None,
    overrides: dict[str, Any] | None = None,
) -> SiteProfile:
    """Draw one site profile.

    Args:
        rng: The generator (the env passes its ``np_random``).
        pattern_types: Pattern types to draw from uniformly (all seven when None).
        overrides: Attribute values to fix (e.g. ``{"protection": 0}``), applied after sampling.

    Returns:
        The profile: ``profile_from_uniforms`` of ``PROFILE_DRAWS`` uniforms from ``rng``.

    Example:
        >>> import numpy as np
        >>> rng = np.random.default_rng(1)
        >>> sample_profile(rng, ("contact_info",), {"pagination": 0}).total_pages
        1
    """
    return profile_from_uniforms(rng.random(PROFILE_DRAWS).tolist(), pattern_types, overrides)


def profile_from_uniforms(
    u: list[float],
    pattern_types: tuple[str, ...] | None = None,
    overrides: dict[str, Any] | None = None,
) -> SiteProfile:
    """The profile that ``PROFILE_DRAWS`` uniform draws in ``[0, 1)`` select.

    ``sample_profile`` draws them from a generator; the env takes them from the one block of
    uniforms it draws per reset (one generator call per reset: each call costs ~2 µs).

    Example:
        >>> profile_from_uniforms([0.5] * PROFILE_DRAWS).pattern_type
        'product_list'
    """
    types = pattern_types or SIMULATED_PATTERN_TYPES
    pattern_type = types[int(u[0] * len(types))]
    if pattern_type == "review_extraction":
        items_per_page = _choice(_REVIEW_ITEMS_PER_PAGE, u[7])
    elif pattern_type in MULTI_ITEM_TYPES:
        items_per_page = _choice(_ITEMS_PER_PAGE, u[7])
    else:
        items_per_page = 1
    ttfb = TTFB_MEDIAN_MS * math.exp(TTFB_LOG_SD * _STANDARD_NORMAL.inv_cdf(0.001 + 0.998 * u[11]))
    word = DOMAIN_WORDS[int(u[13] * len(DOMAIN_WORDS))]
    suffix = DOMAIN_SUFFIXES[int(u[14] * len(DOMAIN_SUFFIXES))]
    values: dict[str, Any] = {
        "pattern_type": pattern_type,
        "rendering": _choice(_RENDERING, u[1]),
        "pagination": _choice(_PAGINATION, u[2]),
        "protection": _choice(_PROTECTION, u[3]),
        "regular_markup": _choice(_REGULAR_MARKUP, u[4]),
        "json_ld": u[5] < JSON_LD_RATE[pattern_type],
        "click_overlay": _choice(_CLICK_OVERLAY, u[6]),
        "url_replayable": _choice(_URL_REPLAYABLE, u[16]),
        "items_per_page": items_per_page,
        "ttfb_ms": int(min(max(round(ttfb / 100.0) * 100, _TTFB_LOW), _TTFB_HIGH)),
        "time_budget_ms": _choice(_TIME_BUDGET, u[12]),
        "domain": f"{word}-{int(u[15] * 1000)}.{suffix}",
    }
    if overrides:
        values.update(overrides)
    target_pages = _choice(_LISTING_TARGET_PAGES, u[8])
    target_records = _choice(_RECORD_TARGET_ITEMS, u[9])
    extra_pages = _choice(_EXTRA_PAGES, u[10])
    return _finish(values, target_pages, target_records, extra_pages)


def _finish(
    values: dict[str, Any], target_pages: int, target_records: int, extra_pages: int
) -> SiteProfile:
    """Derive the job's page count and item target from the drawn attributes."""
    single_page = values["pagination"] == 0
    per_page = values["items_per_page"]
    if "total_pages" not in values:
        if single_page:
            values["total_pages"] = 1
        elif per_page > 1:
            values["total_pages"] = target_pages + extra_pages
        else:
            values["total_pages"] = target_records + extra_pages
    if "target_items" not in values:
        if per_page > 1:
            pages = 1 if single_page else target_pages
            values["target_items"] = math.ceil(TARGET_ITEM_SHARE * pages * per_page)
        else:
            values["target_items"] = 1 if single_page else target_records
    values["regular_markup"] = bool(values["regular_markup"])
    values["json_ld"] = bool(values["json_ld"])
    values["click_overlay"] = bool(values["click_overlay"])
    values["url_replayable"] = bool(values["url_replayable"])
    return SiteProfile(**values)


# The values a profile override may take (``CrawlEnv(**profile_overrides)``): named attributes
# take a name or its index, flags a bool, numbers an int in [low, high]. The bounds keep every
# derived quantity finite and the observation inside its space (e.g. a target of 0 items would
# divide by zero, a rendering index 5 has no render time).
_NAMED = {"rendering": RENDERINGS, "pagination": PAGINATIONS, "protection": PROTECTIONS}
_FLAGS = ("regular_markup", "json_ld", "click_overlay", "url_replayable")
OVERRIDE_RANGES: dict[str, tuple[int, int]] = {
    "items_per_page": (1, 1000),
    "total_pages": (1, 1000),
    "target_items": (1, 100_000),
    "ttfb_ms": (0, 600_000),
    "time_budget_ms": (100, 86_400_000),
}


def _integer(value: Any) -> int | None:
    """``value`` as an int if it is an integer (Python or numpy, not a bool), else None."""
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, (int, np.integer)):
        return int(value)
    return None


def check_overrides(overrides: dict[str, Any]) -> dict[str, Any]:
    """Validate profile overrides and normalise them (names → indices, numpy ints → int).

    Unknown attribute names are the caller's concern (``CrawlEnv`` raises ``TypeError`` for an
    unknown keyword, as Python does); this checks the values of known ones.

    Raises:
        ValueError: A value of the wrong kind or out of range, naming the attribute, what it
            accepts and (for a misspelt name of a rendering, pagination or protection) the
            closest valid name.

    Example:
        >>> check_overrides({"rendering": "client_only", "items_per_page": np.int64(12)})
        {'rendering': 2, 'items_per_page': 12}
        >>> check_overrides({"target_items": 0})
        Traceback (most recent call last):
        ...
        ValueError: Expected profile override `target_items` to be an int in [1, 100000], got 0
    """
    checked: dict[str, Any] = {}
    for key, value in overrides.items():
        where = f"profile override `{key}`"
        if key in _NAMED:
            names = _NAMED[key]
            if isinstance(value, str):
                if value not in names:
                    raise unknown_name_error(key, value, names, f"for `{key}`")
                value = names.index(value)
            else:
                index = _integer(value)
                if index is None or not 0 <= index < len(names):
                    raise ValueError(
                        f"Expected {where} to be one of {names} or an index in "
                        f"[0, {len(names) - 1}], got {type(value).__name__} {value!r}"
                    )
                value = index
        elif key in _FLAGS:
            if not isinstance(value, (bool, np.bool_)):
                raise ValueError(
                    f"Expected {where} to be a bool, got {type(value).__name__} {value!r}"
                )
            value = bool(value)
        elif key in OVERRIDE_RANGES:
            low, high = OVERRIDE_RANGES[key]
            number = _integer(value)
            if number is None or not low <= number <= high:
                kind = "" if number is not None else f"{type(value).__name__} "
                raise ValueError(
                    f"Expected {where} to be an int in [{low}, {high}], got {kind}{value!r}"
                )
            value = number
        elif key == "domain":
            if not isinstance(value, str) or not value.strip():
                raise ValueError(
                    f"Expected {where} to be a non-empty string, got "
                    f"{type(value).__name__} {value!r}"
                )
        else:
            valid = [name for name in SiteProfile._fields if name != "pattern_type"]
            raise unknown_name_error("profile attribute", key, valid, "in `profile_overrides`")
        checked[key] = value
    return checked
