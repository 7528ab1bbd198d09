"""Crawl-v2's transition function over N sites at once: ``transitions`` as array operations.

``rlm_gym.envs.transitions`` describes one action in one state as a list of outcomes and samples
one of them; this module computes the sampled outcome of every sub-env of a batch in one numpy
pass over ``(N, 16)`` int64 states. The outcome is drawn exactly as the single env draws it: a
sub-env draws one uniform where its action has more than one outcome (a fetch that reaches the
server, a JavaScript click or scroll that loads items) and takes the outcome its uniform falls
in, subtracting the probabilities in ``transitions``' order, in float64 as the scalar code does.
So sub-env ``k`` of a batch, fed the uniforms of its own generator, follows the single env's
trajectory bit for bit (``tests/envs/test_crawl_vector.py``).

``SiteArrays`` holds the per-site numbers ``site_model`` derives once per episode, one row per
sub-env, with the durations the single env computes per step (``time_on_grid`` of jittered
latencies) computed once per reset with the scalar code, so the batch adds no float rounding of
its own.

Example:
    >>> import numpy as np
    >>> from rlm_gym.envs.dynamics import STOP, initial_state, site_model
    >>> from rlm_gym.envs.profiles import profile_from_uniforms
    >>> from rlm_gym.envs.scoring import scorer_for
    >>> sites = SiteArrays(1)
    >>> sites.set_rows([0], [site_model(profile_from_uniforms([0.5] * 17), 30, scorer_for(None))])
    >>> states = np.array([initial_state()], dtype=np.int64)
    >>> events = batch_transition(sites, states, np.array([STOP]), lambda rows: np.zeros(0))
    >>> states[0, S_PHASE] == DONE, events.success.tolist()
    (np.True_, [True])
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import NamedTuple

import numpy as np

from rlm_gym.envs.dynamics import (
    ACTIONS,
    BACKOFF,
    BLOCK_RATE,
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
    E_TIMEOUT,
    EXTRACT,
    FETCH,
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
    RENDER_MS,
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
    STOP,
    STOPPED,
    URL_NAVIGATION,
    VALID_PHASES,
    SiteModel,
    extraction_numbers,
    time_on_grid,
)
from rlm_gym.envs.profiles import SIMULATED_PATTERN_TYPES

__all__ = ["ACTION_KIND", "PATTERN_INDEX", "VALID", "BatchEvents", "SiteArrays", "batch_transition"]

_N_ACTIONS = len(ACTIONS)
# VALID[action, phase]: whether the action fits the phase (the done phase fits none).
VALID = np.array(
    [[phase in VALID_PHASES[action] for phase in range(4)] for action in range(_N_ACTIONS)]
)
_VALID_CELLS = VALID.reshape(-1)
# The event kind of every action's outcomes (valid or not, refused or not).
ACTION_KIND = np.array([
    K_FETCH, K_FETCH, K_EXTRACT, K_EXTRACT, K_EXTRACT,
    K_PAGINATE, K_PAGINATE, K_PAGINATE, K_WAIT, K_FINAL,
])  # fmt: skip
_TIMEOUT_RATE = COSTS["timeout_rate"]
_THROUGH = 1.0 - _TIMEOUT_RATE
_TIMEOUT_MS = int(COSTS["timeout_ms"])
_RATE_LIMITED_MS = int(COSTS["rate_limited_ms"])
_NAVIGATE_MS = int(COSTS["navigate_ms"])
_INVALID_MS = int(COSTS["invalid_ms"])
_BACKOFF_MS = int(COSTS["backoff_ms"])
_BLOCKS_TO_BAN = COSTS["blocks_to_ban"]
_RATE_LIMITS_TO_BAN = COSTS["rate_limits_to_ban"]
_SCROLL_FAIL_MS = time_on_grid(COSTS["scroll_wait_ms"])
# A click or scroll that loads items: its two jittered waits, by action (click, scroll),
# flattened (``2 * scroll + jitter``).
_BROWSER_CELLS = np.array(
    [
        [time_on_grid(COSTS["click_wait_ms"] * factor) for _, factor in JITTER],
        [time_on_grid(COSTS["scroll_wait_ms"] * factor) for _, factor in JITTER],
    ]
).reshape(-1)
_JITTER_WEIGHT = JITTER[0][0]
# The extractor of the extraction actions (0 for the others).
_EXTRACTOR = np.array([0, 0, 0, 1, 2, 0, 0, 0, 0, 0])
# By action (a column each): fetch, extraction, pagination, backoff, stop, then the actions a
# step tests by name: JavaScript click, infinite scroll, URL navigation.
_ACTION_INDEX = np.arange(len(ACTIONS))
_ACTION_TESTS = np.stack(
    [
        _ACTION_INDEX <= 1,
        (_ACTION_INDEX >= 2) & (_ACTION_INDEX <= 4),
        (_ACTION_INDEX >= 5) & (_ACTION_INDEX <= 7),
        _ACTION_INDEX == BACKOFF,
        _ACTION_INDEX == STOP,
        _ACTION_INDEX == JAVASCRIPT_CLICK,
        _ACTION_INDEX == INFINITE_SCROLL,
        _ACTION_INDEX == URL_NAVIGATION,
    ]
)
# By pagination kind (a column each): link pages (numbered or next link), script-driven, infinite
# scroll, numbered URLs.
_PAGINATION_TESTS = np.array(
    [[kind in (1, 2), kind == 3, kind == 4, kind == 1] for kind in range(5)]
).T.copy()
# The first cell (column) of each site field in ``SiteArrays.int_cells``.
_FETCH_MS, _PER_PAGE, _EXTRACT_MS, _EXTRACT_TOKENS = 9, 13, 16, 19
_N_INTS, _N_FLOATS, _N_FLAGS = 22, 5, 6


class SiteArrays:
    """The per-episode site numbers of N sub-envs (``site_model``'s), one row each.

    Args:
        num_envs: The number of sub-envs.

    Example:
        >>> from rlm_gym.envs.dynamics import site_model
        >>> from rlm_gym.envs.profiles import profile_from_uniforms
        >>> from rlm_gym.envs.scoring import scorer_for
        >>> model = site_model(profile_from_uniforms([0.5] * 17), 30, scorer_for(None))
        >>> sites = SiteArrays(2)
        >>> sites.set_rows([1], [model])
        >>> sites.per_page[1].tolist() == list(model.per_page), sites.per_page[0].tolist()
        (True, [0, 0, 0])
    """

    def __init__(self, num_envs: int) -> None:
        n = num_envs
        # Three blocks, one per dtype, each field a view of its columns: a reset copies a
        # site's numbers in three row copies (``copy_rows``) instead of one per field.
        # Column-major, as a step reads them a field at a time.
        self.ints = np.zeros((n, _N_INTS), dtype=np.int64, order="F")
        self.floats = np.zeros((n, _N_FLOATS), order="F")
        self.flags = np.zeros((n, _N_FLAGS), dtype=bool, order="F")
        ints, floats, flags = self.ints, self.floats, self.flags
        self.pattern_type = ints[:, 0]
        self.rendering = ints[:, 1]
        self.pagination = ints[:, 2]
        self.total_pages = ints[:, 3]
        self.time_budget = ints[:, 4]
        self.max_steps = ints[:, 5]
        self.error_cap = ints[:, 6]
        self.block_ms = ints[:, 7]
        self.target_items = ints[:, 8]
        # A successful fetch's two jittered durations, by fetcher.
        self.fetch_ms = ints[:, 9:13].reshape(n, 2, 2)
        self.per_page = ints[:, 13:16]
        self.extract_ms = ints[:, 16:19]
        self.extract_tokens = ints[:, 19:22]
        # P(403) of each fetcher.
        self.block_rate = floats[:, 0:2]
        self.defect_share = floats[:, 2:5]
        self.rate_limited = flags[:, 0]
        self.click_overlay = flags[:, 1]
        self.url_replayable = flags[:, 2]
        self.broken = flags[:, 3:6]
        # The int and float blocks flattened field after field (views): a step gathers a
        # field's entry of each sub-env with one ``take`` (``column * n + row``).
        self.int_cells = ints.T.reshape(-1)
        self.float_cells = floats.T.reshape(-1)

    def copy_rows(self, rows: np.ndarray, other: SiteArrays, start: int, stop: int) -> None:
        """Write the rows of sub-envs ``rows`` from rows ``start:stop`` of ``other``."""
        self.ints[rows] = other.ints[start:stop]
        self.floats[rows] = other.floats[start:stop]
        self.flags[rows] = other.flags[start:stop]

    def set_rows(self, rows: list[int], models: list[SiteModel]) -> None:
        """Write the rows of sub-envs ``rows`` from their site models (at their resets)."""
        if not rows:
            return
        profiles = [model.profile for model in models]
        self.pattern_type[rows] = [PATTERN_INDEX[profile.pattern_type] for profile in profiles]
        self.rate_limited[rows] = [model.rate_limited for model in models]
        self.rendering[rows] = [profile.rendering for profile in profiles]
        self.pagination[rows] = [profile.pagination for profile in profiles]
        self.click_overlay[rows] = [profile.click_overlay for profile in profiles]
        self.url_replayable[rows] = [profile.url_replayable for profile in profiles]
        self.total_pages[rows] = [profile.total_pages for profile in profiles]
        self.time_budget[rows] = [profile.time_budget_ms for profile in profiles]
        self.target_items[rows] = [profile.target_items for profile in profiles]
        self.max_steps[rows] = [model.max_steps for model in models]
        self.error_cap[rows] = [model.error_cap for model in models]
        self.block_rate[rows] = [model.block_rate for model in models]
        self.block_ms[rows] = [time_on_grid(profile.ttfb_ms) for profile in profiles]
        self.fetch_ms[rows] = [
            _fetch_ms(profile.ttfb_ms, model.render_ms)
            for model, profile in zip(models, profiles, strict=True)
        ]
        self.per_page[rows] = [model.per_page for model in models]
        self.defect_share[rows] = [model.defect_share for model in models]
        self.broken[rows] = [model.broken for model in models]
        self.extract_ms[rows] = [model.extract_ms for model in models]
        self.extract_tokens[rows] = [model.extract_tokens for model in models]

    def set_columns(self, rows: np.ndarray, columns: np.ndarray, max_steps: int, cap: int) -> None:
        """Write the rows of sub-envs ``rows`` from their sites' attribute rows
        (``vector_sites.SITE_COLUMNS``), as ``set_rows`` writes them from site models."""
        column = columns.T
        protection = column[3]
        ttfb = column[11]
        self.pattern_type[rows] = column[0]
        self.rendering[rows] = column[1]
        self.pagination[rows] = column[2]
        self.rate_limited[rows] = protection == 1
        self.click_overlay[rows] = column[6] != 0
        self.url_replayable[rows] = column[7] != 0
        self.total_pages[rows] = column[9]
        self.target_items[rows] = column[10]
        self.time_budget[rows] = column[12]
        self.max_steps[rows] = max_steps
        self.error_cap[rows] = cap
        self.block_rate[rows] = _BLOCK_RATE[protection]
        self.block_ms[rows] = np.maximum(100, (ttfb / 100.0 + 0.5).astype(np.int64) * 100)
        # Both maps take few distinct inputs: each distinct one is mapped once.
        render = _RENDER_MS[column[1]]
        self.fetch_ms[rows] = _per_distinct((ttfb, render), _fetch_cells)
        numbers = _per_distinct((column[4], column[5], column[8]), _extraction_cells)
        self.per_page[rows] = numbers[:, 0:3]
        self.defect_share[rows] = numbers[:, 3:6]
        self.broken[rows] = numbers[:, 6:9] != 0
        self.extract_ms[rows] = numbers[:, 9:12]
        self.extract_tokens[rows] = numbers[:, 12:15]


def _per_distinct(inputs: tuple[np.ndarray, ...], function: Callable[..., list]) -> np.ndarray:
    """``function(*row)`` of each row of the columns ``inputs`` (non-negative ints; one call
    per distinct row), as an array with one row per input row."""
    key = inputs[0]
    for column in inputs[1:]:
        key = key * (int(column.max()) + 1) + column
    _, first, where = np.unique(key, return_index=True, return_inverse=True)
    rows = np.stack([column[first] for column in inputs], axis=1).tolist()
    return np.array([function(*row) for row in rows])[where]


def _fetch_cells(ttfb_ms: int, render_ms: int) -> list[list[int]]:
    return [list(durations) for durations in _fetch_ms(ttfb_ms, render_ms)]


def _extraction_cells(regular_markup: int, json_ld: int, items_per_page: int) -> list[float]:
    """``extraction_numbers`` as one row: per page, defect shares, breaks, times, tokens."""
    numbers = extraction_numbers(bool(regular_markup), bool(json_ld), items_per_page)
    return [value for part in numbers for value in part]


_BLOCK_RATE = np.array(BLOCK_RATE)
_RENDER_MS = np.array(RENDER_MS)
# A pattern type's index in ``SIMULATED_PATTERN_TYPES`` (the observation's one-hot order).
PATTERN_INDEX = {name: index for index, name in enumerate(SIMULATED_PATTERN_TYPES)}


@cache
def _fetch_ms(ttfb_ms: int, render_ms: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """A successful fetch's two jittered durations, by fetcher (``transitions._fetch``'s
    expressions, so the batch adds no rounding of its own)."""
    return tuple(
        tuple(
            time_on_grid(
                ttfb_ms * factor + (COSTS["http_parse_ms"] if fetcher == FETCH_HTTP else render_ms)
            )
            for _, factor in JITTER
        )
        for fetcher in (0, 1)
    )


class BatchEvents(NamedTuple):
    """The step's event of every sub-env (``transitions``' ``event`` tuple, as arrays)."""

    kind: np.ndarray
    success: np.ndarray
    error_code: np.ndarray
    duration: np.ndarray
    tokens: np.ndarray
    items: np.ndarray


def batch_transition(
    sites: SiteArrays,
    states: np.ndarray,
    actions: np.ndarray,
    draw: Callable[[np.ndarray], np.ndarray],
    active: np.ndarray | None = None,
) -> BatchEvents:
    """Apply every sub-env's action to its state (in place) and return the step's events.

    Every outcome is a mask over the whole batch (they are disjoint), and each state column
    and event is written once per outcome that sets it (``np.copyto`` under the mask): a fixed
    number of array passes, whatever the mix of actions.

    Args:
        sites: The sub-envs' site numbers.
        states: ``(N, 16)`` int64 states (``dynamics.S_*`` columns), updated in place. Every
            sub-env must be running (phase not done).
        actions: ``(N,)`` int64 action indices in ``[0, 10)``.
        draw: ``draw(rows)`` returns one uniform in ``[0, 1)`` for each sub-env of ``rows``
            (an int array, ascending), from that sub-env's own stream; called once per step,
            for the sub-envs whose action has more than one outcome.
        active: A bool mask of the sub-envs that take a step (all when None); the others'
            states are left as they are and their events are zeros.

    Returns:
        The events, as ``sample_transition`` returns them sub-env by sub-env.
    """
    n = len(actions)
    every = _rows(n)
    copyto = np.copyto
    phase = states[:, S_PHASE]
    fetched_by = states[:, S_FETCHED]
    valid = _VALID_CELLS.take(actions * 4 + phase)
    stepping = np.ones(n, dtype=bool) if active is None else active
    if active is not None:
        valid &= active
    invalid = stepping & ~valid
    # Each action's family and the actions tested by name: one gather of the table.
    fetching, extracting, paginating, backing_off, stopping, clicking, scrolling, navigating = (
        _ACTION_TESTS.take(actions, axis=1)
    )
    fetching &= valid
    extracting &= valid
    paginating &= valid
    backing_off &= valid
    stopping &= valid
    # A rate-limited site refuses (429) a request that follows another without a backoff.
    limited = sites.rate_limited & (states[:, S_PRESSURE] != 0)
    live = fetched_by == BY_HEADLESS

    # Pagination (``transitions._paginate``): URL navigation, a click or scroll that loads the
    # next items (a request), or a failure with its error code.
    pages = states[:, S_CSS] + states[:, S_HEURISTIC] + states[:, S_LLM]
    more = paginating & (pages < sites.total_pages)
    link_pages, by_script, by_scroll, numbered = _PAGINATION_TESTS.take(sites.pagination, axis=1)
    intercepted = link_pages & sites.click_overlay
    clicked = clicking & (by_script | (link_pages ^ intercepted))
    navigate = more & navigating
    loads = more & live & (clicked | (scrolling & by_scroll))
    page_failed = paginating & ~navigate & ~loads
    code = np.where(clicking, E_NO_CLICKABLE, E_NO_SCROLL)
    copyto(code, E_CLICK_INTERCEPTED, where=clicking & intercepted)
    copyto(code, E_NO_BROWSER, where=~live)
    copyto(code, E_LAST_PAGE, where=~more)
    code *= page_failed

    refused = (fetching | loads) & limited
    reached = fetching & ~limited
    loading = loads & ~limited
    u = np.zeros(n)
    drawing = (reached | loading).nonzero()[0]
    if len(drawing):
        u[drawing] = draw(drawing)

    # Fetches that reach the server: ``u`` minus the outcome probabilities in
    # ``transitions._fetch``'s order, the first to go below 0 (the last when none does), in
    # float64 as the scalar code computes them. Without a block rate the block terms are
    # exactly 0.0 (``x - 0.0 * y`` is ``x``), so no site needs a branch of its own.
    fetcher = actions & 1
    block = sites.float_cells.take(fetcher * n + every)
    after_timeout = u - _TIMEOUT_RATE
    after_block = after_timeout - _THROUGH * block
    through = _THROUGH * (1.0 - block)
    timed_out = reached & (after_timeout < 0.0)
    blocked = reached & ~timed_out & (after_block < 0.0)
    fetched = reached & ~timed_out & ~blocked
    fetch_jitter = after_block - _JITTER_WEIGHT * through >= 0.0
    load_jitter = u - _JITTER_WEIGHT >= 0.0
    blocks = states[:, S_BLOCKS] + blocked
    limits = states[:, S_429] + refused
    banned = (blocked & (blocks >= _BLOCKS_TO_BAN)) | (refused & (limits >= _RATE_LIMITS_TO_BAN))

    # Extractions: an empty shell on a client-only site fetched over HTTP, else a page of rows
    # (duplicates when the page was re-served).
    extractor = _EXTRACTOR.take(actions)
    shell = extracting & (fetched_by == BY_HTTP) & (sites.rendering == 2)
    extracted = extracting & ~shell
    cells = sites.int_cells
    extractor_cell = extractor * n + every

    error_code = code
    copyto(error_code, E_INVALID, where=invalid)
    copyto(error_code, E_429, where=refused)
    copyto(error_code, E_TIMEOUT, where=timed_out)
    copyto(error_code, E_403, where=blocked)
    copyto(error_code, E_BANNED, where=banned)
    copyto(error_code, E_EMPTY_SHELL, where=shell)
    duration = paginating * _NAVIGATE_MS
    copyto(duration, _SCROLL_FAIL_MS, where=page_failed & (code == E_NO_SCROLL))
    copyto(duration, _BROWSER_CELLS.take(scrolling * 2 + load_jitter), where=loading)
    copyto(duration, _INVALID_MS, where=invalid)
    copyto(duration, _RATE_LIMITED_MS, where=refused)
    copyto(duration, _TIMEOUT_MS, where=timed_out)
    copyto(duration, sites.block_ms, where=blocked)
    fetch_cell = (_FETCH_MS + fetcher * 2 + fetch_jitter) * n + every
    copyto(duration, cells.take(fetch_cell), where=fetched)
    copyto(duration, cells.take(extractor_cell + _EXTRACT_MS * n), where=extracting)
    copyto(duration, _BACKOFF_MS, where=backing_off)
    success = fetched | extracted | navigate | loading | backing_off | stopping
    events = BatchEvents(
        ACTION_KIND.take(actions),
        success,
        error_code,
        duration,
        cells.take(extractor_cell + _EXTRACT_TOKENS * n) * extracting,
        cells.take(extractor_cell + _PER_PAGE * n) * extracted,
    )

    extracting_rows = extracted.nonzero()[0]
    if len(extracting_rows):
        reserved = states[extracting_rows, S_RESERVED] != 0
        slot = np.where(reserved, S_DUP_CSS, S_CSS) + extractor[extracting_rows]
        states[extracting_rows, slot] += 1
    copyto(states[:, S_PRESSURE], sites.rate_limited, where=reached | loading)
    copyto(states[:, S_PRESSURE], 0, where=backing_off)
    numbered |= sites.url_replayable
    copyto(states[:, S_RESERVED], ~numbered, where=navigate)
    copyto(states[:, S_RESERVED], 0, where=loading)
    copyto(fetched_by, fetcher + 1, where=fetched)  # BY_HTTP or BY_HEADLESS
    copyto(fetched_by, NOT_FETCHED, where=navigate)
    states[:, S_BLOCKS] = blocks
    states[:, S_429] = limits
    copyto(phase, EXTRACT, where=fetched | loading)
    copyto(phase, PAGINATE, where=extracted)
    copyto(phase, FETCH, where=navigate)
    copyto(phase, DONE, where=stopping | banned)
    copyto(states[:, S_END], STOPPED, where=stopping)
    copyto(states[:, S_END], BLOCKED, where=banned)
    # Every step that did not succeed counts as an error (invalid, refused, failed).
    _advance(sites, states, stepping, duration, stepping & ~success)
    return events


@cache
def _rows(n: int) -> np.ndarray:
    return np.arange(n)


def _advance(sites, states, active, durations, counts_error) -> None:
    """Add time and a step, count errors, and end on the time or step budget (``_advance``)."""
    cap = sites.error_cap
    time_ms = states[:, S_TIME] = states[:, S_TIME] + durations
    steps = states[:, S_STEPS] = states[:, S_STEPS] + active
    errors = states[:, S_ERROR]
    errors += counts_error & (errors < cap)
    running = active & (states[:, S_END] == RUNNING)
    over = running & (time_ms > sites.time_budget)
    out = running & ~over & (steps >= sites.max_steps)
    errors += over & (errors < cap)
    np.copyto(states[:, S_END], OVER_BUDGET, where=over)
    np.copyto(states[:, S_END], OUT_OF_STEPS, where=out)
    np.copyto(states[:, S_PHASE], DONE, where=over | out)
