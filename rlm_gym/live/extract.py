"""Real extraction on the farm's pages, with parsel (Scrapy's selectors): three extractors and the
probe's signals.

- ``extract_css``: the pattern type's CSS templates (``.f-<field>`` in item cards, ``td.<field>``
  in tables), reading a cell's ``data-value`` before its text. Reliable on regular markup; on
  irregular markup it misses the rows laid out as label lines and reads a mislabelled cell.
- ``extract_heuristic``: JSON-LD when the page has it; otherwise repeated-block detection with
  columns named by their labels, reading the *visible* text as a readability-style extractor
  does (so lazy placeholders, bubble classes, mojibake, script text and double-escaped entities
  come through), with an ad filter that drops sponsored rows.
- ``extract_llm``: a stand-in for an LLM reading the page as text (no model is called): labelled
  visible text without scripts, links and ARIA labels resolved, entities unescaped and mojibake
  repaired, as LLM extractors do; capped at ``COSTS["llm_item_cap"]`` rows (the output limit).

``same_row`` decides whether an extracted row equals a true one (values normalised as printed).

Example:
    >>> from rlm_gym.live.sites import make_site
    >>> from rlm_gym.live.pages import render_page
    >>> site = make_site(0, 0)
    >>> dom = render_page(site, 1, "/s/0/").body.decode()
    >>> rows = extract_css(dom, site.profile.pattern_type)
    >>> len(rows) < site.profile.items_per_page  # label-line rows are missed on irregular markup
    True
"""

from __future__ import annotations

import contextlib
import html
import json
import re
from collections import Counter
from typing import Any

from parsel import Selector

from rlm_gym.envs.dynamics import COSTS
from rlm_gym.envs.profiles import SCHEMAS
from rlm_gym.live.pages import CURRENCY_SYMBOLS, label

__all__ = [
    "EXTRACTORS",
    "extract",
    "extract_css",
    "extract_heuristic",
    "extract_llm",
    "parse",
    "text_ratio",
    "probe_signals",
    "pagination_state",
    "same_row",
]

_LLM_CAP = int(COSTS["llm_item_cap"])
_SPACES = re.compile(r"\s+")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_TAGS = re.compile(r"<[^>]+>")
_ITEM_BLOCKS = "div.items > div.item, table.listing tr, table.record"


def parse(dom: str | Selector) -> Selector:
    """``dom`` parsed (a ``Selector`` passes through: parse a page once, read it many times)."""
    return dom if isinstance(dom, Selector) else Selector(text=dom or "<html></html>")


def _classes(element: Any) -> list[str]:
    return (element.get("class") or "").split()


def _text(element: Any) -> str:
    """All the text under ``element``, scripts included (what ``string()`` gives a scraper)."""
    return _SPACES.sub(" ", "".join(element.itertext())).strip()


def _visible_parts(element: Any):
    if element.tag not in ("script", "style") and element.text:
        yield element.text
    for child in element:
        if isinstance(child.tag, str):
            yield from _visible_parts(child)
        if child.tail:
            yield child.tail


def _visible(element: Any, repair: bool = False) -> str:
    """The text a reader sees: no script or style content (``repair``: read through entities
    and mojibake before the spaces are normalised)."""
    text = " ".join(_visible_parts(element))
    return _SPACES.sub(" ", _repair(text) if repair else text).strip()


def _first(element: Any, tag: str, css_class: str | None = None) -> Any:
    for found in element.iter(tag):
        if css_class is None or css_class in _classes(found):
            return found
    return None


def _mailto(element: Any) -> str | None:
    for link in element.iter("a"):
        href = link.get("href") or ""
        if href.startswith("mailto:"):
            return href[len("mailto:") :]
    return None


def _labels(fields: tuple[str, ...]) -> dict[str, str]:
    return {label(field).lower(): field for field in fields}


def _reviews(element: Any, rating_attribute: bool) -> list[dict[str, str]]:
    reviews = []
    for review in element.iter("li"):
        if "review" not in _classes(review):
            continue
        parts = {c: node for node in review if (c := (node.get("class") or ""))}
        rating = parts.get("r-rating")
        reviews.append(
            {
                "author": _text(parts["r-author"]) if "r-author" in parts else "",
                "rating": (rating.get("data-value", "") if rating_attribute else _text(rating))
                if rating is not None
                else "",
                "text": _text(parts["r-text"]) if "r-text" in parts else "",
            }
        )
    return reviews


# ---------------------------------------------------------------------------------- CSS
def _css_value(field: str, element: Any) -> Any:
    if field == "reviews":
        return _reviews(element, rating_attribute=True)
    value = element.get("data-value")
    if value is not None:
        return value
    return _mailto(element) or _text(element)


