"""Generated items of the simulated crawl: distinct records, defects as real scrapers make them.

Every extracted row is one *entity* of the site (entity ``n`` of a pattern type always has the
same values, and one of its fields is unique to it, so distinct entities never collide), as the
extractor saw it. Three kinds of damage, each as the real-data corpus (``realdata/README.md``
of the labelled corpora, 30 real scraper outputs: 19 flawed, 2 broken) shows them:

- **Systematic field breaks** (the crawl reward's "systematic defects"): an extractor that
  breaks one field on *every* item of a site. CSS selectors on irregular markup grab the wrong
  column (``BREAKS["css"]``: the product link where the rating belongs, a date under
  ``author``, the address under ``phone`` — corpus: idealista's floor in ``Superficie``,
  detik's section headings as titles); heuristics without JSON-LD read the field from page text
  (``BREAKS["heuristic"]``: ratings x10 from a star-bubble class, mis-encoded prices, script text
  in the body, obfuscated e-mails, ``<built-in method …>`` residue — corpus: justdial and
  tripadvisor x10, daraz mis-encoding, kompas script, otodom code residue). In the corpus 12 of
  30 crawls carry such a break; in the simulator a fixed CSS pipeline meets one on the 45 % of
  sites with irregular markup, a fixed heuristic pipeline on the ≈ 25 % with irregular markup
  and no JSON-LD; the LLM never breaks a field systematically.
- **Sporadic defects** on a share of rows below the 20 % defect threshold (``floor(rows x
  share)``, so they never add up to a systematic defect): CSS drops two fields, heuristics fill
  two with placeholders (``"N/A"``, ``"-"``), the LLM misreads one value (a price, date or rating
  that does not parse, else a truncated ``"…"``), as LLM extraction benchmarks measure
  (F1 ≈ 0.96).
- **Duplicate rows**: URL navigation on a site whose pagination is not URL-based (next links,
  load-more or infinite scroll without a replayable URL: ≈ 27 % of sites) re-serves page 1,
  whose rows the scraper writes again (corpus: clutch's first page written 3x, naukri's jobs 4x,
  afisha 24 %, daraz 22 % duplicates — 5 of 30 crawls). The rows of a re-served page repeat
  the extractor's own first page exactly; they count as pages collected, not as new items.

A block of the crawl result is ``(extractor, per_page, pages, duplicate_pages, defective,
broken)``; ``build_items`` is a pure function of the blocks, so the crawl score of a state is
cached by its blocks (``rlm_gym.envs.scoring``) and equals ``crawl_reward`` of the result the env
returns, value for value.

Example:
    >>> items = build_items("product_list", ((0, 3, 1, 0, 1, False),))
    >>> len(items), sorted(items[0]), sorted(items[1])
    (3, ['price', 'product_name'], ['price', 'product_name', 'product_url', 'rating'])
"""

from __future__ import annotations

import random
from typing import Any

from rlm_gym.envs.profiles import SCHEMAS, SIMULATED_PATTERN_TYPES

__all__ = [
    "BREAKS",
    "SPORADIC_KINDS",
    "UNIQUE_FIELD",
    "entity",
    "build_items",
    "defective_copy",
    "broken_copy",
]

_ADJECTIVES = ("compact", "classic", "wireless", "organic", "premium", "ergonomic", "smart")
_NOUNS = ("kettle", "backpack", "headphones", "desk lamp", "sneakers", "blender", "notebook")
_PEOPLE = (
    "Alice Nguyen", "Bao Tran", "Carlos Diaz", "Dana Smith", "Emeka Obi", "Fatima Khan",
    "Greta Lind", "Hiro Sato", "Ines Costa",
)  # fmt: skip
_WORDS = ("fast", "reliable", "sturdy", "great value", "well made", "arrived quickly", "quiet")
_TOPICS = ("city council", "rail strike", "harbour festival", "school budget", "new bridge")
_STREETS = ("Main St", "Oak Avenue", "Harbour Road", "Le Loi", "Station Road")
_CURRENCIES = ("USD", "EUR", "GBP", "VND")
_AVAILABILITY = ("in stock", "out of stock", "pre-order", "limited stock")


