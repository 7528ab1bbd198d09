"""A tiny shop served on 127.0.0.1 for the Scrapy tests: listing pages of product cards.

Each site is a path prefix (``/<site>/page/<n>.html``), ``PAGES`` pages of ``PER_PAGE``
products with a next link. Sites differ in one systematic defect written into the markup, as
a broken scraper meets it:

* ``clean``: every value well-formed;
* ``ratings10``: every rating on a 0-50 scale ("45"): a rating x10;
* ``mojibake``: every price mis-decoded ("Â£129.00": UTF-8 read as Latin-1);
* ``placeholder``: every product name "N/A";
* ``errors``: clean, but page 3 answers 503 (its products are lost).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PAGES = 5
PER_PAGE = 20
SITES = ("clean", "ratings10", "mojibake", "placeholder", "errors")
_WOODS = ("Oak", "Walnut", "Pine", "Birch", "Teak", "Maple", "Ash", "Cherry")
_THINGS = ("chair", "table", "shelf", "desk", "stool", "bench", "cabinet", "bed")


def product(site: str, number: int) -> dict[str, str]:
    """The values product ``number`` shows on ``site`` (as the page writes them)."""
    name = f"{_WOODS[number % 8]} {_THINGS[number // 8 % 8]} no. {number}"
    price = f"£{40 + 7 * number % 300}.{number % 100:02d}"
    rating = f"{1 + number % 9 * 0.5:.1f}"
    if site == "ratings10":
        rating = str(round(float(rating) * 10))
    elif site == "mojibake":
        price = price.encode("utf-8").decode("latin-1")
    elif site == "placeholder":
        name = "N/A"
    return {"name": name, "price": price, "rating": rating}


def page_html(site: str, page: int) -> str:
    cards = []
    for offset in range(PER_PAGE):
        values = product(site, (page - 1) * PER_PAGE + offset)
        cards.append(
            '<div class="product">'
            f'<h2 class="name">{values["name"]}</h2>'
            f'<span class="price">{values["price"]}</span>'
            f'<span class="rating">{values["rating"]}</span>'
            "</div>"
        )
    following = f'<a class="next" href="/{site}/page/{page + 1}.html">Next</a>'
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{site} {page}</title></head>"
        f"<body>{''.join(cards)}{following if page < PAGES else ''}</body></html>"
    )


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        parts = self.path.strip("/").split("/")
        status, body = 404, "<html><body>Not Found</body></html>"
        if len(parts) == 3 and parts[0] in SITES and parts[1] == "page":
            page = int(parts[2].removesuffix(".html")) if parts[2][:1].isdigit() else 0
            if 1 <= page <= PAGES:
                status, body = 200, page_html(parts[0], page)
                if parts[0] == "errors" and page == 3:
                    status, body = 503, "<html><body>Service Unavailable</body></html>"
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the tests read the crawler's log, not the server's."""


@contextlib.contextmanager
def serve_shop() -> Iterator[str]:
    """Serve the shop on a free port of 127.0.0.1; yields its base URL, stops on exit."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="shop-site", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
