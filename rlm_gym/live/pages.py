"""The HTML of the farm's sites: listing pages, data fragments and robots.txt, defects included.

Every page is a pure function of the site and the page number (``render_page``), so a farm
seed gives byte-identical pages. What the simulator draws as extraction quality is written
into the markup, where real scrapers meet it:

- **Regular markup**: item cards (``div.item`` with ``span.f-<field>``); **irregular markup**: a
  table whose header labels the columns, with rows laid out as label lines (``tr.promo``,
  ``HIDDEN_ROW_SHARE``) that positional templates miss, and one *mislabelled cell*: the class of
  the field that CSS selectors break on (``rlm_gym.envs.items.BREAKS["css"]``) sits on a
  neighbouring cell holding the wrong value.
- **Lazy values**: on ``DEFECT_SHARE`` of the rows two fields show a placeholder ("N/A") and UI
  text ("Loading...") while the value is in the cell's ``data-value``.
- **Sponsored rows** (``SPONSORED_SHARE``) marked ``data-sponsored``.
- **JSON-LD** (``<script type="application/ld+json">``) on sites that publish it, with a
  placeholder on ``JSON_LD_DEFECT_SHARE`` of the rows.
- On irregular markup without JSON-LD, the field that heuristics break on
  (``BREAKS["heuristic"]``) is shown the way it fooled real scrapers: a rating as a bubble
  class (``bubble_45``), a price under a wrong charset header (mojibake), analytics script inside
  the article body, a Cloudflare-obfuscated e-mail, a double-escaped description (entity residue).
- Rendering: client-only sites send a shell whose script fetches the items from the data
  endpoint it names; hydrated ones add the framework's state blob.
- Pagination controls as the profile says, with the probe-visible markers (``rel="next"``,
  "Load more", an ``IntersectionObserver`` script, ``?page=N`` links) present only where the
  site has the feature.

Example:
    >>> from rlm_gym.live.sites import make_site
    >>> site = make_site(0, 3)
    >>> page = render_page(site, 1, "/s/3/")
    >>> page.body.startswith(b"<!DOCTYPE html>"), page.status
    (True, 200)
"""

from __future__ import annotations

import html
import json
from typing import Any, NamedTuple

from rlm_gym.envs.items import BREAKS, UNIQUE_FIELD
from rlm_gym.envs.profiles import SCHEMAS
from rlm_gym.live.sites import (
    DEFECT_SHARE,
    HIDDEN_ROW_SHARE,
    JSON_LD_DEFECT_SHARE,
    SPONSORED_SHARE,
    Site,
    page_truth,
)

__all__ = [
    "Page",
    "PLACEHOLDER",
    "UI_TEXT",
    "CURRENCY_SYMBOLS",
    "label",
    "value_text",
    "render_page",
    "render_fragment",
    "render_robots",
    "cursor_for",
    "page_of_cursor",
    "mojibake_site",
]

PLACEHOLDER = "N/A"
UI_TEXT = "Loading..."
CURRENCY_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "VND": "₫"}
_NAV_TEXT = "Home · Catalogue · Deals · About us · Contact · Help"
# Padding per rendering so a page's text-to-HTML ratio lands near the simulator's
# (``observation.TEXT_RATIO``: about 0.30 static, 0.18 hydrated, 0.03 for a client-only shell).
_STYLE = "body{font-family:sans-serif;margin:0}.item{border:1px solid #ddd;padding:8px}"
# A client-side rendered shell ships its app's configuration inline (most of its bytes).
_APP_CONFIG = "window.__APP_CONFIG__ = " + json.dumps(
    {"routes": [f"/catalogue/{n}" for n in range(120)], "features": {"ab": True, "lazy": True}}
)


class Page(NamedTuple):
    """A response body with its status and headers."""

    status: int
    headers: dict[str, str]
    body: bytes


def label(field: str) -> str:
    """The human label a site prints for a field (``"date_published"`` → ``"Date published"``)."""
    return field.replace("_", " ").capitalize()


