"""``SiteFarm``: deterministic sites over real HTTP, and the HTTP semantics of their protection."""

from __future__ import annotations

import json

import numpy as np
import pytest
import urllib3

from rlm_gym.envs.profiles import PROFILE_DRAWS, profile_from_uniforms
from rlm_gym.live import SiteFarm
from rlm_gym.live.pages import cursor_for
from rlm_gym.live.sites import CLIENT_HEADER, make_site, page_truth

HTTP = urllib3.PoolManager(retries=False, timeout=5.0)


def get(url: str, client: str = "t", **headers: str) -> urllib3.BaseHTTPResponse:
    return HTTP.request("GET", url, headers={CLIENT_HEADER: client, **headers})


def test_same_seed_serves_byte_identical_pages_from_two_farms():
    paths = ["/s/0/", "/s/3/?page=2", "/s/12/api/render?page=1", "/s/5/robots.txt"]
    bodies = []
    for _ in range(2):
        with SiteFarm(seed=4, timeout_rate=0.0, error_rate=0.0, protection="none") as farm:
            bodies.append([get(farm.url + path).data for path in paths])
    assert bodies[0] == bodies[1]
    assert all(bodies[0])


def test_farm_seeds_draw_different_sites():
    assert make_site(0, 3).profile != make_site(1, 3).profile


@pytest.mark.parametrize("index", [0, 1, 99, 123456])
def test_site_k_of_seed_0_is_the_profile_crawl_v2_draws_for_seed_k(index):
    uniforms = np.random.default_rng(index).random(PROFILE_DRAWS).tolist()
    assert make_site(0, index).profile == profile_from_uniforms(uniforms)


def test_every_page_of_a_site_lists_its_true_rows(farm):
    site = farm.site(8)
    assert len(page_truth(site, 1)) == site.profile.items_per_page
    assert page_truth(site, site.profile.total_pages + 1) == []


def test_responses_say_their_site_time_in_server_timing(farm):
    response = get(farm.site_url(2))
    assert response.status == 200
    duration = float(response.headers["Server-Timing"].partition("dur=")[2])
    ttfb = farm.site(2).profile.ttfb_ms
    assert duration in (pytest.approx(ttfb * 0.6703, abs=1), pytest.approx(ttfb * 1.4918, abs=1))


def test_rate_limited_site_answers_429_with_retry_after_and_bans_after_three_violations():
    with SiteFarm(time_scale=0.05, protection="rate_limit", timeout_rate=0, error_rate=0) as farm:
        url = farm.site_url(0)
        assert get(url, "a").status == 200
        refused = get(url, "a")
        assert refused.status == 429
        assert int(refused.headers["Retry-After"]) >= 1
        assert float(refused.headers["X-Retry-After-Ms"]) == pytest.approx(250.0)
        assert get(url, "b").status == 200  # per client
        # The third violation is the ban (as Crawl-v2's third 429): 403 from then on.
        assert [get(url, "a").status for _ in range(3)] == [429, 429, 403]


def test_waf_blocks_plain_clients_and_bans_after_two_blocks():
    with SiteFarm(protection="waf_http", timeout_rate=0, error_rate=0) as farm:
        statuses = [get(farm.site_url(s), f"c{s}").status for s in range(20)]
        assert statuses.count(403) >= 15  # 95 % of plain requests are refused
        banned = next(s for s in range(20) if statuses[s] == 403)
        second = get(farm.site_url(banned), f"c{banned}").status
        if second == 403:  # two blocks: banned for good, as a browser too
            browser = "Mozilla/5.0 HeadlessChrome"
            assert get(farm.site_url(banned), f"c{banned}", **{"User-Agent": browser}).status == 403


def test_data_endpoint_serves_the_page_fragment_and_refuses_unknown_cursors(farm):
    index = next(k for k in range(200) if not farm.site(k).profile.url_replayable)
    site = farm.site(index)
    fragment = json.loads(get(f"{farm.url}/s/{index}/api/items?cursor={cursor_for(site, 2)}").data)
    assert fragment["page"] == 2 and "<" in fragment["html"]
    assert get(f"{farm.url}/s/{index}/api/items?cursor=zz").status == 400
    assert get(f"{farm.url}/s/{index}/nothing").status == 404


def test_pages_without_a_replayable_url_re_serve_page_one(farm):
    index = next(
        k for k in range(200)
        if farm.site(k).profile.pagination == 2 and not farm.site(k).profile.url_replayable
        and farm.site(k).profile.protection == 0
    )  # fmt: skip
    first, second = (get(f"{farm.site_url(index)}?page={n}", "r").data for n in (1, 2))
    assert first == second


def test_farm_describes_itself(farm):
    info = json.loads(get(f"{farm.url}/_farm").data)
    assert info == {"seed": 0, "time_scale": 0.005, "pattern_types": None, "overrides": {}}


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"seed": -1}, "seed"),
        ({"time_scale": 0}, "time_scale"),
        ({"port": 70000}, "port"),
        ({"error_rate": 2}, "error_rate"),
        ({"protecton": "none"}, "protecton"),
        ({"pattern_types": ["job_listing"]}, "job_listing"),
    ],
)
def test_bad_farm_arguments_raise_naming_them(kwargs, match):
    with pytest.raises(ValueError, match=match):
        SiteFarm(**kwargs)
