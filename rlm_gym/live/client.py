"""The live crawler's HTTP client: ``Crawler`` (urllib3, timeouts and retries) and ``Browser``.

``Crawler.get`` is one logical request as a crawler makes it: a pooled keep-alive connection,
a connect and read timeout, up to ``retries`` retries of connection errors and 5xx answers (as
Scrapy's retry middleware does; time-outs and 4xx are the caller's to handle), the body decoded
with the charset the server declares (a wrong header gives mojibake, as it does to real
crawlers). Every request carries the client's session id (``CLIENT_HEADER``): the farm keeps a
rate limiter and a ban list per client and per site.

``Browser`` is the headless fetcher's stand-in for a browser: it sends a browser user agent,
runs the one thing the farm's page scripts do (fetch the data endpoint they name and insert its
HTML into ``#app``), clicks pagination controls and scrolls to the infinite-scroll sentinel by
calling the endpoints those controls name. Its render, click and scroll waits are modelled
(slept, scaled by the farm's ``time_scale``), not measured.

Example:
    >>> from rlm_gym.live.farm import SiteFarm
    >>> with SiteFarm(seed=0, time_scale=0.001) as farm:
    ...     crawler = Crawler(timeout_s=1.0, session="doc")
    ...     response = crawler.get(farm.site_url(2))
    ...     crawler.close()
    >>> response.status, response.error is None
    (200, True)
"""

from __future__ import annotations

import re
import time
from typing import NamedTuple
from urllib.parse import urljoin

import urllib3
from parsel import Selector

from rlm_gym.envs.dynamics import RENDER_MS
from rlm_gym.live.sites import CLIENT_HEADER

__all__ = [
    "Response",
    "Crawler",
    "Browser",
    "HTTP_USER_AGENT",
    "BROWSER_USER_AGENT",
    "FarmUnreachable",
]

HTTP_USER_AGENT = "rlm-gym-crawler/0.4 (+https://github.com/rlm-gym; urllib3)"
BROWSER_USER_AGENT = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "HeadlessChrome/124.0.0.0 Safari/537.36"
)
_RETRY_STATUSES = frozenset({500, 502, 503, 504})
_CHARSET = re.compile(r"charset=([\w-]+)", re.IGNORECASE)
_DURATION = re.compile(r"dur=([\d.]+)")
_SCRIPT_FETCH = re.compile(r"""fetch\(["']([^"']+)["']\)""")


class FarmUnreachable(ConnectionError):
    """The farm (or a site) cannot be reached: nothing listens, or the connection failed."""


class Response(NamedTuple):
    """One logical request's outcome.

    Attributes:
        url: The URL requested.
        status: The final HTTP status (0 when no response came: a time-out or connection error).
        headers: The response headers (lower-cased names).
        text: The body, decoded with the declared charset.
        elapsed_s: Wall time of the request, retries included.
        server_ms: The site's own time for the request, retries included, in site ms: the sum
            of the answers' ``Server-Timing`` durations; for a request that timed out, the
            timeout in site time (the timeout over ``time_scale``).
        attempts: Requests sent (1 + retries used).
        error: The crawler's error text (time-out, connection error, 5xx after retries), or None.
    """

    url: str
    status: int
    headers: dict[str, str]
    text: str
    elapsed_s: float
    server_ms: float
    attempts: int
    error: str | None


class Crawler:
    """A pooled HTTP client with timeouts and retries.

    Args:
        timeout_s: Connect and read timeout of each request, in seconds.
        retries: Retries of a connection error or a 5xx answer (time-outs are not retried).
        session: The client id sent in ``CLIENT_HEADER``.
        time_scale: Real seconds per site second (a time-out's site duration).
    """

    def __init__(
        self, timeout_s: float, retries: int = 2, session: str = "", time_scale: float = 1.0
    ) -> None:
        self.timeout_s = float(timeout_s)
        self.time_scale = float(time_scale)
        self.retries = int(retries)
        self.session = session
        self._pool = urllib3.PoolManager(
            num_pools=4,
            maxsize=2,
            retries=False,
            timeout=urllib3.Timeout(connect=self.timeout_s, read=self.timeout_s),
        )

    def get(self, url: str, user_agent: str = HTTP_USER_AGENT) -> Response:
        """GET ``url``; never raises for HTTP answers, time-outs or refused connections."""
        headers = {"User-Agent": user_agent, "Accept": "text/html,application/json"}
        if self.session:
            headers[CLIENT_HEADER] = self.session
        started = time.perf_counter()
        attempts = 0
        server_ms = 0.0
        while True:
            attempts += 1
            try:
                raw = self._pool.request("GET", url, headers=headers, preload_content=True)
            except urllib3.exceptions.ReadTimeoutError:
                timeout_ms = round(self.timeout_s * 1000)
                server_ms += self.timeout_s * 1000.0 / self.time_scale
                error = f"Timeout after {timeout_ms} ms"
                return self._failed(url, started, attempts, error, server_ms)
            except (urllib3.exceptions.HTTPError, OSError) as failure:
                error = f"Connection error: {type(failure).__name__}: {failure}"
                if attempts <= self.retries:
                    continue
                return self._failed(url, started, attempts, error, server_ms)
            server_ms += _server_timing(raw.headers.get("Server-Timing", ""))
            if raw.status in _RETRY_STATUSES and attempts <= self.retries:
                continue
            text = raw.data.decode(_charset(raw.headers.get("Content-Type", "")), "replace")
            status_error = None
            if raw.status in _RETRY_STATUSES:
                status_error = f"HTTP {raw.status} {raw.reason} (gave up after {attempts} tries)"
            return Response(
                url,
                raw.status,
                {k.lower(): v for k, v in raw.headers.items()},
                text,
                time.perf_counter() - started,
                server_ms,
                attempts,
                status_error,
            )

    def _failed(
        self, url: str, started: float, attempts: int, error: str, server_ms: float
    ) -> Response:
        elapsed = time.perf_counter() - started
        return Response(url, 0, {}, "", elapsed, server_ms, attempts, error)

    def close(self) -> None:
        """Close every pooled connection."""
        self._pool.clear()