def _date(rng: random.Random) -> str:
    return f"20{rng.randint(18, 25)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def _values(pattern_type: str, serial: int) -> dict[str, Any]:
    """Entity ``serial``'s valid values (serial-specific fields keep entities distinct)."""
    rng = random.Random(f"rlm_gym.envs.items:{pattern_type}:{serial}")
    person = _PEOPLE[serial % len(_PEOPLE)]
    model = 1000 + serial
    product = f"{rng.choice(_ADJECTIVES).title()} {rng.choice(_NOUNS)} {model}"
    makers = {
        "headline": lambda: f"{rng.choice(_TOPICS).capitalize()}: update {model}",
        "author": lambda: person,
        "date_published": lambda: _date(rng),
        "content": lambda: f"Report {model}. " + _sentence(rng, 30),
        "name": lambda: person,
        "email": lambda: f"contact{model}@example.com",
        "phone": lambda: f"+1 555 {rng.randint(100, 999)} {model % 10000:04d}",
        "address": lambda: f"{rng.randint(1, 400)} {rng.choice(_STREETS)}",
        "product_name": lambda: product,
        "price": lambda: round(rng.uniform(4.0, 900.0), 2),
        "price_currency": lambda: rng.choice(_CURRENCIES),
        "availability": lambda: rng.choice(_AVAILABILITY),
        "rating": lambda: round(rng.uniform(1.0, 5.0), 1),
        "product_url": lambda: f"/products/item-{model}",
        "review_text": lambda: f"Order {model}: " + _sentence(rng, 12),
        "reviews": lambda: [
            {
                "author": _PEOPLE[(serial + index) % len(_PEOPLE)],
                "rating": rng.randint(1, 5),
                "text": _sentence(rng, 6),
            }
            for index in range(rng.randint(1, 3))
        ],
        "title": lambda: f"Page {model}: " + _sentence(rng, 3),
        "url": lambda: f"/pages/{model}",
        "description": lambda: _sentence(rng, 10),
    }
    return {name: makers[name]() for name in SCHEMAS[pattern_type]}


_ENTITIES: dict[str, list[dict[str, Any]]] = {name: [] for name in SIMULATED_PATTERN_TYPES}


def entity(pattern_type: str, serial: int) -> dict[str, Any]:
    """Entity ``serial`` of a pattern type (built once, then shared: copy before changing).

    Example:
        >>> entity("contact_info", 0) == entity("contact_info", 0)
        True
        >>> entity("contact_info", 0) != entity("contact_info", 1)
        True
    """
    entities = _ENTITIES[pattern_type]
    while len(entities) <= serial:
        entities.append(_values(pattern_type, len(entities)))
    return entities[serial]


# The value an LLM "misreads" into, by the first field kind present in the schema.
_MALFORMED: tuple[tuple[str, str], ...] = (
    ("price", "see price in cart"),
    ("date_published", "last Tuesday"),
    ("rating", "4.5 stars out of"),
)
SPORADIC_KINDS: tuple[str, ...] = ("missing", "placeholder", "malformed")

# Systematic breaks per extractor and pattern type: (field, how the broken value is made from
# the entity). CSS: the selector grabs the neighbouring column; heuristics: the field is read
# from page text the way real scrapers got it wrong.
BREAKS: dict[str, dict[str, tuple[str, Any]]] = {
    "css": {
        "article_extraction": ("author", lambda item: item["date_published"]),
        "contact_info": ("phone", lambda item: item["address"]),
        "price_extraction": ("price", lambda item: item["availability"]),
        "product_list": ("rating", lambda item: item["product_url"]),
        "review_extraction": ("author", lambda item: f"{round(item['rating'])} stars"),
        "product_with_reviews": ("price", lambda item: f"{item['rating']} out of 5 stars"),
        "generic_extraction": ("url", lambda item: item["title"]),
    },
    "heuristic": {
        "article_extraction": (
            "content",
            lambda item: "window.dataLayer = window.dataLayer || []; dataLayer.push({});",
        ),
        "contact_info": ("email", lambda item: "[email protected]"),
        "price_extraction": ("price", lambda item: f"Â£{item['price']:.2f}"),
        "product_list": ("rating", lambda item: round(item["rating"] * 10)),
        "review_extraction": ("rating", lambda item: str(round(item["rating"] * 10))),
        "product_with_reviews": ("rating", lambda item: round(item["rating"] * 10)),
        "generic_extraction": (
            "description",
            lambda item: "<built-in method strip of str object at 0x7f3a2c1b9e70>",
        ),
    },
}
_EXTRACTOR_NAMES = ("css", "heuristic", "llm")


