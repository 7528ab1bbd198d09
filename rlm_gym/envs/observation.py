"""The observation vector of ``rlm_gym/Crawl-v1``: its documented entries and the noisy probe.

At ``reset`` the crawler probes the site once with plain HTTP and reads noisy signals of the hidden
profile (``PROBE_SIGNALS``); then come the crawl's progress and (added in Crawl-v1) its memory: the
last action, which methods have failed on this site so far and the 403 / 429 answers counted
against the ban limits. Without the memory an agent that had seen ``fetch_http`` blocked could not
tell, one step later, that it should not try it again. ``OBSERVATION_FIELDS`` is the table of
entries, in order (the README prints it).

Example:
    >>> len(OBSERVATION_FIELDS) == OBSERVATION_SIZE
    True
    >>> OBSERVATION_FIELDS[INDEX["phase_fetch"]][0]
    'phase_fetch'
"""

from __future__ import annotations

import math
from statistics import NormalDist

from rlm_gym.envs.dynamics import ACTIONS, COSTS
from rlm_gym.envs.profiles import SIMULATED_PATTERN_TYPES, SiteProfile

__all__ = [
    "OBSERVATION_FIELDS",
    "OBSERVATION_SIZE",
    "INDEX",
    "PROBE_SIGNALS",
    "MEMORY_METHODS",
    "PROBE_DRAWS",
    "probe_from_uniforms",
    "observation_table",
]

# The fetch, extract and paginate methods whose failures the observation remembers.
MEMORY_METHODS: tuple[str, ...] = ACTIONS[:8]

# (name, meaning, upper bound); every entry's lower bound is 0.
OBSERVATION_FIELDS: tuple[tuple[str, str, float], ...] = (
    *(
        (f"type_{name}", f"1 if the job's pattern type is {name}", 1.0)
        for name in SIMULATED_PATTERN_TYPES
    ),
    ("probe_framework", "client-side framework signature in the probe HTML (noisy 0/1)", 1.0),
    ("probe_text_ratio", "text-to-HTML ratio of the probe response (noisy)", 1.0),
    ("probe_waf_header", "WAF / CDN headers in the probe response (noisy 0/1)", 1.0),
    ("probe_bot_script", "browser-fingerprinting script in the probe HTML (noisy 0/1)", 1.0),
    ("probe_status_403", "the plain-HTTP probe was answered 403", 1.0),
    ("probe_status_429", "the plain-HTTP probe was answered 429", 1.0),
    ("hint_page_links", "numbered ?page=N links seen (noisy 0/1)", 1.0),
    ("hint_next_link", "a rel=next / 'Next' link seen (noisy 0/1)", 1.0),
    ("hint_load_more", "'Load more' button text seen (noisy 0/1)", 1.0),
    ("hint_infinite_scroll", "infinite-scroll sentinel / observer script seen (noisy 0/1)", 1.0),
    ("dom_regularity", "regularity of the repeated DOM blocks (noisy, 0-1)", 1.0),
    ("json_ld", "JSON-LD structured data detected (noisy 0/1)", 1.0),
    ("items_per_page_estimate", "repeated DOM blocks counted / 48 (noisy)", 2.0),
    ("probe_latency", "probe time to first byte / 5 s", 4.0),
    ("time_budget", "the job's time budget / 120 s (capped at 2)", 2.0),
    ("phase_fetch", "1 in the fetch phase (a page must be fetched)", 1.0),
    ("phase_extract", "1 in the extract phase (a fetched page awaits extraction)", 1.0),
    ("phase_paginate", "1 in the paginate phase (the page is extracted)", 1.0),
    ("pages_collected", "pages extracted (re-served ones included) / 10", 3.0),
    ("items_vs_target", "distinct valid items / the job's target (capped at 2)", 2.0),
    (
        "item_quality",
        "share of the new items with every field valid (0 before any extraction)",
        1.0,
    ),
    (
        "duplicate_rows",
        "share of extracted rows that repeat a re-served page's rows (0 before any)",
        1.0,
    ),
    ("errors", "errors so far / 5 (capped at 1)", 1.0),
    ("elapsed", "elapsed time / the time budget (capped at 2)", 2.0),
    ("last_latency", "last step's duration / 10 s (capped at 4)", 4.0),
    ("politeness", "requests since the last backoff / 3 (capped at 1)", 1.0),
    ("browser_live", "1 if the current page is open in a headless browser", 1.0),
    ("last_failed", "1 if the last step failed", 1.0),
    ("last_blocked", "1 if the last step was answered 403 or 429", 1.0),
    ("last_text_ratio", "text-to-HTML ratio of the last fetched page (0 before a fetch)", 1.0),
    ("steps", "steps taken / max_steps", 1.0),
    *(
        (f"last_action_{name}", f"1 if the last action was {name} (all 0 after reset)", 1.0)
        for name in ACTIONS
    ),
    *(
        (
            f"failed_{name}",
            f"1 once {name} has failed on this site (an error in a phase where it is valid)",
            1.0,
        )
        for name in MEMORY_METHODS
    ),
    (
        "count_403",
        f"403 answers so far / {COSTS['blocks_to_ban']} (the ban limit; 1 = banned)",
        1.0,
    ),
    (
        "count_429",
        f"429 answers so far / {COSTS['rate_limits_to_ban']} (the ban limit; 1 = banned)",
        1.0,
    ),
)
OBSERVATION_SIZE = len(OBSERVATION_FIELDS)
INDEX: dict[str, int] = {name: i for i, (name, _, _) in enumerate(OBSERVATION_FIELDS)}
PROBE_START = INDEX["probe_framework"]
PROGRESS_START = INDEX["phase_fetch"]
MEMORY_START = INDEX["last_action_fetch_http"]

