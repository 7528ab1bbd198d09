"""The crawl simulator's transition function: every action's finite list of outcomes.

The env samples one outcome per step; the oracle searches them all (expectimax). Both use
``transitions``, so the oracle plans against exactly the dynamics the agent experiences.
An outcome is ``(probability, next_state, event)`` with ``event = (kind, success, error_code,
duration_ms, tokens_used, items)``: what the env turns into the step's ``ActionResult``. States,
action indices, costs and rates are the tables of ``rlm_gym.envs.dynamics``.

Example:
    >>> from rlm_gym.envs.dynamics import initial_state, site_model
    >>> from rlm_gym.envs.profiles import sample_profile
    >>> from rlm_gym.envs.scoring import scorer_for
    >>> import numpy as np
    >>> model = site_model(sample_profile(np.random.default_rng(0)), 30, scorer_for(None))
    >>> outcomes = transitions(model, initial_state(), FETCH_HTTP)
    >>> round(sum(p for p, _, _ in outcomes), 9)
    1.0
"""

from __future__ import annotations

from collections.abc import Callable

from rlm_gym.envs.dynamics import (
    BACKOFF,
    BLOCKED,
    BY_HEADLESS,
    BY_HTTP,
    COSTS,
    DONE,
    E_403,
    E_429,
    E_BANNED,
    E_CLICK_INTERCEPTED,
    E_EMPTY_SHELL,
    E_INVALID,
    E_LAST_PAGE,
    E_NO_BROWSER,
    E_NO_CLICKABLE,
    E_NO_SCROLL,
    E_NONE,
    E_TIMEOUT,
    EXTRACT,
    EXTRACT_CSS,
    EXTRACT_LLM,
    FETCH,
    FETCH_HEADLESS,
    FETCH_HTTP,
    INFINITE_SCROLL,
    JAVASCRIPT_CLICK,
    JITTER,
    K_EXTRACT,
    K_FETCH,
    K_FINAL,
    K_PAGINATE,
    K_WAIT,
    NOT_FETCHED,
    OUT_OF_STEPS,
    OVER_BUDGET,
    PAGINATE,
    RUNNING,
    S_429,
    S_BLOCKS,
    S_CSS,
    S_DUP_CSS,
    S_END,
    S_ERROR,
    S_FETCHED,
    S_HEURISTIC,
    S_LLM,
    S_PHASE,
    S_PRESSURE,
    S_RESERVED,
    S_STEPS,
    S_TIME,
    STOPPED,
    URL_NAVIGATION,
    VALID_PHASES,
    SiteModel,
    time_on_grid,
)

__all__ = ["transitions", "sample_transition", "outcome_moves"]


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
        duration = time_on_grid(model.profile.ttfb_ms)
        moves.append((through * block, *_refusal(state, changes, E_403, duration)))
        through *= 1.0 - block
    base = model.profile.ttfb_ms
    extra = COSTS["http_parse_ms"] if fetcher == FETCH_HTTP else model.render_ms
    fetched = BY_HTTP if fetcher == FETCH_HTTP else BY_HEADLESS
    changes = {S_PHASE: EXTRACT, S_FETCHED: fetched, S_PRESSURE: pressure}
    for weight, factor in JITTER:
        duration = time_on_grid(base * factor + extra)
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
        duration = time_on_grid(wait_ms * factor)
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
    return _fail(K_PAGINATE, E_NO_SCROLL, time_on_grid(COSTS["scroll_wait_ms"]))


def outcome_moves(model: SiteModel, state: tuple[int, ...], action: int) -> list:
    """All outcomes of ``action`` in ``state`` before their next states are built: a list of
    ``(probability, changes, duration_ms, counts_as_error, event)``, one per outcome, in the
    order of ``transitions``. The env builds only the next state it samples; the oracle's grid
    solver (``rlm_gym.envs.oracle_grid``) builds them with the time left out. They do not
    depend on the state's time or step count (only ``transitions``' budget checks do)."""
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
        for probability, changes, duration, error, event in outcome_moves(model, state, action)
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
        >>> from rlm_gym.envs.dynamics import KINDS, PHASES, STOP, initial_state, site_model
        >>> from rlm_gym.envs.profiles import sample_profile
        >>> from rlm_gym.envs.scoring import scorer_for
        >>> import numpy as np
        >>> model = site_model(sample_profile(np.random.default_rng(0)), 30, scorer_for(None))
        >>> state, event = sample_transition(model, initial_state(), STOP, lambda: 0.5)
        >>> PHASES[state[S_PHASE]], KINDS[event[0]]
        ('done', 'final')
    """
    moves = outcome_moves(model, state, action)
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
