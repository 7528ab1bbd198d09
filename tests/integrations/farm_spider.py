"""A spider for the listings of the site farm (``rlm_gym.live.SiteFarm``), as a user writes one.

The farm's listings come in two layouts: item cards (``div.item``, one ``.f-<field>`` element a
field) and tables (``table.listing``, one ``td.<field>`` cell a field). The spider reads each
field's element: its ``data-value`` attribute where the site keeps the value there (lazily
loaded values show a placeholder as text until a browser fills them in), else its text. It
follows the pagination links (numbered or next links); page 1 is reached twice (the site's
root and its ``?page=1`` link), so a pipeline drops items seen before, as in Scrapy's
documentation.

Run as a script (``python farm_spider.py START_URL FIELDS SETTINGS_JSON OUT_DIR``, ``FIELDS``
comma-separated) it crawls in its own process (a Twisted reactor cannot restart in the test
process) and writes the crawl's stats to ``OUT_DIR/stats.json`` and its log to
``OUT_DIR/crawl.log``.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.exceptions import DropItem


class DropDuplicates:
    """Drop an item equal to one yielded before (an item pipeline; ``spider`` is optional, as
    Scrapy >= 2.13 no longer passes it)."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def process_item(self, item: dict[str, Any], spider: Any = None) -> dict[str, Any]:
        key = json.dumps(item, sort_keys=True)
        if key in self.seen:
            raise DropItem("duplicate item")
        self.seen.add(key)
        return item


class FarmListingSpider(scrapy.Spider):
    name = "farm_listing"
    allowed_domains = ["127.0.0.1"]
    custom_settings = {"ITEM_PIPELINES": {DropDuplicates: 100}}

    def __init__(self, start_url: str, fields: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.start_urls = [start_url]
        self.fields = fields.split(",")

    def parse(self, response: scrapy.http.Response) -> Any:
        rows = response.css("div.items > div.item") or response.css("table.listing tr")
        for row in rows:
            item = {}
            for field in self.fields:
                cell = row.css(f".f-{field}, td.{field}")
                item[field] = cell.attrib.get("data-value") or cell.css("::text").get()
            if any(value is not None for value in item.values()):  # not the header row
                yield item
        yield from response.follow_all(css="nav.pagination a[href]", callback=self.parse)


def main(start_url: str, fields: str, settings_json: str, out_dir: str) -> None:
    settings = {
        "LOG_FILE": os.path.join(out_dir, "crawl.log"),
        "LOG_LEVEL": "INFO",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "DOWNLOAD_TIMEOUT": 10,
        "CLOSESPIDER_TIMEOUT": 60,  # a bound on the whole crawl, whatever goes wrong
        **json.loads(settings_json),
    }
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(FarmListingSpider)
    process.crawl(crawler, start_url=start_url, fields=fields)
    process.start()
    with open(os.path.join(out_dir, "stats.json"), "w", encoding="utf-8") as out:
        json.dump(crawler.stats.get_stats(), out, default=str)


if __name__ == "__main__":
    main(*sys.argv[1:])
