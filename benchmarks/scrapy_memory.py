"""Memory of the crawl-reward Scrapy extension on long crawls: flat from 10 000 to 100 000 items.

Two measurements, each size in a fresh interpreter (peak RSS is a process's high-water mark):

* **handlers**: the extension built from Scrapy settings (default ``RLM_GYM_SAMPLE_SIZE``) is
  fed N distinct product items through its ``item_scraped`` handler, then ``spider_closed``
  scores them and writes the stats. Reported: the peak of traced Python allocations
  (``tracemalloc``) while feeding and while scoring, the growth of the process's peak RSS over
  its size after setup, and the CPU time per item. Beside it, the same items kept in a list
  and scored whole with ``crawl_reward`` (what an extension that keeps every item holds).
* **spider** (``--spider``, on by default): a real Scrapy spider crawls N items from listing
  pages served on 127.0.0.1, with the extension enabled and disabled; reported: the crawl
  process's peak RSS and the extension's share of it (enabled minus disabled).

The goal: the 100 000-item figures within 1.25x of the 10 000-item ones (flat), while keeping
every item grows about 10x.

Run: ``.venv/bin/python benchmarks/scrapy_memory.py [--no-spider]``
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import subprocess
import sys
import threading
import tracemalloc
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import clock, print_table, save_results

SIZES = (10_000, 100_000)
FLAT_RATIO = 1.25  # 100k vs 10k: what "flat" allows (10x the items)
PER_PAGE = 100
_WOODS = ("Oak", "Walnut", "Pine", "Birch", "Teak", "Maple", "Ash", "Cherry")
_THINGS = ("chair", "table", "shelf", "desk", "stool", "bench", "cabinet", "bed")


def product(number: int) -> dict[str, str]:
    """A distinct product item of a furniture shop (1 in 20 with a placeholder price)."""
    return {
        "name": f"{_WOODS[number % 8]} {_THINGS[number // 8 % 8]} no. {number}",
        "price": "N/A" if number % 20 == 0 else f"£{40 + 7 * number % 900}.{number % 100:02d}",
        "rating": f"{1 + number % 9 * 0.5:.1f}",
        "url": f"/products/{number}",
        "description": f"Solid {_WOODS[number % 8].lower()} {_THINGS[number // 8 % 8]}, "
        f"hand-finished, {number % 5 + 1} year warranty.",
    }


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # Linux: KB


# --- handlers fed directly (one size per interpreter) -----------------------------------------


def _extension() -> tuple[Any, Any, Any]:
    from scrapy import Spider
    from scrapy.utils.test import get_crawler

    from rlm_gym.integrations.scrapy import CrawlRewardExtension

    crawler = get_crawler(Spider, {"RLM_GYM_ENABLED": True, "LOG_LEVEL": "WARNING"})
    extension = CrawlRewardExtension.from_crawler(crawler)
    spider = Spider("shop")
    extension.spider_opened(spider)
    return extension, crawler, spider


def feed_worker(size: int, traced: bool) -> dict[str, Any]:
    """Feed ``size`` items through the handlers; traced: tracemalloc peaks, else RSS and time."""
    import logging

    logging.getLogger("rlm_gym.integrations.scrapy").setLevel(logging.WARNING)
    extension, crawler, spider = _extension()
    product(0)  # warm the formatting paths before the baseline
    if traced:
        tracemalloc.start()
        for number in range(size):
            extension.item_scraped(product(number), spider)
        feed_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        extension.spider_closed(spider, "finished")
        close_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return {"feed_peak_mb": feed_peak / 2**20, "close_peak_mb": close_peak / 2**20}
    baseline = _peak_rss_mb()
    started = clock()
    for number in range(size):
        extension.item_scraped(product(number), spider)
    fed = clock()
    extension.spider_closed(spider, "finished")
    closed = clock()
    stats = crawler.stats
    return {
        "rss_growth_mb": _peak_rss_mb() - baseline,
        "us_per_item": (fed - started) / size * 1e6,
        "close_s": closed - fed,
        "kept": stats.get_value("rlm_gym/scored_items"),
        "distinct_estimate": stats.get_value("rlm_gym/distinct_items"),
        "value": stats.get_value("rlm_gym/value"),
        "invalid_share_price": stats.get_value("rlm_gym/invalid_share/price"),
    }


def keep_all_worker(size: int) -> dict[str, Any]:
    """Keep every item in a list and score it whole: traced peak."""
    from rlm_gym.crawl import crawl_reward
    from rlm_gym.crawl.readers import crawl_result_from_items

    tracemalloc.start()
    items = [product(number) for number in range(size)]
    crawl_reward(crawl_result_from_items(items))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"keep_all_peak_mb": peak / 2**20}


# --- a real spider on a local shop ------------------------------------------------------------


class _Shop(BaseHTTPRequestHandler):
    """``/page/<n>?last=<m>``: PER_PAGE product cards and a next link up to page m."""

    def do_GET(self) -> None:
        path, _, query = self.path.partition("?")
        page, last = int(path.rsplit("/", 1)[1]), int(query.removeprefix("last="))
        cards = "".join(
            f'<div class="p"><h2>{item["name"]}</h2><b>{item["price"]}</b>'
            f'<i>{item["rating"]}</i><a href="{item["url"]}">{item["description"]}</a></div>'
            for item in map(product, range((page - 1) * PER_PAGE, page * PER_PAGE))
        )
        following = f'<a class="next" href="/page/{page + 1}?last={last}">next</a>'
        body = f"<html><body>{cards}{following if page < last else ''}</body></html>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


def handler_cells(size: int | str, row: dict[str, Any]) -> list[str]:
    """One size's row of the handler table, as this script and the docs block print it."""
    return [
        f"{int(size):,}",
        f"{row['feed_peak_mb']:.1f}",
        f"{row['close_peak_mb']:.1f}",
        f"{row['rss_growth_mb']:.1f}",
        f"{row['us_per_item']:.1f}",
        f"{row['close_s']:.2f}",
        f"{row['keep_all_peak_mb']:.1f}",
    ]


