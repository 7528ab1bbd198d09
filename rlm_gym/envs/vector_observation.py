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

from typing import Any

import numpy as np

from rlm_gym.envs.dynamics import (
    ACTIONS,
    BY_HEADLESS,
    COSTS,
    DONE,
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
    PHASES,
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
from rlm_gym.envs.reports import action_codes, error_text
from rlm_gym.policies.types import trusted_action_result

__all__ = ["ERROR_TEXTS", "INITIAL_PROGRESS", "StepTexts", "update_observations"]

# The progress and memory entries at reset: everything 0 except ``phase_fetch``.
INITIAL_PROGRESS = [
    1.0 if index == INDEX["phase_fetch"] else 0.0
    for index in range(PROGRESS_START, OBSERVATION_SIZE)
]
# ERROR_TEXTS[code, action, phase]: ``reports.error_text`` of every error a step can have.
ERROR_TEXTS = np.array(
    [
        [[error_text(code, name, phase) for phase in range(len(PHASES))] for name in ACTIONS]
        for code in range(len(ERRORS))
    ],
    dtype=object,
)
_KIND_NAMES = np.array(KINDS, dtype=object)
_ACTION_NAMES = np.array(ACTIONS, dtype=object)
_PHASE_START = INDEX["phase_fetch"]
_BLOCK_ERRORS = (E_403, E_429, E_BANNED)
_N_METHODS = len(MEMORY_METHODS)
_BLOCKS_TO_BAN = float(COSTS["blocks_to_ban"])
_RATE_LIMITS_TO_BAN = float(COSTS["rate_limits_to_ban"])
_DUP_COLUMNS = [S_DUP_CSS, S_DUP_CSS + 1, S_DUP_CSS + 2]
_PAGE_COLUMNS = [S_CSS, S_HEURISTIC, S_LLM]


def update_observations(env: Any, rows: np.ndarray, actions, events, previous_phase) -> None:
    """``CrawlEnv._update_observation`` for the sub-envs of ``rows`` (after their step)."""
    obs = env._obs
    states = env._states[rows]
    sites = env._sites
    action = actions[rows]
    phase = states[:, S_PHASE]
    before = previous_phase[rows]
    changed = phase != before
    obs[rows[changed], _PHASE_START + before[changed]] = 0.0
    entered = changed & (phase != DONE)
    obs[rows[entered], _PHASE_START + phase[entered]] = 1.0

    success = events.success[rows]
    kind = events.kind[rows]
    code = events.error_code[rows]
    extracted = success & (kind == K_EXTRACT)
    if extracted.any():
        _write_item_counts(obs, sites, rows[extracted], states[extracted])
    fetched = success & (kind == K_FETCH)
    fetch_rows = rows[fetched]
    obs[fetch_rows, INDEX["last_text_ratio"]] = np.where(
        action[fetched] == FETCH_HTTP, env._texts.shell_ratio[fetch_rows], 0.3
    )
    failed = ~success
    failed_rows = rows[failed]
    obs[failed_rows, INDEX["errors"]] = np.minimum(1.0, env._texts.count[failed_rows] / 5.0)
    # A method fails "on this site" only where it is valid (``CrawlEnv._update_observation``).
    remembered = failed & (code != E_INVALID) & (action < _N_METHODS)
    obs[rows[remembered], INDEX["failed_fetch_http"] + action[remembered]] = 1.0
    blocked = np.isin(code, _BLOCK_ERRORS)
    refused = failed & blocked
    obs[rows[refused], INDEX["count_403"]] = states[refused, S_BLOCKS] / _BLOCKS_TO_BAN
    obs[rows[refused], INDEX["count_429"]] = states[refused, S_429] / _RATE_LIMITS_TO_BAN

    obs[rows, INDEX["elapsed"]] = np.minimum(2.0, states[:, S_TIME] / sites.time_budget[rows])
    obs[rows, INDEX["last_latency"]] = np.minimum(4.0, events.duration[rows] / 10_000.0)
    obs[rows, INDEX["politeness"]] = np.minimum(1.0, env._requests[rows] / 3.0)
    obs[rows, INDEX["browser_live"]] = states[:, S_FETCHED] == BY_HEADLESS
    obs[rows, INDEX["last_failed"]] = failed
    obs[rows, INDEX["last_blocked"]] = blocked
    obs[rows, INDEX["steps"]] = states[:, S_STEPS] / sites.max_steps[rows]
    last = env._last_action[rows]
    had_last = last >= 0
    obs[rows[had_last], INDEX["last_action_fetch_http"] + last[had_last]] = 0.0
    obs[rows, INDEX["last_action_fetch_http"] + action] = 1.0
    env._last_action[rows] = action


def _write_item_counts(obs, sites, rows, states) -> None:
    """The item entries after an extraction (``dynamics.item_counts``, per extractor)."""
    pages = states[:, _PAGE_COLUMNS]
    per_page = sites.per_page[rows]
    counts = pages * per_page
    defective = (counts * sites.defect_share[rows]).astype(np.int64)
    items = counts.sum(axis=1)
    valid = np.where(sites.broken[rows], 0, counts - defective).sum(axis=1)
    duplicates = (states[:, _DUP_COLUMNS] * per_page).sum(axis=1)
    collected = pages.sum(axis=1) + states[:, _DUP_COLUMNS].sum(axis=1)
    obs[rows, INDEX["pages_collected"]] = np.minimum(3.0, collected / 10.0)
    obs[rows, INDEX["items_vs_target"]] = np.minimum(2.0, valid / sites.target_items[rows])
    safe_items = np.where(items > 0, items, 1)
    obs[rows, INDEX["item_quality"]] = np.where(items > 0, valid / safe_items, 0.0)
    obs[rows, INDEX["duplicate_rows"]] = duplicates / (items + duplicates)


def _put_objects(infos: dict[str, Any], key: str, values: list[Any], rows: list[int], n: int):
    """Put ``values`` at ``rows`` of the object array ``infos[key]`` (made on first use), each
    as one object: ``VectorEnv._add_info`` would batch a dict key by key."""
    if key not in infos:
        infos[key] = np.full(n, None, dtype=object)
        infos[f"_{key}"] = np.zeros(n, dtype=bool)
    array = infos[key]
    for index, value in zip(rows, values, strict=True):
        array[index] = value
    infos[f"_{key}"][rows] = True


def _put_values(infos: dict[str, Any], key: str, values: list[Any], rows: list[int], n: int):
    """``VectorEnv._add_info`` of plain values (an array of the first one's type, made on
    first use)."""
    if key not in infos:
        infos[key] = np.zeros(n, dtype=type(values[0]))
        infos[f"_{key}"] = np.zeros(n, dtype=bool)
    infos[key][rows] = values
    infos[f"_{key}"][rows] = True


class StepTexts:
    """Per-sub-env texts of the crawl: action codes, domains and the error log (as codes).

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
        self.codes: list[list[str]] = [[""] * len(ACTIONS) for _ in range(num_envs)]
        self.code_table = np.full((num_envs, len(ACTIONS)), "", dtype=object)
        self.domains: list[str] = [""] * num_envs
        self.shell_ratio = np.zeros(num_envs)
        # Each logged error as (code, action, phase): its text is ``ERROR_TEXTS`` of them.
        self.log = np.zeros((num_envs, max_steps, 3), dtype=np.int64)
        self.count = np.zeros(num_envs, dtype=np.int64)

    def reset(self, index: int, profile: SiteProfile) -> None:
        """Start sub-env ``index``'s log for a new site."""
        codes = action_codes(profile)
        self.codes[index] = codes
        self.code_table[index] = codes
        self.domains[index] = profile.domain
        self.shell_ratio[index] = text_ratio(profile, 0.0)
        self.count[index] = 0

    def record_errors(self, rows, codes, actions, phases) -> None:
        """Log one error for each sub-env of ``rows`` (their failed steps)."""
        position = self.count[rows]
        self.log[rows, position] = np.stack([codes, actions, phases[rows]], axis=1)
        self.count[rows] = position + 1

    def errors(self, index: int) -> list[str]:
        """Sub-env ``index``'s error texts so far, in order."""
        entries = self.log[index, : self.count[index]]
        return [ERROR_TEXTS[code, action, phase] for code, action, phase in entries.tolist()]

    def step_infos(self, env: Any, rows, actions, events, previous_phase) -> dict[str, Any]:
        """The step's ``action`` and ``action_result`` infos of the sub-envs of ``rows``."""
        n = env.num_envs
        mask = np.zeros(n, dtype=bool)
        mask[rows] = True
        action_names = _ACTION_NAMES[actions]
        success = events.success
        error = np.full(n, None, dtype=object)
        failed = rows[~success[rows]]
        error[failed] = ERROR_TEXTS[
            events.error_code[failed], actions[failed], previous_phase[failed]
        ]
        output = np.full(n, "", dtype=object)
        succeeded = rows[success[rows]]
        output[succeeded] = self._outputs(env, succeeded, actions, events)
        return {
            "action": {
                "action": action_names,
                "_action": mask,
                "code": self.code_table[np.arange(n), actions],
                "_code": mask.copy(),
            },
            "_action": mask.copy(),
            "action_result": self._results(rows, events, output, error, n),
            "_action_result": mask.copy(),
        }

    @staticmethod
    def _results(rows, events, output, error, n: int) -> np.ndarray:
        """Each stepped sub-env's ``ActionResult`` in an object array (SyncVectorEnv's layout
        for an object info), built as ``CrawlEnv.step`` builds it (fields valid by
        construction)."""
        results = np.full(n, None, dtype=object)
        results[rows] = [
            trusted_action_result(kind, success, text, problem, duration, tokens)
            for kind, success, text, problem, duration, tokens in zip(
                _KIND_NAMES[events.kind[rows]].tolist(),
                events.success[rows].tolist(),
                output[rows].tolist(),
                error[rows].tolist(),
                events.duration[rows].astype(np.float64).tolist(),
                events.tokens[rows].tolist(),
                strict=True,
            )
        ]
        return results

    def _outputs(self, env: Any, rows, actions, events) -> list[str]:
        """``reports.step_output`` of each successful step of ``rows``."""
        states = env._states
        pages = (states[rows, S_CSS] + states[rows, S_HEURISTIC] + states[rows, S_LLM]).tolist()
        kinds = events.kind[rows].tolist()
        durations = events.duration[rows].tolist()
        items = events.items[rows].tolist()
        names = actions[rows].tolist()
        domains = self.domains
        texts = []
        for row, kind, page, duration, count, action in zip(
            rows.tolist(), kinds, pages, durations, items, names, strict=True
        ):
            if kind == K_FETCH:
                texts.append(f"200 OK: page {page + 1} of {domains[row]} in {duration} ms")
            elif kind == K_EXTRACT:
                texts.append(f"extracted {count} items with {ACTIONS[action][8:]}")
            elif kind == K_PAGINATE:
                texts.append(f"moved to page {page + 1}")
            else:
                texts.append(f"waited {duration} ms")
        return texts

    @staticmethod
    def add_finals(
        env: Any, infos: dict[str, Any], finals: list[dict[str, Any]], rows: list[int]
    ) -> None:
        """Write the last-step infos ``finals`` (``reports.final_step``'s) of the sub-envs of
        ``rows`` (ascending) into ``infos``: one numpy write per key, each array typed by its
        first value as ``VectorEnv._add_info`` types it."""
        if not rows:
            return
        n = env.num_envs
        results = infos["action_result"]
        for index, info in zip(rows, finals, strict=True):
            results[index] = info["action_result"]
        action = infos["action"]
        action["action"][rows] = "final"
        _put_objects(action, "name", [info["action"]["name"] for info in finals], rows, n)
        task = infos["task"] = {}
        for key in finals[0]["task"]:
            _put_values(task, key, [info["task"][key] for info in finals], rows, n)
        infos["_task"] = np.zeros(n, dtype=bool)
        infos["_task"][rows] = True
        scores = [info["true_crawl_score"] for info in finals]
        _put_values(infos, "true_crawl_score", scores, rows, n)
        _put_objects(infos, "crawl_result", [info["crawl_result"] for info in finals], rows, n)

    @staticmethod
    def step_info(infos: dict[str, Any], index: int) -> dict[str, Any]:
        """Sub-env ``index``'s info of an ordinary step (its action and ``ActionResult``), as
        the single env returns it."""
        action = infos["action"]
        return {
            "action": {"action": action["action"][index], "code": action["code"][index]},
            "action_result": infos["action_result"][index],
        }

    @staticmethod
    def drop(infos: dict[str, Any], finished: np.ndarray) -> None:
        """Unmark the finished sub-envs in the step's ``action`` / ``action_result`` infos
        (``SAME_STEP``: their own info moves to ``final_info``)."""
        infos["_action_result"] &= ~finished
        infos["_action"] &= ~finished
        for name, value in infos["action"].items():
            if name.startswith("_"):
                value &= ~finished
