"""The crawl-reward Scrapy extension: real spiders crawling a shop served on 127.0.0.1.

Each crawl runs in its own process (``shop_spider.py``: a Twisted reactor cannot be restarted
in the test process) and writes its stats and log, which the test reads; the clean crawl is
shared by the tests that read it. The handlers are also fed directly (no reactor) for what
needs no network: settings, disabling, sampling.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from typing import Any

import pytest
from scrapy import Spider
from scrapy.exceptions import CloseSpider, NotConfigured
from scrapy.utils.test import get_crawler

from rlm_gym.cli import main
from rlm_gym.integrations.scrapy import CLOSE_REASON, CrawlRewardExtension
from tests.integrations.shop_site import PAGES, PER_PAGE, product, serve_shop

EXTENSION = "rlm_gym.integrations.scrapy.CrawlRewardExtension"
ENABLED = {"EXTENSIONS": {EXTENSION: 500}, "RLM_GYM_ENABLED": True}
REQUIRED = {**ENABLED, "RLM_GYM_REQUIRED_FIELDS": "name,price,rating"}
SPIDER = os.path.join(os.path.dirname(__file__), "shop_spider.py")


class Crawl:
    """The stats and log of one finished crawl."""

    def __init__(self, out_dir: str):
        self.out_dir = out_dir
        with open(os.path.join(out_dir, "stats.json"), encoding="utf-8") as stats:
            self.stats: dict[str, Any] = json.load(stats)
        with open(os.path.join(out_dir, "crawl.log"), encoding="utf-8") as log:
            self.log = log.read()

    def report(self) -> str:
        """The extension's log record (its first line up to the next record)."""
        start = self.log.index("[rlm_gym.integrations.scrapy]")
        end = self.log.find("\n20", start)
        return self.log[start:end]


def run_crawl(base_url: str, site: str, settings: dict[str, Any], out_dir: str) -> Crawl:
    """Crawl ``site`` with ``ShopSpider`` in a process of its own (``{out}`` in a setting's
    text is ``out_dir``); bounded by the process timeout and the spider's own."""
    text = json.dumps(settings).replace("{out}", out_dir)
    url = f"{base_url}/{site}/page/1.html"
    process = subprocess.run(
        [sys.executable, SPIDER, url, text, out_dir],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert process.returncode == 0, process.stderr[-3000:]
    return Crawl(out_dir)


@pytest.fixture(scope="module")
def shop_url() -> Any:
    with serve_shop() as base_url:
        yield base_url


@pytest.fixture
def crawl(shop_url: str, tmp_path: Any) -> Any:
    """Run one crawl: ``crawl(site, settings)``."""
    return lambda site, settings: run_crawl(shop_url, site, settings, str(tmp_path))


@pytest.fixture(scope="module")
def clean(shop_url: str, tmp_path_factory: pytest.TempPathFactory) -> Crawl:
    """The clean site with the required fields, a feed export and a minimum tier it meets."""
    out_dir = str(tmp_path_factory.mktemp("clean"))
    settings = {
        **REQUIRED,
        "RLM_GYM_MIN_TIER": "good",
        "FEEDS": {"{out}/items.jsonl": {"format": "jsonlines"}},
    }
    return run_crawl(shop_url, "clean", settings, out_dir)


# --- real spiders -----------------------------------------------------------------------------


@pytest.mark.slow
def test_stats_carry_value_tier_and_components(clean):
    stats = clean.stats
    assert stats["rlm_gym/items"] == PAGES * PER_PAGE
    assert stats["rlm_gym/pages"] == PAGES
    assert stats["rlm_gym/tier"] == "excellent"
    assert stats["rlm_gym/pattern_type"] == "product_list"
    components = {
        key.removeprefix("rlm_gym/components/"): value
        for key, value in stats.items()
        if key.startswith("rlm_gym/components/")
    }
    assert set(components) == {
        "success", "has_data", "validation", "quantity", "efficiency", "defects",
    }  # fmt: skip
    assert sum(components.values()) == pytest.approx(stats["rlm_gym/value"])
    assert stats["rlm_gym/invalid_share/price"] == 0.0


@pytest.mark.slow
def test_score_equals_rlm_gym_score_of_the_feed(clean, capsys):
    feed = os.path.join(clean.out_dir, "items.jsonl")
    arguments = ["score", feed, "--required", "name,price,rating", "--format", "json"]
    arguments += ["--pages", str(clean.stats["rlm_gym/pages"])]
    arguments += ["--time-ms", repr(clean.stats["rlm_gym/execution_time_ms"])]
    assert main(arguments) == 0
    (row,) = json.loads(capsys.readouterr().out)["results"]
    assert row["reward"] == pytest.approx(clean.stats["rlm_gym/value"])
    assert row["tier"] == clean.stats["rlm_gym/tier"]
    assert row["components"] == pytest.approx(
        {
            key.removeprefix("rlm_gym/components/"): value
            for key, value in clean.stats.items()
            if key.startswith("rlm_gym/components/")
        }
    )
    with open(feed, encoding="utf-8") as lines:
        assert json.loads(next(lines)) == product("clean", 0)


@pytest.mark.slow
def test_report_is_logged_with_the_explain_table(clean):
    report = clean.report()
    assert "INFO: Crawl reward" in report
    assert "tier excellent" in report
    assert "field   type    checked  invalid  invalid %  bad values" in report


@pytest.mark.slow
def test_zero_config_scores_each_item_on_its_own_fields(crawl):
    stats = crawl("clean", ENABLED).stats
    assert stats["rlm_gym/pattern_type"] == "product_list"
    assert stats["rlm_gym/tier"] in ("excellent", "good")
    assert {"rlm_gym/invalid_share/name", "rlm_gym/invalid_share/rating"} <= set(stats)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("site", "settings", "field", "bad_value"),
    [
        ("ratings10", REQUIRED, "rating", "'10', '15', '20'"),
        ("mojibake", REQUIRED, "price", "'Â£"),
        ("placeholder", ENABLED, "name", "'N/A'"),
    ],
)
def test_systematic_defect_lowers_the_tier_and_names_the_field(
    crawl, clean, site, settings, field, bad_value
):
    broken = crawl(site, settings)
    stats = broken.stats
    assert stats["rlm_gym/value"] < clean.stats["rlm_gym/value"]
    assert stats["rlm_gym/tier"] in ("good", "acceptable", "poor")
    assert stats[f"rlm_gym/invalid_share/{field}"] == 1.0
    assert [defect for defect in stats["rlm_gym/defects"] if defect.startswith(f"{field}:")]
    report = broken.report()
    assert f"  - {field}: 100%" in report
    assert bad_value in report


