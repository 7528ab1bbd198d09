"""``SiteFarm``: an aiohttp server on the loopback interface serving the generated sites.

Site ``k`` lives under ``/s/<k>/`` (``SiteFarm.site_url(k)``): its pages (``?page=N``), its
robots.txt, the data endpoint a client-side rendered page's script names (``api/render``) and the
one that load-more buttons and infinite scroll call (``api/items``). ``/_farm`` describes the farm
(seed, time scale, pattern types, overrides) as JSON.

The server behaves as the site's profile says, with HTTP's own semantics, per client (the
``X-Crawler-Session`` header, else the peer address) and per site:

- latency: every page is answered after the site's time to first byte times a jitter
  (``dynamics.JITTER``), slept on the server and multiplied by ``time_scale``; the response's
  ``Server-Timing: app;dur=<ms>`` header says how long that was in site time;
- rate limits (protection ``rate_limit``): a request less than ``RATE_INTERVAL_MS`` after the
  client's previous one gets ``429`` with ``Retry-After``; the third such violation bans;
- WAFs (``waf_http``, ``waf_headless``): a page request is refused ``403`` with the simulator's
  block rate for the client's kind (a browser user agent or a plain HTTP client); the second
  block bans; a banned client gets ``403`` for everything;
- faults: a page request hangs past any sane timeout with ``timeout_rate`` and fails ``503``
  with ``error_rate``.

Requests draw their fates from a hash of (site, client, request number); a client id of the form
``<replay key>#<nonce>`` draws them with its replay key, so a crawl replayed under a new id meets
the same answers while the rate limiter and ban list see a new client.

Example:
    >>> import urllib3
    >>> with SiteFarm(seed=0, time_scale=0.001) as farm:
    ...     response = urllib3.request("GET", farm.site_url(0))
    >>> response.status, response.headers["Content-Type"]
    (200, 'text/html; charset=utf-8')
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from aiohttp import web

from rlm_gym.envs.dynamics import BLOCK_RATE, COSTS, JITTER
from rlm_gym.envs.profiles import check_overrides
from rlm_gym.live.pages import Page, page_of_cursor, render_fragment, render_page, render_robots
from rlm_gym.live.sites import (
    CLIENT_HEADER,
    DEFAULT_ERROR_RATE,
    DEFAULT_TIME_SCALE,
    RATE_INTERVAL_MS,
    Site,
    make_site,
    request_uniforms,
)

__all__ = ["SiteFarm", "DEFAULT_TIME_SCALE", "CLIENT_HEADER", "API_LATENCY_MS"]

# Data endpoints answer after this long (site time): their rows are ready, the page is not built.
API_LATENCY_MS = 100
# A hung request is answered after this long (site time, at least 2 s): past every timeout.
_HANG_MS = 4 * COSTS["timeout_ms"]
_BLOCKS_TO_BAN = int(COSTS["blocks_to_ban"])
_RATE_LIMITS_TO_BAN = int(COSTS["rate_limits_to_ban"])
_MAX_CLIENTS = 100_000
_BLOCK_PAGE = b"<html><body><h1>Access denied</h1><p>Checking your browser...</p></body></html>"
_BAN_PAGE = b"<html><body><h1>403 Forbidden</h1><p>Your client has been banned.</p></body></html>"


class _Client:
    """What a site remembers of one client."""

    __slots__ = ("banned", "blocks", "last", "requests", "violations")

    def __init__(self) -> None:
        self.requests = 0
        self.last: float | None = None
        self.violations = 0
        self.blocks = 0
        self.banned = False


def _check_rate(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise ValueError(f"Expected `{name}` to be a number in [0, 1], got {value!r}")
    return float(value)


class SiteFarm:
    """Many generated sites behind one aiohttp server on 127.0.0.1.

    Start it with ``start()`` (a background thread running its own event loop) and stop it
    with ``stop()``, or use it as a context manager. ``rlm-gym farm serve`` runs one in the
    foreground.

    Args:
        seed: The farm's seed: site ``k`` is a pure function of ``(seed, k)``; on seed 0 it is
            the site ``Crawl-v2``'s ``reset(seed=k)`` draws.
        time_scale: Real seconds per site second (latency, rate-limit windows, time-outs).
        host: The address to bind (the loopback interface by default).
        port: The port (0: a free one, read back from ``url``).
        pattern_types: Pattern types the sites are drawn from (as ``CrawlEnv``).
        timeout_rate: Share of page requests that hang (a time-out for the client).
        error_rate: Share of page requests answered ``503``.
        **overrides: Profile overrides for every site (as ``CrawlEnv``'s), e.g.
            ``protection="none"``.

    Raises:
        ValueError: A ``time_scale`` that is not positive, a rate outside [0, 1], a port
            outside [0, 65535], or a bad override.

    Example:
        >>> farm = SiteFarm(seed=1, time_scale=0.001).start()
        >>> farm.site_url(5).startswith(farm.url), farm.site(5).index
        (True, 5)
        >>> farm.stop()
    """

    def __init__(
        self,
        seed: int = 0,
        time_scale: float = DEFAULT_TIME_SCALE,
        host: str = "127.0.0.1",
        port: int = 0,
        pattern_types: Sequence[str] | None = None,
        timeout_rate: float = COSTS["timeout_rate"],
        error_rate: float = DEFAULT_ERROR_RATE,
        **overrides: Any,
    ) -> None:
        from rlm_gym.envs.arguments import check_pattern_types

        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"Expected `seed` to be an int >= 0, got {seed!r}")
        if isinstance(time_scale, bool) or not isinstance(time_scale, (int, float)):
            raise ValueError(f"Expected `time_scale` to be a number > 0, got {time_scale!r}")
        if not 0.0 < time_scale <= 10.0:
            raise ValueError(f"Expected `time_scale` in (0, 10], got {time_scale!r}")
        if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
            raise ValueError(f"Expected `port` to be an int in [0, 65535], got {port!r}")
        self.seed = seed
        self.time_scale = float(time_scale)
        self.host = host
        self.port = port
        self.pattern_types = check_pattern_types(pattern_types)
        self.overrides = check_overrides(overrides)
        self.timeout_rate = _check_rate("timeout_rate", timeout_rate)
        self.error_rate = _check_rate("error_rate", error_rate)
        self._clients: OrderedDict[tuple[int, str], _Client] = OrderedDict()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._bound_port: int | None = None

    # ------------------------------------------------------------------ public face
    @property
    def url(self) -> str:
        """The farm's base URL, e.g. ``http://127.0.0.1:8765`` (after ``start()``)."""
        if self._bound_port is None:
            raise RuntimeError("The farm is not running: call `start()` first")
        return f"http://{self.host}:{self._bound_port}"

    @property
    def running(self) -> bool:
        """Whether the server is up."""
        return self._bound_port is not None

    def site_url(self, index: int) -> str:
        """The URL of site ``index``'s first page."""
        return f"{self.url}/s/{int(index)}/"

    def site(self, index: int) -> Site:
        """Site ``index``: its hidden profile and features (``page_truth`` gives its rows)."""
        return make_site(self.seed, index, self.pattern_types, self.overrides)

    def info(self) -> dict[str, Any]:
        """What ``/_farm`` answers: the farm's seed, time scale, pattern types and overrides."""
        return {
            "seed": self.seed,
            "time_scale": self.time_scale,
            "pattern_types": list(self.pattern_types) if self.pattern_types else None,
            "overrides": self.overrides,
        }

    def start(self) -> SiteFarm:
        """Start serving in a background thread (its own event loop); returns the farm.

        Raises:
            RuntimeError: Already running.
            OSError: The port cannot be bound (the error of the bind, e.g. address in use).
        """
        if self._thread is not None:
            raise RuntimeError("The farm is already running")
        ready = threading.Event()
        failure: list[BaseException] = []
        loop = asyncio.new_event_loop()

        def run() -> None:
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._start_server())
            except BaseException as error:  # handed to the starting thread
                failure.append(error)
                ready.set()
                loop.close()
                return
            ready.set()
            loop.run_forever()
            loop.run_until_complete(self._stop_server())
            loop.close()

        thread = threading.Thread(target=run, name=f"rlm-gym-farm-{self.seed}", daemon=True)
        thread.start()
        ready.wait()
        if failure:
            thread.join()
            raise failure[0]
        self._thread, self._loop = thread, loop
        return self

    def stop(self) -> None:
        """Stop the server and its thread (no-op when not running); open connections close."""
        thread, loop = self._thread, self._loop
        if thread is None or loop is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        self._thread = self._loop = None
        self._bound_port = None
        self._clients.clear()

    def __enter__(self) -> SiteFarm:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        where = self.url if self.running else "stopped"
        return f"SiteFarm(seed={self.seed}, time_scale={self.time_scale}, {where})"

    # ------------------------------------------------------------------ server
    async def _start_server(self) -> None:
        app = web.Application()
        app.router.add_get("/_farm", self._farm_info)
        app.router.add_get(r"/s/{index:\d{1,18}}/", self._document)
        app.router.add_get(r"/s/{index:\d{1,18}}/robots.txt", self._robots)
        app.router.add_get(r"/s/{index:\d{1,18}}/api/{kind:render|items}", self._data)
        # Hung handlers end when their client gives up; a stop waits 0.5 s for the rest.
        runner = web.AppRunner(
            app, handle_signals=False, access_log=None, shutdown_timeout=0.5,
            handler_cancellation=True,
        )  # fmt: skip
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.host, self.port)
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self._bound_port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def _stop_server(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _farm_info(self, request: web.Request) -> web.Response:
        return web.json_response(self.info())

    def _site_and_client(self, request: web.Request) -> tuple[Site, str, _Client]:
        index = int(request.match_info["index"])
        site = self.site(index)
        name = request.headers.get(CLIENT_HEADER) or (request.remote or "unknown")
        key = (index, name)
        # Fates are drawn with the part before "#": a crawl replayed under a new session id
        # (``<replay key>#<nonce>``) meets the same answers, with a fresh rate limiter.
        name = name.partition("#")[0]
        client = self._clients.get(key)
        if client is None:
            client = self._clients[key] = _Client()
            if len(self._clients) > _MAX_CLIENTS:
                self._clients.popitem(last=False)
        return site, name, client

    async def _sleep(self, site_ms: float) -> None:
        await asyncio.sleep(site_ms * self.time_scale / 1000.0)

    def _rate_limited(self, site: Site, client: _Client) -> bool:
        """Count a request against the site's rate; True when it breaks it (a violation)."""
        if site.profile.protection != 1:
            return False
        now = asyncio.get_running_loop().time()
        previous, client.last = client.last, now
        if previous is None or now - previous >= RATE_INTERVAL_MS * self.time_scale / 1000.0:
            return False
        client.violations += 1
        client.banned = client.banned or client.violations >= _RATE_LIMITS_TO_BAN
        return True

    def _too_many(self) -> web.Response:
        wait_s = 5.0 * self.time_scale
        headers = {
            "Server-Timing": "app;dur=0",
            # HTTP counts whole seconds; the exact scaled wait is in the second header.
            "Retry-After": str(max(1, round(wait_s + 0.4999))),
            "X-Retry-After-Ms": f"{wait_s * 1000.0:.3f}",
        }
        return web.Response(status=429, text="Too Many Requests", headers=headers)

    async def _document(self, request: web.Request) -> web.StreamResponse:
        site, name, client = self._site_and_client(request)
        number = client.requests
        client.requests += 1
        if client.banned:
            return _respond(Page(403, {"Content-Type": "text/html"}, _BAN_PAGE))
        if self._rate_limited(site, client):
            return self._too_many()
        u_block, u_hang, u_error, u_jitter = request_uniforms(site, name, number)
        profile = site.profile
        latency = profile.ttfb_ms * JITTER[0 if u_jitter < JITTER[0][0] else 1][1]
        browser = "Mozilla" in request.headers.get("User-Agent", "")
        if u_block < BLOCK_RATE[profile.protection][1 if browser else 0]:
            client.blocks += 1
            client.banned = client.blocks >= _BLOCKS_TO_BAN
            await self._sleep(latency)
            return _respond(Page(403, {"Content-Type": "text/html"}, _BLOCK_PAGE), latency)
        if u_hang < self.timeout_rate:
            await asyncio.sleep(max(2.0, _HANG_MS * self.time_scale / 1000.0))
        await self._sleep(latency)
        if u_error < self.error_rate:
            unavailable = Page(503, {"Content-Type": "text/plain"}, b"Service Unavailable")
            return _respond(unavailable, latency)
        page = _page_number(request, profile.pagination == 1 or profile.url_replayable)
        return _respond(render_page(site, page, f"/s/{site.index}/"), latency)

    async def _robots(self, request: web.Request) -> web.StreamResponse:
        site, _, client = self._site_and_client(request)
        if client.banned:
            return _respond(Page(403, {"Content-Type": "text/html"}, _BAN_PAGE))
        if site.robots_limited and self._rate_limited(site, client):
            return self._too_many()
        await self._sleep(API_LATENCY_MS)
        return _respond(render_robots(site), API_LATENCY_MS)

    async def _data(self, request: web.Request) -> web.StreamResponse:
        site, _, client = self._site_and_client(request)
        client.requests += 1
        if client.banned:
            return _respond(Page(403, {"Content-Type": "text/html"}, _BAN_PAGE))
        profile = site.profile
        # The first paint's data is part of the page view; paging calls count as requests.
        if request.match_info["kind"] == "items" and self._rate_limited(site, client):
            return self._too_many()
        cursor = request.query.get("cursor")
        if cursor is not None:
            page = page_of_cursor(site, cursor)
            if page is None:
                return web.json_response({"error": f"unknown cursor {cursor!r}"}, status=400)
        else:
            replayable = profile.url_replayable or request.match_info["kind"] == "render"
            page = _page_number(request, replayable)
        await self._sleep(API_LATENCY_MS)
        return _respond(render_fragment(site, page, f"/s/{site.index}/"), API_LATENCY_MS)


def _page_number(request: web.Request, honoured: bool) -> int:
    """The page a request asks for (``?page=N`` or ``?p=N``); 1 where the site ignores it."""
    if not honoured:
        return 1
    raw = request.query.get("page", request.query.get("p", "1"))
    try:
        page = int(raw)
    except ValueError:
        return 1
    return page if 1 <= page <= 1_000_000 else 1


def _respond(page: Page, site_ms: float = 0.0) -> web.Response:
    """The page as a response; ``Server-Timing`` says how long the site took (site ms)."""
    headers = {**page.headers, "Server-Timing": f"app;dur={site_ms:.0f}"}
    return web.Response(status=page.status, body=page.body, headers=headers)
