"""Generated item dicts and the end-of-episode crawl result (SPEC §5 shape).

Items come from a fixed pool of valid records per pattern type (built once at import); the
extraction's defects are applied deterministically: CSS on poor templates *misses* two required
fields, heuristics fill two with *placeholders* ("N/A", "-"), and the LLM *misreads* one (a price,
date or rating that does not parse, else a truncated "…"). Which items are defective follows the
defect counts of the state, so a result's score depends only on the counts, never on the values.

Example:
    >>> items = build_items("product_list", ((0, 3, 1),), offset=0)
    >>> len(items), sorted(items[0])
    (3, ['price', 'product_name'])
"""

from __future__ import annotations

import random
from typing import Any

from rlm_gym.envs.profiles import PATTERN_TYPES, SCHEMAS

__all__ = ["POOL_SIZE", "ITEM_POOLS", "build_items", "defective_copy"]

POOL_SIZE = 64

_ADJECTIVES = ("compact", "classic", "wireless", "organic", "premium", "ergonomic", "smart")
_NOUNS = ("kettle", "backpack", "headphones", "desk lamp", "sneakers", "blender", "notebook")
_PEOPLE = ("Alice Nguyen", "Bao Tran", "Carlos Diaz", "Dana Smith", "Emeka Obi", "Fatima Khan")
_WORDS = ("fast", "reliable", "sturdy", "great value", "well made", "arrived quickly")
_STREETS = ("Main St", "Oak Avenue", "Harbour Road", "Le Loi", "Station Road")
_CURRENCIES = ("USD", "EUR", "GBP", "VND")
_AVAILABILITY = ("in stock", "out of stock", "pre-order", "limited stock")


def _date(rng: random.Random) -> str:
    return f"20{rng.randint(18, 25)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def _product(rng: random.Random) -> str:
    return f"{rng.choice(_ADJECTIVES).title()} {rng.choice(_NOUNS)} {rng.randint(100, 999)}"


def _value(field: str, rng: random.Random) -> Any:
    """A valid value for a required field (every value passes the crawl reward's checks)."""
    makers = {
        "headline": lambda: _sentence(rng, 4),
        "author": lambda: rng.choice(_PEOPLE),
        "date_published": lambda: _date(rng),
        "content": lambda: _sentence(rng, 30),
        "name": lambda: rng.choice(_PEOPLE),
        "email": lambda: f"contact{rng.randint(1, 999)}@example.com",
        "phone": lambda: f"+1 555 {rng.randint(100, 999)} {rng.randint(1000, 9999)}",
        "address": lambda: f"{rng.randint(1, 400)} {rng.choice(_STREETS)}",
        "product_name": lambda: _product(rng),
        "price": lambda: round(rng.uniform(4.0, 900.0), 2),
        "price_currency": lambda: rng.choice(_CURRENCIES),
        "availability": lambda: rng.choice(_AVAILABILITY),
        "rating": lambda: round(rng.uniform(1.0, 5.0), 1),
        "product_url": lambda: f"/products/item-{rng.randint(1000, 9999)}",
        "review_text": lambda: _sentence(rng, 12),
        "reviews": lambda: [
            {"author": rng.choice(_PEOPLE), "rating": rng.randint(1, 5), "text": _sentence(rng, 6)}
            for _ in range(rng.randint(1, 3))
        ],
        "title": lambda: _sentence(rng, 3),
        "url": lambda: f"/pages/{rng.randint(1000, 9999)}",
        "description": lambda: _sentence(rng, 10),
    }
    return makers[field]()


def _pool(pattern_type: str) -> tuple[dict[str, Any], ...]:
    rng = random.Random(f"rlm_gym.envs.items:{pattern_type}")
    fields = SCHEMAS[pattern_type]
    return tuple({name: _value(name, rng) for name in fields} for _ in range(POOL_SIZE))


ITEM_POOLS: dict[str, tuple[dict[str, Any], ...]] = {t: _pool(t) for t in PATTERN_TYPES}

# The value an LLM "misreads" into, by the first field kind present in the schema.
_MALFORMED: tuple[tuple[str, str], ...] = (
    ("price", "see price in cart"),
    ("date_published", "last Tuesday"),
    ("rating", "five stars"),
)


def _malformed_field(fields: tuple[str, ...]) -> tuple[str, str]:
    for name, value in _MALFORMED:
        if name in fields:
            return name, value
    return fields[0], "…"


def defective_copy(item: dict[str, Any], fields: tuple[str, ...], kind: str) -> dict[str, Any]:
    """A copy of ``item`` with the defect an extractor of ``kind`` leaves in its bad items.

    Example:
        >>> defective_copy({"a": 1, "b": 2, "c": 3}, ("a", "b", "c"), "placeholder")
        {'a': 1, 'b': 'N/A', 'c': '-'}
    """
    copy = dict(item)
    if kind == "missing":
        for name in fields[-2:]:
            del copy[name]
    elif kind == "placeholder":
        copy[fields[1]] = "N/A"
        copy[fields[2]] = "-"
    else:
        name, value = _malformed_field(fields)
        copy[name] = value
    return copy


_DEFECT_KINDS: tuple[str, ...] = ("missing", "placeholder", "malformed")


def build_items(
    pattern_type: str, blocks: tuple[tuple[int, int, int], ...], offset: int
) -> list[dict[str, Any]]:
    """Generate the extracted items.

    Args:
        pattern_type: The site's pattern type (picks the schema and the value pool).
        blocks: ``(extractor index, items, defective items)`` per extractor used
            (0 = CSS: missing fields, 1 = heuristics: placeholders, 2 = LLM: a misread value).
        offset: Where to start in the value pool (the env draws it per episode).

    Returns:
        The item dicts, defective ones first within each block.
    """
    pool = ITEM_POOLS[pattern_type]
    fields = SCHEMAS[pattern_type]
    items: list[dict[str, Any]] = []
    position = offset
    for extractor, count, defective in blocks:
        kind = _DEFECT_KINDS[extractor]
        for index in range(count):
            item = pool[position % POOL_SIZE]
            position += 1
            items.append(defective_copy(item, fields, kind) if index < defective else dict(item))
    return items
