"""The crawl simulator's state and site model: actions, phases, the state tuple, costs, rates.

The transition function (``rlm_gym.envs.transitions``) is built from these tables; the env, the
oracle, the scorer and the frame renderer read a state through the ``S_*`` indices.

A state is a plain tuple (fast to build and hash), indexed by the ``S_*`` constants:
phase, pages extracted with CSS / heuristics / the LLM, elapsed ms (on a 100 ms grid), errors so
far (counted up to ``SiteModel.error_cap``: beyond it more errors cannot change the score), 403
blocks, 429 responses, politeness pressure (1 if a page was requested since the last backoff;
tracked on rate-limited sites only), how the current page was fetched, steps taken, end reason.

Example:
    >>> from rlm_gym.envs.profiles import sample_profile
    >>> from rlm_gym.envs.scoring import scorer_for
    >>> import numpy as np
    >>> model = site_model(sample_profile(np.random.default_rng(0)), 30, scorer_for(None))
    >>> PHASES[initial_state()[S_PHASE]], item_counts(model, initial_state())
    ('fetch', (0, 0, 0))
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from rlm_gym.envs.profiles import SiteProfile

__all__ = [
    "ACTIONS",
    "PHASES",
    "KINDS",
    "ERRORS",
    "COSTS",
    "EXTRACTORS",
    "SiteModel",
    "site_model",
    "initial_state",
    "valid_actions",
    "item_counts",
    "time_on_grid",
]

ACTIONS: tuple[str, ...] = (
    "fetch_http",
    "fetch_headless",
    "extract_css",
    "extract_heuristic",
    "extract_llm",
    "url_navigation",
    "javascript_click",
    "infinite_scroll",
    "backoff",
    "stop",
)
(
    FETCH_HTTP,
    FETCH_HEADLESS,
    EXTRACT_CSS,
    EXTRACT_HEURISTIC,
    EXTRACT_LLM,
    URL_NAVIGATION,
    JAVASCRIPT_CLICK,
    INFINITE_SCROLL,
    BACKOFF,
    STOP,
) = range(10)

PHASES: tuple[str, ...] = ("fetch", "extract", "paginate", "done")
FETCH, EXTRACT, PAGINATE, DONE = range(4)

# ActionResult.action_type of each event kind.
KINDS: tuple[str, ...] = ("fetch", "extract", "paginate", "wait", "final")
K_FETCH, K_EXTRACT, K_PAGINATE, K_WAIT, K_FINAL = range(5)

# State tuple layout.
(
    S_PHASE,
    S_CSS,
    S_HEURISTIC,
    S_LLM,
    S_TIME,
    S_ERROR,
    S_BLOCKS,
    S_429,
    S_PRESSURE,
    S_FETCHED,
    S_STEPS,
    S_END,
    S_DUP_CSS,
    S_DUP_HEURISTIC,
    S_DUP_LLM,
    S_RESERVED,
) = range(16)
# How the current page was fetched (S_FETCHED).
NOT_FETCHED, BY_HTTP, BY_HEADLESS = range(3)
# Why the episode ended (S_END).
RUNNING, STOPPED, BLOCKED, OVER_BUDGET, OUT_OF_STEPS = range(5)

# Error texts by code; the env words 12 and 13 itself (they name the action / the budget).
ERRORS: tuple[str, ...] = (
    "",
    "HTTP 429 Too Many Requests",
    "HTTP 403 Forbidden",
    "Timeout after 30000 ms",
    "HTTP 403 Forbidden: crawler banned after repeated blocks",
    "Extraction returned 0 items: page is an empty client-side rendered shell",
    "No next-page URL found: pagination is not URL-based",
    "No clickable pagination element found",
    "Element click intercepted: another element would receive the click",
    "No new items loaded after scrolling",
    "No live browser session: fetch the page with a headless browser first",
    "No further pages: the last page was reached",
    "Invalid action",
    "Job time budget exceeded",
)
(
    E_NONE,
    E_429,
    E_403,
    E_TIMEOUT,
    E_BANNED,
    E_EMPTY_SHELL,
    E_NO_URL,
    E_NO_CLICKABLE,
    E_CLICK_INTERCEPTED,
    E_NO_SCROLL,
    E_NO_BROWSER,
    E_LAST_PAGE,
    E_INVALID,
    E_BUDGET,
) = range(14)

# Costs and outcome probabilities, in ms / probabilities / tokens. Sources in the README.
COSTS: dict[str, float] = {
    "http_parse_ms": 100,  # HTML download + parse beyond time to first byte
    "timeout_ms": 30_000,  # the crawler's fetch timeout
    "timeout_rate": 0.017,  # Common Crawl: 1.7 % timeouts / connection errors
    "css_ms": 100,
    "heuristic_ms": 300,
    "llm_base_ms": 3000,  # LLM extraction: seconds per page, growing with the list
    "llm_per_item_ms": 150,
    "llm_base_tokens": 1200,
    "llm_tokens_per_page_item": 90,
    "llm_tokens_per_item": 40,
    "llm_item_cap": 20,  # output-token limit: long lists are truncated
    "navigate_ms": 100,
    "click_wait_ms": 1500,  # JS click: 1-3 s waiting for new items
    "scroll_wait_ms": 2000,
    "backoff_ms": 5000,
    "rate_limited_ms": 100,  # a rate limiter answers 429 at once
    "invalid_ms": 500,
    "blocks_to_ban": 2,
    "rate_limits_to_ban": 3,
}
# Headless render time beyond the server response, by rendering (0.5-3 s median).
RENDER_MS: tuple[int, ...] = (700, 1500, 2500)
# P(403) per fetch, by protection and fetcher (http, headless).
BLOCK_RATE: tuple[tuple[float, float], ...] = ((0.0, 0.0), (0.0, 0.0), (0.95, 0.05), (0.05, 0.9))
# Server / wait jitter around the site's median: the 2-point Gauss-Hermite rule of a lognormal
# with log-sd 0.4 (xe^-0.4, xe^0.4, each with probability 1/2); two points keep the oracle small.
JITTER: tuple[tuple[float, float], ...] = ((0.5, 0.6703), (0.5, 1.4918))

EXTRACTORS: tuple[str, ...] = ("css", "heuristic", "llm")
# Per extractor, on (regular markup?, JSON-LD?): (recall, sporadic defect share, systematic
# break). A systematic break damages one field of every row (``items.BREAKS``): CSS selectors
# on irregular markup grab the wrong column; heuristics without JSON-LD on irregular markup
# read the field from page text. Sporadic shares stay below the 20 % defect threshold
# (rows are floored), so only the breaks and duplicate rows become systematic defects.
EXTRACTION_QUALITY: dict[str, dict[tuple[bool, bool], tuple[float, float, bool]]] = {
    "css": {
        (True, True): (1.0, 0.0, False),
        (True, False): (1.0, 0.0, False),
        (False, True): (0.75, 0.0, True),
        (False, False): (0.75, 0.0, True),
    },
    "heuristic": {
        (True, True): (1.0, 0.05, False),
        (True, False): (0.9, 0.15, False),
        (False, True): (1.0, 0.05, False),
        (False, False): (0.9, 0.15, True),
    },
    "llm": {
        (True, True): (1.0, 0.15, False),
        (True, False): (1.0, 0.15, False),
        (False, True): (1.0, 0.15, False),
        (False, False): (1.0, 0.15, False),
    },
}
DEFECT_KIND: dict[str, str] = {"css": "missing", "heuristic": "placeholder", "llm": "malformed"}

VALID_PHASES: tuple[frozenset[int], ...] = (
    frozenset({FETCH, EXTRACT}),
    frozenset({FETCH, EXTRACT}),
    frozenset({EXTRACT}),
    frozenset({EXTRACT}),
    frozenset({EXTRACT}),
    frozenset({PAGINATE}),
    frozenset({PAGINATE}),
    frozenset({PAGINATE}),
    frozenset({FETCH, EXTRACT, PAGINATE}),
    frozenset({FETCH, EXTRACT, PAGINATE}),
)


class SiteModel(NamedTuple):
    """Numbers derived once per episode from the profile, read by every transition."""

    profile: SiteProfile
    max_steps: int
    rate_limited: bool
    render_ms: int
    block_rate: tuple[float, float]
    per_page: tuple[int, int, int]
    defect_share: tuple[float, float, float]
    broken: tuple[bool, bool, bool]
    extract_ms: tuple[int, int, int]
    extract_tokens: tuple[int, int, int]
    error_cap: int
    scorer: Any
    # Crawl-v2: the crawl result reports the crawler's own success (rows, valid or not).
    recorded_success: bool = False


def site_model(
    profile: SiteProfile, max_steps: int, scorer: Any, recorded_success: bool = False
) -> SiteModel:
    """Derive the per-episode numbers of ``profile`` (called once per reset).

    Args:
        profile: The site.
        max_steps: The step budget.
        scorer: The ``rlm_gym.envs.scoring.Scorer`` of the env's reward config
            (``scorer_for(config)``). Its ``error_cap`` bounds the state's error count: 1 under
            the crawl reward's default all-or-nothing efficiency rule (one error or ten score
            the same), more under the graded rule; the cap keeps the oracle's state space as
            small as the score allows.
        recorded_success: Report the crawler's own success in the crawl result (Crawl-v2:
            the job ran to its end and delivered the target number of rows, valid or not)
            instead of the ground truth (Crawl-v1: the target of distinct valid rows).
    """
    return SiteModel(
        profile,
        max_steps,
        profile.protection == 1,
        RENDER_MS[profile.rendering],
        BLOCK_RATE[profile.protection],
        *extraction_numbers(profile.regular_markup, profile.json_ld, profile.items_per_page),
        scorer.error_cap,
        scorer,
        recorded_success,
    )


@cache
def extraction_numbers(regular_markup: bool, json_ld: bool, items_per_page: int) -> tuple:
    """``(per_page, defect_share, broken, extract_ms, extract_tokens)`` of a site; few distinct
    inputs."""
    key = (regular_markup, json_ld)
    per_page = []
    defects = []
    broken = []
    for name in EXTRACTORS:
        recall, defective, breaks = EXTRACTION_QUALITY[name][key]
        broken.append(breaks)
        count = max(1, int(recall * items_per_page + 0.5))
        if name == "llm":
            count = min(count, int(COSTS["llm_item_cap"]))
        per_page.append(count)
        defects.append(defective)
    llm_items = per_page[2]
    llm_ms = COSTS["llm_base_ms"] + COSTS["llm_per_item_ms"] * llm_items
    llm_tokens = (
        COSTS["llm_base_tokens"]
        + COSTS["llm_tokens_per_page_item"] * items_per_page
        + COSTS["llm_tokens_per_item"] * llm_items
    )
    return (
        tuple(per_page),
        tuple(defects),
        tuple(broken),
        (int(COSTS["css_ms"]), int(COSTS["heuristic_ms"]), time_on_grid(llm_ms)),
        (0, 0, int(llm_tokens)),
    )


def initial_state() -> tuple[int, ...]:
    """The state at the start of an episode: nothing fetched, no time spent."""
    return (FETCH, 0, 0, 0, 0, 0, 0, 0, 0, NOT_FETCHED, 0, RUNNING, 0, 0, 0, 0)


def valid_actions(state: tuple[int, ...]) -> list[int]:
    """Indices of the actions that fit the state's phase (none once the episode is done)."""
    phase = state[S_PHASE]
    return [a for a in range(10) if phase in VALID_PHASES[a]]


def item_counts(model: SiteModel, state: tuple[int, ...]) -> tuple[int, int, int]:
    """``(items, valid_items, duplicate_rows)`` so far: items are the new (distinct) rows;
    valid ones have every field right (no sporadic defect, no systematic break); duplicate rows
    come from re-served pages. Deterministic in the pages per extractor."""
    items = 0
    valid = 0
    duplicates = 0
    for index in range(3):
        pages = state[S_CSS + index]
        if pages:
            count = pages * model.per_page[index]
            items += count
            if not model.broken[index]:
                valid += count - int(count * model.defect_share[index])
        if state[S_DUP_CSS + index]:
            duplicates += state[S_DUP_CSS + index] * model.per_page[index]
    return items, valid, duplicates


def time_on_grid(ms: float) -> int:
    """Round a duration to the 100 ms time grid (at least one tick)."""
    return max(100, int(ms / 100.0 + 0.5) * 100)
