"""Baseline policies of the crawl env: random, a hand-written heuristic, fixed pipelines, oracle.

- ``random_action``: uniform over the actions valid in the current phase.
- ``heuristic_action``: rules on the observation only (see its docstring).
- ``fixed_strategy_action``: one fetcher, one extractor, one paginator for every site, stopping
  when the job's target is met or an extraction / pagination fails; ``FIXED_STRATEGIES`` lists
  all 18 and ``BEST_FIXED_STRATEGY`` is the best one measured by ``benchmarks/crawl_baselines.py``.
- ``Oracle``: knows the hidden profile and plays the expectimax-optimal action over the exact
  finite outcome lists of ``transitions.transitions`` (values cached per site, on the time grid
  of ``rlm_gym.envs.oracle_grid``).

They read the env through its public interface (``action_masks()``, ``np_random``,
``snapshot()``), never its attributes, so this module does not import the env class; the env's
``random_action()``, ``heuristic_action()``, ``fixed_strategy_action()`` and ``oracle_action()``
methods call them.

Example:
    >>> from rlm_gym.envs.crawl_env import CrawlEnv
    >>> env = CrawlEnv(pattern_types=["contact_info"])
    >>> _ = env.reset(seed=3)
    >>> CrawlEnv.ACTIONS[env.oracle_action()] in ("fetch_http", "fetch_headless", "stop")
    True
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

import numpy as np

from rlm_gym.envs import dynamics as dyn
from rlm_gym.envs.observation import INDEX
from rlm_gym.envs.oracle_grid import GridSite, OffGrid, candidates
from rlm_gym.envs.scoring import state_score
from rlm_gym.envs.transitions import transitions

__all__ = [
    "FETCHERS",
    "EXTRACTORS",
    "PAGINATORS",
    "FIXED_STRATEGIES",
    "BEST_FIXED_STRATEGY",
    "HEURISTIC_THRESHOLDS",
    "random_action",
    "heuristic_action",
    "fixed_strategy_action",
    "Oracle",
]

FETCHERS: tuple[str, ...] = ("fetch_http", "fetch_headless")
EXTRACTORS: tuple[str, ...] = ("extract_css", "extract_heuristic", "extract_llm")
PAGINATORS: tuple[str, ...] = ("url_navigation", "javascript_click", "infinite_scroll")
FIXED_STRATEGIES: tuple[tuple[str, str, str], ...] = tuple(
    itertools.product(FETCHERS, EXTRACTORS, PAGINATORS)
)
# Measured on Crawl-v1: `.venv/bin/python benchmarks/crawl_baselines.py --episodes 1000` (best
# mean over all pattern types, 7 x 1000 seeded sites: 0.627; random 0.308, heuristic 0.720,
# oracle 0.922). On v0 it was headless + LLM + URL navigation, which now re-serves page 1 on
# the sites without a replayable page URL.
BEST_FIXED_STRATEGY: tuple[str, str, str] = ("fetch_headless", "extract_llm", "javascript_click")

_A = {name: index for index, name in enumerate(dyn.ACTIONS)}

# The heuristic's cut-offs on observation entries.
HEURISTIC_THRESHOLDS: dict[str, float] = {
    "shell_text_ratio": 0.08,  # below: a client-side rendered shell → headless browser
    "regular_dom": 0.62,  # above: CSS selector templates are trusted
    "long_list": 0.45,  # items-per-page estimate above (≈ 22 items): LLM would truncate
    "stop_elapsed": 0.85,  # share of the time budget after which the crawl stops
}


def random_action(env: Any) -> int:
    """A uniformly random action among those valid now (drawn from ``env.np_random``).

    Args:
        env: A ``CrawlEnv`` (any env with ``action_masks()`` and ``np_random``).
    """
    valid = np.flatnonzero(env.action_masks())
    return int(valid[int(env.np_random.integers(len(valid)))])


def heuristic_action(obs: np.ndarray) -> int:
    """A crawl engineer's rules on the observation alone.

    - Fetch phase: stop past 85 % of the time budget; back off when rate limiting is signalled
      (probe 429 or last step blocked) and a request was made since the last backoff; use a
      headless browser when the probe was 403'd, looked like an empty shell, or hinted at
      load-more / infinite-scroll pagination, unless a fingerprinting script was seen; else HTTP.
    - Extract phase: re-fetch headless if the HTTP page was an empty shell and the last step
      failed; JSON-LD → heuristics; regular DOM → CSS; else the LLM, or heuristics on long lists.
    - Paginate phase: stop once the target is met, past the time limit or after a failed step;
      scroll or click when hinted and a browser is live; else URL navigation.

    Example:
        >>> obs = np.zeros(len(INDEX), dtype=np.float32)
        >>> obs[INDEX["phase_fetch"]] = 1.0
        >>> obs[INDEX["probe_text_ratio"]] = 0.3
        >>> dyn.ACTIONS[heuristic_action(obs)]
        'fetch_http'
    """
    limits = HEURISTIC_THRESHOLDS
    if obs[INDEX["phase_fetch"]]:
        if obs[INDEX["elapsed"]] >= limits["stop_elapsed"]:
            return _A["stop"]
        rate_limited = obs[INDEX["probe_status_429"]] or obs[INDEX["last_blocked"]]
        if rate_limited and obs[INDEX["politeness"]] > 0.0:
            return _A["backoff"]
        return _A["fetch_headless"] if _needs_browser(obs) else _A["fetch_http"]
    if obs[INDEX["phase_extract"]]:
        shell = obs[INDEX["last_text_ratio"]] < limits["shell_text_ratio"]
        if obs[INDEX["last_failed"]] and shell and not obs[INDEX["browser_live"]]:
            return _A["fetch_headless"]
        if obs[INDEX["json_ld"]]:
            return _A["extract_heuristic"]
        if obs[INDEX["dom_regularity"]] >= limits["regular_dom"]:
            return _A["extract_css"]
        if obs[INDEX["items_per_page_estimate"]] > limits["long_list"]:
            return _A["extract_heuristic"]
        return _A["extract_llm"]
    if obs[INDEX["phase_paginate"]]:
        done = obs[INDEX["items_vs_target"]] >= 1.0
        if done or obs[INDEX["last_failed"]] or obs[INDEX["elapsed"]] >= limits["stop_elapsed"]:
            return _A["stop"]
        if obs[INDEX["browser_live"]]:
            if obs[INDEX["hint_infinite_scroll"]]:
                return _A["infinite_scroll"]
            if obs[INDEX["hint_load_more"]]:
                return _A["javascript_click"]
        return _A["url_navigation"]
    return _A["stop"]


def _needs_browser(obs: np.ndarray) -> bool:
    if obs[INDEX["probe_bot_script"]] and not obs[INDEX["probe_status_403"]]:
        return False
    return bool(
        obs[INDEX["probe_status_403"]]
        or obs[INDEX["probe_text_ratio"]] < HEURISTIC_THRESHOLDS["shell_text_ratio"]
        or obs[INDEX["hint_load_more"]]
        or obs[INDEX["hint_infinite_scroll"]]
    )


def fixed_strategy_action(env: Any, strategy: tuple[str, str, str]) -> int:
    """The action of a fixed pipeline ``(fetcher, extractor, paginator)`` in the current state.

    The pipeline fetches with its fetcher (retrying failed fetches), extracts with its
    extractor, paginates with its paginator, and stops once the job's item target is met or an
    extraction or pagination step failed. It never backs off.

    Args:
        env: A ``CrawlEnv`` (any env whose ``snapshot()`` returns a ``CrawlSnapshot``).
        strategy: One of ``FIXED_STRATEGIES``.

    Raises:
        ValueError: If ``strategy`` is not a (fetcher, extractor, paginator) triple.
    """
    if tuple(strategy) not in FIXED_STRATEGIES:
        raise ValueError(
            f"Expected `strategy` to be a (fetcher, extractor, paginator) triple of "
            f"{FETCHERS}, {EXTRACTORS}, {PAGINATORS}, got {strategy!r}"
        )
    fetcher, extractor, paginator = strategy
    snapshot = env.snapshot()
    obs = snapshot.observation
    phase = snapshot.state[dyn.S_PHASE]
    if phase == dyn.FETCH:
        return _A[fetcher]
    if phase == dyn.EXTRACT:
        return _A["stop"] if snapshot.last_error == dyn.E_EMPTY_SHELL else _A[extractor]
    if phase == dyn.PAGINATE:
        if obs[INDEX["items_vs_target"]] >= 1.0 or obs[INDEX["last_failed"]]:
            return _A["stop"]
        return _A[paginator]
    return _A["stop"]


class Oracle:
    """The best plan for a known site: one (fetcher, extractor, paginator), adaptively played.

    For each of the 18 ``FIXED_STRATEGIES`` the oracle solves the crawl exactly by expectimax
    over the finite outcome lists of ``transitions.transitions`` with that strategy's fetcher,
    extractor and paginator (and free choice of backoff and when to stop), memoising values per
    state; it then plays the strategy of highest expected crawl score. Fixing the three tools per
    site (instead of per page) keeps the search small; the hidden profile makes every page of a
    site alike, so mixing tools within a site rarely helps.

    Within a strategy, actions that can never be better than another are not searched (so the
    values stay exact): a certain failure that leaves the phase unchanged (it only adds time, a
    step and an error) and a backoff with no request since the last one.

    The search runs on the 100 ms time grid of the dynamics (``rlm_gym.envs.oracle_grid``: one
    array of values per state-without-its-time, every time at once); a state off the grid takes
    the same search state by state. Both give the same values, bit for bit.

    Args:
        max_sites: How many sites' value tables to keep (least recently used dropped first;
            a site's arrays take tens of MB, so the default keeps the current site and the
            one before).

    Example:
        >>> from rlm_gym.envs.crawl_env import CrawlEnv
        >>> env = CrawlEnv(pattern_types=["product_list"], pagination="single", protection="none")
        >>> _ = env.reset(seed=0)
        >>> oracle = Oracle()
        >>> values = oracle.strategy_values(env.model, env.state)
        >>> max(values.values()) == oracle.value(env.model, env.state)
        True
    """

    def __init__(self, max_sites: int = 2) -> None:
        self.max_sites = max_sites
        self._sites: OrderedDict[dyn.SiteModel, list] = OrderedDict()
        # Efficiency components by (scorer, pages, errors) on the time grid: site-independent.
        self._efficiency: dict = {}

    def action(self, model: dyn.SiteModel, state: tuple[int, ...]) -> int:
        """The first action of the best strategy's optimal play from ``state``."""
        values = self.strategy_values(model, state)
        best = max(values, key=values.__getitem__)
        grid = self._grid(model, state)
        if grid is not None:
            try:
                return _best_action(grid.solver(_plan(best)).q_values(state))
            except OffGrid:
                self._site(model)[0] = None
        plan, table = _plan(best), self._table(model, best)
        return _best_action(
            (action, self._q(model, state, action, plan, table))
            for action in candidates(state, plan)
        )

    def value(self, model: dyn.SiteModel, state: tuple[int, ...]) -> float:
        """The expected final crawl score of the oracle's play from ``state``."""
        return max(self.strategy_values(model, state).values())

    def strategy_values(
        self, model: dyn.SiteModel, state: tuple[int, ...]
    ) -> dict[tuple[str, str, str], float]:
        """Expected final crawl score of each strategy, played optimally from ``state``."""
        grid = self._grid(model, state)
        if grid is not None:
            try:
                return {
                    strategy: grid.solver(_plan(strategy)).value(state)
                    for strategy in FIXED_STRATEGIES
                }
            except OffGrid:
                self._site(model)[0] = None
        return {
            strategy: self._value(model, state, _plan(strategy), self._table(model, strategy))
            for strategy in FIXED_STRATEGIES
        }

    def _site(self, model: dyn.SiteModel) -> list:
        """``[GridSite or None, scalar tables by strategy]`` of ``model`` (LRU over sites)."""
        site = self._sites.get(model)
        if site is None:
            try:
                grid = GridSite(model, self._efficiency)
            except OffGrid:
                grid = None
            site = self._sites[model] = [grid, {}]
            if len(self._sites) > self.max_sites:
                self._sites.popitem(last=False)
        return site

    def _grid(self, model: dyn.SiteModel, state: tuple[int, ...]) -> GridSite | None:
        grid = self._site(model)[0]
        return grid if grid is not None and grid.fits(state) else None

    def _table(self, model: dyn.SiteModel, strategy: tuple[str, str, str]) -> dict:
        tables = self._site(model)[1]
        table = tables.get(strategy)
        if table is None:
            table = tables[strategy] = {}
        return table

    def _q(
        self,
        model: dyn.SiteModel,
        state: tuple[int, ...],
        action: int,
        plan: tuple[int, int, int],
        table: dict,
    ) -> float:
        outcomes = transitions(model, state, action)
        if _pure_failure(state, outcomes):
            return -1.0
        return sum(p * self._value(model, s, plan, table) for p, s, _ in outcomes)

    def _value(
        self, model: dyn.SiteModel, state: tuple[int, ...], plan: tuple[int, int, int], table: dict
    ) -> float:
        value = table.get(state)
        if value is not None:
            return value
        if state[dyn.S_PHASE] == dyn.DONE:
            value = state_score(model, state)
        else:
            value = max(
                self._q(model, state, action, plan, table) for action in candidates(state, plan)
            )
        table[state] = value
        return value


def _best_action(values: Iterable[tuple[int, float]]) -> int:
    """The first action whose value beats every earlier one by more than 1e-12 (stop if none
    beats -1)."""
    best_action, best_value = dyn.STOP, -1.0
    for action, value in values:
        if value > best_value + 1e-12:
            best_action, best_value = action, value
    return best_action


def _plan(strategy: tuple[str, str, str]) -> tuple[int, int, int]:
    return (_A[strategy[0]], _A[strategy[1]], _A[strategy[2]])


def _pure_failure(state: tuple[int, ...], outcomes: list) -> bool:
    """A certain failure that leaves the phase unchanged only adds time, a step and an error.

    The value is non-increasing in time, steps and errors, and the same actions stay available,
    so such an action is never better than the best other one (``stop`` always exists).
    """
    if len(outcomes) != 1:
        return False
    _, next_state, event = outcomes[0]
    return not event[1] and next_state[dyn.S_PHASE] == state[dyn.S_PHASE]