# P(signal = 1) given the hidden attribute's value (by index). Chosen to be informative but not
# decisive, so that a policy gains from combining signals and from what its fetches reveal.
PROBE_SIGNALS: dict[str, tuple[str, tuple[float, ...]]] = {
    "probe_framework": ("rendering", (0.1, 0.6, 0.9)),
    "probe_waf_header": ("protection", (0.15, 0.4, 0.85, 0.7)),
    "probe_bot_script": ("protection", (0.05, 0.1, 0.35, 0.8)),
    "probe_status_403": ("protection", (0.0, 0.0, 0.9, 0.05)),
    "probe_status_429": ("protection", (0.0, 0.35, 0.0, 0.0)),
    "hint_page_links": ("pagination", (0.05, 0.85, 0.3, 0.1, 0.05)),
    "hint_next_link": ("pagination", (0.05, 0.3, 0.85, 0.1, 0.05)),
    "hint_load_more": ("pagination", (0.05, 0.05, 0.05, 0.8, 0.2)),
    "hint_infinite_scroll": ("pagination", (0.05, 0.05, 0.05, 0.2, 0.7)),
}
# Text-to-HTML ratio of a page by rendering (mean, sd); a client-only shell is nearly empty.
TEXT_RATIO: tuple[tuple[float, float], ...] = ((0.30, 0.06), (0.18, 0.05), (0.03, 0.02))
DOM_REGULARITY: dict[bool, tuple[float, float]] = {True: (0.8, 0.12), False: (0.45, 0.15)}
JSON_LD_DETECTION: dict[bool, float] = {True: 0.9, False: 0.05}
_NORMAL = NormalDist()
# PROBE_SIGNALS as (observation index, SiteProfile field index, rates) rows.
_PROBE_TABLE = tuple(
    (INDEX[name], SiteProfile._fields.index(attribute), rates)
    for name, (attribute, rates) in PROBE_SIGNALS.items()
)
# Signals that need the page's content: a blocked probe, or a shell, hides them.
_CONTENT_SIGNALS = (
    "probe_framework",
    "hint_page_links",
    "hint_next_link",
    "hint_load_more",
    "hint_infinite_scroll",
)
# Uniform draws per probe: one per probe signal, 3 more uniforms and 4 normals.
PROBE_DRAWS = len(PROBE_SIGNALS) + 7
# Observation indices read by ``probe_from_uniforms`` (looked up once, not per reset).
_STATUS_403 = INDEX["probe_status_403"]
_STATUS_429 = INDEX["probe_status_429"]
_TEXT_RATIO = INDEX["probe_text_ratio"]
_DOM_REGULARITY = INDEX["dom_regularity"]
_JSON_LD = INDEX["json_ld"]
_ITEMS_ESTIMATE = INDEX["items_per_page_estimate"]
_LATENCY = INDEX["probe_latency"]
_TIME_BUDGET = INDEX["time_budget"]
_HIDDEN_WHEN_BLOCKED = tuple(
    INDEX[name]
    for name in (*_CONTENT_SIGNALS, "dom_regularity", "json_ld", "items_per_page_estimate")
)
_HIDDEN_IN_SHELL = tuple(INDEX[name] for name in _CONTENT_SIGNALS[1:])


