"""The crawl simulator's transition function: every action's finite list of outcomes.

The env samples one outcome per step; the oracle searches them all (expectimax). Both use
``transitions``, so the oracle plans against exactly the dynamics the agent experiences.

A state is a plain tuple (fast to build and hash), indexed by the ``S_*`` constants:
phase, pages extracted with CSS / heuristics / the LLM, elapsed ms (on a 100 ms grid), errors so
far (counted up to ``SiteModel.error_cap``: beyond it more errors cannot change the score), 403
blocks, 429 responses, politeness pressure (1 if a page was requested since the last backoff;
tracked on rate-limited sites only), how the current page was fetched, steps taken, end reason.
An outcome is ``(probability, next_state, event)`` with ``event = (kind, success, error_code,
duration_ms, tokens_used, items)``: what the env turns into the step's ``ActionResult``.

Example:
    >>> from rlm_gym.envs.profiles import sample_profile
    >>> import numpy as np
    >>> model = site_model(sample_profile(np.random.default_rng(0)), max_steps=30)
    >>> outcomes = transitions(model, initial_state(), FETCH_HTTP)
    >>> round(sum(p for p, _, _ in outcomes), 9)
    1.0
"""

from __future__ import annotations

from collections.abc import Callable
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
    "transitions",
    "sample_transition",
    "valid_actions",
    "item_counts",
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

# Error texts by code; 12 and 13 are formatted by the env (they name the action / budget).
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


def site_model(profile: SiteProfile, max_steps: int, scorer: Any = None) -> SiteModel:
    """Derive the per-episode numbers of ``profile`` (called once per reset).

    Args:
        profile: The site.
        max_steps: The step budget.
        scorer: The ``rlm_gym.envs.scoring.Scorer`` of the env's reward config (None: the
            default config's). Its ``error_cap`` bounds the state's error count: 1 under the
            crawl reward's default all-or-nothing efficiency rule (one error or ten score the
            same), more under the graded rule; the cap keeps the oracle's state space as small
            as the score allows.
    """
    if scorer is None:
        from rlm_gym.envs.scoring import scorer_for  # scoring imports this module

        scorer = scorer_for(None)
    return SiteModel(
        profile,
        max_steps,
        profile.protection == 1,
        RENDER_MS[profile.rendering],
        BLOCK_RATE[profile.protection],
        *_extraction_numbers(profile.regular_markup, profile.json_ld, profile.items_per_page),
        scorer.error_cap,
        scorer,
    )


@cache
def _extraction_numbers(regular_markup: bool, json_ld: bool, items_per_page: int) -> tuple:
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
        (int(COSTS["css_ms"]), int(COSTS["heuristic_ms"]), _grid(llm_ms)),
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


def _grid(ms: float) -> int:
    """Round a duration to the 100 ms time grid (at least one tick)."""
    return max(100, int(ms / 100.0 + 0.5) * 100)


def _advance(
    model: SiteModel, state: tuple[int, ...], changes: dict[int, int], duration: int, error: bool
) -> tuple[int, ...]:
    """The next state: apply ``changes``, add time and a step, and end on a budget."""
    values = list(state)
    for index, value in changes.items():
        values[index] = value
    time_ms = values[S_TIME] = values[S_TIME] + duration
    steps = values[S_STEPS] = values[S_STEPS] + 1
    cap = model.error_cap
    if error and values[S_ERROR] < cap:
        values[S_ERROR] += 1
    if values[S_END] == RUNNING:
        if time_ms > model.profile.time_budget_ms:
            values[S_END] = OVER_BUDGET
            # The aborted job reports its own error (the env adds "time budget exceeded").
            if values[S_ERROR] < cap:
                values[S_ERROR] += 1
            values[S_PHASE] = DONE
        elif steps >= model.max_steps:
            values[S_END] = OUT_OF_STEPS
            values[S_PHASE] = DONE
    return tuple(values)


def _refusal(
    state: tuple[int, ...], changes: dict[int, int], error: int, duration: int, kind: int = K_FETCH
) -> tuple:
    """The move of a refused request (403 or 429); a ban ends the crawl."""
    banned = (
        state[S_BLOCKS] + 1 >= COSTS["blocks_to_ban"]
        if error == E_403
        else state[S_429] + 1 >= COSTS["rate_limits_to_ban"]
    )
    if banned:
        changes = {**changes, S_END: BLOCKED, S_PHASE: DONE}
        error = E_BANNED
    return changes, duration, True, (kind, False, error, duration, 0, 0)