@contextlib.contextmanager
def _serve_shop() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Shop)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def spider_worker(url: str, enabled: bool) -> dict[str, Any]:
    """Crawl the shop from ``url`` with a real spider; the process's peak RSS."""
    import scrapy
    from scrapy.crawler import CrawlerProcess

    class ShopSpider(scrapy.Spider):
        name = "shop"
        start_urls = [url]

        def parse(self, response: Any) -> Any:
            for card in response.css("div.p"):
                yield {
                    "name": card.css("h2::text").get(),
                    "price": card.css("b::text").get(),
                    "rating": card.css("i::text").get(),
                    "url": card.css("a::attr(href)").get(),
                    "description": card.css("a::text").get(),
                }
            following = response.css("a.next::attr(href)").get()
            if following:
                yield response.follow(following, callback=self.parse)

    settings = {
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "CONCURRENT_REQUESTS": 4,
        "CLOSESPIDER_TIMEOUT": 600,
        "EXTENSIONS": {"rlm_gym.integrations.scrapy.CrawlRewardExtension": 500},
        "RLM_GYM_ENABLED": enabled,
    }
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(ShopSpider)
    process.crawl(crawler)
    started = clock()
    process.start()
    stats = crawler.stats
    return {
        "peak_rss_mb": _peak_rss_mb(),
        "items": stats.get_value("item_scraped_count"),
        "cpu_s": clock() - started,
        "tier": stats.get_value("rlm_gym/tier"),
    }


# --- driver -----------------------------------------------------------------------------------


