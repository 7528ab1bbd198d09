"""``episode_record``'s crawl fields: cached by what the crawl reward reads, never stale."""

from __future__ import annotations

import gymnasium as gym
import pytest

from rlm_gym.crawl import WEIGHTED_COMPONENTS
from rlm_gym.crawl.memo import memo_for
from rlm_gym.crawl.reward import score_crawl_result
from rlm_gym.crawl.settings import DEFAULT_SETTINGS
from rlm_gym.envs import CRAWL_V2_ENV_ID
from rlm_gym.policies import ActionResult
from rlm_gym.training.episodes import episode_record


def _uncached(crawl: dict) -> dict:
    details = score_crawl_result(crawl, DEFAULT_SETTINGS, memo=memo_for(DEFAULT_SETTINGS)).details
    fields = {name: float(details[name]) for name in WEIGHTED_COMPONENTS}
    fields.update(
        tier=details["tier"],
        pattern_type=details["pattern_type"],
        time_per_page_ms=float(details["time_per_page_ms"]),
    )
    return fields


def _record(crawl: dict) -> dict:
    info = {"action_result": ActionResult("final", True, metadata={"crawl_result": crawl})}
    return episode_record(info, 0.0, 1)


def _finals(episodes: int) -> list[dict]:
    env = gym.make(CRAWL_V2_ENV_ID)
    crawls = []
    for seed in range(episodes):
        env.reset(seed=seed)
        done = False
        while not done:
            allowed = [a for a, ok in enumerate(env.unwrapped.action_masks()) if ok]
            _, _, ended, cut, info = env.step(allowed[(seed * 7 + len(crawls)) % len(allowed)])
            done = ended or cut
        if ended:
            crawls.append(info["action_result"].metadata["crawl_result"])
    return crawls


def test_records_match_the_crawl_reward_details_on_repeated_crawls():
    crawls = _finals(40)
    for crawl in crawls + crawls:  # the second pass reads the cache
        record = _record(crawl)
        assert {key: record[key] for key in _uncached(crawl)} == _uncached(crawl)


@pytest.mark.parametrize(
    "change",
    [
        {"success": False},
        {"execution_time_ms": 123_456.0},
        {"errors": ["x", "y", "z"]},
        {"navigation_result": {"pages_collected": 7, "strategy_used": "s"}},
        {"extraction_schema": {"required": ["name"]}},
        {"data": []},
    ],
)
def test_a_changed_crawl_is_scored_again(change):
    crawl = dict(_finals(5)[0])
    _record(crawl)
    changed = {**crawl, **change}
    record = _record(changed)
    assert {key: record[key] for key in _uncached(changed)} == _uncached(changed)


def test_an_invalid_crawl_still_raises():
    crawl = dict(_finals(3)[0])
    _record(crawl)
    with pytest.raises(ValueError, match="Invalid crawl result"):
        _record({**crawl, "execution_time_ms": float("nan")})
