"""The crawl score of an end-of-episode state, through ``rlm_gym.crawl.crawl_reward``, cached.

``crawl_reward``'s value is the clamped sum of five weighted components; four of them
(success, has_data, validation, quantity) depend only on the items and the success flag, and
``efficiency`` only on pages, time and whether there were errors. So the env and the oracle score
a terminal state with two cached ``crawl_reward`` calls, one per group, and add the components in
``crawl_reward``'s own order: bit-for-bit the value of ``crawl_reward`` on the full result (the
tests check it), at the cost of two dict look-ups instead of validating every item.

Example:
    >>> from rlm_gym.crawl import crawl_reward
    >>> blocks = ((2, 12, 1),)
    >>> score = terminal_score("product_list", blocks, True, 1, 4_000, False)
    >>> result = {"success": True, "data": build_items("product_list", blocks, 5),
    ...           "navigation_result": {"pages_collected": 1, "strategy_used": "x"},
    ...           "execution_time_ms": 4_000.0, "errors": [],
    ...           "extraction_schema": {"required": list(SCHEMAS["product_list"])},
    ...           "pattern_type": "product_list"}
    >>> score == crawl_reward(result).value
    True
"""

from __future__ import annotations

from functools import lru_cache

from rlm_gym.crawl import crawl_reward
from rlm_gym.envs import dynamics as dyn
from rlm_gym.envs.items import build_items
from rlm_gym.envs.profiles import SCHEMAS

__all__ = [
    "terminal_score",
    "state_score",
    "item_blocks",
    "crawl_success",
    "content_components",
    "efficiency_component",
]

_CONTENT_KEYS = ("success", "has_data", "validation", "quantity")


@lru_cache(maxsize=1 << 16)
def content_components(
    pattern_type: str, blocks: tuple[tuple[int, int, int], ...], success: bool
) -> tuple[float, float, float, float]:
    """The success, has_data, validation and quantity components for these items."""
    result = {
        "success": success,
        "data": build_items(pattern_type, blocks, 0),
        "extraction_schema": {"required": list(SCHEMAS[pattern_type])},
        "pattern_type": pattern_type,
    }
    components = crawl_reward(result).components
    return tuple(components[key] for key in _CONTENT_KEYS)


@lru_cache(maxsize=1 << 18)
def efficiency_component(pages: int, execution_time_ms: int, has_error: bool) -> float:
    """The efficiency component for this many pages, this much time and (no) errors."""
    result = {
        "success": False,
        "data": [],
        "navigation_result": {"pages_collected": pages, "strategy_used": ""},
        "execution_time_ms": float(execution_time_ms),
        "errors": ["error"] if has_error else [],
    }
    return crawl_reward(result).components["efficiency"]


def terminal_score(
    pattern_type: str,
    blocks: tuple[tuple[int, int, int], ...],
    success: bool,
    pages: int,
    execution_time_ms: int,
    has_error: bool,
) -> float:
    """``crawl_reward(result).value`` of the crawl result these arguments describe."""
    content = content_components(pattern_type, blocks, success)
    total = sum((*content, efficiency_component(pages, execution_time_ms, has_error)))
    return 0.0 if total < 0.0 else 1.0 if total > 1.0 else total


def item_blocks(model: dyn.SiteModel, state: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """``(extractor, items, defective items)`` per extractor used in ``state``."""
    blocks = []
    for index in range(3):
        pages = state[dyn.S_CSS + index]
        if pages:
            count = pages * model.per_page[index]
            blocks.append((index, count, int(count * model.defect_share[index] + 0.5)))
    return tuple(blocks)


def crawl_success(model: dyn.SiteModel, state: tuple[int, ...]) -> bool:
    """The crawl succeeded: not banned or out of time, and the job's valid-item target met."""
    return _succeeded(model, state, item_blocks(model, state))


def _succeeded(
    model: dyn.SiteModel, state: tuple[int, ...], blocks: tuple[tuple[int, int, int], ...]
) -> bool:
    """``crawl_success`` given the state's item blocks (valid items = items - defective)."""
    if state[dyn.S_END] in (dyn.BLOCKED, dyn.OVER_BUDGET):
        return False
    valid = sum(count - defective for _, count, defective in blocks)
    return valid >= model.profile.target_items


def state_score(model: dyn.SiteModel, state: tuple[int, ...]) -> float:
    """The crawl score of ending the crawl in ``state`` (what the env's last step returns)."""
    pages = state[dyn.S_CSS] + state[dyn.S_HEURISTIC] + state[dyn.S_LLM]
    blocks = item_blocks(model, state)
    return terminal_score(
        model.profile.pattern_type,
        blocks,
        _succeeded(model, state, blocks),
        pages,
        state[dyn.S_TIME],
        bool(state[dyn.S_ERROR]),
    )
