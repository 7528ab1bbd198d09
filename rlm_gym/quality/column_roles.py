"""Column roles: the one role each column of a crawl plays, read from its values (their shape,
units and spread), the column's name only breaking ties.

A crawl's pattern type follows the roles of its columns when their names are unknown
(:mod:`rlm_gym.quality.pattern_types`): a column of "85 m²" is a property's area whatever it is
called, one of "1 598 cm³" an engine, one that repeats a handful of short values a category.
The readers here are rules; :func:`column_roles` is the seam a learned reader of values can
later feed.

Example:
    >>> cars = [{"a": f"Model {n}", "b": f"1 {n}00 cm³", "c": "Diesel"} for n in range(10)]
    >>> column_roles(cars)
    {'a': 'name', 'b': 'engine', 'c': 'category'}
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rlm_gym.quality import vocab
from rlm_gym.quality.columns import COMPATIBLE, column_type, shape_of, values_type
from rlm_gym.quality.lazy_regex import lazy
from rlm_gym.quality.numbers import AREA_RE
from rlm_gym.quality.roles import field_roles
from rlm_gym.quality.values import check_value

__all__ = [
    "COLUMN_ROLES",
    "VALUE_TYPE_SETTINGS",
    "VALUE_TYPED_NAMES",
    "column_roles",
    "judged_type",
    "type_from_values",
    "value_role",
]

COLUMN_ROLES: tuple[str, ...] = (
    "amount",
    "rating",
    "count",
    "date",
    "url",
    "email",
    "phone",
    "area",
    "engine",
    "property_text",
    "category",
    "identifier",
    "long_text",
    "title",
    "name",
    "place",
    "person",
    "organisation",
)
"""Every role :func:`column_roles` gives (a column no reader recognises has none)."""

_SAMPLE = 30
_TYPE_ROLES = {
    "price": "amount",
    "rating": "rating",
    "count": "count",
    "date": "date",
    "url": "url",
    "email": "email",
    "phone": "phone",
}
# Roles a column's name may give where its values only say "a short text" or "a sentence".
_NAME_ROLES = (
    ("place", "place"),
    ("address", "place"),
    ("venue", "place"),
    ("person", "person"),
    ("author", "person"),
    ("employer", "organisation"),
    ("business", "organisation"),
    ("category", "category"),
    ("business_category", "category"),
)
# A number and an engine unit, the whole value ("1 598 cm³", "150 KM", "110 kW"), both in
# NFKC form ("cm³" and "cm3" alike).
_ENGINE_RE = lazy(
    lambda: (
        r"^\d[\d\s.,]*\s*(?:"
        + "|".join(
            re.escape(unicodedata.normalize("NFKC", unit))
            for unit in sorted(vocab.ENGINE_UNITS, key=len, reverse=True)
        )
        + r")\.?$"
    ),
)


def _words(text: str) -> int:
    """Words of a text; scripts written without spaces count a word per three characters."""
    words = len(text.split())
    if words <= 2 and len(text) >= 9 and any(ord(char) >= 0x2E80 for char in text):
        return len(text) // 3
    return words


def _is_engine(text: str) -> bool:
    return bool(_ENGINE_RE.match(unicodedata.normalize("NFKC", text).lower()))


def _is_row_number(values: Sequence[Any]) -> bool:
    """The values number the rows (1, 2, 3 ... in some order): an index, not a count."""
    numbers = []
    for value in values:
        text = str(value).strip() if type(value) in (str, int) else ""
        if not text.isdecimal():
            return False
        numbers.append(int(text))
    if len(numbers) < 5:
        return False
    return len(set(numbers)) == len(numbers) == max(numbers) - min(numbers) + 1


def value_role(kind: str, values: Sequence[Any]) -> str | None:
    """The role a column's values show, given its value type ``kind`` (as
    :func:`rlm_gym.quality.columns.column_type` gives it), or None when they show none.

    Sizes with an area unit are an ``area``, sizes and powers of engines an ``engine``, texts
    that mostly mention an area a property's description (``property_text``); a column that
    repeats a few short values (a third as many as its rows, or fewer) is a ``category``; texts
    without letters are identifiers; then by length: ``long_text``, ``title`` (a sentence) or
    ``name``. The other value types are their own role (a price is an ``amount``), save a
    column that numbers the rows (an ``identifier``).

    Example:
        >>> value_role("count", ["85 m²", "120 m²"]), value_role("text", ["Aino", "Eero"])
        ('area', 'name')
        >>> value_role("text", ["Diesel", "Benzyna"] * 6), value_role("price", ["9 €"])
        ('category', 'amount')
    """
    texts = [v.strip() for v in values[: _SAMPLE * 2] if type(v) is str and v.strip()][:_SAMPLE]
    half = len(texts) / 2
    if texts and kind in ("count", "text", "price"):
        if sum(1 for text in texts if len(text) <= 40 and AREA_RE.search(text)) > half:
            return "area"
        if kind != "price" and sum(1 for text in texts if _is_engine(text)) > half:
            return "engine"
    if kind == "count" and _is_row_number(values):
        return "identifier"
    if kind != "text":
        return _TYPE_ROLES.get(kind)
    if not texts:
        return None
    if sum(1 for text in texts if not any(char.isalpha() for char in text)) > half:
        return "identifier"  # "669243738", "A-17/3": no name, no place
    sizes = sorted(_words(text) for text in texts)
    middle = sizes[len(sizes) // 2]
    if middle > 40:
        return "long_text"
    if sum(1 for text in texts if len(text) > 40 and AREA_RE.search(text)) > half:
        return "property_text"  # "49,72 m2, 2-sobno, zgrajeno l. 1925, ...": an ad's summary
    filled = [v.strip() for v in values if type(v) is str and v.strip()]
    if middle < 5 and len(filled) >= 10 and len(set(filled)) * 3 <= len(filled):
        return "category"
    return "title" if middle >= 5 else "name"


def column_roles(
    items: Iterable[Any] | Mapping[str, Sequence[Any]],
    types: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Field -> the role its column plays (one of :data:`COLUMN_ROLES`), for the fields whose
    values or names show one.

    The values decide (:func:`value_role`); where they only say "a short text" or "a
    sentence", a name that means a place, a person, an organisation or a category says which.

    Args:
        items: The extracted items (dicts; others are skipped), or field -> values.
        types: Field -> value type when already known (else :func:`column_type` reads it).

    Returns:
        Field -> role, in first-seen field order.

    Example:
        >>> column_roles({"Ville": ["Lyon", "Nice"], "Prix": ["250 000 €", "180 000 €"]})
        {'Ville': 'place', 'Prix': 'amount'}
    """
    if isinstance(items, Mapping):
        columns = {str(name): list(values) for name, values in items.items()}
    else:
        columns = {}
        for item in items:
            if isinstance(item, dict):
                for name, value in item.items():
                    columns.setdefault(str(name), []).append(value)
    out: dict[str, str] = {}
    for name, values in columns.items():
        kind = types[name] if types and name in types else column_type(name, values)
        role = value_role(kind, values)
        if role in (None, "name", "title"):
            named = field_roles(name)
            role = next((to for key, to in _NAME_ROLES if key in named), role)
        if role is not None:
            out[name] = role
    return out


