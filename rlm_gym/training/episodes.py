"""Turn the last step of an episode into a flat record: true score, crawl details, tier.

Shared by the training callback (TensorBoard scalars, learning curves) and ``evaluate``.
Only the standard library and the core are imported here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium as gym

__all__ = ["RAW_SCORES", "TIERS", "crawl_result_from_info", "episode_record", "make_bare_env"]

# The crawl reward's five raw scores (``RewardSignal.details`` keys, SPEC §5), in table order.
RAW_SCORES: tuple[str, ...] = ("success", "has_data", "validation", "quantity", "efficiency")
TIERS: tuple[str, ...] = ("excellent", "good", "acceptable", "poor")


def make_bare_env(env_id: str, env_kwargs: Mapping[str, Any] | None = None) -> gym.Env:
    """``gym.make(env_id, **env_kwargs)``, registering rlm_gym's envs first when needed.

    Worker processes (spawn / forkserver, Ray) start without ``rlm_gym.envs`` imported.

    Example:
        >>> make_bare_env("rlm_gym/Crawl-v1").spec.id
        'rlm_gym/Crawl-v1'
    """
    if env_id.startswith("rlm_gym/"):
        import rlm_gym.envs  # noqa: F401  (registers the env ids)
    return gym.make(env_id, **dict(env_kwargs or {}))


def crawl_result_from_info(info: Mapping[str, Any]) -> dict[str, Any] | None:
    """The SPEC §5 crawl result carried by a final step's ``info``, or None.

    Example:
        >>> from rlm_gym.policies import ActionResult
        >>> result = ActionResult("final", True, metadata={"crawl_result": {"success": True}})
        >>> crawl_result_from_info({"action_result": result})
        {'success': True}
        >>> crawl_result_from_info({}) is None
        True
    """
    result = info.get("action_result")
    if result is None:
        return None
    metadata = result.get("metadata") if isinstance(result, Mapping) else result.metadata
    crawl_result = (metadata or {}).get("crawl_result")
    return crawl_result if isinstance(crawl_result, Mapping) else None


def episode_record(info: Mapping[str, Any], true_return: float, length: int) -> dict[str, Any]:
    """A flat record of one finished episode.

    ``score`` is the episode's *true* return: the sum of the env's own rewards (for the crawl
    env, the unablated crawl reward of the final result), whatever reward policy trained the
    agent. When the last step carries a crawl result, the record adds the crawl reward's raw
    scores (``RAW_SCORES``), ``tier``, ``pattern_type``, ``items``, ``pages``,
    ``time_per_page_ms`` and ``strategy`` (recomputed with ``rlm_gym.crawl.crawl_reward``).

    Args:
        info: The ``info`` of the episode's last step.
        true_return: The sum of the env's rewards over the episode.
        length: Number of steps.

    Returns:
        The record (plain Python scalars and strings).

    Example:
        >>> episode_record({}, 1.5, 3)
        {'score': 1.5, 'length': 3}
    """
    record: dict[str, Any] = {"score": float(true_return), "length": int(length)}
    crawl_result = crawl_result_from_info(info)
    if crawl_result is None:
        return record
    from rlm_gym.crawl import crawl_reward

    details = crawl_reward(crawl_result).details
    navigation = crawl_result.get("navigation_result") or {}
    data = crawl_result.get("data")
    for name in RAW_SCORES:
        record[name] = float(details[name])
    record.update(
        tier=str(details["tier"]),
        pattern_type=str(details["pattern_type"]),
        items=len(data) if isinstance(data, list) else 0,
        pages=int(navigation.get("pages_collected", 1)),
        time_per_page_ms=float(details["time_per_page_ms"]),
        strategy=str(navigation.get("strategy_used", "")),
    )
    return record
