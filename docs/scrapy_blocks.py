"""The generated blocks of the Scrapy extension's section (``docs/crawl-reward.md``).

* ``scrapy_settings``: the ``RLM_GYM_*`` settings, from
  :data:`rlm_gym.integrations.scrapy_settings.SETTINGS`;
* ``scrapy_stats``: the stats and log record the extension writes for a small crawl, from
  running it (its handlers fed directly: deterministic, no network);
* ``scrapy_memory``: ``benchmarks/scrapy_memory.py``'s figures, from ``benchmarks/results.json``.
"""

from __future__ import annotations

import sys
from typing import Any

from block_tools import BENCHMARKS, ROOT, read_json, table

sys.path.insert(0, str(ROOT / "benchmarks"))
from scrapy_memory import handler_cells  # the benchmark's own row of the table

__all__ = ["scrapy_memory", "scrapy_settings", "scrapy_stats"]

# The example crawl: two listing pages of a shop whose ratings come out x10 ("45" for 4.5).
_EXAMPLE_PAGES = 2
_WOODS, _THINGS = ("Oak", "Pine", "Teak", "Ash"), ("chair", "desk", "bed")
_EXAMPLE_ITEMS = [
    {
        "name": f"{_WOODS[number // 3]} {_THINGS[number % 3]}",
        "price": f"£{40 + 15 * number}.00",
        "rating": str(30 + 5 * (number % 4)),
    }
    for number in range(12)
]


def _value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".") if value % 1 else f"{value:.1f}"
    return repr(value)


def scrapy_settings() -> str:
    """The settings table: name, default, meaning."""
    from rlm_gym.integrations.scrapy_settings import SETTINGS

    rows = [
        [f"`{name}`", f"`{default!r}`", meaning] for name, (default, meaning) in SETTINGS.items()
    ]
    return table(["setting", "default", "meaning"], rows)


def scrapy_stats() -> str:
    """The ``rlm_gym/`` stats and the log record of the example crawl."""
    from scrapy import Spider
    from scrapy.utils.test import get_crawler

    from rlm_gym.integrations.scrapy import STATS_PREFIX, CrawlRewardExtension

    settings = {"RLM_GYM_ENABLED": True, "RLM_GYM_REQUIRED_FIELDS": ["name", "price", "rating"]}
    crawler = get_crawler(Spider, settings)
    extension = CrawlRewardExtension.from_crawler(crawler)
    spider = Spider("shop")
    # No spider_opened: the crawl's clock stays at 0 ms, so the page is the same on every run.
    crawler.stats.set_value("response_received_count", _EXAMPLE_PAGES)
    for item in _EXAMPLE_ITEMS:
        extension.item_scraped(item, spider)
    row = extension.score(spider, success=True)
    extension.write_stats(row)
    lines = [
        f"{key}: {_value(value)}"
        for key, value in crawler.stats.get_stats().items()
        if key.startswith(STATS_PREFIX)
    ]
    report = extension.report(row)
    return (
        "```text\n"
        + "\n".join(lines)
        + "\n```\n\nand logs (`INFO`, or `ERROR` below `RLM_GYM_MIN_TIER`):\n\n```text\n"
        + "\n".join(report)
        + "\n```\n"
    )


def scrapy_memory() -> str:
    """Peak memory at 10 000 and 100 000 items, and the ratios."""
    data = read_json(BENCHMARKS).get("scrapy_memory")
    if data is None:
        return "_not measured yet: run `python benchmarks/scrapy_memory.py`_\n"
    handlers = data["handlers"]
    rows = [handler_cells(size, row) for size, row in handlers.items()]
    ratios = data["ratios_100k_vs_10k"]
    rows.append(
        [
            "100k / 10k",
            f"{ratios['feed_peak_mb']:.2f}x",
            f"{ratios['close_peak_mb']:.2f}x",
            f"{ratios['rss_growth_mb']:.2f}x",
            "",
            "",
            f"{ratios['keep_all_peak_mb']:.2f}x",
        ]
    )
    text = table(
        [
            "items",
            "peak while collecting (MB)",
            "peak while scoring (MB)",
            "RSS growth (MB)",
            "µs / item",
            "scoring (s)",
            "every item kept and scored (MB)",
        ],
        rows,
    )
    spider = data.get("spider")
    if spider:
        text += "\n" + table(
            ["items crawled", "tier", "crawl peak RSS (MB)", "extension off (MB)", "difference"],
            [
                [
                    f"{row['items']:,}",
                    row["tier"],
                    f"{row['peak_rss_mb_enabled']:.1f}",
                    f"{row['peak_rss_mb_disabled']:.1f}",
                    f"{row['extension_rss_mb']:+.1f}",
                ]
                for row in spider.values()
            ],
        )
    return text
