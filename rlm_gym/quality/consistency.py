"""Column-level consistency: a column judged by its values as a whole, and a row against its
columns (issue 22). The item judge (:mod:`rlm_gym.quality.judge`) applies what these find.

- **crossed columns** — a column named for one type whose values are mostly another, while a
  column named for *that* type does not hold it: the selectors are offset, every direction
  (a ``price`` column of bracketed counts "(12)" while the ``reviews`` column holds product
  names; a ``rating`` column of prices while the ``price`` column holds dates). Both columns'
  misplaced values are a shifted column; so are those of a price column that holds counts
  ("(12)", "12 reviews") on most rows, neighbour or not. A column named for one thing whose
  values say another with no neighbour missing it is only *retyped* (a Goodreads ``Rating``
  column of counts is a count column), never shifted.
- **copied values** — a field that is no name (an address, a description, a count) repeating
  the item's own name or title on most items: the selector caught the name again (OpenRice's
  ``Address`` holding the restaurant's name, a ``reviews`` field holding the product's).
- **symbol columns** — in a column of price levels ("$$", "$$$") the lone "$" is the lowest
  level; in a currency column "₽" or "USD" is the whole value.

Example:
    >>> crossed_columns({"reviews": ["Desk lamp"] * 5, "price": ["(12)"] * 5})
    {'price': 'price', 'reviews': 'count'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rlm_gym.quality.columns import COMPATIBLE, shape_of
from rlm_gym.quality.names import name_rule
from rlm_gym.quality.numbers import PRICE_LEVEL_RE, is_currency
from rlm_gym.quality.roles import field_roles

__all__ = [
    "CROSSED_SHARE",
    "COPIED_SHARE",
    "crossed_columns",
    "copied_columns",
    "out_of_place",
    "symbol_column",
    "is_symbol",
]

CROSSED_SHARE = 0.8
"""Share of a column's values that must fit another type for the column to hold that type."""

COPIED_SHARE = 0.5
"""Share of items on which a text field repeats the item's name for it to be a copy."""

_TYPED = ("url", "email", "phone", "date", "price", "rating", "count")
_NAME_ROLES = frozenset({"name", "title"})


def _named_type(name: str) -> str | None:
    decided, hint = name_rule(name)
    kind = decided or hint
    if kind is None and field_roles(name) & _NAME_ROLES:
        return "text"
    return kind


def _explicit_shape(value: Any) -> str | None:
    """The shape of a value that says its type on its own: a currency, a scale, a unit or
    brackets, a URL, a date, prose. Bare numbers ("2013", "31.800.000") say nothing: a year, a
    price and a count look alike."""
    shape = shape_of(value)
    if shape == "count" and not any(char.isalpha() or char in "()+" for char in str(value)):
        return None
    return shape if shape in _TYPED or shape == "text" else None


def _held_type(values: Sequence[Any]) -> str | None:
    """The type at least ``CROSSED_SHARE`` of the values say explicitly, or None."""
    counts: dict[str, int] = {}
    seen = 0
    sample = values[:50]
    # More than 1 - CROSSED_SHARE of the sample off one type already: nothing is held.
    allowed_off = (1.0 - CROSSED_SHARE) * len(sample)
    for value in sample:
        if value is None or value == "":
            continue
        seen += 1
        shape = _explicit_shape(value)
        if shape is not None:
            counts[shape] = counts.get(shape, 0) + 1
        if seen - max(counts.values(), default=0) > allowed_off:
            return None
    if seen < 3:
        return None
    best = max(counts, key=counts.__getitem__, default=None)
    return best if best is not None and counts[best] >= CROSSED_SHARE * seen else None


def crossed_columns(columns: Mapping[Any, Sequence[Any]]) -> dict[Any, str]:
    """Columns whose values belong to another column's type while that column lacks them:
    field -> the type its name gives it (its values of other shapes are shifted).

    Example:
        >>> crossed_columns({"name": ["Desk lamp", "Kettle", "Fan"], "price": ["$5"] * 3})
        {}
    """
    named: dict[Any, str] = {}
    held: dict[Any, str] = {}
    for field, values in columns.items():
        if len(values) < 3:  # too few values to say what a column holds
            continue
        kind = _named_type(str(field))
        if kind is None:
            continue
        holds = _held_type(values)
        if holds is not None and holds != kind and not COMPATIBLE[kind] >= COMPATIBLE[holds]:
            named[field] = kind
            held[field] = holds
    crossed: dict[Any, str] = {}
    for field, holds in held.items():
        if named[field] == "price" and holds == "count":
            crossed[field] = "price"  # "(12)" on every row: a review count, no amount

        for other, other_kind in named.items():
            if other is not field and other_kind == holds:
                crossed[field] = named[field]
                crossed[other] = other_kind
    return crossed


def out_of_place(kind: str, value: Any) -> bool:
    """Whether ``value`` has a shape its crossed column's named type cannot hold."""
    shape = shape_of(value)
    return shape is not None and shape not in COMPATIBLE[kind]


def copied_columns(
    dicts: Sequence[Mapping[Any, Any]], fields: Sequence[Any], min_items: int
) -> dict[Any, Any]:
    """Fields (not themselves names or titles) that repeat the item's name or title as text on at
    least ``COPIED_SHARE`` of the items holding them: field -> the name field copied.

    Example:
        >>> rows = [{"Name": n, "Address": n} for n in ("Pho 24", "Nom Nom", "Pulau", "Ramen X")]
        >>> copied_columns(rows * 2, ["Name", "Address"], 5)
        {'Address': 'Name'}
    """
    if len(dicts) < min_items:
        return {}
    sources = [field for field in fields if field_roles(str(field)) & _NAME_ROLES]
    if not sources:
        return {}
    copies: dict[Any, Any] = {}
    for field in fields:
        roles = field_roles(str(field))
        if field in sources or roles & _NAME_ROLES:
            continue
        for source in sources:
            holding = same = 0
            for item in dicts:
                value = item.get(field)
                if type(value) is not str or not value.strip():
                    continue
                holding += 1
                same += value == item.get(source) and any(char.isalpha() for char in value)
            if holding >= min_items and same >= COPIED_SHARE * holding:
                copies[field] = source
                break
    return copies


def is_symbol(value: Any) -> bool:
    """A currency sign or code standing alone ("₽", "$", "USD")."""
    return type(value) is str and is_currency(value.strip().lower())


def symbol_column(kind: str, roles: frozenset[str], values: Sequence[Any]) -> bool:
    """Whether a lone currency sign is a whole value here: a currency column, or a price
    column of price levels ("$$", "$$$"; the lone "$" is the lowest)."""
    if kind == "text":
        return "currency" in roles
    if kind != "price":
        return False
    texts = [value.strip() for value in values if type(value) is str and value.strip()]
    levels = sum(1 for text in texts if PRICE_LEVEL_RE.match(text) or is_symbol(text))
    return bool(texts) and levels * 2 >= len(texts)
