"""Glue to the tools the crawl reward's users already run, each behind its optional extra.

* :mod:`rlm_gym.integrations.scrapy` — ``CrawlRewardExtension``, the crawl reward as a Scrapy
  extension (``pip install -e ".[scrapy]"``).

Nothing here is imported by ``import rlm_gym``: each module imports its library itself.
"""

from __future__ import annotations

__all__: list[str] = []
