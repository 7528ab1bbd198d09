"""What ``CrawlVectorEnv`` writes after a batched step: observations, error texts and infos.

``update_observations`` is ``CrawlEnv._update_observation`` over the stepped sub-envs (the same
entries, the same float64 expressions, stored as float32). ``StepTexts`` keeps each sub-env's
error log as codes (the texts are built once, for the crawl result) and writes a step's
``infos`` in Gymnasium's vector layout, looking texts up in tables where the single env's
texts allow it.

Example:
    >>> ERROR_TEXTS[12, 2, 0]
    "Invalid action 'extract_css' in phase 'fetch'"
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from rlm_gym.envs.batched_infos import LazyColumn
from rlm_gym.envs.dynamics import (
    ACTIONS,
    BY_HEADLESS,
    COSTS,
    E_403,
    E_429,
    E_BANNED,
    E_INVALID,
    ERRORS,
    FETCH_HTTP,
    K_EXTRACT,
    K_FETCH,
    K_PAGINATE,
    KINDS,
    S_429,
    S_BLOCKS,
    S_CSS,
    S_DUP_CSS,
    S_FETCHED,
    S_HEURISTIC,
    S_LLM,
    S_PHASE,
    S_STEPS,
    S_TIME,
)
from rlm_gym.envs.observation import (
    INDEX,
    MEMORY_METHODS,
    OBSERVATION_SIZE,
    PROGRESS_START,
    text_ratio,
)
from rlm_gym.envs.profiles import SiteProfile
from rlm_gym.envs.reports import ERROR_TEXTS, site_codes
from rlm_gym.envs.vector_finals import TASK_DTYPES, error_texts
from rlm_gym.policies.types import trusted_action_result

__all__ = [
    "ERROR_TEXTS",
    "INITIAL_PROGRESS",
    "ItemCounts",
    "StepTexts",
    "update_observations",
]

# The progress and memory entries at reset: everything 0 except ``phase_fetch``.
INITIAL_PROGRESS = [
    1.0 if index == INDEX["phase_fetch"] else 0.0
    for index in range(PROGRESS_START, OBSERVATION_SIZE)
]
_KIND_NAMES = np.array(KINDS, dtype=object)
_ACTION_NAMES = np.array(ACTIONS, dtype=object)
_PHASE_START = INDEX["phase_fetch"]
# By error code: whether the site refused the crawler (a 403, a 429 or the ban).
_BLOCK_ERROR = np.isin(np.arange(len(ERRORS)), (E_403, E_429, E_BANNED))
_N_METHODS = len(MEMORY_METHODS)
_BLOCKS_TO_BAN = float(COSTS["blocks_to_ban"])
_RATE_LIMITS_TO_BAN = float(COSTS["rate_limits_to_ban"])
_N_ACTIONS = len(ACTIONS)
_N_PHASES = ERROR_TEXTS.shape[2]
# ``add_finals``' masks: the action name, the task's keys, ``task``, the score, the result.
_N_FINAL_MASKS = len(TASK_DTYPES) + 4
_LAST_ACTION_START = INDEX["last_action_fetch_http"]
_ACTION_ONE_HOT = np.eye(_N_ACTIONS, dtype=np.float32)
# The phase one-hot of each phase (done has no entry: all 0).
_PHASE_ONE_HOT = np.eye(4, 3, dtype=np.float32)


def update_observations(env: Any, actions, events) -> None:
    """``CrawlEnv._update_observation`` of every sub-env (after its step), column by column.

    The single env writes an entry only when it can change; every such entry is a function of
    the state (or stays as it was), so writing it on every step writes the same value: the
    phase and last-action one-hots, the item entries (0 before the first page, as at the
    reset), the error count, the block counters. Only the page's text ratio (after a fetch)
    and the failed-method flags keep what they were. Rows that did not step are those a
    ``NEXT_STEP`` reset rewrites whole at the end of the step, so they are written too.
    """
    obs = env._obs
    states = env._states
    sites = env._sites
    success = events.success
    code = events.error_code
    failed = ~success
    obs[:, _PHASE_START : _PHASE_START + 3] = _PHASE_ONE_HOT[states[:, S_PHASE]]
    counted = env._item_counts = _item_counts(sites, states)
    _write_item_counts(obs, sites, counted)
    fetched = success & (events.kind == K_FETCH)
    ratio = np.where(actions == FETCH_HTTP, env._texts.shell_ratio, 0.3)
    np.copyto(obs[:, INDEX["last_text_ratio"]], ratio, where=fetched)
    obs[:, INDEX["errors"]] = np.minimum(1.0, env._texts.count / 5.0)
    # A method fails "on this site" only where it is valid (``CrawlEnv._update_observation``).
    remembered = np.flatnonzero(failed & (code != E_INVALID) & (actions < _N_METHODS))
    if len(remembered):
        obs[remembered, INDEX["failed_fetch_http"] + actions[remembered]] = 1.0
    obs[:, INDEX["count_403"]] = states[:, S_BLOCKS] / _BLOCKS_TO_BAN
    obs[:, INDEX["count_429"]] = states[:, S_429] / _RATE_LIMITS_TO_BAN
    obs[:, INDEX["elapsed"]] = np.minimum(2.0, states[:, S_TIME] / sites.time_budget)
    obs[:, INDEX["last_latency"]] = np.minimum(4.0, events.duration / 10_000.0)
    obs[:, INDEX["politeness"]] = np.minimum(1.0, env._requests / 3.0)
    obs[:, INDEX["browser_live"]] = states[:, S_FETCHED] == BY_HEADLESS
    obs[:, INDEX["last_failed"]] = failed
    obs[:, INDEX["last_blocked"]] = _BLOCK_ERROR[code]
    obs[:, INDEX["steps"]] = states[:, S_STEPS] / sites.max_steps
    obs[:, _LAST_ACTION_START : _LAST_ACTION_START + _N_ACTIONS] = _ACTION_ONE_HOT[actions]
    env._last_action[:] = actions


class ItemCounts(NamedTuple):
    """Every sub-env's items after a step (``dynamics.item_counts``): valid ones, new rows
    and re-served rows, pages collected, and defective rows per extractor."""

    valid: np.ndarray
    items: np.ndarray
    duplicates: np.ndarray
    collected: np.ndarray
    defective: np.ndarray


def _item_counts(sites, states) -> ItemCounts:
    pages = states[:, S_CSS : S_LLM + 1]
    duplicate_pages = states[:, S_DUP_CSS : S_DUP_CSS + 3]
    per_page = sites.per_page
    counts = pages * per_page
    defective = (counts * sites.defect_share).astype(np.int64)
    items = counts.sum(axis=1)
    valid = ((counts - defective) * ~sites.broken).sum(axis=1)
    duplicates = (duplicate_pages * per_page).sum(axis=1)
    collected = pages.sum(axis=1) + duplicate_pages.sum(axis=1)
    return ItemCounts(valid, items, duplicates, collected, defective)


def _write_item_counts(obs, sites, counted: ItemCounts) -> None:
    """The item entries (``dynamics.item_counts``, per extractor)."""
    valid, items, duplicates = counted.valid, counted.items, counted.duplicates
    obs[:, INDEX["pages_collected"]] = np.minimum(3.0, counted.collected / 10.0)
    obs[:, INDEX["items_vs_target"]] = np.minimum(2.0, valid / sites.target_items)
    # With no items there are no valid ones and no duplicates either: 0 / 1.
    obs[:, INDEX["item_quality"]] = valid / np.maximum(items, 1)
    obs[:, INDEX["duplicate_rows"]] = duplicates / np.maximum(items + duplicates, 1)


class _StepReport:
    """What a step's ``ActionResult`` s and action codes are built from, when read: the step's
    events and actions and each sub-env's site as they were on the step."""

    __slots__ = ("actions", "events", "finals", "mask", "pages", "phases", "sites")

    def __init__(self, mask, actions, phases, events, pages, sites, finals) -> None:
        self.mask = mask
        self.actions = actions
        self.phases = phases
        self.events = events
        self.pages = pages
        self.sites = sites
        self.finals = finals

    def code(self, index: int) -> str:
        """``info["action"]["code"]`` of sub-env ``index``."""
        pattern_types, domains = self.sites
        return site_codes(pattern_types[index], domains[index])[self.actions[index]]

    def result(self, index: int) -> Any:
        """Sub-env ``index``'s ``ActionResult``, as ``CrawlEnv.step`` builds it (fields valid
        by construction), or None if it did not step."""
        if not self.mask[index]:
            return None
        finals = self.finals
        if finals is not None and index in finals:
            return finals.info(index)["action_result"]
        events = self.events
        action = int(self.actions[index])
        kind = int(events.kind[index])
        duration = int(events.duration[index])
        if events.success[index]:
            error = None
            if kind == K_FETCH:
                domain = self.sites[1][index]
                output = f"200 OK: page {self.pages[index] + 1} of {domain} in {duration} ms"
            elif kind == K_EXTRACT:
                output = f"extracted {events.items[index]} items with {ACTIONS[action][8:]}"
            elif kind == K_PAGINATE:
                output = f"moved to page {self.pages[index] + 1}"
            else:
                output = f"waited {duration} ms"
        else:
            output = ""
            error = ERROR_TEXTS[events.error_code[index], action, self.phases[index]]
        return trusted_action_result(
            KINDS[kind],
            bool(events.success[index]),
            output,
            error,
            float(duration),
            int(events.tokens[index]),
        )