VALUE_TYPE_SETTINGS: dict[str, float] = {
    "min_distinct": 6,
    "max_fit_share": 0.05,
    "min_words_probability": 0.7,
}
"""When a column's values overrule its name (:func:`type_from_values`): at least
``min_distinct`` distinct values, at most ``max_fit_share`` of them of the name's type, and —
where the values are text — a mean learned probability of name-like words of at least
``min_words_probability`` (or a handful of values repeated: a category). The setting chosen by
leave-one-corpus-out in ``benchmarks/judge_signals.py`` (``values_decide``)."""

_NUMERIC_KINDS = frozenset({"price", "rating", "count", "date"})
# Shapes a numeric name's type absorbs: a bare number is what such a name holds (a score on
# some scale, a year, an amount without its currency), so it never argues against the name.
_BARE_SHAPES = frozenset({"int", "int5", "dec5", "dec10", "dec2", "num"})


def _fits(kind: str, value: Any, shape: str) -> bool:
    if shape in COMPATIBLE.get(kind, ()) or (kind in _NUMERIC_KINDS and shape in _BARE_SHAPES):
        return True
    return not check_value(kind, value)


def _words_probability(texts: Sequence[str]) -> float:
    """The mean learned probability that the texts are name-like words (people,
    organisations, places, titles, categories: :mod:`rlm_gym.quality.value_roles`)."""
    from rlm_gym.quality import value_roles

    grouped = value_roles.group_probabilities(value_roles.value_roles(list(texts)))
    return float(grouped[:, list(value_roles.ROLE_GROUPS).index("words")].mean())