def _server_timing(header: str) -> float:
    """The ``dur`` of a ``Server-Timing`` header (0 when absent)."""
    match = _DURATION.search(header)
    return float(match.group(1)) if match else 0.0


def _charset(content_type: str) -> str:
    match = _CHARSET.search(content_type)
    if match is None:
        return "utf-8"
    try:
        return "latin-1" if match.group(1).lower() in ("iso-8859-1", "latin1") else match.group(1)
    except LookupError:  # pragma: no cover - the farm declares only real charsets
        return "utf-8"


class Browser:
    """A headless browser's view of one page: its DOM (as HTML) and what its controls call.

    Args:
        crawler: The HTTP client (the browser shares its connections and session id).
        sleep: Called with a modelled wait in site milliseconds (render, click, scroll).
    """

    def __init__(self, crawler: Crawler, sleep) -> None:
        self.crawler = crawler
        self.sleep = sleep
        self.url: str | None = None
        self.dom: str = ""
        self.requests = 0

    def open(self, url: str) -> Response:
        """Load ``url`` and run its script (fetch the data endpoint it names into ``#app``); the
        response's ``server_ms`` adds the render wait.

        The render wait is the simulator's for what the page needs: a client-side rendered page
        (a script that fetches its data), a hydrated one (a framework's state blob), or static
        HTML (``dynamics.RENDER_MS``).
        """
        response = self.crawler.get(url, BROWSER_USER_AGENT)
        self.requests += response.attempts
        if response.status != 200:
            return response
        dom = response.text
        match = _SCRIPT_FETCH.search(dom)
        render_ms = RENDER_MS[2 if match else 1 if "__NEXT_DATA__" in dom else 0]
        server_ms = response.server_ms
        if match is not None:
            data = self.crawler.get(urljoin(url, match.group(1)), BROWSER_USER_AGENT)
            self.requests += data.attempts
            server_ms += data.server_ms
            if data.status != 200:
                return data._replace(server_ms=server_ms)
            dom = _insert(dom, _fragment(data.text))
        self.sleep(render_ms)
        self.url, self.dom = url, dom
        return response._replace(text=dom, server_ms=server_ms + render_ms)

    def close(self) -> None:
        """Close the page (the crawl moved on or re-fetched without the browser)."""
        self.url, self.dom = None, ""

    def controls(self, page: Selector | None = None) -> dict[str, str | None]:
        """The pagination controls of the current DOM (``page``: it parsed already):
        ``click`` (a link or button a click follows), ``scroll`` (the sentinel's source) and
        ``overlay`` (an element over them)."""
        page = Selector(text=self.dom) if page is None else page
        nav = page.css("nav.pagination")
        click = None
        button = nav.css("button.load-more")
        if button:
            click = _source(button)
        else:
            link = nav.css("a.next, a.pager-fwd") or _next_number_link(nav, self.url or "")
            if link:
                click = _source(link)
        sentinel = nav.css("div.sentinel")
        overlay = page.css(".cookie-banner")
        return {
            "click": click,
            "kind": "button" if button else "link" if click else None,
            "scroll": _source(sentinel) if sentinel else None,
            "overlay": "cookie banner" if overlay else None,
        }

    def load(self, source: str, wait_ms: float) -> Response:
        """Follow a control's source: a page URL (navigate) or a data call (insert its HTML),
        then wait for the new items; the response's ``server_ms`` adds the wait."""
        assert self.url is not None
        target = urljoin(self.url, source)
        if "/api/" not in target:
            response = self.open(target)
        else:
            response = self.crawler.get(target, BROWSER_USER_AGENT)
            self.requests += response.attempts
            if response.status == 200:
                self.dom = _insert(self.dom, _fragment(response.text))
        if response.status != 200:  # refused or failed at once: nothing to wait for
            return response
        self.sleep(wait_ms)
        return response._replace(server_ms=response.server_ms + wait_ms)


def _source(selection) -> str:
    """A control's target: its href, ``data-next`` URL, or a cursor call of the data API."""
    href = selection.attrib.get("href")
    if href and href != "#":
        return href
    if selection.attrib.get("data-next"):
        return selection.attrib["data-next"]
    return f"api/items?cursor={selection.attrib.get('data-cursor', '')}"


def _next_number_link(nav, url: str):
    """The numbered link one past the current page (``?page=N`` or ``?p=N``)."""
    match = re.search(r"[?&]p(?:age)?=(\d+)", url)
    current = int(match.group(1)) if match else 1
    for link in nav.css("a.page"):
        if link.xpath("normalize-space()").get() == str(current + 1):
            return link
    return None


def _fragment(text: str) -> str:
    import json

    try:
        return str(json.loads(text).get("html", ""))
    except ValueError:
        return ""


def _insert(dom: str, fragment: str) -> str:
    """``dom`` with the content of ``<main id="app">`` replaced by ``fragment``."""
    start = dom.find('<main id="app">')
    end = dom.find("</main>", start)
    if start < 0 or end < 0:
        return dom
    start += len('<main id="app">')
    return dom[:start] + fragment + dom[end:]
