"""Nothing the live env or a farm starts outlives ``close()`` / ``stop()``: no thread, no socket,
no open file descriptor - also after an exception in the middle of an episode."""

from __future__ import annotations

import gc
import os
import socket
import threading
from urllib.parse import urlparse

import gymnasium as gym
import pytest

import rlm_gym  # noqa: F401
from rlm_gym.envs import CRAWL_LIVE_ENV_ID
from rlm_gym.live import CrawlLiveEnv, SiteFarm
from rlm_gym.live import session as live_session


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _farm_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("rlm-gym-farm")]


def _refuses(url: str) -> bool:
    parsed = urlparse(url)
    with socket.socket() as probe:
        probe.settimeout(1.0)
        return probe.connect_ex((parsed.hostname, parsed.port)) != 0


@pytest.fixture
def resources():
    """The thread count and open descriptors before the test, checked again after it."""
    gc.collect()
    before = (threading.active_count(), _open_fds())
    yield before
    gc.collect()
    assert _farm_threads() == []
    assert (threading.active_count(), _open_fds()) == before


def test_close_stops_the_env_s_own_farm_and_its_connections(resources):
    env = gym.make(CRAWL_LIVE_ENV_ID)
    env.reset(seed=2)
    for _ in range(4):
        *_, terminated, _, _ = env.step(env.unwrapped.heuristic_action())
        if terminated:
            break
    url = env.unwrapped.url
    assert _farm_threads() and not _refuses(url)
    env.close()
    assert _refuses(url)


def test_close_after_an_exception_mid_episode_leaves_nothing_behind(resources, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("extractor crashed")

    env = gym.make(CRAWL_LIVE_ENV_ID, protection="none")
    try:
        env.reset(seed=5)
        env.step(env.unwrapped.ACTIONS.index("fetch_http"))
        monkeypatch.setattr(live_session, "extract", broken)
        with pytest.raises(RuntimeError, match="extractor crashed"):
            env.step(env.unwrapped.ACTIONS.index("extract_css"))
        url = env.unwrapped.url
    finally:
        env.close()
    assert _refuses(url)


def test_an_env_dropped_without_close_stops_its_farm_when_collected(resources):
    env = CrawlLiveEnv()
    env.reset(seed=1)
    url = env.url
    del env
    gc.collect()
    assert _refuses(url)


def test_close_leaves_a_farm_given_by_url_running(resources):
    with SiteFarm(seed=0) as farm:
        url = farm.url
        env = CrawlLiveEnv(farm_url=farm.url)
        env.reset(seed=3)
        env.step(0)
        env.close()
        assert not _refuses(farm.url)
        env = CrawlLiveEnv(farm_url=farm.url)
        env.reset(seed=3)
        env.close()
    assert _refuses(url)


def test_farm_context_manager_and_stop_are_idempotent(resources):
    farm = SiteFarm(time_scale=0.001)
    farm.stop()
    with farm:
        assert farm.running
        with pytest.raises(RuntimeError, match="already running"):
            farm.start()
    farm.stop()
    assert not farm.running
    with pytest.raises(RuntimeError, match="not running"):
        _ = farm.url


def test_a_busy_port_is_an_error_of_the_bind_and_leaves_nothing(resources):
    with SiteFarm() as first:
        port = urlparse(first.url).port
        with pytest.raises(OSError):
            SiteFarm(port=port).start()
