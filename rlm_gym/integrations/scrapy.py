"""The crawl reward inside Scrapy: every job scored, with no schema to write.

Enable it in a project's ``settings.py`` (or a spider's ``custom_settings``)::

    EXTENSIONS = {"rlm_gym.integrations.scrapy.CrawlRewardExtension": 500}
    RLM_GYM_ENABLED = True
    RLM_GYM_REQUIRED_FIELDS = ["name", "price"]  # optional: none judges each item's own fields
    RLM_GYM_MIN_TIER = "good"                    # optional: close the job below it

:class:`CrawlRewardExtension` collects the items the spider yields (``item_scraped``: the items
that passed the pipelines, as the feed exports write them) and, when the spider closes, scores
them as ``rlm-gym score`` scores the spider's feed: :func:`rlm_gym.crawl.crawl_reward` through
:func:`rlm_gym.crawl.batch.iter_scores`. The crawl's metadata comes from Scrapy itself: pages
are ``response_received_count``; errors are the downloader's 5xx responses and download
exceptions (``downloader/response_status_count/5xx`` and ``downloader/exception_count``, retried
attempts included: each cost the site a request and the crawl its time); the time runs from
``spider_opened``; the crawl succeeded when it closed as ``finished`` or at a limit the
operator set (:data:`SUCCESSFUL_REASONS`).

It writes into the crawl stats (see :data:`STATS_PREFIX`): ``rlm_gym/value``, ``rlm_gym/tier``,
``rlm_gym/bucket``, ``rlm_gym/pattern_type``, ``rlm_gym/components/<name>``,
``rlm_gym/invalid_share/<field>`` (the share of a field's checked values that fail their check),
``rlm_gym/valid_share``, ``rlm_gym/defects`` (readable strings), the counts ``rlm_gym/items``,
``rlm_gym/distinct_items``, ``rlm_gym/scored_items``, and the metadata it scored
(``rlm_gym/pages``, ``rlm_gym/errors``, ``rlm_gym/execution_time_ms``); and it logs the report
of ``rlm-gym score --explain``. With ``RLM_GYM_MIN_TIER`` set it scores when the spider goes
idle, and a lower tier closes the job with reason :data:`CLOSE_REASON`
(``finish_reason`` in the stats).

**Memory.** No item is kept as Scrapy gave it. Each is serialised once (Scrapy's JSON encoder,
keys sorted) and counted in an :class:`~rlm_gym.crawl.item_sample.ItemSample`, which keeps the
JSON text of at most ``RLM_GYM_SAMPLE_SIZE`` distinct items (a uniform bottom-k sample of the
distinct items, each with its exact count) and the number of items seen. A crawl with at most
that many distinct items is scored exactly; a longer one is scored on the sample (validation,
valid share, per-field shares and defects are then estimates with sampling error about
``1 / sqrt(RLM_GYM_SAMPLE_SIZE)``, and the log says so). Memory is bounded by the sample size,
not the crawl's length (``benchmarks/scrapy_memory.py``).

Scrapy is imported here only: ``import rlm_gym`` does not load this module.
"""

from __future__ import annotations

import json
import logging
import time
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import CloseSpider, NotConfigured
from scrapy.utils.serialize import ScrapyJSONEncoder

from rlm_gym.crawl.batch import explain_lines, iter_scores
from rlm_gym.crawl.item_sample import ItemSample
from rlm_gym.crawl.patterns import TIERS
from rlm_gym.crawl.policy import CrawlRewardPolicy
from rlm_gym.crawl.readers import crawl_result_from_items
from rlm_gym.integrations.scrapy_settings import ExtensionOptions, read_options

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

__all__ = ["CLOSE_REASON", "STATS_PREFIX", "SUCCESSFUL_REASONS", "CrawlRewardExtension"]

STATS_PREFIX = "rlm_gym/"
CLOSE_REASON = "rlm_gym_below_min_tier"
"""The finish reason of a job closed because its tier was below ``RLM_GYM_MIN_TIER``."""

SUCCESSFUL_REASONS = frozenset(
    {
        "finished",
        CLOSE_REASON,  # scored as the finished crawl it was when it went idle
        # the limits an operator sets on purpose: the job did what it was asked
        "closespider_itemcount",
        "closespider_pagecount",
        "closespider_timeout",
    }
)
"""Finish reasons whose crawl counts as a success; any other (``shutdown``, ``cancelled``,
``closespider_errorcount``, ``closespider_timeout_no_item``, ...) scores ``success`` 0."""

# The rows handed to the scorer when the sample's duplicates are many (a spider yielding the
# same items a million times): their repeats are scaled down to this many rows per kept item.
_ROWS_PER_KEPT_ITEM = 10

logger = logging.getLogger(__name__)