def type_from_values(
    kind: str,
    values: Sequence[Any],
    settings: Mapping[str, float] | None = None,
    taken: Iterable[str] = (),
) -> str:
    """The type a column is judged by: its name's type ``kind``, unless its values clearly
    show another (SPEC §11, values before names: the name breaks ties).

    The values overrule the name when the column holds at least ``min_distinct`` distinct
    values, at most ``max_fit_share`` of its values have the name's type (bare numbers count
    for a price, rating, count or date name), and the values' own type
    (:func:`rlm_gym.quality.columns.values_type`) holds at least ``1 - max_fit_share`` of them.
    Where that type is text, the values must also read as words: a mean learned probability
    of name-like roles of at least ``min_words_probability``, or a handful of values repeated
    (a category). A cast list under ``star`` is text, "1-3年" under ``workYear`` a category,
    "85 m²" under ``title`` a count; "Price: 9 980 $" under ``price`` (a labelled value) or
    one badge on every row stays of the name's type, and invalid. Values of the new type that
    do not fit it are judged by it: the consistency the column's own values set. A typed role
    another column of the crawl already plays (``taken``) is not given twice: "4.5 out of 5
    stars" under ``price`` beside a ``rating`` column is the rating read into the wrong
    column, not a second rating.

    Args:
        kind: The column's type as its name gives it
            (:func:`rlm_gym.quality.columns.column_type`).
        values: The column's values.
        settings: Overrides of :data:`VALUE_TYPE_SETTINGS`.
        taken: The types the crawl's other columns have by their names.

    Returns:
        The type to judge the column's values by.

    Example:
        >>> cast = ["Anna Kowalska, Jan Nowak", "Maria Lis, Piotr Wójcik", "Ewa Zając, Adam Bąk",
        ...         "Ola Kot, Igor Ptak", "Zofia Dąb, Tomasz Lew", "Marek Wilk, Ada Kruk"]
        >>> type_from_values("rating", cast), type_from_values("rating", ["4.5", "3.9"] * 3)
        ('text', 'rating')
        >>> type_from_values("text", ["85 m²", "120 m²", "64 m²", "99 m²", "45 m²", "72 m²"])
        'count'
    """
    chosen = VALUE_TYPE_SETTINGS if settings is None else {**VALUE_TYPE_SETTINGS, **settings}
    window = values[: _SAMPLE * 4]
    # Values that side with the name: of its type, or, under a text name, plain text. Once
    # more of them than the share allowed are read, the name stands (most columns, at once).
    bound = chosen["max_fit_share"] * len(window)
    sample = []
    siding = 0
    for value in window:
        # Only plain values argue for a type: a list or a record is no clear value.
        if type(value) not in (str, int, float):
            continue
        shape = shape_of(value)
        if shape is None:
            continue
        sample.append((value, shape))
        siding += shape == "text" if kind == "text" else _fits(kind, value, shape)
        if siding > bound:
            return kind
    distinct = {str(value) for value, _ in sample}
    limit = chosen["max_fit_share"] * len(sample)
    if len(distinct) < chosen["min_distinct"] or siding > limit:
        return kind
    own = values_type([value for value, _ in sample])
    if own == kind or (kind == "text" and own not in _NUMERIC_KINDS):
        return kind
    if own != "text" and own in set(taken):
        return kind
    if sum(not _fits(own, value, shape) for value, shape in sample) > limit:
        return kind
    if own == "text":
        texts = [str(value) for value, _ in sample]
        category = len(distinct) * 3 <= len(texts)
        if not category and _words_probability(sorted(distinct)) < chosen["min_words_probability"]:
            return kind
    return own


VALUE_TYPED_NAMES = frozenset({"name", "title", "author", "review", "body"})
"""Roles of text field names that reject typed values (a rating, count, price or date under a
name or title is a shifted column): where such a name and its values conflict, the values may
decide (:func:`judged_type`). Other text names accept any text and conflict with none."""


def judged_type(
    name: Any, kind: str, columns: Mapping[Any, Sequence[Any]], records: Sequence[Any]
) -> str:
    """The type the values of column ``name`` are judged by: ``kind`` (its name's type),
    unless its values clearly show another (:func:`type_from_values`).

    A text name conflicts with typed values only where it rejects them
    (:data:`VALUE_TYPED_NAMES`). A column that mostly repeats another field of its own records
    is that neighbour's copy (a selector that grabbed the next column): its name stays.

    Args:
        name: The field.
        kind: Its type as its name gives it (:func:`rlm_gym.quality.columns.column_type`).
        columns: Every field of the crawl -> its values.
        records: The crawl's (distinct) records.

    Returns:
        The type to judge the column's values by.

    Example:
        >>> rows = [{"title": f"Film {n}", "star": f"Ann Lee, Bo Kim {n}"} for n in range(6)]
        >>> columns = {key: [row[key] for row in rows] for key in ("title", "star")}
        >>> judged_type("star", "rating", columns, rows)
        'text'
    """
    values = columns.get(name, [])
    if kind == "text" and not field_roles(str(name)) & VALUE_TYPED_NAMES:
        return kind
    own = type_from_values(kind, values)
    if own == kind:
        return kind
    taken = [column_type(str(other), column) for other, column in columns.items() if other != name]
    if type_from_values(kind, values, taken=taken) == kind or _copies_a_neighbour(name, records):
        return kind
    return own


def _copies_a_neighbour(name: Any, records: Sequence[Any]) -> bool:
    """At least half the records holding ``name`` hold its value in another field too."""
    holding = copied = 0
    for item in records:
        if not isinstance(item, dict) or name not in item:
            continue
        value = item[name]
        holding += 1
        copied += any(other != name and held == value for other, held in item.items())
    return holding > 0 and copied * 2 >= holding
