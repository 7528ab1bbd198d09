"""The live crawl: generated sites on a local HTTP server and ``rlm_gym/CrawlLive-v0``.

``SiteFarm`` serves the sites (aiohttp on 127.0.0.1); ``CrawlLiveEnv`` crawls one per episode
with real requests and real extraction. Both need the ``live`` extra
(``pip install -e ".[live]"``) and load it on first access, so ``import rlm_gym.live`` costs
nothing.

Example:
    >>> from rlm_gym.live import SiteFarm
    >>> with SiteFarm(seed=0, time_scale=0.001) as farm:
    ...     farm.site_url(12) == farm.url + "/s/12/"
    True
"""

from __future__ import annotations

from typing import Any

from rlm_gym._extras import install_command

__all__ = ["SiteFarm", "CrawlLiveEnv", "DEFAULT_TIME_SCALE", "make_site", "page_truth"]

_LAZY = {
    "SiteFarm": "rlm_gym.live.farm",
    "CrawlLiveEnv": "rlm_gym.live.env",
    "DEFAULT_TIME_SCALE": "rlm_gym.live.sites",
    "make_site": "rlm_gym.live.sites",
    "page_truth": "rlm_gym.live.sites",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    try:
        return getattr(importlib.import_module(module), name)
    except ImportError as error:
        if error.name and error.name.split(".")[0] in ("aiohttp", "parsel", "urllib3"):
            raise ImportError(
                f"rlm_gym.live.{name} needs the `live` extra ({error.name} is not installed): "
                f"{install_command('live')}"
            ) from None
        raise