def extract_css(dom: str | Selector, pattern_type: str) -> list[dict[str, Any]]:
    """Rows by the pattern type's CSS templates (see the module docstring): ``.f-<field>`` in
    a card, ``td.<field>`` in a table row; the first match of each."""
    fields = SCHEMAS[pattern_type]
    wanted = {f"f-{field}": field for field in fields}
    wanted.update({field: field for field in fields})
    rows = []
    for block in parse(dom).css(_ITEM_BLOCKS):
        row: dict[str, Any] = {}
        for element in block.root.iter("span", "div", "td"):
            for css_class in _classes(element):
                field = wanted.get(css_class)
                is_cell = element.tag == "td" or css_class.startswith("f-")
                if field is not None and field not in row and is_cell:
                    row[field] = _css_value(field, element)
        if row:
            rows.append(row)
    return rows


# ---------------------------------------------------------------------------------- blocks
def _blocks(page: Selector, fields: tuple[str, ...], skip_sponsored: bool) -> list[dict]:
    """Repeated blocks, each as ``{field: element}``."""
    names = _labels(fields)
    blocks: list[dict] = []
    for card in page.css("div.items > div.item"):
        root = card.root
        if skip_sponsored and root.get("data-sponsored"):
            continue
        block = {}
        for node in root:
            field = (node.get("class") or "")[2:]
            if field in fields:
                block[field] = node
        blocks.append(block)
    for table in page.css("table.listing"):
        rows = [tr for tr in table.root.iter("tr")]
        header = [names.get(_text(th).lower()) for th in rows[0].iter("th")] if rows else []
        for tr in rows[1:]:
            if skip_sponsored and tr.get("data-sponsored"):
                continue
            if "promo" in _classes(tr):
                blocks.append(_label_lines(tr, names))
                continue
            cells = [td for td in tr if td.tag == "td"]
            blocks.append({f: cells[i] for i, f in enumerate(header) if f and i < len(cells)})
    for table in page.css("table.record"):
        block = {}
        for tr in table.root.iter("tr"):
            th, td = _first(tr, "th"), _first(tr, "td")
            field = names.get(_text(th).lower()) if th is not None else None
            if field and field not in block and td is not None:
                block[field] = td
        blocks.append(block)
    return blocks


def _label_lines(row: Any, names: dict[str, str]) -> dict[str, Any]:
    """A row laid out as label lines (``<div class="line"><b>Label</b>: <div class="v">``)."""
    block = {}
    for line in row.iter("div"):
        if "line" not in _classes(line):
            continue
        name, value = _first(line, "b"), _first(line, "div", "v")
        field = names.get(_text(name).lower()) if name is not None else None
        if field and value is not None:
            block[field] = value
    return block


# ---------------------------------------------------------------------------------- heuristic
def _json_ld_rows(page: Selector, fields: tuple[str, ...]) -> list[dict[str, Any]] | None:
    scripts = page.css("script[type='application/ld+json']::text").getall()
    if not scripts:
        return None
    rows = []
    for script in scripts:
        try:
            data = json.loads(script)
        except ValueError:
            continue
        for element in data.get("itemListElement", []) if isinstance(data, dict) else []:
            if isinstance(element, dict):
                rows.append({f: element[f] for f in fields if f in element})
    return rows


def _heuristic_value(field: str, element: Any) -> Any:
    if field == "reviews":
        return _reviews(element, rating_attribute=False)
    text = _text(element)
    if not text:  # an icon: read the number its class carries (bubble_45)
        classes = " ".join(node.get("class") or "" for node in element.iter())
        number = _NUMBER.search(classes)
        return number.group(0) if number else ""
    return text


def extract_heuristic(dom: str | Selector, pattern_type: str) -> list[dict[str, Any]]:
    """Rows from JSON-LD, else from repeated blocks' visible text (see the module docstring)."""
    fields = SCHEMAS[pattern_type]
    page = parse(dom)
    rows = _json_ld_rows(page, fields)
    if rows is not None:
        return rows
    rows = []
    for block in _blocks(page, fields, skip_sponsored=True):
        row = {f: _heuristic_value(f, node) for f, node in block.items()}
        if row:
            rows.append(row)
    return rows


# ---------------------------------------------------------------------------------- LLM
def _repair(text: str) -> str:
    """Unescape entities, drop tags, undo UTF-8 read as latin-1 (what an LLM reads through)."""
    text = _TAGS.sub("", html.unescape(html.unescape(text)))
    if any(marker in text for marker in ("Â", "Ã", "â")):
        with contextlib.suppress(UnicodeEncodeError, UnicodeDecodeError):
            text = text.encode("latin-1").decode("utf-8")
    return text


def _llm_value(field: str, element: Any) -> Any:
    if field == "reviews":
        return _heuristic_value(field, element)
    text = _visible(element, repair=True)
    if field == "email" and "@" not in text:
        return _mailto(element) or text
    if not text:
        labelled = next((n for n in element.iter() if n.get("aria-label")), None)
        number = _NUMBER.search(labelled.get("aria-label")) if labelled is not None else None
        return number.group(0) if number else ""
    return text


def extract_llm(dom: str | Selector, pattern_type: str) -> list[dict[str, Any]]:
    """Rows as an LLM reads the page's text (see the module docstring), at most 20."""
    fields = SCHEMAS[pattern_type]
    rows = []
    for block in _blocks(parse(dom), fields, skip_sponsored=False):
        row = {f: _llm_value(f, node) for f, node in block.items()}
        if row:
            rows.append(row)
    return rows[:_LLM_CAP]


