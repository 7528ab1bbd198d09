"""The spider the Scrapy tests run: product cards of a listing, following its next link.

Run as a script (``python shop_spider.py START_URL SETTINGS_JSON OUT_DIR``) it crawls in its
own process (a Twisted reactor cannot restart in the test process) and writes the crawl's
stats to ``OUT_DIR/stats.json`` and its log to ``OUT_DIR/crawl.log``.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import scrapy
from scrapy.crawler import CrawlerProcess


class ShopSpider(scrapy.Spider):
    name = "shop"
    allowed_domains = ["127.0.0.1"]

    def __init__(self, start_url: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.start_urls = [start_url]

    def parse(self, response: scrapy.http.Response) -> Any:
        for card in response.css("div.product"):
            yield {
                "name": card.css("h2.name::text").get(),
                "price": card.css("span.price::text").get(),
                "rating": card.css("span.rating::text").get(),
            }
        following = response.css("a.next::attr(href)").get()
        if following:
            yield response.follow(following, callback=self.parse)


def main(start_url: str, settings_json: str, out_dir: str) -> None:
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
    crawler = process.create_crawler(ShopSpider)
    process.crawl(crawler, start_url=start_url)
    process.start()
    with open(os.path.join(out_dir, "stats.json"), "w", encoding="utf-8") as out:
        json.dump(crawler.stats.get_stats(), out, default=str)


if __name__ == "__main__":
    main(*sys.argv[1:])