@pytest.mark.slow
def test_min_tier_closes_the_job_with_the_failure_reason(crawl):
    closed = crawl("ratings10", {**REQUIRED, "RLM_GYM_MIN_TIER": "excellent"})
    assert closed.stats["finish_reason"] == CLOSE_REASON
    assert closed.stats["rlm_gym/tier"] == "good"
    assert closed.stats["rlm_gym/min_tier_met"] is False
    assert "ERROR: Crawl reward" in closed.report()
    assert f"the job closed with reason '{CLOSE_REASON}'" in closed.report()
    # the score written is the one that closed the job: a finished crawl's
    assert closed.stats["rlm_gym/components/success"] == 0.25


@pytest.mark.slow
def test_min_tier_met_finishes_as_usual(clean):
    stats = clean.stats
    assert stats["finish_reason"] == "finished"
    assert stats["rlm_gym/min_tier_met"] is True


@pytest.mark.slow
def test_5xx_responses_are_the_crawls_errors(crawl):
    stats = crawl("errors", {**REQUIRED, "RETRY_ENABLED": False}).stats
    assert stats["rlm_gym/errors"] == 1
    assert stats["rlm_gym/pages"] == 3  # pages 1, 2 and the 503 of page 3; no next link
    assert stats["rlm_gym/items"] == 2 * PER_PAGE
    assert stats["rlm_gym/components/efficiency"] == 0.0  # any error: no efficiency score


@pytest.mark.slow
def test_disabled_by_default(crawl):
    listed_only = crawl("clean", {"EXTENSIONS": {EXTENSION: 500}})
    assert not [key for key in listed_only.stats if key.startswith("rlm_gym/")]
    assert EXTENSION not in listed_only.log  # not among the enabled extensions
    assert listed_only.stats["item_scraped_count"] == PAGES * PER_PAGE


# --- handlers fed directly ------------------------------------------------------------------


def _extension(**settings: Any) -> tuple[CrawlRewardExtension, Any, Spider]:
    crawler = get_crawler(Spider, {"RLM_GYM_ENABLED": True, **settings})
    extension = CrawlRewardExtension.from_crawler(crawler)
    spider = Spider("shop")
    extension.spider_opened(spider)
    return extension, crawler, spider