EXTRACTORS = (extract_css, extract_heuristic, extract_llm)


def extract(extractor: int, dom: str | Selector, pattern_type: str) -> list[dict[str, Any]]:
    """Rows of ``dom`` by extractor ``extractor`` (0 CSS, 1 heuristics, 2 the LLM stand-in)."""
    return EXTRACTORS[extractor](dom, pattern_type)


# ---------------------------------------------------------------------------------- pages
def pagination_state(dom: str | Selector) -> bool:
    """Whether the page shows a way to a further page (a next link, a numbered link past the
    current one, a load-more button or a scroll sentinel)."""
    page = parse(dom)
    nav = page.css("nav.pagination")
    if nav.css("a.next, a.pager-fwd, button.load-more, div.sentinel"):
        return True
    numbers = [int(n) for n in nav.css("a.page::text").getall() if n.isdigit()]
    current = page.css("title::text").re_first(r"page (\d+)")
    return bool(numbers) and current is not None and max(numbers) > int(current)


def text_ratio(page: Selector, size: int) -> float:
    """Visible text over the HTML's ``size`` in characters (a shell's is near 0)."""
    body = page.css("body")
    return min(1.0, len(_visible(body[0].root if body else page.root)) / max(1, size))


def probe_signals(status: int, headers: dict[str, str], dom: str) -> dict[str, float]:
    """The observation's probe entries that a plain-HTTP probe response shows.

    Returns ``probe_framework``, ``probe_text_ratio``, ``probe_waf_header``,
    ``probe_bot_script``, ``probe_status_403``, ``probe_status_429``, the four pagination hints,
    ``dom_regularity``, ``json_ld`` and the repeated blocks counted (``blocks``).
    """
    page = parse(dom)
    scripts = " ".join(page.css("script::text").getall())
    blocks = page.css("div.items > div.item, table.listing tr.odd, table.listing tr.even, "
                      "table.listing tr.promo, table.record tr")  # fmt: skip
    signatures = Counter((b.root.tag, b.attrib.get("class", "")) for b in blocks)
    regularity = max(signatures.values()) / len(blocks) if blocks else 0.0
    items = len(page.css("div.items > div.item")) + len(page.css("table.record"))
    items += max(0, len(page.css("table.listing tr")) - len(page.css("table.listing")))
    buttons = " ".join(page.css("button::text").getall()).lower()
    page_links = [t for t in page.css("a[href*='page=']::text").getall() if t.strip().isdigit()]
    return {
        "probe_framework": float(bool(page.css("script[src*='react']"))),
        "probe_text_ratio": text_ratio(page, len(dom)),
        "probe_waf_header": float("cf-ray" in headers or headers.get("server") == "cloudflare"),
        "probe_bot_script": float(bool(page.css("script[src*='challenge-platform']"))),
        "probe_status_403": float(status == 403),
        "probe_status_429": float(status == 429),
        "hint_page_links": float(bool(page_links)),
        "hint_next_link": float(bool(page.css("a[rel='next']"))),
        "hint_load_more": float("load more" in buttons),
        "hint_infinite_scroll": float("IntersectionObserver" in scripts),
        "dom_regularity": regularity,
        "json_ld": float(bool(page.css("script[type='application/ld+json']"))),
        "blocks": float(items),
    }


# ---------------------------------------------------------------------------------- truth
def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    text = str(value).strip()
    for symbol in CURRENCY_SYMBOLS.values():
        if text.startswith(symbol):
            text = text[len(symbol) :]
            break
    text = text.removesuffix("/5")
    try:
        return float(text)
    except ValueError:
        return None


def _same_value(extracted: Any, truth: Any) -> bool:
    if isinstance(truth, list):
        if not isinstance(extracted, list) or len(extracted) != len(truth):
            return False
        return all(
            isinstance(got, dict) and got.keys() == want.keys()
            and all(_same_value(got[k], want[k]) for k in want)
            for got, want in zip(extracted, truth, strict=True)
        )  # fmt: skip
    if isinstance(truth, (int, float)) and not isinstance(truth, bool):
        number = _number(extracted)
        return number is not None and abs(number - truth) < 1e-9
    return isinstance(extracted, str) and extracted.strip() == str(truth)


def same_row(row: Any, truth: dict[str, Any]) -> bool:
    """Whether extracted ``row`` has every field of ``truth`` right (values as printed: a price
    with its currency symbol equals its number; mojibake, placeholders and wrong columns do not).

    Example:
        >>> same_row({"price": "£4.50", "name": "a"}, {"price": 4.5, "name": "a"})
        True
        >>> same_row({"price": "Â£4.50", "name": "a"}, {"price": 4.5, "name": "a"})
        False
    """
    if not isinstance(row, dict):
        return False
    return all(field in row and _same_value(row[field], value) for field, value in truth.items())
