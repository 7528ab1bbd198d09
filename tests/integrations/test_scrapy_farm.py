"""The crawl-reward Scrapy extension on the site farm: a real spider crawling generated sites.

The farm (``rlm_gym.live.SiteFarm``) knows each site's hidden profile, so the test picks its
sites by what the profile says and checks the extension's judgement against it. On a site with
regular markup (item cards) a spider's items are clean. On one with irregular markup (a table)
the cell classed as field ``BREAKS["css"][pattern_type][0]`` holds a neighbouring value — a
mislabelled, shifted cell — and every selector that reads cells by class reads it: a
systematic defect of that field. ``farm_spider.py`` crawls in a process of its own (a Twisted
reactor cannot restart in the test process) and writes its stats, log and feed, which the
tests read; each site is crawled once per test process.

``docs/crawl-reward.md`` shows the same crawl by hand, against ``rlm-gym farm serve``; the
site numbers it gives are checked here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from rlm_gym.crawl.patterns import TIERS
from rlm_gym.envs.items import BREAKS, UNIQUE_FIELD
from rlm_gym.envs.profiles import PAGINATIONS, PROTECTIONS, RENDERINGS, SCHEMAS, SiteProfile
from rlm_gym.integrations.scrapy import CLOSE_REASON
from rlm_gym.live.farm import SiteFarm
from rlm_gym.live.sites import Site, page_truth
from tests.integrations.test_scrapy import Crawl

SPIDER = os.path.join(os.path.dirname(__file__), "farm_spider.py")
DOCS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "crawl-reward.md"
# Listing types whose items the zero-config scorer recognises by their fields.
LISTING_TYPES = ("product_list", "review_extraction")
# Zero-config scoring (no required fields, no pattern type), a feed export, and an operator's
# bar: a job below "excellent" fails with the extension's reason.
SETTINGS = {
    "EXTENSIONS": {"rlm_gym.integrations.scrapy.CrawlRewardExtension": 500},
    "RLM_GYM_ENABLED": True,
    "RLM_GYM_MIN_TIER": "excellent",
    "FEEDS": {"{out}/items.jsonl": {"format": "jsonlines"}},
}
SEARCHED_SITES = 500


class FarmCrawl(NamedTuple):
    """A crawled site and what the crawl left behind."""

    site: Site
    crawl: Crawl

    def items(self) -> list[dict[str, Any]]:
        """The items of the feed export."""
        with open(os.path.join(self.crawl.out_dir, "items.jsonl"), encoding="utf-8") as feed:
            return [json.loads(line) for line in feed]


def crawlable(profile: SiteProfile) -> bool:
    """Whether a spider reaches every page of the site with plain requests: pages served as
    HTML (not a client-side rendered shell), pagination links with real URLs (numbered links,
    or next links where the site backs them with a URL), no rate limit or WAF, several pages."""
    pagination = PAGINATIONS[profile.pagination]
    return (
        RENDERINGS[profile.rendering] != "client_only"
        and (pagination == "url_param" or (pagination == "next_link" and profile.url_replayable))
        and PROTECTIONS[profile.protection] == "none"
        and profile.total_pages >= 2
    )


def first_site(farm: SiteFarm, pattern_type: str, regular_markup: bool) -> int:
    """The first crawlable site of the farm with this pattern type and markup."""
    for index in range(SEARCHED_SITES):
        profile = farm.site(index).profile
        if (
            profile.pattern_type == pattern_type
            and profile.regular_markup == regular_markup
            and crawlable(profile)
        ):
            return index
    raise AssertionError(
        f"no crawlable {pattern_type} site with regular_markup={regular_markup} "
        f"among the first {SEARCHED_SITES}"
    )


def run_farm_crawl(url: str, fields: tuple[str, ...], out_dir: str) -> Crawl:
    """Crawl ``url`` with ``FarmListingSpider`` in a process of its own; bounded by the process
    timeout and the spider's own (``CLOSESPIDER_TIMEOUT``)."""
    settings = json.dumps(SETTINGS).replace("{out}", out_dir)
    process = subprocess.run(
        [sys.executable, SPIDER, url, ",".join(fields), settings, out_dir],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert process.returncode == 0, process.stderr[-3000:]
    return Crawl(out_dir)


@pytest.fixture(scope="module")
def farm() -> Iterator[SiteFarm]:
    """A farm of listing sites on a free port of 127.0.0.1, without random time-outs and 5xx
    (the extension's errors are tested on the shop)."""
    with SiteFarm(seed=0, pattern_types=LISTING_TYPES, timeout_rate=0.0, error_rate=0.0) as running:
        yield running


@pytest.fixture(scope="module")
def crawl_site(
    farm: SiteFarm, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str, bool], FarmCrawl]:
    """``crawl_site(pattern_type, regular_markup)``: the crawl of the first such site (once)."""
    done: dict[tuple[str, bool], FarmCrawl] = {}

    def crawl(pattern_type: str, regular_markup: bool) -> FarmCrawl:
        if (pattern_type, regular_markup) not in done:
            index = first_site(farm, pattern_type, regular_markup)
            out_dir = str(tmp_path_factory.mktemp(f"site-{index}"))
            result = run_farm_crawl(farm.site_url(index), SCHEMAS[pattern_type], out_dir)
            done[pattern_type, regular_markup] = FarmCrawl(farm.site(index), result)
        return done[pattern_type, regular_markup]

    return crawl