def test_not_configured_unless_enabled():
    with pytest.raises(NotConfigured):
        CrawlRewardExtension.from_crawler(get_crawler(Spider))
    with pytest.raises(NotConfigured):
        CrawlRewardExtension.from_crawler(get_crawler(Spider, {"RLM_GYM_ENABLED": "false"}))


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"RLM_GYM_MIN_TIER": "godo"}, "setting `RLM_GYM_MIN_TIER`. Did you mean 'good'?"),
        ({"RLM_GYM_PATTERN_TYPE": "products"}, "'product_list', 'review_extraction'"),
        ({"RLM_GYM_SAMPLE_SIZE": "0"}, "`RLM_GYM_SAMPLE_SIZE` must be an integer >= 1, got '0'"),
        ({"RLM_GYM_ENABLED": "yes"}, "`RLM_GYM_ENABLED` must be a boolean"),
        ({"RLM_GYM_CONFIG": {"weigths": {}}}, "`RLM_GYM_CONFIG`: "),
    ],
)
def test_bad_settings_name_the_setting_and_accepted_values(settings, message):
    with pytest.raises(ValueError) as error:
        CrawlRewardExtension.from_crawler(
            get_crawler(Spider, {"RLM_GYM_ENABLED": True, **settings})
        )
    assert message in str(error.value)


def test_items_of_scrapy_item_classes_are_scored_as_their_fields():
    import scrapy

    class Product(scrapy.Item):
        name = scrapy.Field()
        price = scrapy.Field()

    extension, crawler, spider = _extension(RLM_GYM_REQUIRED_FIELDS=["name", "price"])
    for number in range(10):
        extension.item_scraped(Product(name=f"Chair {number}", price="£ 40"), spider)
    extension.spider_closed(spider, "finished")
    assert crawler.stats.get_value("rlm_gym/invalid_share/price") == 0.0
    assert crawler.stats.get_value("rlm_gym/tier") == "excellent"


def test_long_crawl_is_scored_on_a_bounded_sample(caplog):
    extension, crawler, spider = _extension(
        RLM_GYM_SAMPLE_SIZE=50, RLM_GYM_REQUIRED_FIELDS="name,price,rating"
    )
    for number in range(2000):
        extension.item_scraped(product("ratings10", number), spider)
    with caplog.at_level(logging.INFO, logger="rlm_gym.integrations.scrapy"):
        extension.spider_closed(spider, "finished")
    stats = crawler.stats
    assert len(extension.sample) == stats.get_value("rlm_gym/scored_items") == 50
    assert stats.get_value("rlm_gym/items") == 2000
    assert 1000 < stats.get_value("rlm_gym/distinct_items") < 4000  # KMV, 50 keys: about ±15 %
    assert stats.get_value("rlm_gym/invalid_share/rating") == 1.0
    assert "scored a uniform sample of 50 of about" in caplog.text


def test_spider_idle_below_min_tier_raises_close_spider():
    extension, _, spider = _extension(RLM_GYM_MIN_TIER="good")
    extension.item_scraped({"name": "N/A"}, spider)
    with pytest.raises(CloseSpider) as closing:
        extension.spider_idle(spider)
    assert closing.value.reason == CLOSE_REASON


def test_required_field_in_no_item_is_named(caplog):
    extension, _, spider = _extension(RLM_GYM_REQUIRED_FIELDS="name,prize")
    for number in range(6):
        extension.item_scraped({"name": f"Chair {number}", "price": "£ 40"}, spider)
    with caplog.at_level(logging.INFO, logger="rlm_gym.integrations.scrapy"):
        extension.spider_closed(spider, "finished")
    assert 'RLM_GYM_REQUIRED_FIELDS in no item: "prize"' in caplog.text
    assert caplog.records[-1].levelno == logging.WARNING


@pytest.mark.parametrize(
    ("reason", "success"),
    [
        ("finished", 0.25),
        ("closespider_itemcount", 0.25),
        ("shutdown", 0.0),
        ("closespider_errorcount", 0.0),
    ],
)
def test_the_finish_reason_decides_success(reason, success):
    extension, crawler, spider = _extension()
    for number in range(6):
        extension.item_scraped({"name": f"Chair {number}", "price": "£ 40"}, spider)
    extension.spider_closed(spider, reason)
    assert crawler.stats.get_value("rlm_gym/components/success") == success