# The field that holds an entity's unique value, per pattern type: sporadic defects spare it,
# so defective rows of distinct entities stay distinct.
UNIQUE_FIELD: dict[str, str] = {
    "article_extraction": "headline",
    "contact_info": "email",
    "price_extraction": "product_name",
    "product_list": "product_name",
    "review_extraction": "review_text",
    "product_with_reviews": "product_name",
    "generic_extraction": "title",
}


def _malformed_field(fields: tuple[str, ...]) -> tuple[str, str]:
    for name, value in _MALFORMED:
        if name in fields:
            return name, value
    return fields[0], "…"


def defective_copy(item: dict[str, Any], fields: tuple[str, ...], kind: str) -> dict[str, Any]:
    """A copy of ``item`` with the sporadic defect of ``kind`` (``SPORADIC_KINDS``) on
    ``fields`` (the entity's fields but its unique one): ``missing`` drops the last two,
    ``placeholder`` fills the first two with "N/A" and "-", ``malformed`` misreads one.

    Example:
        >>> defective_copy({"a": 1, "b": 2, "c": 3}, ("b", "c"), "placeholder")
        {'a': 1, 'b': 'N/A', 'c': '-'}
    """
    copy = dict(item)
    if kind == "missing":
        for name in fields[-2:]:
            del copy[name]
    elif kind == "placeholder":
        copy[fields[0]] = "N/A"
        copy[fields[1]] = "-"
    else:
        name, value = _malformed_field(fields)
        copy[name] = value
    return copy


def broken_copy(
    item: dict[str, Any], pattern_type: str, extractor: int, source: dict[str, Any] | None = None
) -> dict[str, Any]:
    """``item`` with the systematic break of ``extractor`` (0 CSS, 1 heuristics) applied, the
    broken value made from ``source`` (the clean entity; ``item`` when None).

    Example:
        >>> broken_copy({"rating": 4.5, "price": 10.0}, "product_list", 1)["rating"]
        45
    """
    name, make = BREAKS[_EXTRACTOR_NAMES[extractor]][pattern_type]
    copy = dict(item)
    if name in copy:
        copy[name] = make(item if source is None else source)
    return copy


_DAMAGEABLE: dict[str, tuple[str, ...]] = {
    name: tuple(field for field in SCHEMAS[name] if field != UNIQUE_FIELD[name])
    for name in SIMULATED_PATTERN_TYPES
}


def _row(pattern_type: str, serial: int, extractor: int, defective: bool, broken: bool) -> dict:
    clean = item = entity(pattern_type, serial)
    if defective:
        item = defective_copy(item, _DAMAGEABLE[pattern_type], SPORADIC_KINDS[extractor])
    if broken:
        item = broken_copy(item, pattern_type, extractor, clean)
    return item if defective or broken else dict(item)


def build_items(
    pattern_type: str, blocks: tuple[tuple[int, int, int, int, int, bool], ...]
) -> list[dict[str, Any]]:
    """Generate the extracted rows of a crawl.

    Args:
        pattern_type: The site's pattern type (picks the schema and the entities).
        blocks: ``(extractor, per_page, pages, duplicate_pages, defective, broken)`` per
            extractor used: 0 = CSS, 1 = heuristics, 2 = the LLM; rows per page; pages of new
            items and re-served pages it extracted; how many of its new rows carry its
            sporadic defect (the first ones); whether its systematic break applies.

    Returns:
        The rows: each block's new rows (entities numbered on across blocks), then the rows of
        its re-served pages (copies of its own first page).
    """
    items: list[dict[str, Any]] = []
    serial = 0
    entities = _ENTITIES[pattern_type]
    for extractor, per_page, pages, duplicate_pages, defective, broken in blocks:
        rows = pages * per_page
        if len(entities) < serial + rows:
            entity(pattern_type, serial + rows)
        start = len(items)
        if broken:
            for index in range(rows):
                items.append(_row(pattern_type, serial + index, extractor, index < defective, True))
        else:
            for index in range(min(defective, rows)):
                items.append(_row(pattern_type, serial + index, extractor, True, False))
            # Clean rows: plain copies of the entities (the common case, kept fast).
            items.extend(map(dict, entities[serial + min(defective, rows) : serial + rows]))
        if duplicate_pages:
            if rows:
                first_page = items[start : start + per_page]
            else:
                first_page = [
                    _row(pattern_type, index, extractor, False, broken) for index in range(per_page)
                ]
            for _ in range(duplicate_pages):
                items.extend(map(dict, first_page))
        serial += rows
    return items