def components(stats: dict[str, Any]) -> dict[str, float]:
    prefix = "rlm_gym/components/"
    return {key.removeprefix(prefix): v for key, v in stats.items() if key.startswith(prefix)}


@pytest.mark.slow
@pytest.mark.parametrize("pattern_type", LISTING_TYPES)
def test_clean_site_ends_with_value_tier_and_components(crawl_site, pattern_type):
    clean = crawl_site(pattern_type, True)
    stats, profile = clean.crawl.stats, clean.site.profile
    truth = [
        row for page in range(1, profile.total_pages + 1) for row in page_truth(clean.site, page)
    ]
    # every item of every page, each once, as the site holds it
    unique = UNIQUE_FIELD[pattern_type]
    assert sorted(item[unique] for item in clean.items()) == sorted(
        str(row[unique]) for row in truth
    )
    assert stats["rlm_gym/items"] == len(truth)
    # numbered links: the root and its ?page=1 link are two URLs of page 1
    assert stats["rlm_gym/pages"] == profile.total_pages + (
        PAGINATIONS[profile.pagination] == "url_param"
    )
    assert stats["rlm_gym/pattern_type"] == pattern_type
    assert stats["rlm_gym/tier"] == "excellent"
    assert set(components(stats)) == {
        "success", "has_data", "validation", "quantity", "efficiency", "defects",
    }  # fmt: skip
    assert sum(components(stats).values()) == pytest.approx(stats["rlm_gym/value"])
    assert stats["rlm_gym/defects"] == []
    assert {stats[f"rlm_gym/invalid_share/{field}"] for field in SCHEMAS[pattern_type]} == {0.0}
    assert stats["finish_reason"] == "finished"
    assert stats["rlm_gym/min_tier_met"] is True
    assert "INFO: Crawl reward" in clean.crawl.report()


@pytest.mark.slow
@pytest.mark.parametrize("pattern_type", LISTING_TYPES)
def test_systematic_defect_lowers_the_tier_and_names_the_field(crawl_site, pattern_type):
    clean = crawl_site(pattern_type, True).crawl.stats
    broken = crawl_site(pattern_type, False)
    stats = broken.crawl.stats
    # the field whose class sits on a neighbouring cell, and the value that cell holds
    field, neighbour = BREAKS["css"][pattern_type]
    assert TIERS.index(stats["rlm_gym/tier"]) > TIERS.index(clean["rlm_gym/tier"])
    assert stats["rlm_gym/value"] < clean["rlm_gym/value"]
    assert stats["rlm_gym/components/defects"] < 0.0
    assert stats[f"rlm_gym/invalid_share/{field}"] == 1.0
    others = [name for name in SCHEMAS[pattern_type] if name != field]
    assert all(stats[f"rlm_gym/invalid_share/{name}"] < 0.2 for name in others)
    (defect,) = [line for line in stats["rlm_gym/defects"] if line.startswith(f"{field}: 100%")]
    shown = {repr(str(neighbour(row))) for row in page_truth(broken.site, 1)}
    assert any(value in defect for value in shown), (defect, shown)
    report = broken.crawl.report()
    assert f"tier {stats['rlm_gym/tier']}" in report
    assert f"  - {defect}" in report


@pytest.mark.slow
@pytest.mark.parametrize("pattern_type", LISTING_TYPES)
def test_defective_site_fails_the_job_below_the_min_tier(crawl_site, pattern_type):
    stats = crawl_site(pattern_type, False).crawl.stats
    assert stats["finish_reason"] == CLOSE_REASON
    assert stats["rlm_gym/min_tier_met"] is False
    assert "ERROR: Crawl reward" in crawl_site(pattern_type, False).crawl.report()


def test_the_docs_name_the_sites_the_test_crawls():
    farm = SiteFarm(seed=0, pattern_types=LISTING_TYPES)  # its sites, without serving them
    clean, broken = (first_site(farm, "product_list", regular) for regular in (True, False))
    page = " ".join(DOCS_PAGE.read_text(encoding="utf-8").split())
    serve = "rlm-gym farm serve --port PORT " + " ".join(
        f"--pattern-type {name}" for name in LISTING_TYPES
    )
    assert serve in page
    field = BREAKS["css"]["product_list"][0]
    assert f"site {clean} is the clean product listing, site {broken} the one with the " in page
    assert f"site {broken} the one with the shifted `{field}` cell" in page
    assert f"http://127.0.0.1:PORT/s/{broken}/ {','.join(SCHEMAS['product_list'])}" in page