def _run_worker(*arguments: str) -> dict[str, Any]:
    output = subprocess.run(
        [sys.executable, __file__, "--worker", *arguments],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


def _ratio(rows: dict[int, dict[str, Any]], key: str) -> float:
    small, large = rows[SIZES[0]][key], rows[SIZES[-1]][key]
    return large / small if small > 0 else float("inf")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--no-spider", action="store_true", help="skip the real spider runs")
    args = parser.parse_args(argv)
    if args.worker:
        kind, *rest = args.worker
        if kind == "feed":
            result = feed_worker(int(rest[0]), rest[1] == "traced")
        elif kind == "keep_all":
            result = keep_all_worker(int(rest[0]))
        else:
            result = spider_worker(rest[0], rest[1] == "on")
        print(json.dumps(result))
        return result

    handlers: dict[int, dict[str, Any]] = {}
    for size in SIZES:
        handlers[size] = {
            **_run_worker("feed", str(size), "traced"),
            **_run_worker("feed", str(size), "timed"),
            **_run_worker("keep_all", str(size)),
        }
    print("extension fed N distinct items through item_scraped, then spider_closed")
    headers = ["items", "feed peak MB", "close peak MB", "RSS growth MB", "us/item", "close s"]
    print_table(
        [*headers, "keep-all peak MB"],
        [handler_cells(size, row) for size, row in handlers.items()],
    )
    ratios = {
        key: _ratio(handlers, key)
        for key in ("feed_peak_mb", "close_peak_mb", "rss_growth_mb", "keep_all_peak_mb")
    }
    print(
        f"100k vs 10k: feed peak {ratios['feed_peak_mb']:.2f}x, close peak "
        f"{ratios['close_peak_mb']:.2f}x, RSS growth {ratios['rss_growth_mb']:.2f}x "
        f"(flat: <= {FLAT_RATIO}x); keeping every item: {ratios['keep_all_peak_mb']:.2f}x"
    )
    payload: dict[str, Any] = {
        "handlers": {str(size): row for size, row in handlers.items()},
        "ratios_100k_vs_10k": ratios,
        "flat_goal": FLAT_RATIO,
        "flat": max(ratios["feed_peak_mb"], ratios["close_peak_mb"]) <= FLAT_RATIO,
    }

    if not args.no_spider:
        spider: dict[int, dict[str, Any]] = {}
        with _serve_shop() as base_url:
            for size in SIZES:
                url = f"{base_url}/page/1?last={size // PER_PAGE}"
                on, off = _run_worker("spider", url, "on"), _run_worker("spider", url, "off")
                spider[size] = {
                    "items": on["items"],
                    "tier": on["tier"],
                    "peak_rss_mb_enabled": on["peak_rss_mb"],
                    "peak_rss_mb_disabled": off["peak_rss_mb"],
                    "extension_rss_mb": on["peak_rss_mb"] - off["peak_rss_mb"],
                    "cpu_s_enabled": on["cpu_s"],
                    "cpu_s_disabled": off["cpu_s"],
                }
        print("\na real spider crawling N items from 127.0.0.1 (peak RSS of the crawl process)")
        print_table(
            ["items", "tier", "RSS on MB", "RSS off MB", "extension MB", "CPU on s", "CPU off s"],
            [
                [
                    f"{row['items']:,}",
                    row["tier"],
                    f"{row['peak_rss_mb_enabled']:.1f}",
                    f"{row['peak_rss_mb_disabled']:.1f}",
                    f"{row['extension_rss_mb']:.1f}",
                    f"{row['cpu_s_enabled']:.1f}",
                    f"{row['cpu_s_disabled']:.1f}",
                ]
                for row in spider.values()
            ],
        )
        payload["spider"] = {str(size): row for size, row in spider.items()}
        payload["spider_rss_ratio_100k_vs_10k"] = (
            spider[SIZES[-1]]["peak_rss_mb_enabled"] / spider[SIZES[0]]["peak_rss_mb_enabled"]
        )
        print(f"crawl peak RSS 100k vs 10k: {payload['spider_rss_ratio_100k_vs_10k']:.2f}x")

    save_results("scrapy_memory", payload)
    return payload


if __name__ == "__main__":
    main()
