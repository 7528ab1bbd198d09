"""The sites of the live farm: each a pure function of (farm seed, site index).

A site's hidden profile is drawn with Crawl-v2's own sampler (``rlm_gym.envs.profiles``): on farm
seed 0, site ``k`` has exactly the profile that ``Crawl-v2``'s ``reset(seed=k)`` draws (the same
17 uniforms of the same generator), so a live site and its simulated twin can be compared
episode by episode. Everything the simulator keeps as a probability the farm writes into the site
as a fixed feature, drawn once per site from a second stream of the same seed: the probe signals
of ``rlm_gym.envs.observation.PROBE_SIGNALS`` become markup and headers that are there or not
(a framework bundle, WAF headers, a fingerprinting script, pagination markers a probe can see),
and the extraction quality of ``rlm_gym.envs.dynamics.EXTRACTION_QUALITY`` becomes defects in
the markup (``DEFECT_SHARE``, ``rlm_gym.live.pages``).

Per-request draws (latency jitter, WAF blocks, time-outs, 5xx faults) are a hash of the site, the
client and the client's request number (``request_uniforms``): a crawl replayed by the same client
id meets the same answers.

Example:
    >>> site = make_site(0, 7)
    >>> import numpy as np
    >>> from rlm_gym.envs.profiles import profile_from_uniforms, PROFILE_DRAWS
    >>> site.profile == profile_from_uniforms(np.random.default_rng(7).random(PROFILE_DRAWS))
    True
    >>> len(page_truth(site, 1)) == site.profile.items_per_page
    True
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from rlm_gym.envs.dynamics import EXTRACTION_QUALITY
from rlm_gym.envs.items import entity
from rlm_gym.envs.observation import PROBE_SIGNALS
from rlm_gym.envs.profiles import PROFILE_DRAWS, SiteProfile, profile_from_uniforms

__all__ = [
    "CLIENT_HEADER",
    "DEFAULT_TIME_SCALE",
    "DEFAULT_ERROR_RATE",
    "FEATURES",
    "DEFECT_SHARE",
    "JSON_LD_DEFECT_SHARE",
    "SPONSORED_SHARE",
    "HIDDEN_ROW_SHARE",
    "RATE_INTERVAL_MS",
    "ROBOTS_LIMITED_RATE",
    "Site",
    "make_site",
    "site_entropy",
    "page_truth",
    "request_uniforms",
]

# One site second lasts 5 ms: a typical crawl episode (~15 s of site time) takes ~0.1 s.
DEFAULT_TIME_SCALE = 0.005
# Share of page requests a farm answers 503 by default (a crawler's retries absorb most).
DEFAULT_ERROR_RATE = 0.005
# The request header naming the client: the farm keeps rate limits and bans per client and site.
CLIENT_HEADER = "X-Crawler-Session"
# Probe-visible features a site carries, each drawn with the simulator's probe rate for the
# site's hidden attribute (``PROBE_SIGNALS``); ``probe_status_*`` are not features: the probe's
# status is the farm's real answer.
FEATURES: tuple[str, ...] = tuple(name for name in PROBE_SIGNALS if "status" not in name)
# Share of a page's rows whose visible text shows a lazy-loading placeholder ("N/A",
# "Loading...") while the value sits in an attribute: the heuristics' and the LLM's sporadic
# defect share of the simulator (``EXTRACTION_QUALITY``, irregular markup without JSON-LD).
DEFECT_SHARE: float = EXTRACTION_QUALITY["heuristic"][(False, False)][1]
# Rows whose JSON-LD carries a placeholder: the heuristics' defect share with JSON-LD.
JSON_LD_DEFECT_SHARE: float = EXTRACTION_QUALITY["heuristic"][(True, True)][1]
# Rows marked as sponsored (the heuristics' ad filter drops them): 1 - its recall without JSON-LD.
SPONSORED_SHARE: float = 1.0 - EXTRACTION_QUALITY["heuristic"][(True, False)][0]
# Rows of an irregular table laid out as label lines (positional CSS misses them): 1 - recall.
HIDDEN_ROW_SHARE: float = 1.0 - EXTRACTION_QUALITY["css"][(False, False)][0]
# A rate-limited site answers 429 to a request less than this after the client's previous one
# (site time): every request not preceded by a backoff (5 s), as the simulator's pressure flag.
RATE_INTERVAL_MS: int = 4000
# Share of rate-limited sites whose limiter also counts robots.txt, so the probe's page request
# right after it is refused: the simulator's P(probe 429 | rate limit).
ROBOTS_LIMITED_RATE: float = PROBE_SIGNALS["probe_status_429"][1][1]


class Site(NamedTuple):
    """One generated site.

    Attributes:
        farm_seed: The farm's seed.
        index: The site's index on the farm.
        profile: The hidden profile (Crawl-v2's sampler).
        features: The probe-visible features the site carries (names of ``FEATURES``).
        robots_limited: Whether the rate limiter counts robots.txt requests.
        entropy: The seed entropy the site was drawn from (``site_entropy``).
    """

    farm_seed: int
    index: int
    profile: SiteProfile
    features: frozenset[str]
    robots_limited: bool
    entropy: tuple[int, ...]


def site_entropy(farm_seed: int, index: int) -> tuple[int, ...]:
    """The seed entropy of site ``index``: ``(index,)`` on farm seed 0 (Crawl-v2's seed),
    ``(index, farm_seed)`` otherwise."""
    return (index,) if farm_seed == 0 else (index, farm_seed)


def _check_index(name: str, value: Any) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(
            f"Expected `{name}` to be an int >= 0, got {type(value).__name__} {value!r}"
        )
    if value < 0:
        raise ValueError(f"Expected `{name}` to be an int >= 0, got {value!r}")
    return int(value)


def make_site(
    farm_seed: int,
    index: int,
    pattern_types: Sequence[str] | None = None,
    overrides: dict[str, Any] | None = None,
) -> Site:
    """Generate site ``index`` of a farm seeded ``farm_seed``.

    Args:
        farm_seed: The farm's seed (an int >= 0).
        index: The site's index (an int >= 0; the env uses the reset seed).
        pattern_types: Pattern types to draw from (all simulated ones when None), as
            ``CrawlEnv(pattern_types=...)``.
        overrides: Checked profile overrides (``profiles.check_overrides``).

    Raises:
        TypeError, ValueError: ``farm_seed`` or ``index`` is not an int >= 0.
    """
    farm_seed = _check_index("farm_seed", farm_seed)
    index = _check_index("index", index)
    types = tuple(pattern_types) if pattern_types else None
    key = tuple(sorted((overrides or {}).items()))
    return _make_site(farm_seed, index, types, key)


@lru_cache(maxsize=4096)
def _make_site(
    farm_seed: int, index: int, pattern_types: tuple[str, ...] | None, overrides: tuple
) -> Site:
    entropy = site_entropy(farm_seed, index)
    sequence = np.random.SeedSequence(entropy if len(entropy) > 1 else entropy[0])
    uniforms = np.random.Generator(np.random.PCG64(sequence)).random(PROFILE_DRAWS).tolist()
    profile = profile_from_uniforms(uniforms, pattern_types, dict(overrides) or None)
    draws = np.random.default_rng(sequence.spawn(1)[0]).random(len(FEATURES) + 1).tolist()
    features = frozenset(
        name
        for name, u in zip(FEATURES, draws, strict=False)
        if u < PROBE_SIGNALS[name][1][getattr(profile, PROBE_SIGNALS[name][0])]
    )
    robots_limited = profile.protection == 1 and draws[-1] < ROBOTS_LIMITED_RATE
    return Site(farm_seed, index, profile, features, robots_limited, entropy)


def page_truth(site: Site, page: int) -> list[dict[str, Any]]:
    """The true rows of page ``page`` (1-based) of ``site``: entities numbered on across pages,
    as the simulator numbers them (``rlm_gym.envs.items.entity``). Empty past the last page."""
    profile = site.profile
    if not 1 <= page <= profile.total_pages:
        return []
    per_page = profile.items_per_page
    start = (page - 1) * per_page
    return [entity(profile.pattern_type, serial) for serial in range(start, start + per_page)]


def request_uniforms(site: Site, client: str, number: int, count: int = 4) -> tuple[float, ...]:
    """``count`` uniforms in [0, 1) for request ``number`` of ``client`` on ``site``: a hash, so
    the same client meets the same latency, blocks and faults when it replays a crawl.

    Example:
        >>> site = make_site(0, 1)
        >>> request_uniforms(site, "a", 0) == request_uniforms(site, "a", 0)
        True
    """
    text = f"{site.farm_seed}:{site.index}:{client}:{number}".encode()
    digest = hashlib.blake2b(text, digest_size=8 * count).digest()
    return tuple(x / 2.0**64 for x in struct.unpack(f"<{count}Q", digest))
