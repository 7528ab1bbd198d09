"""What ``CrawlEnv`` reports of a crawl: each action's code, step texts and the crawl result.

A step's ``info["action"]["code"]`` is the selector, program or URL pattern the action ran
(``action_codes``); its ``ActionResult`` carries an output text (``step_output``) or an error
text (``error_text``). The episode's last step (``final_step``) carries the crawl result
(``crawl_result``: the shape ``crawl_reward`` scores, see ``docs/crawl-reward.md``) and its
crawl score. The ``"ansi"`` render mode shows ``status_line``.

Example:
    >>> from rlm_gym.envs.profiles import profile_from_uniforms
    >>> profile = profile_from_uniforms([0.5] * 17)
    >>> action_codes(profile)[0]
    'GET https://cobalt-500.news.net/'
    >>> strategy_used([0, 2, 1, 0, 0, 0, 0, 0, 0, 1])
    'fetch_headless+extract_css+none'
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from rlm_gym.envs.dynamics import (
    ACTIONS,
    BLOCKED,
    E_INVALID,
    ERRORS,
    K_EXTRACT,
    K_FETCH,
    K_PAGINATE,
    KINDS,
    PHASES,
    S_CSS,
    S_END,
    S_HEURISTIC,
    S_LLM,
    S_PHASE,
    S_STEPS,
    S_TIME,
    SiteModel,
    item_counts,
)
from rlm_gym.envs.items import build_items
from rlm_gym.envs.profiles import SCHEMAS, SiteProfile
from rlm_gym.envs.scoring import (
    Block,
    item_blocks,
    job_done,
    pages_collected,
    reported_success,
    valid_rows,
)
from rlm_gym.policies.types import trusted_action_result

__all__ = [
    "task_outcome",
    "CSS_SELECTORS",
    "END_TEXT",
    "action_codes",
    "site_codes",
    "error_text",
    "ERROR_TEXTS",
    "step_output",
    "strategy_used",
    "status_line",
    "crawl_result",
    "final_step",
]

# What each action reports as its ``code``: the selector, program or URL pattern it used.
CSS_SELECTORS: dict[str, str] = {
    "article_extraction": "article h1.headline, article .byline, time[datetime], .article-body",
    "contact_info": ".contact .name, a[href^='mailto:'], a[href^='tel:'], address",
    "price_extraction": ".product .title, .price .amount, .price [itemprop=priceCurrency], .stock",
    "product_list": ".product-card .title, .product-card .price, .rating, .product-card a",
    "review_extraction": ".review .author, .review .stars, .review .text, .review time",
    "product_with_reviews": "h1.product-title, .price, .rating-average, .review",
    "generic_extraction": "h1, link[rel=canonical], meta[name=description]",
}
# The crawl's end, by end reason (``dynamics.S_END``), as the final step's output says it.
END_TEXT: tuple[str, ...] = ("", "stopped", "banned", "time budget exceeded", "step budget reached")


def action_codes(profile: SiteProfile) -> list[str]:
    """The code each action runs on the site of ``profile``, in ``ACTIONS`` order."""
    return list(site_codes(profile.pattern_type, profile.domain))


@lru_cache(maxsize=4096)
def site_codes(pattern_type: str, domain: str) -> tuple[str, ...]:
    """``action_codes`` of a site of this pattern type and domain (cached: the batched env
    looks a code up when a step's info is read)."""
    fields = ", ".join(SCHEMAS[pattern_type])
    base = f"https://{domain}/"
    return (
        f"GET {base}",
        f"browser.goto('{base}', wait_until='networkidle')",
        CSS_SELECTORS[pattern_type],
        "readability + JSON-LD / microdata + repeated-block detection",
        f"LLM: extract a JSON list of {{{fields}}} from the page text",
        f"{base}?page={{n}}",
        "document.querySelector('.pagination .next, button.load-more').click()",
        "window.scrollTo(0, document.body.scrollHeight)",
        "",
        "",
    )


def error_text(code: int, name: str, phase: int) -> str:
    """The error text of error code ``code`` after action ``name`` taken in ``phase``."""
    if code == E_INVALID:
        return f"Invalid action '{name}' in phase '{PHASES[phase]}'"
    return ERRORS[code]


# ERROR_TEXTS[code, action, phase]: ``error_text`` of every error a step can have.
ERROR_TEXTS = np.array(
    [
        [[error_text(code, name, phase) for phase in range(len(PHASES))] for name in ACTIONS]
        for code in range(len(ERRORS))
    ],
    dtype=object,
)


def _page(state: tuple[int, ...]) -> int:
    """Distinct pages extracted so far (the page a fetch or pagination step is on, minus 1)."""
    return state[S_CSS] + state[S_HEURISTIC] + state[S_LLM]


def step_output(action: int, event: tuple, state: tuple[int, ...], domain: str) -> str:
    """The output text of a successful step; ``state`` is the state after it.

    Example:
        >>> from rlm_gym.envs.dynamics import EXTRACT_LLM, K_EXTRACT, initial_state
        >>> step_output(EXTRACT_LLM, (K_EXTRACT, True, 0, 3900, 2600, 12), initial_state(), "")
        'extracted 12 items with llm'
    """
    kind, _, _, duration, _, items = event
    if kind == K_FETCH:
        return f"200 OK: page {_page(state) + 1} of {domain} in {duration} ms"
    if kind == K_EXTRACT:
        return f"extracted {items} items with {ACTIONS[action][8:]}"
    if kind == K_PAGINATE:
        return f"moved to page {_page(state) + 1}"
    return f"waited {duration} ms"


def strategy_used(used: list[int]) -> str:
    """``fetcher+extractor+paginator``: the most used of each (``none`` if unused).

    Args:
        used: How often each action was taken, in ``ACTIONS`` order.
    """
    parts = []
    for start, stop in ((0, 2), (2, 5), (5, 8)):
        best = start  # the first of equally used tools, as ``max`` picks
        for action in range(start + 1, stop):
            if used[action] > used[best]:
                best = action
        parts.append(ACTIONS[best] if used[best] else "none")
    return "+".join(parts)


def status_line(
    model: SiteModel, state: tuple[int, ...], name: str, success: bool, error: str | None
) -> str:
    """The ``"ansi"`` render: one line on the step of action ``name`` that led to ``state``."""
    _, valid, _ = item_counts(model, state)
    verdict = "ok" if success else f"FAILED ({error})" if error else "FAILED"
    return (
        f"step {state[S_STEPS]:2d} | {name:17s} | {verdict} | "
        f"phase {PHASES[state[S_PHASE]]} | pages {_page(state)} | "
        f"valid items {valid}/{model.profile.target_items} | "
        f"t={state[S_TIME] / 1000:.1f}s"
    )


def crawl_result(
    model: SiteModel, state: tuple[int, ...], errors: list[str], used: list[int]
) -> tuple[dict[str, Any], float]:
    """The crawl result if the crawl stopped in ``state``, and its crawl score.

    Args:
        model: The site model (its ``scorer`` scores the result under the env's reward config).
        state: The crawl's state.
        errors: The crawl's error texts so far.
        used: How often each action was taken, in ``ACTIONS`` order.
    """
    return _crawl_result(model, state, item_blocks(model, state), errors, used)


def _crawl_result(
    model: SiteModel,
    state: tuple[int, ...],
    blocks: tuple[Block, ...],
    errors: list[str],
    used: list[int],
) -> tuple[dict[str, Any], float]:
    profile = model.profile
    success = reported_success(model, state, blocks)
    pages = pages_collected(state)
    time_ms = state[S_TIME]
    result = {
        "success": success,
        "data": build_items(profile.pattern_type, blocks),
        "navigation_result": {"pages_collected": pages, "strategy_used": strategy_used(used)},
        "execution_time_ms": float(time_ms),
        "errors": list(errors),
        "extraction_schema": {"required": list(SCHEMAS[profile.pattern_type])},
        "pattern_type": profile.pattern_type,
        "domain": profile.domain,
    }
    score = model.scorer.score(profile.pattern_type, blocks, success, pages, time_ms, len(errors))
    return result, score


def final_step(
    model: SiteModel,
    state: tuple[int, ...],
    event: tuple,
    name: str,
    code: str,
    error: str | None,
    errors: list[str],
    used: list[int],
    requests: int,
) -> tuple[float, dict[str, Any]]:
    """The episode's last step: its crawl score and ``info``, the crawl result as ``final``.

    ``info["task"]`` is the task outcome a crawl operator judges the crawler by, never part of
    the reward (``task_outcome``); ``info["true_crawl_score"]`` is the crawl score of the
    ground-truth result (``success`` = ``job_done``): the reward itself on Crawl-v1, the measure
    evaluation reads on Crawl-v2, whose reward scores the crawler's recorded success.

    Args:
        model: The site model.
        state: The state the step ended the crawl in.
        event: The step's event (``rlm_gym.envs.transitions``).
        name: The name of the step's action.
        code: The code the action ran (``action_codes``).
        error: The step's error text, or None.
        errors: The crawl's error texts, the step's included.
        used: How often each action was taken, in ``ACTIONS`` order.
        requests: The requests the crawl sent to the site (fetches, clicks and scrolls).
    """
    kind, success, _, duration, tokens, _ = event
    end = state[S_END]
    # The blocks once: the final step runs once per episode, often after only a few steps.
    blocks = item_blocks(model, state)
    result, score = _crawl_result(model, state, blocks, errors, used)
    output = (
        f"crawl {END_TEXT[end]}: {len(result['data'])} items from "
        f"{result['navigation_result']['pages_collected']} pages, "
        f"{'success' if result['success'] else 'no success'}"
    )
    metadata = {
        "crawl_result": result,
        "end_reason": END_TEXT[end],
        "step_action_type": KINDS[kind],
        "step_success": success,
    }
    # Valid by construction, as every step's result (`success` is ``succeeded``'s bool).
    action_result = trusted_action_result(
        "final", result["success"], output, error, float(duration), tokens, metadata
    )
    task = task_outcome(model, state, blocks, len(result["data"]), requests)
    true_score = score
    if task["job_done"] != result["success"]:
        true_score = model.scorer.score(
            model.profile.pattern_type,
            blocks,
            task["job_done"],
            result["navigation_result"]["pages_collected"],
            state[S_TIME],
            len(errors),
        )
    info = {
        "action": {"action": "final", "name": name, "code": code},
        "action_result": action_result,
        "task": task,
        "true_crawl_score": true_score,
    }
    return score, info


def task_outcome(
    model: SiteModel,
    state: tuple[int, ...],
    blocks: tuple[Block, ...],
    items: int,
    requests: int,
) -> dict[str, Any]:
    """What the crawl job achieved, as a crawl operator measures it.

    Returns:
        ``job_done`` (not banned, not out of time, at least the job's target of distinct valid
        rows), ``valid_items`` (distinct valid rows delivered), ``items`` (rows delivered,
        duplicates and defective ones included), ``pages``, ``requests``, ``time_ms`` and
        ``banned``.
    """
    end = state[S_END]
    valid = valid_rows(blocks)
    return {
        "job_done": job_done(model, state, valid),
        "valid_items": valid,
        "items": items,
        "pages": pages_collected(state),
        "requests": requests,
        "time_ms": float(state[S_TIME]),
        "banned": end == BLOCKED,
    }