def _fetch(model: SiteModel, state: tuple[int, ...], fetcher: int) -> list:
    """A page request: refused by the rate limiter, timed out, blocked, or fetched with jitter.

    A rate-limited site refuses (429) a page request that follows another one without a backoff.
    """
    if model.rate_limited and state[S_PRESSURE]:
        changes = {S_429: state[S_429] + 1}
        return [(1.0, *_refusal(state, changes, E_429, int(COSTS["rate_limited_ms"])))]
    pressure = 1 if model.rate_limited else 0
    timeout_rate = COSTS["timeout_rate"]
    timeout_ms = int(COSTS["timeout_ms"])
    moves = [
        (
            timeout_rate,
            {S_PRESSURE: pressure},
            timeout_ms,
            True,
            (K_FETCH, False, E_TIMEOUT, timeout_ms, 0, 0),
        )
    ]
    through = 1.0 - timeout_rate
    block = model.block_rate[fetcher]
    if block > 0.0:
        changes = {S_BLOCKS: state[S_BLOCKS] + 1, S_PRESSURE: pressure}
        duration = _grid(model.profile.ttfb_ms)
        moves.append((through * block, *_refusal(state, changes, E_403, duration)))
        through *= 1.0 - block
    base = model.profile.ttfb_ms
    extra = COSTS["http_parse_ms"] if fetcher == FETCH_HTTP else model.render_ms
    fetched = BY_HTTP if fetcher == FETCH_HTTP else BY_HEADLESS
    changes = {S_PHASE: EXTRACT, S_FETCHED: fetched, S_PRESSURE: pressure}
    for weight, factor in JITTER:
        duration = _grid(base * factor + extra)
        event = (K_FETCH, True, E_NONE, duration, 0, 0)
        moves.append((weight * through, changes, duration, False, event))
    return moves


def _extract(model: SiteModel, state: tuple[int, ...], index: int) -> list:
    duration = model.extract_ms[index]
    tokens = model.extract_tokens[index]
    if state[S_FETCHED] == BY_HTTP and model.profile.rendering == 2:
        event = (K_EXTRACT, False, E_EMPTY_SHELL, duration, tokens, 0)
        return [(1.0, _NO_CHANGES, duration, True, event)]
    # A re-served page 1 yields its rows again: duplicates, not new pages of items.
    slot = (S_DUP_CSS if state[S_RESERVED] else S_CSS) + index
    changes = {S_PHASE: PAGINATE, slot: state[slot] + 1}
    event = (K_EXTRACT, True, E_NONE, duration, tokens, model.per_page[index])
    return [(1.0, changes, duration, False, event)]


def _fail(kind: int, error: int, duration: int) -> list:
    return [(1.0, _NO_CHANGES, duration, True, (kind, False, error, duration, 0, 0))]


def _browser_paginate(model: SiteModel, state: tuple[int, ...], wait_ms: float) -> list:
    """A JS click or scroll in the live browser: 1-3 s waiting for the next items.

    Loading the next items is a request too: a rate-limited site refuses it (429) when it
    follows another request without a backoff.
    """
    if model.rate_limited and state[S_PRESSURE]:
        changes = {S_429: state[S_429] + 1}
        refused = _refusal(state, changes, E_429, int(COSTS["rate_limited_ms"]), K_PAGINATE)
        return [(1.0, *refused)]
    moves = []
    changes = {S_PHASE: EXTRACT, S_PRESSURE: 1 if model.rate_limited else 0, S_RESERVED: 0}
    for weight, factor in JITTER:
        duration = _grid(wait_ms * factor)
        event = (K_PAGINATE, True, E_NONE, duration, 0, 0)
        moves.append((weight, changes, duration, False, event))
    return moves


def _paginate(model: SiteModel, state: tuple[int, ...], action: int) -> list:
    pagination = model.profile.pagination
    pages = state[S_CSS] + state[S_HEURISTIC] + state[S_LLM]
    navigate_ms = int(COSTS["navigate_ms"])
    if pages >= model.profile.total_pages:
        return _fail(K_PAGINATE, E_LAST_PAGE, navigate_ms)
    if action == URL_NAVIGATION:
        # ``?page=N`` works on numbered pagination and where next / load-more / scroll pages
        # have a replayable URL; elsewhere the server ignores the parameter and re-serves page 1
        # (a silent success: the scraper only sees it in the rows it writes twice).
        reserved = 0 if pagination == 1 or model.profile.url_replayable else 1
        changes = {S_PHASE: FETCH, S_FETCHED: NOT_FETCHED, S_RESERVED: reserved}
        event = (K_PAGINATE, True, E_NONE, navigate_ms, 0, 0)
        return [(1.0, changes, navigate_ms, False, event)]
    if state[S_FETCHED] != BY_HEADLESS:
        return _fail(K_PAGINATE, E_NO_BROWSER, navigate_ms)
    if action == JAVASCRIPT_CLICK:
        if pagination == 3:
            return _browser_paginate(model, state, COSTS["click_wait_ms"])
        if pagination in (1, 2):
            if model.profile.click_overlay:
                return _fail(K_PAGINATE, E_CLICK_INTERCEPTED, navigate_ms)
            return _browser_paginate(model, state, COSTS["click_wait_ms"])
        return _fail(K_PAGINATE, E_NO_CLICKABLE, navigate_ms)
    if pagination == 4:
        return _browser_paginate(model, state, COSTS["scroll_wait_ms"])
    return _fail(K_PAGINATE, E_NO_SCROLL, _grid(COSTS["scroll_wait_ms"]))