class StepTexts:
    """Per-sub-env texts of the crawl: each site's pattern type and domain and the error log.

    Args:
        num_envs: The number of sub-envs.
        max_steps: The step budget (at most one error per step).

    Example:
        >>> from rlm_gym.envs.profiles import profile_from_uniforms
        >>> texts = StepTexts(2, 30)
        >>> texts.reset(0, profile_from_uniforms([0.5] * 17))
        >>> texts.record_errors(np.array([0]), np.array([12]), np.array([2]), np.array([0, 0]))
        >>> texts.errors(0)
        ["Invalid action 'extract_css' in phase 'fetch'"]
    """

    def __init__(self, num_envs: int, max_steps: int) -> None:
        self.pattern_types = np.full(num_envs, "", dtype=object)
        self.domains = np.full(num_envs, "", dtype=object)
        self.shell_ratio = np.zeros(num_envs)
        # Each logged error as its index into ``ERROR_TEXTS`` (code, action, phase) flattened.
        self.log = np.zeros((num_envs, max_steps), dtype=np.int64)
        self.count = np.zeros(num_envs, dtype=np.int64)

    def reset(self, index: int, profile: SiteProfile) -> None:
        """Start sub-env ``index``'s log for a new site."""
        self.pattern_types[index] = profile.pattern_type
        self.domains[index] = profile.domain
        self.shell_ratio[index] = text_ratio(profile, 0.0)
        self.count[index] = 0

    def record_errors(self, rows, codes, actions, phases) -> None:
        """Log one error for each sub-env of ``rows`` (their failed steps)."""
        position = self.count[rows]
        self.log[rows, position] = (codes * _N_ACTIONS + actions) * _N_PHASES + phases[rows]
        self.count[rows] = position + 1

    def errors(self, index: int) -> list[str]:
        """Sub-env ``index``'s error texts so far, in order."""
        return error_texts(self.log[index, : self.count[index]])

    def step_infos(
        self, env: Any, stepped: np.ndarray, actions, events, previous_phase, finals: Any = None
    ) -> dict[str, Any]:
        """The step's ``action`` and ``action_result`` infos of the sub-envs of the mask
        ``stepped``; the codes and ``ActionResult`` s are built when read (``LazyColumn``).
        ``finals`` (a ``FinishedCrawls``) gives the final ``ActionResult`` of the sub-envs that
        finished."""
        n = env.num_envs
        states = env._states
        pages = states[:, S_CSS] + states[:, S_HEURISTIC] + states[:, S_LLM]
        sites = (self.pattern_types.copy(), self.domains.copy())
        masks = np.empty((4, n), dtype=bool)
        masks[:] = stepped
        report = _StepReport(masks[0], actions.copy(), previous_phase, events, pages, sites, finals)
        names = _ACTION_NAMES[actions]
        action = {"action": names, "_action": masks[1], "code": LazyColumn(n, report.code)}
        action["_code"] = masks[2]
        infos = {"action": action, "_action": masks[3]}
        infos["action_result"] = LazyColumn(n, report.result)
        infos["_action_result"] = stepped.copy()
        return infos

    @staticmethod
    def add_finals(env: Any, infos: dict[str, Any], finals: Any) -> None:
        """Write the step's finished crawls (a ``FinishedCrawls``) into ``infos``: their action
        names, task outcomes, true crawl scores and (built when read) crawl results, typed as
        ``VectorEnv._add_info`` types them."""
        rows = finals.rows
        if not rows:
            return
        n = env.num_envs
        # One block for the masks of the keys (each key its own row: its own array).
        masks = np.zeros((_N_FINAL_MASKS, n), dtype=bool)
        masks[:, rows] = True
        action = infos["action"]
        action["action"][rows] = "final"
        names = np.full(n, None, dtype=object)
        names[rows] = _ACTION_NAMES[finals.actions]
        action["name"], action["_name"] = names, masks[0]
        task: dict[str, Any] = {}
        for index, (key, dtype) in enumerate(TASK_DTYPES.items(), start=1):
            column = task[key] = np.zeros(n, dtype=dtype)
            column[rows] = finals.task[key]
            task[f"_{key}"] = masks[index]
        infos["task"], infos["_task"] = task, masks[-3]
        scores = np.zeros(n)
        scores[rows] = finals.true_scores
        infos["true_crawl_score"], infos["_true_crawl_score"] = scores, masks[-2]
        infos["crawl_result"] = LazyColumn(n, finals.crawl_result)
        infos["_crawl_result"] = masks[-1]

    @staticmethod
    def drop(infos: dict[str, Any], finished: np.ndarray) -> None:
        """Unmark the finished sub-envs in the step's ``action`` / ``action_result`` infos
        (``SAME_STEP``: their own info moves to ``final_info``)."""
        infos["_action_result"] &= ~finished
        infos["_action"] &= ~finished
        for name, value in infos["action"].items():
            if name.startswith("_"):
                value &= ~finished
