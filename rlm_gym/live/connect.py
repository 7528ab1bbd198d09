"""The live env's connection to a farm: its own arguments checked, a farm's settings read.

``farm_settings`` asks a running farm (``rlm-gym farm serve``) what it serves (``/_farm``) and
checks it against what the env asks for, so a mismatch is one clear error at ``reset`` rather
than sites that silently differ from the env's pattern types or overrides.
"""

from __future__ import annotations

import json
from typing import Any

from rlm_gym.live.client import Crawler

__all__ = ["check_options", "farm_settings"]


def check_options(time_scale: Any, timeout_s: Any, retries: Any, farm_url: Any) -> dict[str, Any]:
    """Validate the live env's own arguments; returns them as a dict."""
    for name, value in (("time_scale", time_scale), ("timeout_s", timeout_s)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise ValueError(f"Expected `{name}` to be a number > 0 or None, got {value!r}")
    if time_scale is not None and time_scale > 10:
        raise ValueError(f"Expected `time_scale` in (0, 10], got {time_scale!r}")
    if isinstance(retries, bool) or not isinstance(retries, int) or not 0 <= retries <= 10:
        raise ValueError(f"Expected `retries` to be an int in [0, 10], got {retries!r}")
    if farm_url is not None and (
        not isinstance(farm_url, str) or not farm_url.startswith(("http://", "https://"))
    ):
        raise ValueError(f"Expected `farm_url` to be an http(s) URL or None, got {farm_url!r}")
    return {"time_scale": time_scale, "timeout_s": timeout_s, "retries": retries}


def farm_settings(
    url: str, options: dict[str, Any], pattern_types: Any, overrides: dict[str, Any]
) -> dict[str, Any]:
    """The settings of the farm at ``url`` (its ``/_farm``), checked against the env's.

    Raises:
        ConnectionError: Nothing answers at ``url`` within the client's timeout, or what answers
            is not a site farm.
        ValueError: The farm serves other pattern types, overrides or time scale than asked.
    """
    crawler = Crawler(timeout_s=options["timeout_s"] or 2.0, retries=0)
    try:
        response = crawler.get(f"{url}/_farm")
    finally:
        crawler.close()
    if response.status != 200:
        why = response.error or f"HTTP {response.status}"
        raise ConnectionError(
            f"Cannot reach the site farm at {url} ({why}); start one with `rlm-gym farm serve`"
        )
    try:
        settings = json.loads(response.text)
        float(settings["time_scale"])
        int(settings["seed"])
    except (ValueError, KeyError, TypeError):
        raise ConnectionError(f"{url}/_farm did not answer as a site farm") from None
    farm_types = tuple(settings.get("pattern_types") or ()) or None
    if pattern_types is not None and farm_types != tuple(pattern_types):
        raise ValueError(
            f"The farm at {url} serves pattern types {farm_types}; the env asks for "
            f"{tuple(pattern_types)}: start the farm with the same ones"
        )
    if overrides and settings.get("overrides") != overrides:
        raise ValueError(
            f"The farm at {url} uses profile overrides {settings.get('overrides')}; the env asks "
            f"for {overrides}"
        )
    scale = options["time_scale"]
    if scale is not None and abs(float(settings["time_scale"]) - scale) > 1e-12:
        raise ValueError(
            f"The farm at {url} runs at time_scale {settings['time_scale']}; got `time_scale` "
            f"{scale} (leave it None to use the farm's)"
        )
    return settings