def text_ratio(profile: SiteProfile, normal: float) -> float:
    """The text-to-HTML ratio of a fetched page given a standard-normal draw."""
    mean, sd = TEXT_RATIO[profile.rendering]
    return min(1.0, max(0.0, mean + sd * normal))


def probe_from_uniforms(profile: SiteProfile, u: list[float]) -> list[float]:
    """The static part of the observation for ``PROBE_DRAWS`` uniform draws ``u`` in ``[0, 1)``.

    Example:
        >>> from rlm_gym.envs.profiles import profile_from_uniforms
        >>> probe = probe_from_uniforms(profile_from_uniforms([0.5] * 17), [0.5] * PROBE_DRAWS)
        >>> len(probe) == PROGRESS_START, probe[INDEX["type_product_list"]]
        (True, 1.0)
    """
    obs = [0.0] * PROGRESS_START
    obs[SIMULATED_PATTERN_TYPES.index(profile.pattern_type)] = 1.0
    # Normals by inverse CDF (clipped to +-3.1 sd).
    normals = [_NORMAL.inv_cdf(0.001 + 0.998 * x) for x in u[-4:]]
    for draw, (index, attribute, rates) in zip(u, _PROBE_TABLE, strict=False):
        obs[index] = 1.0 if draw < rates[profile[attribute]] else 0.0
    if obs[_STATUS_403] == 1.0 or obs[_STATUS_429] == 1.0:
        for index in _HIDDEN_WHEN_BLOCKED:
            obs[index] = 0.0
        obs[_TEXT_RATIO] = 0.1
    else:
        if profile.rendering == 2 and u[-7] < 0.5:
            # The plain-HTTP probe sees a shell: DOM-based hints are often missing.
            for index in _HIDDEN_IN_SHELL:
                obs[index] = 0.0
        obs[_TEXT_RATIO] = text_ratio(profile, normals[0])
        mean, sd = DOM_REGULARITY[profile.regular_markup]
        obs[_DOM_REGULARITY] = min(1.0, max(0.0, mean + sd * normals[1]))
        obs[_JSON_LD] = 1.0 if u[-6] < JSON_LD_DETECTION[profile.json_ld] else 0.0
        estimate = profile.items_per_page * math.exp(0.25 * normals[2]) / 48.0
        obs[_ITEMS_ESTIMATE] = min(2.0, estimate)
    latency = profile.ttfb_ms * math.exp(0.4 * normals[3]) / 5000.0
    obs[_LATENCY] = min(4.0, latency)
    obs[_TIME_BUDGET] = min(2.0, profile.time_budget_ms / 120_000.0)
    return obs


def observation_table() -> str:
    """The README's observation table (Markdown), one row per entry of ``OBSERVATION_FIELDS``.

    Example:
        >>> print(observation_table().splitlines()[2])
        | 0 | `type_article_extraction` | 1 if the job's pattern type is article_extraction | 1 |
    """
    rows = ["| index | name | meaning | bound (low 0) |", "|---|---|---|---|"]
    for index, (name, meaning, upper) in enumerate(OBSERVATION_FIELDS):
        rows.append(f"| {index} | `{name}` | {meaning} | {upper:g} |")
    return "\n".join(rows)