def value_text(field: str, value: Any, currency: str | None = None) -> str:
    """How a value is printed on a page (prices with two decimals and a currency symbol)."""
    if field == "price":
        return f"{CURRENCY_SYMBOLS.get(currency or 'USD', '$')}{value:.2f}"
    return str(value)


def _data_value(field: str, value: Any) -> str:
    return f"{value:.2f}" if field == "price" else str(value)


def mojibake_site(site: Site) -> bool:
    """Whether the site's pages carry a wrong charset header (price heuristics break on it)."""
    profile = site.profile
    broken = not profile.regular_markup and not profile.json_ld
    return broken and BREAKS["heuristic"][profile.pattern_type][0] == "price"


def cursor_for(site: Site, page: int) -> str:
    """The opaque cursor of page ``page`` on a site without replayable page URLs."""
    return f"c{page * 7919 + site.index % 7919:x}"


def page_of_cursor(site: Site, cursor: str) -> int | None:
    """The page a cursor points at, or None if it is not one of the site's cursors."""
    try:
        number = int(cursor[1:], 16) if cursor.startswith("c") else -1
    except ValueError:
        return None
    page, rest = divmod(number - site.index % 7919, 7919)
    return page if rest == 0 and page >= 1 else None


def _rows(site: Site, page: int) -> list[dict[str, Any]]:
    """The page's rows as printed: each the entity plus its row flags."""
    truth = page_truth(site, page)
    count = len(truth)
    # Shares of rows, floored as the simulator floors them (1e-9: 1 - 0.9 is 0.0999...).
    lazy = int(count * DEFECT_SHARE + 1e-9)
    json_ld_bad = int(count * JSON_LD_DEFECT_SHARE + 1e-9)
    sponsored = int(count * SPONSORED_SHARE + 1e-9)
    hidden = int(count * HIDDEN_ROW_SHARE + 1e-9)
    # Lazy rows first, then the rows laid out as label lines, sponsored ones last: disjoint.
    rows = []
    for j, item in enumerate(truth):
        rows.append(
            {
                "item": item,
                "lazy": j < lazy,
                "json_ld_bad": j < json_ld_bad,
                "hidden": lazy <= j < lazy + hidden,
                "sponsored": j >= count - sponsored,
            }
        )
    return rows


def _damageable(pattern_type: str) -> tuple[str, ...]:
    return tuple(f for f in SCHEMAS[pattern_type] if f != UNIQUE_FIELD[pattern_type])


def _heuristic_break(site: Site) -> str | None:
    """The field shown in its misleading form (irregular markup, no JSON-LD), or None."""
    profile = site.profile
    if profile.regular_markup or profile.json_ld:
        return None
    return BREAKS["heuristic"][profile.pattern_type][0]


def _cell_html(site: Site, field: str, item: dict[str, Any], lazy: str | None) -> tuple[str, str]:
    """``(attributes, inner html)`` of a field's element: the value, its lazy placeholder, or
    the heuristic-breaking form."""
    value = item[field]
    if field == "reviews":
        inner = "".join(
            f'<li class="review"><span class="r-author">{html.escape(r["author"])}</span> '
            f'<span class="r-rating" data-value="{r["rating"]}">{r["rating"]}/5</span> '
            f'<span class="r-text">{html.escape(r["text"])}</span></li>'
            for r in value
        )
        return "", f'<ul class="reviews">{inner}</ul>'
    attributes = f' data-value="{html.escape(_data_value(field, value))}"'
    if lazy is not None:
        return attributes, html.escape(lazy)
    if field == _heuristic_break(site):
        return attributes, _broken_html(site.profile.pattern_type, field, item)
    text = value_text(field, value, item.get("price_currency"))
    if field == "email":
        return attributes, f'<a href="mailto:{value}">{html.escape(text)}</a>'
    return attributes, html.escape(text)


