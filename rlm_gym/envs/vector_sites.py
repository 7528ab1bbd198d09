"""Crawl-v2's sites drawn for many sub-envs in one numpy pass (the batched env's fast mode).

``profiles.profile_from_uniforms`` maps ``PROFILE_DRAWS`` uniforms to one ``SiteProfile`` and
``observation.probe_from_uniforms`` maps ``PROBE_DRAWS`` more to its probe signals, one site at
a time in Python. ``draw_sites`` applies the same maps to an ``(m, PROFILE_DRAWS + PROBE_DRAWS)``
block of uniforms as array operations: the same tables, inverse CDFs and rounding, so each row
is the site and probe the scalar functions give for that row's uniforms (the normal quantiles
go through numpy's ``log`` and ``exp``, which may differ from ``math``'s in the last bit; the
tests compare within 1e-12 and the discrete attributes exactly). The profile attributes are kept
as one int64 row per site (``SITE_COLUMNS``), from which ``profile_of`` rebuilds the
``SiteProfile`` when a crawl result is read.

Example:
    >>> import numpy as np
    >>> sites = draw_sites(np.full((2, PROFILE_DRAWS + PROBE_DRAWS), 0.5), None, {})
    >>> profile_of(sites.columns[0], sites.domains[0]).pattern_type, sites.probes.shape
    ('product_list', (2, 22))
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from rlm_gym.envs.dynamics import SiteModel, site_model
from rlm_gym.envs.observation import (
    _HIDDEN_IN_SHELL,
    _HIDDEN_WHEN_BLOCKED,
    DOM_REGULARITY,
    INDEX,
    JSON_LD_DETECTION,
    PROBE_DRAWS,
    PROBE_SIGNALS,
    PROGRESS_START,
    TEXT_RATIO,
)
from rlm_gym.envs.profiles import (
    DISTRIBUTIONS,
    DOMAIN_SUFFIXES,
    DOMAIN_WORDS,
    JSON_LD_RATE,
    MULTI_ITEM_TYPES,
    PROFILE_DRAWS,
    SIMULATED_PATTERN_TYPES,
    TARGET_ITEM_SHARE,
    TTFB_LOG_SD,
    TTFB_MEDIAN_MS,
    TTFB_RANGE_MS,
    SiteProfile,
)

__all__ = [
    "SITE_COLUMNS",
    "SiteDraws",
    "columns_of",
    "draw_sites",
    "inverse_normal",
    "model_of",
    "probes",
    "profile_of",
    "shell_ratios",
]

# A site's attributes as one int64 row: ``SiteProfile``'s fields but the domain, the pattern
# type as its index in ``SIMULATED_PATTERN_TYPES``, flags as 0 / 1.
SITE_COLUMNS: tuple[str, ...] = SiteProfile._fields[:-1]
COLUMN = {name: index for index, name in enumerate(SITE_COLUMNS)}
_FLAGS = ("regular_markup", "json_ld", "click_overlay", "url_replayable")
_TABLES = {
    name: (np.array(values, dtype=np.int64), np.cumsum(probabilities)[:-1])
    for name, (values, probabilities) in DISTRIBUTIONS.items()
}
_JSON_LD_RATE = np.array([JSON_LD_RATE[name] for name in SIMULATED_PATTERN_TYPES])
_REVIEW = SIMULATED_PATTERN_TYPES.index("review_extraction")
_MULTI = np.array([name in MULTI_ITEM_TYPES for name in SIMULATED_PATTERN_TYPES])
_PROBES = [
    (INDEX[name], COLUMN[attribute], np.array(rates))
    for name, (attribute, rates) in PROBE_SIGNALS.items()
]
# The single env's own lists (``probe_from_uniforms``): a blocked probe, or a shell, hides them.
_BLOCKED_HIDES = list(_HIDDEN_WHEN_BLOCKED)
_SHELL_HIDES = list(_HIDDEN_IN_SHELL)
# The uniforms mapped to normals: the TTFB's (profile draw 11) and the probe's last four.
_NORMAL_DRAWS = [11, *range(PROFILE_DRAWS + PROBE_DRAWS - 4, PROFILE_DRAWS + PROBE_DRAWS)]
_TEXT_MEAN = np.array([mean for mean, _ in TEXT_RATIO])
_TEXT_SD = np.array([sd for _, sd in TEXT_RATIO])
_DOM_MEAN = np.array([DOM_REGULARITY[False][0], DOM_REGULARITY[True][0]])
_DOM_SD = np.array([DOM_REGULARITY[False][1], DOM_REGULARITY[True][1]])
_JSON_LD_SEEN = np.array([JSON_LD_DETECTION[False], JSON_LD_DETECTION[True]])
# AS241's coefficients (``statistics.NormalDist.inv_cdf``), highest power first; the tail
# beyond r = 5 is unreachable for p in [0.001, 0.999].
_CENTRAL_NUM = (
    2.5090809287301226727e3, 3.3430575583588128105e4, 6.7265770927008700853e4,
    4.5921953931549871457e4, 1.3731693765509461125e4, 1.9715909503065514427e3,
    1.3314166789178437745e2, 3.3871328727963666080e0,
)  # fmt: skip
_CENTRAL_DEN = (
    5.2264952788528545610e3, 2.8729085735721942674e4, 3.9307895800092710610e4,
    2.1213794301586595867e4, 5.3941960214247511077e3, 6.8718700749205790830e2,
    4.2313330701600911252e1, 1.0,
)  # fmt: skip
_TAIL_NUM = (
    7.74545014278341407640e-4, 2.27238449892691845833e-2, 2.41780725177450611770e-1,
    1.27045825245236838258e0, 3.64784832476320460504e0, 5.76949722146069140550e0,
    4.63033784615654529590e0, 1.42343711074968357734e0,
)  # fmt: skip
_TAIL_DEN = (
    1.05075007164441684324e-9, 5.47593808499534494600e-4, 1.51986665636164571966e-2,
    1.48103976427480074590e-1, 6.89767334985100004550e-1, 1.67638483018380384940e0,
    2.05319162663775882187e0, 1.0,
)  # fmt: skip


def _horner(coefficients: tuple[float, ...], r: np.ndarray) -> np.ndarray:
    value = coefficients[0] * r + coefficients[1]
    for coefficient in coefficients[2:]:
        value = value * r + coefficient
    return value


def inverse_normal(p: np.ndarray) -> np.ndarray:
    """``NormalDist().inv_cdf`` of each ``p`` in [0.001, 0.999] (Wichura's AS241).

    Example:
        >>> inverse_normal(np.array([0.5, 0.975])).round(4).tolist()
        [0.0, 1.96]
    """
    q = p - 0.5
    central = np.abs(q) <= 0.425
    r = 0.180625 - q * q
    x_central = _horner(_CENTRAL_NUM, r) * q / _horner(_CENTRAL_DEN, r)
    tail = np.sqrt(-np.log(np.where(q <= 0.0, p, 1.0 - p))) - 1.6
    x_tail = _horner(_TAIL_NUM, tail) / _horner(_TAIL_DEN, tail)
    return np.where(central, x_central, np.where(q < 0.0, -x_tail, x_tail))


def _choice(name: str, u: np.ndarray) -> np.ndarray:
    values, cumulative = _TABLES[name]
    return values[np.searchsorted(cumulative, u, side="right")]


class SiteDraws(NamedTuple):
    """Sites drawn for m sub-envs: ``(m, len(SITE_COLUMNS))`` int64 attributes, the domains
    and the ``(m, PROGRESS_START)`` probe part of their first observations."""

    columns: np.ndarray
    domains: list[str]
    probes: np.ndarray


def draw_sites(
    u: np.ndarray, pattern_types: tuple[str, ...] | None, overrides: dict[str, Any]
) -> SiteDraws:
    """The sites and probes of an ``(m, PROFILE_DRAWS + PROBE_DRAWS)`` block of uniforms (row
    by row: ``profile_from_uniforms`` of the first ``PROFILE_DRAWS``, ``probe_from_uniforms``
    of the rest).

    Args:
        u: The uniforms.
        pattern_types: As ``profile_from_uniforms``.
        overrides: Checked profile overrides (``check_overrides``).
    """
    m = len(u)
    types = np.array([SIMULATED_PATTERN_TYPES.index(name) for name in pattern_types or ()])
    if not len(types):
        types = np.arange(len(SIMULATED_PATTERN_TYPES))
    columns = np.zeros((m, len(SITE_COLUMNS)), dtype=np.int64)
    pattern = types[(u[:, 0] * len(types)).astype(np.int64)]
    per_page = np.where(
        pattern == _REVIEW,
        _choice("review_items_per_page", u[:, 7]),
        np.where(_MULTI[pattern], _choice("items_per_page", u[:, 7]), 1),
    )
    # Every normal of the site and its probe in one pass: the site's TTFB, the probe's four.
    normals = inverse_normal(0.001 + 0.998 * u[:, _NORMAL_DRAWS])
    ttfb = np.round(TTFB_MEDIAN_MS * np.exp(TTFB_LOG_SD * normals[:, 0]) / 100.0) * 100
    low, high = TTFB_RANGE_MS
    drawn = {
        "pattern_type": pattern,
        "rendering": _choice("rendering", u[:, 1]),
        "pagination": _choice("pagination", u[:, 2]),
        "protection": _choice("protection", u[:, 3]),
        "regular_markup": _choice("regular_markup", u[:, 4]),
        "json_ld": u[:, 5] < _JSON_LD_RATE[pattern],
        "click_overlay": _choice("click_overlay", u[:, 6]),
        "url_replayable": _choice("url_replayable", u[:, 16]),
        "items_per_page": per_page,
        "ttfb_ms": np.minimum(np.maximum(ttfb, low), high),
        "time_budget_ms": _choice("time_budget_ms", u[:, 12]),
    }
    for name, value in drawn.items():
        columns[:, COLUMN[name]] = value
    for name, value in overrides.items():
        if name in COLUMN:
            columns[:, COLUMN[name]] = int(value)
    _derive_targets(columns, u, overrides)
    if "domain" in overrides:
        domains = [overrides["domain"]] * m
    else:
        words = (u[:, 13] * len(DOMAIN_WORDS)).astype(np.int64).tolist()
        numbers = (u[:, 15] * 1000).astype(np.int64).tolist()
        suffixes = (u[:, 14] * len(DOMAIN_SUFFIXES)).astype(np.int64).tolist()
        domains = [
            f"{DOMAIN_WORDS[word]}-{number}.{DOMAIN_SUFFIXES[suffix]}"
            for word, number, suffix in zip(words, numbers, suffixes, strict=True)
        ]
    return SiteDraws(columns, domains, probes(columns, u[:, PROFILE_DRAWS:], normals[:, 1:]))


def _derive_targets(columns: np.ndarray, u: np.ndarray, overrides: dict[str, Any]) -> None:
    """``profiles._finish``: the page count and item target from the drawn attributes."""
    single_page = columns[:, COLUMN["pagination"]] == 0
    per_page = columns[:, COLUMN["items_per_page"]]
    target_pages = _choice("listing_target_pages", u[:, 8])
    target_records = _choice("record_target_items", u[:, 9])
    extra = _choice("extra_pages", u[:, 10])
    multi = per_page > 1
    if "total_pages" not in overrides:
        pages = np.where(multi, target_pages + extra, target_records + extra)
        columns[:, COLUMN["total_pages"]] = np.where(single_page, 1, pages)
    if "target_items" not in overrides:
        pages = np.where(single_page, 1, target_pages)
        listing = np.ceil(TARGET_ITEM_SHARE * pages * per_page).astype(np.int64)
        records = np.where(single_page, 1, target_records)
        columns[:, COLUMN["target_items"]] = np.where(multi, listing, records)


def probes(columns: np.ndarray, u: np.ndarray, normals: np.ndarray | None = None) -> np.ndarray:
    """``probe_from_uniforms`` of each site row and its ``PROBE_DRAWS`` uniforms (``normals``:
    the inverse normal CDF of their last four, if already computed)."""
    m = len(columns)
    obs = np.zeros((m, PROGRESS_START))
    rows = np.arange(m)
    obs[rows, columns[:, COLUMN["pattern_type"]]] = 1.0
    if normals is None:
        normals = inverse_normal(0.001 + 0.998 * u[:, PROBE_DRAWS - 4 :])
    for draw, (index, column, rates) in enumerate(_PROBES):
        obs[:, index] = u[:, draw] < rates[columns[:, column]]
    rendering = columns[:, COLUMN["rendering"]]
    blocked = (obs[:, INDEX["probe_status_403"]] == 1.0) | (
        obs[:, INDEX["probe_status_429"]] == 1.0
    )
    shell = ~blocked & (rendering == 2) & (u[:, PROBE_DRAWS - 7] < 0.5)
    obs[np.ix_(np.flatnonzero(shell), _SHELL_HIDES)] = 0.0
    obs[:, INDEX["probe_text_ratio"]] = np.clip(
        _TEXT_MEAN[rendering] + _TEXT_SD[rendering] * normals[:, 0], 0.0, 1.0
    )
    markup = columns[:, COLUMN["regular_markup"]]
    obs[:, INDEX["dom_regularity"]] = np.clip(
        _DOM_MEAN[markup] + _DOM_SD[markup] * normals[:, 1], 0.0, 1.0
    )
    json_ld = _JSON_LD_SEEN[columns[:, COLUMN["json_ld"]]]
    obs[:, INDEX["json_ld"]] = u[:, PROBE_DRAWS - 6] < json_ld
    per_page = columns[:, COLUMN["items_per_page"]]
    estimate = per_page * np.exp(0.25 * normals[:, 2]) / 48.0
    obs[:, INDEX["items_per_page_estimate"]] = np.minimum(2.0, estimate)
    obs[np.ix_(np.flatnonzero(blocked), _BLOCKED_HIDES)] = 0.0
    obs[blocked, INDEX["probe_text_ratio"]] = 0.1
    latency = columns[:, COLUMN["ttfb_ms"]] * np.exp(0.4 * normals[:, 3]) / 5000.0
    obs[:, INDEX["probe_latency"]] = np.minimum(4.0, latency)
    obs[:, INDEX["time_budget"]] = np.minimum(2.0, columns[:, COLUMN["time_budget_ms"]] / 120_000.0)
    return obs


def columns_of(profile: SiteProfile) -> list[int]:
    """The int64 site row of ``profile`` (``profile_of``'s inverse, the domain aside)."""
    values = [int(value) for value in profile[1:-1]]
    return [SIMULATED_PATTERN_TYPES.index(profile.pattern_type), *values]


def shell_ratios(columns: np.ndarray) -> np.ndarray:
    """``observation.text_ratio(profile, 0.0)`` of each site row (a page without noise)."""
    return np.clip(_TEXT_MEAN[columns[:, COLUMN["rendering"]]], 0.0, 1.0)


def profile_of(row: np.ndarray, domain: str) -> SiteProfile:
    """The ``SiteProfile`` of one int64 site row and its domain."""
    values: list[Any] = row.tolist()
    values[0] = SIMULATED_PATTERN_TYPES[values[0]]
    for name in _FLAGS:
        values[COLUMN[name]] = bool(values[COLUMN[name]])
    return SiteProfile(*values, domain)


def model_of(
    row: np.ndarray, domain: str, max_steps: int, scorer: Any, recorded: bool
) -> SiteModel:
    """``site_model`` of one site row."""
    return site_model(profile_of(row, domain), max_steps, scorer, recorded)
