"""The crawl reward's ``efficiency`` score: time per page against a budget, voided by errors.

Above a budget per page (one for single-page crawls, one for multi-page ones) the time penalty
grows linearly over a span up to a maximum; multi-page crawls faster than ``fast_page_ms`` per
page earn a bonus (a negative penalty). Errors void efficiency (``efficiency_errors="any"``)
or scale it down (``"graded"``). The result is capped at ``efficiency_cap``.
"""

from __future__ import annotations

from rlm_gym.crawl.settings import DEFAULT_SETTINGS, CrawlSettings

__all__ = ["efficiency_score", "efficiency_breakdown"]


def efficiency_score(
    pages: float, execution_time_ms: float, errors: int, settings: CrawlSettings = DEFAULT_SETTINGS
) -> float:
    """The raw ``efficiency`` score (before its weight) of a crawl that collected ``pages``
    pages in ``execution_time_ms`` with ``errors`` errors: what ``crawl_reward`` computes from
    the result's ``navigation_result``, ``execution_time_ms`` and ``errors``, without the rest
    of the scoring (the simulated env's scorer caches it per step count and time).

    Example:
        >>> efficiency_score(1.0, 4_000.0, 0)
        1.0
        >>> efficiency_score(1.0, 4_000.0, 1)  # any error voids efficiency by default
        0.0
    """
    return efficiency_breakdown(pages, execution_time_ms, errors, settings)[0]


def efficiency_breakdown(
    pages: float, execution_ms: float, errors: int, settings: CrawlSettings
) -> tuple[float, float, float]:
    """``(efficiency, time_per_page_ms, time_penalty)`` of a crawl.

    Example:
        >>> efficiency_breakdown(2.0, 50_000.0, 0, DEFAULT_SETTINGS)  # 25 s a page: too slow
        (0.7777777777777778, 25000.0, 0.2222222222222222)
    """
    time_per_page_ms = execution_ms / max(1.0, pages)
    time_penalty = _time_penalty(time_per_page_ms, pages, settings)
    if settings.graded_errors:
        no_errors = max(0.0, 1.0 - settings.error_step * errors)
    else:
        no_errors = 0.0 if errors else 1.0
    efficiency = no_errors * min(settings.efficiency_cap, max(0.0, 1.0 - time_penalty))
    return efficiency, time_per_page_ms, time_penalty


def _time_penalty(time_per_page_ms: float, pages: float, settings: CrawlSettings) -> float:
    if pages <= 1.0:
        over = time_per_page_ms - settings.single_page_budget_ms
        if over > 0.0:
            return min(
                settings.single_page_max_penalty, over / settings.single_page_penalty_span_ms
            )
        return 0.0
    over = time_per_page_ms - settings.multi_page_budget_ms
    if over > 0.0:
        return min(settings.multi_page_max_penalty, over / settings.multi_page_penalty_span_ms)
    if time_per_page_ms < settings.fast_page_ms:
        return -settings.fast_page_bonus
    return 0.0
