"""The crawl score of an end-of-episode state, through ``rlm_gym.crawl.crawl_reward``, cached.

``crawl_reward``'s value is the clamped sum of its weighted components. All of them but
``efficiency`` depend only on the items and the success flag; ``efficiency`` only on pages,
time and the number of errors. So the env and the oracle score a terminal state with two cached
``crawl_reward`` calls, one per group, and add the components in ``crawl_reward``'s own order:
bit-for-bit the value of ``crawl_reward`` on the full result (the tests check it over seeded
episodes of every baseline), at the cost of two dict look-ups instead of validating every item.

A ``Scorer`` holds the caches of one reward config (``CrawlEnv(reward_config=...)``, passed to
``crawl_reward(config=...)``); ``scorer_for(config)`` shares one per config between envs.

Example:
    >>> from rlm_gym.crawl import crawl_reward
    >>> blocks = ((2, 12, 1, 0, 1, False),)
    >>> score = terminal_score("product_list", blocks, True, 1, 4_000, 0)
    >>> result = {"success": True, "data": build_items("product_list", blocks),
    ...           "navigation_result": {"pages_collected": 1, "strategy_used": "x"},
    ...           "execution_time_ms": 4_000.0, "errors": [],
    ...           "extraction_schema": {"required": list(SCHEMAS["product_list"])},
    ...           "pattern_type": "product_list"}
    >>> score == crawl_reward(result).value
    True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rlm_gym.crawl import CrawlRewardPolicy, crawl_reward
from rlm_gym.crawl.config import WEIGHTED_COMPONENTS
from rlm_gym.crawl.efficiency import efficiency_score
from rlm_gym.crawl.memo import memo_for
from rlm_gym.crawl.reward import score_crawl_result
from rlm_gym.crawl.settings import CrawlSettings
from rlm_gym.envs import dynamics as dyn
from rlm_gym.envs.items import build_items
from rlm_gym.envs.profiles import SCHEMAS

__all__ = [
    "Scorer",
    "scorer_for",
    "terminal_score",
    "state_score",
    "score_fields",
    "item_blocks",
    "crawl_success",
    "pages_collected",
    "succeeded",
    "job_done",
    "reported_success",
    "valid_rows",
    "delivered_rows",
]

# Cache sizes: a cache that outgrows its bound is cleared (cheaper per hit than an LRU).
_CONTENT_CACHE = 1 << 16
_EFFICIENCY_CACHE = 1 << 18
_EFFICIENCY_WEIGHT = WEIGHTED_COMPONENTS.index("efficiency")
# ``(extractor, per_page, pages, duplicate_pages, defective rows, broken)``: see ``item_blocks``.
Block = tuple[int, int, int, int, int, bool]


class Scorer:
    """``crawl_reward`` of the env's crawl results under one reward config, from two caches.

    Args:
        config: The ``crawl_reward`` config (None: the defaults). Validated here, so a bad
            config fails when the env is built, not at the end of the first episode.
        settings: Prepared settings to score under instead (a ``crawl`` policy's
            ``settings``: already validated); ``config`` is then only recorded.

    Attributes:
        config: The config as given (a dict copy), or None.
        settings: The ``CrawlSettings`` scored under.
        error_cap: The error count beyond which more errors cannot change the score: 1 under
            ``efficiency_errors="any"`` (the default), ``ceil(1 / error_step)`` under
            ``"graded"`` (0 when errors cost nothing).

    Raises:
        TypeError: ``config`` is not a mapping.
        ValueError: ``crawl_reward`` rejects the config.

    Example:
        >>> scorer = Scorer(None)
        >>> scorer.error_cap
        1
        >>> scorer.score("contact_info", (), False, 0, 0, 0) == 0.15
        True
    """

    def __init__(
        self, config: Mapping[str, Any] | None = None, *, settings: CrawlSettings | None = None
    ) -> None:
        if config is not None and not isinstance(config, Mapping):
            raise TypeError(
                f"Expected `reward_config` to be a dict of crawl_reward config keys or None, "
                f"got {type(config).__name__} {config!r}"
            )
        self.config = dict(config) if config else None
        if settings is None:
            # Validate once (crawl_reward checks every key and value of the config).
            crawl_reward({"success": False, "data": []}, config=self.config)
            # ``crawl_reward(result, config=config)`` is ``score_crawl_result`` under these
            # settings; scoring items through the memo shared per settings lets the ``crawl``
            # policy reuse the judgement when it scores the same crawl result.
            settings = CrawlRewardPolicy(self.config).settings
        self._settings = self.settings = settings
        self._memo = memo_for(settings)
        self.error_cap = settings.error_cap
        self._content: dict[tuple, tuple[float, tuple[float, ...]]] = {}
        # Every component of a content key, in ``crawl_reward``'s order (efficiency's slot
        # holds the value of the content's own call and is replaced per result).
        self._parts: dict[tuple, tuple[float, ...]] = {}
        self._efficiency: dict[tuple[int, int, int], float] = {}
        self._efficiency_at = 0

    def content(
        self, pattern_type: str, blocks: tuple[Block, ...], success: bool
    ) -> tuple[float, tuple[float, ...]]:
        """The item-dependent components: their sum up to ``efficiency``, and those after it.

        ``crawl_reward`` adds its components left to right; keeping the partial sum before
        ``efficiency`` and the components after it lets ``score`` add in the same order.
        """
        key = (pattern_type, blocks, success)
        found = self._content.get(key)
        if found is not None:
            return found
        result = {
            "success": success,
            "data": build_items(pattern_type, blocks),
            "extraction_schema": {"required": list(SCHEMAS[pattern_type])},
            "pattern_type": pattern_type,
        }
        components = score_crawl_result(result, self._settings, memo=self._memo).components
        names = list(components)
        self._efficiency_at = names.index("efficiency")
        head = 0
        for name in names[: self._efficiency_at]:
            head += components[name]
        tail = tuple(components[name] for name in names[self._efficiency_at + 1 :])
        if len(self._content) >= _CONTENT_CACHE:
            self._content.clear()
            self._parts.clear()
        self._parts[key] = tuple(components.values())
        found = self._content[key] = (head, tail)
        return found

    def components(
        self,
        pattern_type: str,
        blocks: tuple[Block, ...],
        success: bool,
        pages: int,
        execution_time_ms: int,
        errors: int,
    ) -> tuple[float, ...]:
        """``crawl_reward(result, config=self.config).components`` of the result described,
        as a tuple in ``COMPONENT_NAMES`` order (the ``crawl`` policy's own components under
        the same settings: ``score`` is their clamped sum).

        Example:
            >>> scorer = scorer_for(None)
            >>> parts = scorer.components("contact_info", (), False, 0, 0, 0)
            >>> len(parts), sum(parts) == scorer.score("contact_info", (), False, 0, 0, 0)
            (6, True)
        """
        key = (pattern_type, blocks, success)
        parts = self._parts.get(key)
        if parts is None:
            self.content(pattern_type, blocks, success)
            parts = self._parts[key]
        if errors > self.error_cap:
            errors = self.error_cap
        at = self._efficiency_at
        efficiency = self.efficiency(pages, execution_time_ms, errors)
        return (*parts[:at], efficiency, *parts[at + 1 :])

    def efficiency(self, pages: int, execution_time_ms: int, errors: int) -> float:
        """The efficiency component for this many pages, this much time and errors."""
        key = (pages, execution_time_ms, errors)
        found = self._efficiency.get(key)
        if found is not None:
            return found
        if len(self._efficiency) >= _EFFICIENCY_CACHE:
            self._efficiency.clear()
        # The weighted component, as `crawl_reward` computes it from a result with `pages`
        # pages collected, `execution_time_ms` as a float and `errors` error texts.
        raw = efficiency_score(float(pages), float(execution_time_ms), errors, self._settings)
        found = self._efficiency[key] = self._settings.weights[_EFFICIENCY_WEIGHT] * raw
        return found

    def score(
        self,
        pattern_type: str,
        blocks: tuple[Block, ...],
        success: bool,
        pages: int,
        execution_time_ms: int,
        errors: int,
    ) -> float:
        """``crawl_reward(result, config=self.config).value`` of the result described.

        ``errors`` may be capped at ``error_cap`` (the state's count): the score is the same.
        """
        head, tail = self.content(pattern_type, blocks, success)
        if errors > self.error_cap:
            errors = self.error_cap
        total = head + self.efficiency(pages, execution_time_ms, errors)
        for component in tail:
            total += component
        return 0.0 if total < 0.0 else 1.0 if total > 1.0 else total


_SCORERS: dict[str, Scorer] = {}


def scorer_for(config: Mapping[str, Any] | None = None) -> Scorer:
    """The shared ``Scorer`` of ``config`` (one per distinct config, so caches are shared).

    Example:
        >>> scorer_for(None) is scorer_for({})
        True
    """
    key = "" if not config else json.dumps(config, sort_keys=True, default=repr)
    scorer = _SCORERS.get(key)
    if scorer is None:
        scorer = _SCORERS[key] = Scorer(config)
    return scorer


def terminal_score(
    pattern_type: str,
    blocks: tuple[Block, ...],
    success: bool,
    pages: int,
    execution_time_ms: int,
    errors: int,
    config: Mapping[str, Any] | None = None,
) -> float:
    """``crawl_reward(result, config=config).value`` of the crawl result these describe.

    ``errors`` is the number of errors of the result (a bool counts as 0 or 1).
    """
    return scorer_for(config).score(
        pattern_type, blocks, success, pages, execution_time_ms, int(errors)
    )


def item_blocks(model: dyn.SiteModel, state: tuple[int, ...]) -> tuple[Block, ...]:
    """``(extractor, per_page, pages, duplicate_pages, defective rows, broken)`` per extractor
    used in ``state`` (``rlm_gym.envs.items.build_items``'s blocks)."""
    blocks = []
    for index in range(3):
        pages = state[dyn.S_CSS + index]
        duplicates = state[dyn.S_DUP_CSS + index]
        if pages or duplicates:
            per_page = model.per_page[index]
            defective = int(pages * per_page * model.defect_share[index])
            blocks.append((index, per_page, pages, duplicates, defective, model.broken[index]))
    return tuple(blocks)


def pages_collected(state: tuple[int, ...]) -> int:
    """Pages extracted in ``state``, re-served ones included (the scraper counts them)."""
    return (
        state[dyn.S_CSS]
        + state[dyn.S_HEURISTIC]
        + state[dyn.S_LLM]
        + state[dyn.S_DUP_CSS]
        + state[dyn.S_DUP_HEURISTIC]
        + state[dyn.S_DUP_LLM]
    )


def crawl_success(model: dyn.SiteModel, state: tuple[int, ...]) -> bool:
    """The crawl succeeded: not banned or out of time, and the job's valid-item target met."""
    return succeeded(model, state, item_blocks(model, state))


def succeeded(model: dyn.SiteModel, state: tuple[int, ...], blocks: tuple[Block, ...]) -> bool:
    """``crawl_success`` given the state's item blocks: enough distinct rows with every field
    right (not defective, not broken; re-served rows add nothing)."""
    return job_done(model, state, valid_rows(blocks))


def job_done(model: dyn.SiteModel, state: tuple[int, ...], valid: int) -> bool:
    """The job is done: not banned, not out of time, and ``valid`` rows meet its target."""
    end = state[dyn.S_END]
    return end != dyn.BLOCKED and end != dyn.OVER_BUDGET and valid >= model.profile.target_items


def valid_rows(blocks: tuple[Block, ...]) -> int:
    """Distinct rows with every field right: not defective, not from a broken extractor."""
    valid = 0
    for _, per_page, pages, _, defective, broken in blocks:
        if not broken:
            valid += pages * per_page - defective
    return valid


def delivered_rows(blocks: tuple[Block, ...]) -> int:
    """Every row the crawl delivers: defective, broken and re-served ones included."""
    return sum(
        (pages + duplicate_pages) * per_page for _, per_page, pages, duplicate_pages, *_ in blocks
    )


def reported_success(
    model: dyn.SiteModel, state: tuple[int, ...], blocks: tuple[Block, ...]
) -> bool:
    """The ``success`` the crawl result reports, and the reward scores.

    Crawl-v1 reports the ground truth (``succeeded``). Crawl-v2 (``model.recorded_success``)
    reports what a real crawler records: the job ran to its end without a ban or time-out and
    it delivered at least the target number of rows, valid or not. A crawler cannot see
    which of its rows are wrong; only the crawl reward's value checks can.
    """
    if not model.recorded_success:
        return succeeded(model, state, blocks)
    if state[dyn.S_END] in (dyn.BLOCKED, dyn.OVER_BUDGET):
        return False
    return delivered_rows(blocks) >= model.profile.target_items


def state_score(model: dyn.SiteModel, state: tuple[int, ...]) -> float:
    """The crawl score of ending the crawl in ``state`` (what the env's last step returns),
    under the reward config of ``model.scorer``."""
    pages = pages_collected(state)
    blocks = item_blocks(model, state)
    return model.scorer.score(
        model.profile.pattern_type,
        blocks,
        reported_success(model, state, blocks),
        pages,
        state[dyn.S_TIME],
        state[dyn.S_ERROR],
    )


def score_fields(state: tuple[int, ...]) -> tuple[int, ...]:
    """``state`` ended, with the fields its score does not read and its time set to 0.

    ``state_score`` reads the pages and re-served pages per extractor, the end reason, the
    errors and the time, nothing else: two ended states with the same ``score_fields`` score
    the same at the same time (the oracle shares one array of scores over time among them).

    Example:
        >>> from rlm_gym.envs.dynamics import initial_state
        >>> score_fields(initial_state()) == (dyn.DONE,) + (0,) * 15
        True
    """
    return (
        dyn.DONE, state[dyn.S_CSS], state[dyn.S_HEURISTIC], state[dyn.S_LLM], 0,
        state[dyn.S_ERROR], 0, 0, 0, 0, 0, state[dyn.S_END],
        state[dyn.S_DUP_CSS], state[dyn.S_DUP_HEURISTIC], state[dyn.S_DUP_LLM], 0,
    )  # fmt: skip
