"""Faults of a live crawl: an unreachable farm, 5xx answers, time-outs, rate limits and bans,
each as a real crawler meets and records it; no step outlasts its client's timeout."""

from __future__ import annotations

import socket
import time

import pytest

from rlm_gym.envs import dynamics as dyn
from rlm_gym.live import CrawlLiveEnv, SiteFarm
from tests.live.helpers import run


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_unreachable_farm_is_one_clear_error_at_reset_within_the_timeout():
    url = f"http://127.0.0.1:{_free_port()}"
    env = CrawlLiveEnv(farm_url=url, timeout_s=0.5)
    started = time.perf_counter()
    with pytest.raises(ConnectionError, match=f"Cannot reach the site farm at {url}"):
        env.reset(seed=0)
    assert time.perf_counter() - started < 0.5 + 1.0
    env.close()


def test_a_server_that_is_no_farm_is_named_at_reset():
    with SiteFarm() as farm:
        env = CrawlLiveEnv(farm_url=f"{farm.url}/s/0", timeout_s=1.0)
        with pytest.raises(ConnectionError, match="/s/0"):
            env.reset(seed=0)
        env.close()


def test_5xx_after_the_retries_are_the_crawl_s_errors():
    with SiteFarm(error_rate=1.0, timeout_rate=0.0, protection="none") as farm:
        env = CrawlLiveEnv(farm_url=farm.url, protection="none", retries=2)
        try:
            infos, last = run(env, ["fetch_http", "stop"], seed=4)
        finally:
            env.close()
    error = infos[0]["action_result"].error
    assert error.startswith("HTTP 503 Service Unavailable (gave up after 3 tries)")
    assert last["crawl_result"]["errors"] == [error]
    assert last["task"]["requests"] == 3


def test_time_outs_are_errors_and_no_step_outlasts_the_timeout():
    timeout_s = 0.2
    with SiteFarm(timeout_rate=1.0, error_rate=0.0, protection="none") as farm:
        env = CrawlLiveEnv(farm_url=farm.url, protection="none", timeout_s=timeout_s)
        try:
            env.reset(seed=4)
            started = time.perf_counter()
            *_, info = env.step(env.ACTIONS.index("fetch_http"))
            elapsed = time.perf_counter() - started
            assert info["action_result"].error == "Timeout after 200 ms"
            assert elapsed < timeout_s + 0.5  # time-outs are not retried
            # The clock of the crawl is site time: 0.2 s at time_scale 0.005 is 40 s.
            assert env.state[4] == pytest.approx(timeout_s / farm.time_scale * 1000, abs=100)
        finally:
            env.close()


def test_a_rate_limited_site_answers_429_without_a_backoff_and_200_after_one():
    # A slower clock keeps the rate window (4 site s) far above a parse on a loaded machine.
    with SiteFarm(time_scale=0.05, timeout_rate=0.0, error_rate=0.0, protection="rate_limit",
                  pagination="url_param", rendering="static") as farm:  # fmt: skip
        env = CrawlLiveEnv(
            farm_url=farm.url, protection="rate_limit", pagination="url_param", rendering="static"
        )
        try:
            names = ["fetch_http", "extract_css", "url_navigation", "fetch_http", "backoff"]
            infos, _ = run(env, [*names, "fetch_http", "stop"], seed=1)
            obs = env.unwrapped._obs
        finally:
            env.close()
    results = [info["action_result"] for info in infos]
    assert results[3].error == "HTTP 429 Too Many Requests"
    assert (results[4].success, results[5].success) == (True, True)
    from rlm_gym.envs.observation import INDEX

    assert obs[INDEX["count_429"]] == pytest.approx(1 / 3)


def test_repeated_waf_blocks_ban_the_client_and_the_farm_keeps_banning_it():
    import urllib3

    from rlm_gym.live.sites import CLIENT_HEADER

    with SiteFarm(timeout_rate=0.0, error_rate=0.0, protection="waf_http") as farm:
        env = CrawlLiveEnv(farm_url=farm.url, protection="waf_http")
        try:
            banned = None
            for seed in range(6):
                _, last = run(env, ["fetch_http"] * 4, seed=seed)
                if last["task"]["banned"]:
                    banned = seed
                    session = env.unwrapped.crawl.crawler.session
                    break
        finally:
            env.close()
        assert banned is not None, "plain HTTP on a waf_http site is blocked 95 % of the time"
        assert "banned" in last["crawl_result"]["errors"][-1]
        answer = urllib3.request(
            "GET", f"{farm.url}/s/{banned}/", headers={CLIENT_HEADER: session}, retries=False
        )
        assert answer.status == 403
        other = urllib3.request(
            "GET", f"{farm.url}/s/{banned}/", headers={CLIENT_HEADER: "someone-else"}
        )
        assert other.status in (200, 403)  # a fresh client is judged on its own


def test_client_only_pages_are_empty_shells_to_plain_http_and_full_to_the_browser(farm):
    env = CrawlLiveEnv(farm_url=farm.url)
    try:
        seed = next(s for s in range(100) if _profile(env, s)[1:4:2] == (2, 0))
        http, _ = run(env, ["fetch_http", "extract_css", "stop"], seed=seed)
        browser, _ = run(env, ["fetch_headless", "extract_css", "stop"], seed=seed)
    finally:
        env.close()
    assert http[0]["action_result"].success
    assert "empty client-side rendered shell" in http[1]["action_result"].error
    assert browser[1]["action_result"].success


def _profile(env, seed):
    """The profile of site ``seed`` (``[1:4:2]``: rendering and protection)."""
    env.reset(seed=seed)
    return env.site.profile


def test_a_refused_http_fetch_keeps_the_live_browser_page():
    with SiteFarm(timeout_rate=0.0, error_rate=0.0, protection="waf_http",
                  pagination="load_more", rendering="static") as farm:  # fmt: skip
        env = CrawlLiveEnv(
            farm_url=farm.url, protection="waf_http", pagination="load_more", rendering="static"
        )
        try:
            for seed in range(30):
                infos, _ = run(env, ["fetch_headless", "fetch_http"], seed=seed)
                results = [info["action_result"] for info in infos]
                if results[0].success and not results[-1].success and len(results) == 2:
                    break
            else:
                pytest.fail("no site let the browser in and refused plain HTTP")
            assert env.unwrapped.crawl.browser_live
            *_, extracted = env.step(env.unwrapped.ACTIONS.index("extract_css"))
            *_, clicked = env.step(env.unwrapped.ACTIONS.index("javascript_click"))
        finally:
            env.close()
    assert extracted["action_result"].success
    assert clicked["action_result"].error != dyn.ERRORS[dyn.E_NO_BROWSER]
