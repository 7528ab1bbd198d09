"""``rlm-gym farm serve``: run a site farm in the foreground for live crawls (``live`` extra).

Many ``rlm_gym/CrawlLive-v0`` workers (``--env-kwarg farm_url=...``, a vector env, several
machines' worth of processes on one host) can share one farm: rate limits and bans are kept per
client session and site. The farm stops cleanly on Ctrl-C (SIGINT) or SIGTERM.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from typing import Any

from rlm_gym.cli.options import add_command, checked_number

__all__ = ["register"]

_EXAMPLES = (
    "rlm-gym farm serve --port 8765 --seed 0",
    "rlm-gym farm serve --port 0 --time-scale 0.05 --pattern-type product_list",
)


def _rate(text: str) -> float:
    return checked_number(text, float, "a number in [0, 1]", lambda value: 0.0 <= value <= 1.0)


def _positive(text: str) -> float:
    return checked_number(text, float, "a number > 0", lambda value: value > 0.0)


def _port(text: str) -> int:
    return checked_number(text, int, "a port in [0, 65535]", lambda value: 0 <= value <= 65535)


def _run_serve(args: argparse.Namespace) -> int:
    from rlm_gym.training import require

    require("aiohttp", "parsel", "urllib3")
    from rlm_gym.live import SiteFarm

    farm = SiteFarm(
        seed=args.seed,
        time_scale=args.time_scale,
        host=args.host,
        port=args.port,
        pattern_types=args.pattern_type,
        timeout_rate=args.timeout_rate,
        error_rate=args.error_rate,
    )
    stop = threading.Event()
    received: list[int] = []

    def on_signal(signum: int, frame: object) -> None:
        received.append(signum)
        stop.set()

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        farm.start()
        print(
            f"rlm-gym farm: serving at {farm.url} (seed {farm.seed}, time scale "
            f"{farm.time_scale}); site k at {farm.url}/s/<k>/, settings at {farm.url}/_farm. "
            "Ctrl-C to stop.",
            flush=True,
        )
        # Wake up now and then so the main thread runs the signal handler promptly.
        while not stop.wait(0.2):
            pass
    finally:
        farm.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    name = signal.Signals(received[0]).name if received else "stop"
    print(f"rlm-gym farm: stopped ({name})", file=sys.stderr, flush=True)
    return 0


def register(subparsers: Any) -> None:
    """Add ``farm`` (with ``farm serve``) to an argparse subparsers object."""
    from rlm_gym.envs.dynamics import COSTS
    from rlm_gym.live.sites import DEFAULT_ERROR_RATE, DEFAULT_TIME_SCALE

    farm = add_command(
        subparsers,
        "farm",
        "run the site farm the live crawl env crawls (needs the live extra)",
        _EXAMPLES,
        description="The site farm of rlm_gym/CrawlLive-v0: generated sites on a local HTTP "
        "server. `rlm-gym farm serve --help` lists its settings.",
    )
    commands = farm.add_subparsers(dest="farm_command", required=True, metavar="COMMAND")
    serve = add_command(
        commands,
        "serve",
        "serve the sites in the foreground until Ctrl-C or SIGTERM",
        _EXAMPLES,
        description="Serve a farm of generated sites in the foreground. Site k is a pure "
        "function of (seed, k); on seed 0 it is the site Crawl-v2 draws for reset(seed=k). "
        "Connect envs with gym.make('rlm_gym/CrawlLive-v0', farm_url=URL).",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to bind")
    serve.add_argument(
        "--port",
        type=_port,
        default=8765,
        help="port to bind, 0 for a free one",
    )
    serve.add_argument("--seed", type=int, default=0, help="the farm's seed")
    serve.add_argument(
        "--time-scale",
        type=_positive,
        default=DEFAULT_TIME_SCALE,
        help="real seconds per site second: latency, rate windows, time-outs",
    )
    serve.add_argument(
        "--pattern-type",
        action="append",
        default=None,
        metavar="TYPE",
        help="draw sites of this pattern type only (repeatable; default: all simulated types)",
    )
    serve.add_argument(
        "--timeout-rate",
        type=_rate,
        default=COSTS["timeout_rate"],
        help="share of page requests that hang past the client's timeout",
    )
    serve.add_argument(
        "--error-rate",
        type=_rate,
        default=DEFAULT_ERROR_RATE,
        help="share of page requests answered 503",
    )
    serve.set_defaults(func=_run_serve)