def _broken_html(pattern_type: str, field: str, item: dict[str, Any]) -> str:
    value = item[field]
    if field == "rating":
        return (
            f'<span class="ui_bubble_rating bubble_{round(float(value) * 10)}" '
            f'aria-label="{value} of 5 bubbles"></span>'
        )
    if field == "price":  # UTF-8 under a latin-1 header (``mojibake_site``); NBSP after "$" too
        symbol = CURRENCY_SYMBOLS.get(item.get("price_currency") or "USD", "$")
        return html.escape(f"{symbol}\u00a0{value:.2f}")
    if field == "content":
        script = "window.dataLayer = window.dataLayer || []; dataLayer.push({});"
        return f"<script>{script}</script>{html.escape(value)}"
    if field == "email":
        return (
            f'<a href="mailto:{value}"><span class="__cf_email__" data-cfemail="'
            f'{value.encode().hex()}">[email&#160;protected]</span></a>'
        )
    # Entity residue: the description escaped twice by the site's template.
    return html.escape(html.escape(f"<p>{value}</p>"))


def _card(site: Site, row: dict[str, Any]) -> str:
    item = row["item"]
    fields = SCHEMAS[site.profile.pattern_type]
    lazy = dict(zip(_damageable(site.profile.pattern_type), (PLACEHOLDER, UI_TEXT), strict=False))
    parts = []
    for field in fields:
        attributes, inner = _cell_html(site, field, item, lazy.get(field) if row["lazy"] else None)
        tag = "div" if field == "reviews" else "span"
        parts.append(f'<{tag} class="f-{field}"{attributes}>{inner}</{tag}>')
    sponsored = ' data-sponsored="1"' if row["sponsored"] else ""
    return f'<div class="item"{sponsored}>{"".join(parts)}</div>'


def _css_break(site: Site) -> tuple[str, Any] | None:
    """The field whose class sits on a neighbouring cell (irregular markup), and its maker."""
    return None if site.profile.regular_markup else BREAKS["css"][site.profile.pattern_type]


def _table(site: Site, rows: list[dict[str, Any]]) -> str:
    """Irregular markup: a listing table (many items) or one record as label rows."""
    fields = SCHEMAS[site.profile.pattern_type]
    decoy = _css_break(site)
    lazy_fields = _damageable(site.profile.pattern_type)
    if site.profile.items_per_page == 1:
        row = rows[0]
        lines = []
        for n, field in enumerate(fields):
            lazy = dict(zip(lazy_fields, (PLACEHOLDER, UI_TEXT), strict=False))
            attributes, inner = _cell_html(
                site, field, row["item"], lazy.get(field) if row["lazy"] else None
            )
            css = "x" if decoy and decoy[0] == field else field
            parity = "odd" if n % 2 else "even"
            lines.append(
                f'<tr class="{parity}"><th>{label(field)}</th>'
                f'<td class="{css}"{attributes}>{inner}</td></tr>'
            )
        if decoy:
            wrong = html.escape(str(decoy[1](row["item"])))
            lines.append(
                f'<tr class="odd"><th>Details</th><td class="{decoy[0]}">{wrong}</td></tr>'
            )
        return f'<table class="record">{"".join(lines)}</table>'
    header = "".join(f"<th>{label(f)}</th>" for f in fields)
    if decoy:
        header += "<th>Details</th>"
    lines = [f"<tr>{header}</tr>"]
    for n, row in enumerate(rows):
        item = row["item"]
        sponsored = ' data-sponsored="1"' if row["sponsored"] else ""
        if row["hidden"]:
            text = "".join(_label_line(site, f, item) for f in fields)
            lines.append(
                f'<tr class="promo"{sponsored}><td colspan="{len(fields)}">{text}</td></tr>'
            )
            continue
        lazy = dict(zip(lazy_fields, (PLACEHOLDER, UI_TEXT), strict=False))
        cells = []
        for field in fields:
            attributes, inner = _cell_html(
                site, field, item, lazy.get(field) if row["lazy"] else None
            )
            css = "x" if decoy and decoy[0] == field else field
            cells.append(f'<td class="{css}"{attributes}>{inner}</td>')
        if decoy:
            cells.append(f'<td class="{decoy[0]}">{html.escape(str(decoy[1](item)))}</td>')
        parity = "odd" if n % 2 else "even"
        lines.append(f'<tr class="{parity}"{sponsored}>{"".join(cells)}</tr>')
    return f'<table class="listing">{"".join(lines)}</table>'


