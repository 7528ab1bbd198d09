"""Column typing: the type of a field from its name and, where the name does not decide, from
its values across a result's items.

How the values decide (:func:`column_type`): up to 50 non-empty, non-junk values are read as
shapes (url, email, phone, date, price, rating, count, bare integers ≤ 5 / > 5, bare decimals in
[0, 5], one-decimal scores in (5, 10], bare two-decimal amounts, text); a hint wins when ≥ 50 %
of the values fit it (a ``rate`` column of 9.7, 9.6 is a rating, out of range); else an
explicit shape that, with the bare numbers it can absorb, covers ≥ 60 %; else bare numbers (all
in [0, 5] with a decimal → rating, integers → count, two-decimal amounts → price); else text.

One value rule overrides a deciding name: a rating-named column whose values are mostly what no
rating scale reaches (``46.3k``, ``1,234``, integers above 100) is a count (GitHub "stars",
Reddit "score"); scores scraped x10 (``45``, ``50``) stay ratings, and are invalid. Likewise a
count-named column whose values are ≥ 80 % long texts with letters and no digits is text (a
"members" or "staff" column of people lists), while a count column of sentences with a number
stays a count of invalid values.

Example:
    >>> column_type("reviews", ["(2,920)", "(15)", "(1.2K)"]), column_type("stars", ["4.5", "3.9"])
    ('count', 'rating')
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import islice
from typing import Any

from rlm_gym.quality.junk import text_junk
from rlm_gym.quality.kinds import value_kind
from rlm_gym.quality.lazy_regex import lazy
from rlm_gym.quality.names import name_rule
from rlm_gym.quality.numbers import ascii_digits, is_currency, parse_number
from rlm_gym.quality.ratings import STATED_SCALE_RE
from rlm_gym.quality.values import check_value

__all__ = ["column_type", "shape_of", "value_shapes", "values_type", "COMPATIBLE"]

_SAMPLE = 50  # values of a column read by column_type

COMPATIBLE: dict[str, frozenset[str]] = {
    "rating": frozenset({"rating", "dec5", "int5", "dec10"}),
    "count": frozenset({"count", "int", "int5"}),
    "price": frozenset({"price", "dec2", "int", "int5", "dec5"}),
    "date": frozenset({"date"}),
    "url": frozenset({"url"}),
    "email": frozenset({"email"}),
    "phone": frozenset({"phone"}),
    "text": frozenset({"text"}),
}
_BARE = frozenset({"int", "int5", "dec5", "dec10", "dec2", "num"})


@lru_cache(maxsize=32768)
def _text_shape(text: str) -> str | None:
    text = ascii_digits(text.strip())
    if not text or text_junk(text):
        return None
    if text[0].isdecimal() and text.replace(".", "", 1).replace(",", "", 1).isdecimal():
        number = parse_number(text)
        if number is None:
            return "text"
        if text.isdecimal():
            if text[0] == "0" and len(text) >= 9:
                return "phone"
            return "int5" if number <= 5 else "int"
        if number <= 5:
            return "dec5"
        decimals = len(text) - max(text.rfind("."), text.rfind(",")) - 1
        if decimals == 1 and number <= 10:
            return "dec10"  # 9.7: a score on a 10-point scale, a rating under a rating-ish name
        return "dec2" if decimals == 2 else "num"
    if not check_value("url", text):
        return "url"
    if not check_value("email", text):
        return "email"
    kind = value_kind(text)
    if kind:
        return kind
    if (text[0] in "+(0") and not check_value("phone", text):
        return "phone"
    return "text"


def _shape(value: Any) -> str | None:
    kind = type(value)
    if kind is str:
        return _text_shape(value) if len(value) <= 300 else ("text" if value.strip() else None)
    if kind is int:
        return None if value < 0 else ("int5" if value <= 5 else "int")
    if kind is float:
        if value != value or value < 0:
            return None
        if value <= 5:
            return "dec5"
        return "dec10" if value <= 10 and round(value, 1) == value != int(value) else "num"
    if value is None or kind is bool:
        return None if value is None else "text"
    if isinstance(value, dict):
        if not value:
            return None
        if not check_value("price", value) and not check_value("rating", value):
            return "text"
        if not check_value("price", value):
            return "price"
        return "rating" if not check_value("rating", value) else "text"
    if isinstance(value, (list, tuple)):
        for element in value[:3]:
            if isinstance(element, (str, int, float)) and not isinstance(element, bool):
                return _shape(element)
            return "text"
        return None
    return "text"


def column_type(name: Any, values: Iterable[Any]) -> str:
    """The type of field ``name`` given its values across a result's items.

    The name decides when it can (:func:`name_type`); otherwise the first 50 values do (empty,
    placeholder and junk values are skipped), with the name's hint breaking ties.

    Args:
        name: The field name (any hashable key).
        values: The field's raw values, one per item (missing ones as None).

    Example:
        >>> column_type("Ratings", ["4.5 out of 5 stars", "3.9 out of 5 stars"])
        'rating'
        >>> column_type("stars", ["46.3k", "882", "2.1k"]), column_type("ratings", ["47", "9"])
        ('count', 'count')
        >>> column_type("when", []), column_type("Most Read", ["Dibaca 34.743 kali"] * 3)
        ('date', 'count')
        >>> column_type("Title link", ["Jazz workshop", "Live acoustic night"])
        'text'
    """
    if type(name) is not str:
        name = str(name)
    decided, hint = name_rule(name)
    if isinstance(values, (str, bytes, dict)):
        values = [values]
    if decided == "rating":
        return "count" if _counts_not_scores(values) else "rating"
    if decided == "count" and _texts_not_numbers(values):
        return "text"
    if decided is not None:
        return decided
    shapes, seen = value_shapes(values)
    if hint is None and shapes.get("text", 0) * 2 >= seen >= 3 and _unit_column(values):
        return "count"
    if hint in (None, "rating") and seen and STATED_SCALE_RE.search(name.lower()):
        # "Note sur 10", "hodnocení (z 10)": the name states a score's scale, and bare
        # numbers under it are scores (checked against that scale by the judge).
        bare = sum(count for shape, count in shapes.items() if shape in _BARE)
        if bare + shapes.get("rating", 0) >= 0.6 * seen:
            return "rating"
    return _type_from_shapes(shapes, seen, hint)


_UNIT_VALUE_RE = lazy(r"^\(?\s*\d[\d.,\s]*\s*([^\W\d_][^\d]{0,24}?)\s*\)?$")


def _unit_column(values: Iterable[Any]) -> bool:
    """Whether most of a column's texts are a number with one same short unit after it, in
    any language ("3 ห้องนอน", "12 arvostelua", "5 osób"): a count, whatever the unit's word.
    A currency is no unit here (prices are read first)."""
    units: dict[str, int] = {}
    seen = 0
    for value in islice(values, _SAMPLE):
        if type(value) is not str or not value.strip():
            continue
        seen += 1
        match = _UNIT_VALUE_RE.match(ascii_digits(value.strip()))
        if match:
            unit = match.group(1).strip().lower()
            units[unit] = units.get(unit, 0) + 1
    if not units or seen < 3:
        return False
    unit, count = max(units.items(), key=lambda kv: kv[1])
    return count >= 0.6 * seen and not is_currency(unit) and len(unit.split()) <= 3


def _counts_not_scores(values: Iterable[Any]) -> bool:
    """Whether most of a rating-named column holds what no rating scale reaches: K-suffixed or
    grouped counts, or numbers above 100 (GitHub "stars": 46.3k; a Goodreads "Rating" column
    of rating counts: 698,883), or whole numbers with zeros among them and some beyond 10 (votes:
    "Cry Score" 0, 3, 15). Scores scraped x10 (45, 50) stay ratings, and invalid ones."""
    counts = seen = wholes = zeros = 0
    top = 0.0
    try:
        for value in islice(values, 20):
            shape = _shape(value)
            if shape is None:
                continue
            seen += 1
            if shape == "count" or (shape in ("int", "num") and _number_of(value) > 100):
                counts += 1
            if shape in ("int", "int5"):
                number = _number_of(value)
                wholes += 1
                zeros += number == 0
                top = max(top, number)
    except TypeError:
        return False
    # Whole numbers only, zeros among them and some beyond 10: votes ("Cry Score": 0, 3, 15),
    # not scores, which a scale of 10 would hold and which are seldom 0.
    tallies = seen >= 5 and wholes == seen and zeros > 0 and top > 10
    return seen > 0 and (counts * 2 >= seen or tallies)


def _texts_not_numbers(values: Iterable[Any]) -> bool:
    """Whether ≥ 80 % of a count-named column is long text with letters and no digits (a
    "staff" column of "Director: … / Cast: …"): a people list or a description, not a count
    the scraper got wrong. Texts holding a number stay counts (and invalid ones when they are
    sentences: "Be the first to review this product 1")."""
    texts = seen = 0
    try:
        for value in islice(values, 20):
            if type(value) is not str:
                if value is None:
                    continue
                seen += 1
                if seen - texts > 4:  # more than 20 % of 20 values already are no texts
                    return False
                continue
            if not value.strip():
                continue
            seen += 1
            if _long_text(value):
                texts += 1
            elif (seen - texts) * 5 > 20:
                return False
    except TypeError:
        return False
    return seen > 0 and texts * 5 >= seen * 4


@lru_cache(maxsize=8192)
def _long_text(text: str) -> bool:
    text = text.strip()
    if len(text) < 12 or any(char.isdecimal() for char in text) or text_junk(text):
        return False
    return sum(char.isalpha() for char in text) >= 8


def _number_of(value: Any) -> float:
    if type(value) is int:
        try:
            return float(value)
        except OverflowError:  # an int past float's range (10**400): as large as numbers get
            return float("inf") if value > 0 else float("-inf")
    number = parse_number(value) if isinstance(value, str) else None
    return number if number is not None else 0.0


def shape_of(value: Any) -> str | None:
    """The shape column typing reads ``value`` as (None for empty and junk values)."""
    return _shape(value)


def value_shapes(values: Iterable[Any]) -> tuple[dict[str, int], int]:
    """The shapes of the first 50 non-empty, non-junk values (shape -> count) and how many."""
    shapes: dict[str, int] = {}
    seen = 0
    try:
        for value in islice(values, _SAMPLE):
            shape = _shape(value)
            if shape is not None:
                shapes[shape] = shapes.get(shape, 0) + 1
                seen += 1
    except TypeError:  # not iterable: no shapes
        pass
    return shapes, seen


def values_type(values: Iterable[Any]) -> str:
    """The type the values of a column say, whatever its name (``column_type`` without the
    name): what a column named for one thing actually holds.

    Example:
        >>> values_type(["(12)", "(3)", "(145)"]), values_type(["Desk lamp", "Kettle"])
        ('count', 'text')
    """
    shapes, seen = value_shapes(values)
    return _type_from_shapes(shapes, seen, None)


def _type_from_shapes(shapes: dict[str, int], seen: int, hint: str | None) -> str:
    if not seen:
        return hint or "text"

    def share(kinds: frozenset[str]) -> float:
        return sum(shapes.get(kind, 0) for kind in kinds) / seen

    if hint and share(COMPATIBLE[hint]) >= 0.5:
        return hint
    explicit = [
        kind
        for kind in ("url", "email", "phone", "date", "price", "rating", "count")
        if kind in shapes
    ]
    if explicit:
        best = max(explicit, key=lambda kind: (share(COMPATIBLE[kind]), shapes[kind]))
        if share(COMPATIBLE[best]) >= 0.6:
            return best
    bare = share(_BARE)
    if bare >= 0.6:
        if share(frozenset({"int5", "dec5"})) == bare and "dec5" in shapes:
            return "rating"
        if share(frozenset({"int", "int5"})) == bare:
            return "count"
        if share(frozenset({"dec2", "int", "int5"})) == bare:
            return "price"
    return "text"