def _moves(model: SiteModel, state: tuple[int, ...], action: int) -> list:
    """All outcomes of ``action`` in ``state`` before their next states are built: a list of
    ``(probability, changes, duration_ms, counts_as_error, event)``, one per outcome, in the
    order of ``transitions``. The env builds only the next state it samples."""
    phase = state[S_PHASE]
    if phase not in VALID_PHASES[action]:
        return _INVALID_MOVES[action]
    if action <= FETCH_HEADLESS:
        return _fetch(model, state, action)
    if action <= EXTRACT_LLM:
        return _extract(model, state, action - EXTRACT_CSS)
    if action <= INFINITE_SCROLL:
        return _paginate(model, state, action)
    if action == BACKOFF:
        return _BACKOFF_MOVES
    return _STOP_MOVES


def transitions(model: SiteModel, state: tuple[int, ...], action: int) -> list:
    """All outcomes of ``action`` in ``state``: a list of ``(probability, state, event)``.

    Probabilities add up to 1. An action that does not fit the phase is a failed step
    (error code ``E_INVALID``) that costs time and never ends the episode by itself.
    """
    return [
        (probability, _advance(model, state, changes, duration, error), event)
        for probability, changes, duration, error, event in _moves(model, state, action)
    ]


def sample_transition(
    model: SiteModel, state: tuple[int, ...], action: int, uniform: Callable[[], float]
) -> tuple[tuple[int, ...], tuple]:
    """One outcome of ``action`` in ``state``, drawn as the env draws it: ``(state, event)``.

    The outcome of ``transitions`` that the uniform draw ``u = uniform()`` falls in (``u``
    minus the probabilities in order, the first to go below 0; the last one if rounding leaves
    ``u`` above their sum). ``uniform`` is called only when there is more than one outcome.
    Only the sampled next state is built, so a step costs one state, not one per outcome.

    Example:
        >>> from rlm_gym.envs.profiles import sample_profile
        >>> import numpy as np
        >>> model = site_model(sample_profile(np.random.default_rng(0)), max_steps=30)
        >>> state, event = sample_transition(model, initial_state(), STOP, lambda: 0.5)
        >>> PHASES[state[S_PHASE]], KINDS[event[0]]
        ('done', 'final')
    """
    moves = _moves(model, state, action)
    if len(moves) == 1:
        move = moves[0]
    else:
        u = uniform()
        for move in moves:
            u -= move[0]
            if u < 0.0:
                break
    _, changes, duration, error, event = move
    return _advance(model, state, changes, duration, error), event


_ACTION_KIND: tuple[int, ...] = (
    K_FETCH, K_FETCH, K_EXTRACT, K_EXTRACT, K_EXTRACT,
    K_PAGINATE, K_PAGINATE, K_PAGINATE, K_WAIT, K_FINAL,
)  # fmt: skip

_NO_CHANGES: dict[int, int] = {}
# The moves that do not depend on the state: an invalid action, a backoff, a stop.
_INVALID_MOVES: tuple[list, ...] = tuple(
    [
        (
            1.0,
            _NO_CHANGES,
            int(COSTS["invalid_ms"]),
            True,
            (kind, False, E_INVALID, int(COSTS["invalid_ms"]), 0, 0),
        )
    ]
    for kind in _ACTION_KIND
)
_BACKOFF_MOVES = [
    (
        1.0,
        {S_PRESSURE: 0},
        int(COSTS["backoff_ms"]),
        False,
        (K_WAIT, True, E_NONE, int(COSTS["backoff_ms"]), 0, 0),
    )
]
_STOP_MOVES = [(1.0, {S_END: STOPPED, S_PHASE: DONE}, 0, False, (K_FINAL, True, E_NONE, 0, 0, 0))]