def _label_line(site: Site, field: str, item: dict[str, Any]) -> str:
    attributes, inner = _cell_html(site, field, item, None)
    value = f'<div class="v"{attributes}>{inner}</div>'
    return f'<div class="line"><b>{label(field)}</b>: {value}</div>'


def _json_ld(site: Site, rows: list[dict[str, Any]]) -> str:
    if not site.profile.json_ld:
        return ""
    first = _damageable(site.profile.pattern_type)[0]
    elements = []
    for row in rows:
        element = dict(row["item"])
        if row["json_ld_bad"]:
            element[first] = PLACEHOLDER
        elements.append(element)
    data = {"@context": "https://schema.org", "@type": "ItemList", "itemListElement": elements}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return f'<script type="application/ld+json">{text}</script>'


def _pagination(site: Site, page: int, base: str) -> str:
    """The pagination controls of page ``page`` (none on the last page but numbered links)."""
    profile = site.profile
    features = site.features
    kind = profile.pagination
    more = page < profile.total_pages
    replayable = kind == 1 or profile.url_replayable
    parts = []
    if kind == 1:
        for n in range(1, profile.total_pages + 1):
            href = f"{base}?page={n}" if "hint_page_links" in features else f"{base}?p={n}"
            parts.append(f'<a class="page" href="{href}">{n}</a>')
        if more and "hint_next_link" in features:
            parts.append(f'<a class="next" rel="next" href="{base}?page={page + 1}">Next</a>')
    elif kind == 2 and more:
        target = (
            f'href="{base}?page={page + 1}"'
            if replayable
            else f'href="#" data-cursor="{cursor_for(site, page + 1)}"'
        )
        if "hint_next_link" in features:
            parts.append(f'<a class="next" rel="next" {target}>Next \u203a</a>')
        else:
            parts.append(f'<a class="pager-fwd" {target}>\u203a</a>')
    elif kind in (3, 4) and more:
        source = (
            f'data-next="{base}api/items?page={page + 1}"'
            if replayable
            else f'data-cursor="{cursor_for(site, page + 1)}"'
        )
        if kind == 3:
            text = "Load more" if "hint_load_more" in features else "Show more results"
            parts.append(f'<button class="load-more" {source}>{text}</button>')
        else:
            parts.append(f'<div class="sentinel" {source}></div>')
    return f'<nav class="pagination">{"".join(parts)}</nav>'


def _items_html(site: Site, page: int, base: str) -> str:
    """The part of a page a browser gets from the data endpoint: items, JSON-LD, pagination."""
    rows = _rows(site, page)
    if not rows:
        return '<p class="empty">No results.</p>'
    body = _table(site, rows) if not site.profile.regular_markup else _cards(site, rows)
    return body + _json_ld(site, rows) + _pagination(site, page, base)


def _cards(site: Site, rows: list[dict[str, Any]]) -> str:
    return f'<div class="items">{"".join(_card(site, row) for row in rows)}</div>'


def _head_extras(site: Site, page: int, base: str) -> str:
    features = site.features
    parts = []
    if "probe_framework" in features:
        parts.append('<script src="/static/react.production.min.js" defer></script>')
    if "probe_bot_script" in features:
        parts.append('<script src="/cdn-cgi/challenge-platform/fingerprint.js" async></script>')
    if site.profile.pattern_type == "generic_extraction":
        rows = page_truth(site, page)
        if rows:
            parts.append(f'<link rel="canonical" href="{base}?page={page}">')
            description = html.escape(rows[0]["description"])
            parts.append(f'<meta name="description" content="{description}">')
    return "".join(parts)