class _ItemEncoder(ScrapyJSONEncoder):
    """Scrapy's feed JSON (items, dates, decimals, sets), and ``repr`` for anything else: an
    item the feed could not write is still counted rather than failing the signal handler."""

    def default(self, o: Any) -> Any:
        try:
            return super().default(o)
        except TypeError:
            return repr(o)


def _tier_rank(tier: str) -> int:
    return len(TIERS) - TIERS.index(tier)  # poor 1 ... excellent 4


class CrawlRewardExtension:
    """Scores a spider's items with the crawl reward when it closes (a Scrapy extension).

    Args:
        crawler: The crawler whose stats it writes and whose signals it connects to.
        options: The checked ``RLM_GYM_*`` settings (see
            :data:`~rlm_gym.integrations.scrapy_settings.SETTINGS`).

    Raises:
        NotConfigured: From :meth:`from_crawler` when ``RLM_GYM_ENABLED`` is false.
        ValueError: From :meth:`from_crawler` when an ``RLM_GYM_*`` setting is invalid.

    Example:
        >>> from scrapy import Spider
        >>> from scrapy.utils.test import get_crawler
        >>> crawler = get_crawler(Spider, {"RLM_GYM_ENABLED": True})
        >>> extension = CrawlRewardExtension.from_crawler(crawler)
        >>> spider = Spider("shop")
        >>> extension.spider_opened(spider)
        >>> for n in range(12):
        ...     extension.item_scraped({"name": f"Sofa {n}", "price": "$ 120"}, spider)
        >>> extension.spider_closed(spider, "finished")
        >>> crawler.stats.get_value("rlm_gym/tier"), crawler.stats.get_value("rlm_gym/items")
        ('excellent', 12)
        >>> crawler.stats.get_value("rlm_gym/invalid_share/price")
        0.0
    """

    def __init__(self, crawler: Crawler, options: ExtensionOptions):
        self.crawler = crawler
        self.options = options
        self.policy = CrawlRewardPolicy(options.config)
        encoder = _ItemEncoder(sort_keys=True, ensure_ascii=False)
        self.sample = ItemSample(options.sample_size, encode=encoder.encode)
        self.row: dict[str, Any] | None = None
        """The last score: a row of :func:`~rlm_gym.crawl.batch.iter_scores` (None before)."""
        self.scored: dict[str, Any] = {}
        """The metadata of the last score: ``pages``, ``errors``, ``execution_time_ms``, and
        ``missing`` (required fields no scored item has)."""
        self._started: float | None = None
        self._scored_state: tuple[int, int, int] | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlRewardExtension:
        """Build the extension from the crawler's settings and connect it to its signals."""
        options = read_options(crawler.settings)
        if not options.enabled:
            raise NotConfigured
        extension = cls(crawler, options)
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.item_scraped, signal=signals.item_scraped)
        if options.min_tier is not None:
            crawler.signals.connect(extension.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    # --- signal handlers --------------------------------------------------------------------

    def spider_opened(self, spider: Spider) -> None:
        """Start the crawl's clock."""
        self._started = time.monotonic()

    def item_scraped(self, item: Any, spider: Spider) -> None:
        """Count one item (and keep its JSON text if it falls in the sample)."""
        self.sample.add(item)

    def spider_idle(self, spider: Spider) -> None:
        """Score the finished crawl; below ``RLM_GYM_MIN_TIER``, close it with
        :data:`CLOSE_REASON` (raising ``CloseSpider``, Scrapy's way to give the reason).

        A spider kept alive on idle by another component (its ``DontCloseSpider`` wins) is
        scored again at its next idle only if items, pages or errors came since."""
        row = self.score(spider, success=True)
        if not self._meets_min_tier(row):
            raise CloseSpider(CLOSE_REASON)

    def spider_closed(self, spider: Spider, reason: str) -> None:
        """Score the crawl (the idle score when nothing changed since), write the stats and
        log the report."""
        row = self.score(spider, success=reason in SUCCESSFUL_REASONS)
        self.write_stats(row)
        self._log_report(spider, row, reason)

    # --- scoring ------------------------------------------------------------------------------

    def _stat(self, key: str) -> int:
        return int(self.crawler.stats.get_value(key, 0) or 0)

    def _errors(self) -> int:
        server_errors = sum(
            int(count or 0)
            for key, count in self.crawler.stats.get_stats().items()
            if key.startswith("downloader/response_status_count/5")
        )
        return server_errors + self._stat("downloader/exception_count")

    def _domain(self, spider: Spider) -> str:
        allowed = getattr(spider, "allowed_domains", None) or ()
        return self.options.domain or (allowed[0] if allowed else spider.name)

    def score(self, spider: Spider, success: bool) -> dict[str, Any]:
        """Score the crawl so far (the previous score when no item, page or error came since):
        the kept items, or the sample, with Scrapy's pages, errors and time.

        Returns:
            The scored row (``reward``, ``tier``, ``bucket``, ``pattern_type``,
            ``components``, ``details``), also kept as :attr:`row`.
        """
        pages, errors = self._stat("response_received_count"), self._errors()
        state = (self.sample.seen, pages, errors)
        if self.row is not None and state == self._scored_state:
            return self.row
        elapsed_ms = 0.0 if self._started is None else 1000.0 * (time.monotonic() - self._started)
        data = self.sample.rows(_ROWS_PER_KEPT_ITEM * self.options.sample_size)
        result = crawl_result_from_items(
            data,
            self.options.required_fields,
            pages=pages,
            execution_time_ms=elapsed_ms,
            pattern_type=self.options.pattern_type,
            domain=self._domain(spider),
            strategy="scrapy",
        )
        result["success"] = success
        result["errors"] = ["download error or 5xx response"] * errors
        ((_, _, row),) = iter_scores([(1, result)], self.policy)
        if isinstance(row, str):  # the result built above is always valid: a bug if not
            raise RuntimeError(f"rlm_gym could not score the crawl: {row}")
        present = {key for item in data if isinstance(item, dict) for key in item}
        self.row, self._scored_state = row, state
        self.scored = {
            "pages": pages,
            "errors": errors,
            "execution_time_ms": elapsed_ms,
            "missing": [name for name in self.options.required_fields if name not in present],
        }
        return row

    def _meets_min_tier(self, row: dict[str, Any]) -> bool:
        minimum = self.options.min_tier
        return minimum is None or _tier_rank(row["tier"]) >= _tier_rank(minimum)

    def write_stats(self, row: dict[str, Any]) -> None:
        """Write a score into the crawl stats (the keys of the module docstring)."""
        details = row["details"]
        values: dict[str, Any] = {
            "value": row["reward"],
            "tier": row["tier"],
            "bucket": row["bucket"],
            "pattern_type": row["pattern_type"],
            "valid_share": details.get("valid_share"),
            "defects": list(details.get("defects") or ()),
            "items": self.sample.seen,
            "distinct_items": round(self.sample.distinct()),
            "scored_items": len(self.sample),
            "pages": self.scored["pages"],
            "errors": self.scored["errors"],
            "execution_time_ms": self.scored["execution_time_ms"],
        }
        for name, value in row["components"].items():
            values[f"components/{name}"] = value
        for name, info in (details.get("fields") or {}).items():
            if info.get("checked"):
                values[f"invalid_share/{name}"] = info["invalid"] / info["checked"]
        if self.options.min_tier is not None:
            values["min_tier"] = self.options.min_tier
            values["min_tier_met"] = self._meets_min_tier(row)
        stats = self.crawler.stats
        for key, value in values.items():
            stats.set_value(STATS_PREFIX + key, value)

    def report(self, row: dict[str, Any], reason: str = "finished") -> list[str]:
        """The lines logged for a score: the value, tier and components, then the report of
        ``rlm-gym score --explain`` (with ``RLM_GYM_EXPLAIN``), the sample and the minimum
        tier when they apply."""
        lines = [
            f"Crawl reward {row['reward']:.4f}: tier {row['tier']}, {row['pattern_type']}, "
            f"bucket {row['bucket']} ({self.sample.seen} items, {self.scored['pages']} pages, "
            f"{self.scored['errors']} errors)",
            "  " + ", ".join(f"{name} {value:+.4f}" for name, value in row["components"].items()),
        ]
        if not self.sample.complete:
            lines.append(
                f"  scored a uniform sample of {len(self.sample)} of about "
                f"{self.sample.distinct():.0f} distinct items (RLM_GYM_SAMPLE_SIZE): the shares "
                "below are estimates"
            )
        if self.options.explain:
            lines += [f"  {line}".rstrip() for line in explain_lines(row["details"])]
        if self.scored["missing"]:
            names = ", ".join(json.dumps(name) for name in self.scored["missing"])
            lines.append(f"  RLM_GYM_REQUIRED_FIELDS in no item: {names}")
        if not self._meets_min_tier(row):
            closed = (
                f"closed with reason {CLOSE_REASON!r}"
                if reason == CLOSE_REASON
                else f"closed for {reason!r} before the tier could close it"
            )
            lines.append(
                f"  tier {row['tier']} is below RLM_GYM_MIN_TIER {self.options.min_tier!r}: "
                f"the job {closed}"
            )
        return lines

    def _log_report(self, spider: Spider, row: dict[str, Any], reason: str) -> None:
        level = logging.INFO
        if self.scored["missing"]:
            level = logging.WARNING
        if not self._meets_min_tier(row):
            level = logging.ERROR
        logger.log(level, "\n".join(self.report(row, reason)), extra={"spider": spider})
