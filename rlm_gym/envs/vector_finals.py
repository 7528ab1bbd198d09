"""The crawls a batched step ended: their scores and task outcomes in arrays, the rest on demand.

``reports.final_step`` builds one finished crawl's result (its item dicts, its texts), scores it
and measures its task outcome. The batch needs the numbers of every crawl a step ended on every
step, and the crawl result only when someone reads it. ``FinishedCrawls`` computes the numbers
for all of them in one numpy pass over their states - the item blocks, the reported success,
the task outcome, the crawl reward's components (each crawl's content components looked up by
its blocks in a cache per ``Scorer``, computed once with ``Scorer.components``; efficiency
through ``Scorer.efficiency``) and the crawl score as their left-to-right sum, the sum
``Scorer.score`` adds - and builds a crawl's result and final ``ActionResult`` with
``reports.final_step`` itself when first read, from a snapshot of what the crawl ended with.
So the values read are the single env's (``tests/envs/test_crawl_vector.py``).

Example:
    >>> import numpy as np
    >>> from rlm_gym.envs.crawl_vector import CrawlVectorEnv
    >>> envs = CrawlVectorEnv(2)
    >>> _ = envs.reset(seed=0)
    >>> _, rewards, _, _, infos = envs.step(np.array([9, 9]))
    >>> rewards.tolist() == infos["true_crawl_score"].tolist()
    True
    >>> infos["crawl_result"][0]["navigation_result"]["pages_collected"]
    0
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from rlm_gym.crawl.config import COMPONENT_NAMES
from rlm_gym.envs.dynamics import (
    ACTIONS,
    BLOCKED,
    OVER_BUDGET,
    S_CSS,
    S_DUP_CSS,
    S_END,
    S_LLM,
    S_TIME,
    SiteModel,
)
from rlm_gym.envs.profiles import SIMULATED_PATTERN_TYPES
from rlm_gym.envs.reports import ERROR_TEXTS, final_step, site_codes, strategy_used
from rlm_gym.envs.scoring import Scorer

__all__ = ["TASK_DTYPES", "FinalCrawl", "FinishedCrawls", "content_parts", "error_texts"]

_EFFICIENCY = COMPONENT_NAMES.index("efficiency")
_N_COMPONENTS = len(COMPONENT_NAMES)
# ``task_outcome``'s keys and the dtype ``_add_info`` gives each (that of its first value).
TASK_DTYPES: dict[str, type] = {
    "job_done": bool,
    "valid_items": np.int64,
    "items": np.int64,
    "pages": np.int64,
    "requests": np.int64,
    "time_ms": np.float64,
    "banned": bool,
}
# A cache per scorer outgrowing this is cleared (as ``Scorer``'s own caches).
_CACHE_SIZE = 1 << 16
_CACHES: dict[int, tuple[Scorer, dict[tuple, tuple[float, ...]]]] = {}
_FLAT_TEXTS = ERROR_TEXTS.reshape(-1)
# Columns of ``SiteArrays.ints``: the pattern type, the item target, the rows per page.
_PATTERN_TYPE, _TARGET_ITEMS, _PER_PAGE = 0, 8, slice(13, 16)


def error_texts(entries: np.ndarray) -> list[str]:
    """The texts of logged errors (``vector_observation.StepTexts.log`` entries: indices into
    ``ERROR_TEXTS`` flattened)."""
    return _FLAT_TEXTS[entries].tolist()


def content_parts(scorer: Scorer, keys: list[tuple]) -> list[tuple[float, ...]]:
    """The components of each content key (``FinishedCrawls``' block keys) under ``scorer``
    (the efficiency slot holds that of 0 pages, 0 ms, 0 errors: the caller replaces it)."""
    entry = _CACHES.get(id(scorer))
    if entry is None or entry[0] is not scorer:
        entry = _CACHES[id(scorer)] = (scorer, {})
    cache = entry[1]
    parts = []
    for key in keys:
        found = cache.get(key)
        if found is None:
            if len(cache) >= _CACHE_SIZE:
                cache.clear()
            found = cache[key] = scorer.components(
                SIMULATED_PATTERN_TYPES[key[0]], _blocks(key), bool(key[1]), 0, 0, 0
            )
        parts.append(found)
    return parts


def _blocks(key: tuple) -> tuple:
    """The ``item_blocks`` a content key stands for."""
    blocks = []
    for index in range(3):
        per_page, pages, duplicates, defective, broken = key[2 + index :: 3][:5]
        if pages or duplicates:
            blocks.append((index, per_page, pages, duplicates, defective, bool(broken)))
    return tuple(blocks)


def _left_sum(parts: np.ndarray) -> np.ndarray:
    """Each row's components added left to right (``Scorer.score``'s order), clamped to
    [0, 1]."""
    total = parts[:, 0].copy()
    for column in range(1, parts.shape[1]):
        total += parts[:, column]
    return np.where(total < 0.0, 0.0, np.where(total > 1.0, 1.0, total))


class FinishedCrawls:
    """The crawls one batched step ended (sub-envs ``rows``, ascending).

    Args:
        env: The ``CrawlVectorEnv`` (read at once: its states, sites, logs, counters and the
            step's item counts).
        rows: The sub-envs that terminated on the step.
        actions: The step's actions.
        events: The step's ``BatchEvents``.
        models: ``models(j)`` gives the ``SiteModel`` of ``rows[j]`` (called when a crawl
            result is read).

    Attributes:
        rows: The sub-envs, as a list.
        scores: The crawl score of each (the env's reward).
        parts: ``(m, 6)`` components under the env's reward config, ``COMPONENT_NAMES`` order.
        task: ``task_outcome``'s values, one array per key.
        true_scores: The crawl score with ``success`` = ``job_done``.
    """

    def __init__(
        self,
        env: Any,
        rows: np.ndarray,
        actions: np.ndarray,
        events: Any,
        models: Callable[[int], SiteModel],
    ) -> None:
        self.rows = rows.tolist()
        self._where = {row: j for j, row in enumerate(self.rows)}
        self._models = models
        self._info: dict[int, dict[str, Any]] = {}
        sites, texts = env._sites, env._texts
        states = self.states = env._states[rows]
        pages = states[:, S_CSS : S_LLM + 1]
        duplicates = states[:, S_DUP_CSS : S_DUP_CSS + 3]
        # The step's item counts of every sub-env (``vector_observation.ItemCounts``).
        counted = env._item_counts
        valid = counted.valid[rows]
        delivered = counted.items[rows] + counted.duplicates[rows]
        collected = counted.collected[rows]
        used = (pages + duplicates) != 0
        site = sites.ints[rows]
        end = states[:, S_END]
        banned = end == BLOCKED
        over_budget = end == OVER_BUDGET
        running = ~(banned | over_budget)
        target = site[:, _TARGET_ITEMS]
        job_done = running & (valid >= target)
        success = running & ((delivered if env.recorded_success else valid) >= target)
        time_ms = states[:, S_TIME]
        self._error_counts = texts.count[rows]
        errors = self._error_counts + over_budget
        # The content key: pattern type, success, then per extractor (zero when unused) its
        # rows per page, pages, re-served pages, defective rows and break, column-major.
        key_columns = self._key_columns = np.empty((len(rows), 17), dtype=np.int64)
        key_columns[:, 0] = site[:, _PATTERN_TYPE]
        key_columns[:, 1] = success
        key_columns[:, 2:5] = site[:, _PER_PAGE] * used
        key_columns[:, 5:8] = pages
        key_columns[:, 8:11] = duplicates
        key_columns[:, 11:14] = counted.defective[rows]
        key_columns[:, 14:17] = sites.broken[rows] & used
        self._efficiency_keys = list(
            zip(collected.tolist(), time_ms.tolist(), errors.tolist(), strict=True)
        )
        self.parts = self.components(env._scorer)
        self.scores = _left_sum(self.parts)
        self.true_scores = self.scores
        differ = (job_done != success).nonzero()[0]
        if len(differ):
            keys = key_columns[differ]
            keys[:, 1] = job_done[differ]
            self.true_scores = self.scores.copy()
            self.true_scores[differ] = _left_sum(self._parts(env._scorer, keys, differ))
        self.task = {
            "job_done": job_done,
            "valid_items": valid,
            "items": delivered,
            "pages": collected,
            "requests": env._requests_sent[rows],
            "time_ms": time_ms.astype(np.float64),
            "banned": banned,
        }
        # What ``final_step`` needs to build a crawl's result, as it was on this step.
        self.actions = actions[rows]
        self._events = events
        self._logs = texts.log[rows]
        self._used = env._used[rows]
        self._sites = (texts.pattern_types[rows], texts.domains[rows])

    def components(self, scorer: Scorer) -> np.ndarray:
        """``(m, 6)`` crawl reward components of the crawls under ``scorer``'s settings."""
        return self._parts(scorer, self._key_columns, range(len(self.rows)))

    def _parts(self, scorer: Scorer, key_columns: np.ndarray, which: Any) -> np.ndarray:
        keys = list(map(tuple, key_columns.tolist()))
        parts = np.array(content_parts(scorer, keys), dtype=np.float64).reshape(-1, _N_COMPONENTS)
        cap = scorer.error_cap
        efficiency = scorer.efficiency
        parts[:, _EFFICIENCY] = [
            efficiency(pages, time_ms, errors if errors < cap else cap)
            for pages, time_ms, errors in (self._efficiency_keys[j] for j in which)
        ]
        return parts

    def __contains__(self, row: int) -> bool:
        return row in self._where

    def info(self, row: int) -> dict[str, Any]:
        """Sub-env ``row``'s last-step info as ``reports.final_step`` builds it (built once)."""
        info = self._info.get(row)
        if info is None:
            j = self._where[row]
            model = self._models(j)
            state = tuple(self.states[j].tolist())
            row_events = self._events
            event = tuple(column[row].item() for column in row_events)
            errors = error_texts(self._logs[j, : self._error_counts[j]])
            # The step's own error is the last one logged; the aborted job then adds its own.
            error = None if event[1] else errors[-1]
            if state[S_END] == OVER_BUDGET:
                errors.append(f"Job time budget of {model.profile.time_budget_ms} ms exceeded")
            action = int(self.actions[j])
            _, info = final_step(
                model,
                state,
                event,
                ACTIONS[action],
                site_codes(self._sites[0][j], self._sites[1][j])[action],
                error,
                errors,
                self._used[j].tolist(),
                int(self.task["requests"][j]),
            )
            info["crawl_result"] = info["action_result"].metadata["crawl_result"]
            self._info[row] = info
        return info

    def crawl_result(self, row: int) -> dict[str, Any] | None:
        """Sub-env ``row``'s crawl result (None if it did not finish on the step)."""
        return self.info(row)["crawl_result"] if row in self._where else None

    def final_crawls(self) -> dict[int, FinalCrawl]:
        """A ``FinalCrawl`` per sub-env that finished on the step, by row (one ``tolist`` of
        the key columns for all of them)."""
        keys = self._key_columns.tolist()
        return {
            row: FinalCrawl(self, j, (*keys[j], *self._efficiency_keys[j]))
            for j, row in enumerate(self.rows)
        }


class FinalCrawl:
    """One crawl a batched step ended, as numbers read from the batch, its result on demand.

    What a finished episode's record needs without building the crawl result: ``key``
    describes everything the crawl reward reads of the result - pattern type, reported
    success, the item blocks per extractor, pages collected, time and error count - so two
    crawls with equal keys have crawl results that score alike under any settings;
    ``items`` and ``pages`` are the result's item count and pages collected, ``strategy`` its
    ``navigation_result["strategy_used"]``. ``crawl_result`` and ``action_result`` build the
    single env's own (``reports.final_step``) when read.

    Args:
        crawls: The step's ``FinishedCrawls``.
        j: The crawl's position in ``crawls.rows``.
        key: The crawl's key (see above).

    Example:
        >>> from rlm_gym.envs.crawl_vector import CrawlVectorEnv
        >>> envs = CrawlVectorEnv(2)
        >>> _ = envs.reset(seed=0)
        >>> _ = envs.step(np.array([9, 9]))
        >>> crawl = envs.final_crawls()[1]
        >>> crawl.items == len(crawl.crawl_result["data"]), crawl.strategy
        (True, 'none+none+none')
    """

    __slots__ = ("_crawls", "_j", "key")

    def __init__(self, crawls: FinishedCrawls, j: int, key: tuple) -> None:
        self._crawls = crawls
        self._j = j
        self.key = key

    @property
    def items(self) -> int:
        """The items the crawl delivered (``len(crawl_result["data"])``)."""
        return int(self._crawls.task["items"][self._j])

    @property
    def pages(self) -> int:
        """The pages it collected, re-served ones included."""
        return int(self._crawls.task["pages"][self._j])

    @property
    def strategy(self) -> str:
        """``fetcher+extractor+paginator``: the most used of each (``reports.strategy_used``)."""
        return strategy_used(self._crawls._used[self._j].tolist())

    @property
    def crawl_result(self) -> dict[str, Any]:
        """The crawl result (built on first read, as the step's ``crawl_result`` info)."""
        return self._crawls.crawl_result(self._crawls.rows[self._j])

    @property
    def action_result(self) -> Any:
        """The final ``ActionResult`` (built on first read, as the step's info)."""
        return self._crawls.info(self._crawls.rows[self._j])["action_result"]