def _decoys(site: Site) -> str:
    """Probe-visible markers on sites whose pagination is of another kind (the probe's noise)."""
    features = site.features
    kind = site.profile.pagination
    parts = []
    if "hint_page_links" in features and kind != 1:
        parts.append('<a href="/archive?page=2">2</a>')
    if "hint_next_link" in features and kind not in (1, 2):
        parts.append('<a rel="next" href="/blog/next-post">Next post</a>')
    if "hint_load_more" in features and kind != 3:
        parts.append('<button class="more-reviews">Load more reviews</button>')
    if "hint_infinite_scroll" in features and kind != 4:
        parts.append("<script>new IntersectionObserver(lazyImages)</script>")
    elif kind == 4 and "hint_infinite_scroll" not in features:
        parts.append("<script>window.addEventListener('scroll', loadNext)</script>")
    elif kind == 4:
        parts.append("<script>new IntersectionObserver(loadNext).observe(sentinel)</script>")
    return "".join(parts)


def render_page(site: Site, page: int, base: str) -> Page:
    """The HTML document of page ``page`` (1-based; past the last page an empty listing).

    Args:
        site: The site.
        page: The page number.
        base: The site's path on the farm (``/s/<index>/``); links are built on it.
    """
    profile = site.profile
    title = f"{profile.domain} — page {page}"
    if profile.rendering == 2:
        main = (
            '<div class="spinner">Loading...</div>'
            f'<script>fetch("{base}api/render?page={page}").then(r => r.json())'
            ".then(d => { document.getElementById('app').innerHTML = d.html; });</script>"
            f"<script>{_APP_CONFIG}</script>"
        )
    else:
        main = _items_html(site, page, base)
    state = ""
    if profile.rendering == 1:
        blob = json.dumps({"props": {"page": page, "items": page_truth(site, page)}})
        state = f'<script id="__NEXT_DATA__" type="application/json">{blob}</script>'
    overlay = (
        '<div class="cookie-banner" style="position:fixed;inset:0;z-index:9999">'
        "We use cookies. <button>Accept</button></div>"
        if profile.click_overlay
        else ""
    )
    document = (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f"<style>{_STYLE}</style>{_head_extras(site, page, base)}</head><body>"
        f"<header><nav>{_NAV_TEXT}</nav></header>{overlay}"
        f'<main id="app">{main}</main>{state}'
        f"<footer>{_decoys(site)}<p>© {profile.domain}</p></footer></body></html>"
    )
    charset = "iso-8859-1" if mojibake_site(site) else "utf-8"
    headers = {"Content-Type": f"text/html; charset={charset}"}
    if "probe_waf_header" in site.features:
        headers.update({"Server": "cloudflare", "CF-RAY": f"{site.index:x}-LHR"})
    return Page(200, headers, document.encode("utf-8"))


def render_fragment(site: Site, page: int, base: str) -> Page:
    """The data endpoint's answer for page ``page``: JSON ``{"page", "html"}`` with the items,
    their JSON-LD and the pagination controls (what a browser inserts into the page).

    On a mojibake site the backend stores its prices mis-encoded (a double encoding), so the
    fragment's text carries the same mojibake a wrong charset header gives a document.
    """
    fragment = _items_html(site, page, base)
    if mojibake_site(site):
        for symbol in (*CURRENCY_SYMBOLS.values(), "\u00a0"):
            fragment = fragment.replace(symbol, symbol.encode("utf-8").decode("latin-1"))
    body = json.dumps({"page": page, "html": fragment}, ensure_ascii=False).encode("utf-8")
    return Page(200, {"Content-Type": "application/json; charset=utf-8"}, body)


def render_robots(site: Site) -> Page:
    """robots.txt: everything allowed; rate-limited sites ask for a crawl delay."""
    delay = "Crawl-delay: 5\n" if site.profile.protection == 1 else ""
    body = f"User-agent: *\nAllow: /\n{delay}".encode()
    return Page(200, {"Content-Type": "text/plain; charset=utf-8"}, body)
