# ruff: noqa: RUF002 - the marks of other scripts are the point
"""Values judged against the rest of their column: what each value alone cannot show.

Rejected (a value each rule finds is invalid although its type's check accepts it):

- **sentinel bound**: a price or a range bounded by a run of nines ("25000-99999999"): the
  scraper's "open-ended" stand-in, not an amount.
- **thousands read as a decimal**: in a price column of bare numbers many of which carry a
  single digit after a decimal comma ("51,9", "35,0": no locale writes cents so), the prices
  were read as floats ("51.900" → 51.9) and written back: every bare price with one or two
  decimals there is a thousands group misread. (A decimal point is left alone: "874.1" is
  how a program writes a float, and a rent of 874.10 is real.) So is "51.9" in a column whose
  bare prices are mostly grouped with that very mark ("51.900", "82.900").
- **room count in an area column**: a one-digit number in a column named for an area unit
  ("metros_cuadrados", "Size (m²)") whose values are tens or hundreds of square metres.
- **glued numbers**: a column of whole numbers nearly all of which end in two small digits
  ("9022", "14032": "90 m² · 2 rooms · 2 baths" with the separators lost).
- **mangled numbers** (:mod:`.mangled`): prices cut at their thousands mark ("2" among
  "850"), written with one mark for thousands and decimals ("2.299.99"), or glued to another
  price of their record ("4200002000" beside "420000").
- **record defects** (:mod:`.records`): a value with another field of its record glued on,
  or the previous record's value re-emitted in a column whose values never repeat otherwise.
- **navigation link**: in a column of links, the site's home page, or one address repeated on
  several items while the other items each have their own: the page's menu, not an item's.

Accepted (a value its type's check rejects, that its column shows to be the column's own):

- **column word**: in a column of numbers, a short word repeated on several items ("PR",
  "Bahçe Katı" among floor numbers, "Sıfır Bina" among building ages) is the column's name for
  a value, not junk; one on most items is not (a widget label, :mod:`.constant`).
- **class letter**: in a column of single letters ("A" … "G": energy classes, grades) one
  letter is a whole value.
- **lone header value**: a value that equals a field name is a header row re-emitted as a
  record only when other fields of its record hold field names too; alone in its record it
  is content ("Vybaveno" under ``VYBAVENO`` among "Částečně", "JOB" under ``source``).

Each rule can be switched off in :data:`COLUMN_RULES` to measure it apart.

Example:
    >>> reasons = {"salary": ["", "", ""]}
    >>> rows = [{"salary": "4000-6000"}, {"salary": "25000-99999999"}, {"salary": "9000"}]
    >>> mark_column_rules(rows, reasons, {"salary": "price"}, 5)
    >>> reasons["salary"]
    ['', 'sentinel bound', '']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from statistics import median
from typing import Any
from urllib.parse import urlsplit

from rlm_gym.quality import vocab
from rlm_gym.quality.joined import JOINED_VALUES
from rlm_gym.quality.mangled import (
    CUT_AT_THOUSANDS,
    TWO_DECIMAL_MARKS,
    mark_cut_thousands,
    mark_joined_amounts,
    mark_two_decimal_marks,
)
from rlm_gym.quality.names import field_tokens
from rlm_gym.quality.numbers import ascii_digits
from rlm_gym.quality.records import (
    GLUED_FIELDS,
    RE_EMITTED_VALUE,
    mark_glued_fields,
    mark_re_emitted_values,
)

__all__ = [
    "COLUMN_RULES",
    "COLUMN_RULE_REASONS",
    "mark_column_rules",
]

COLUMN_RULES: dict[str, bool] = {
    "sentinel_bound": True,
    "float_thousands": True,
    "rooms_in_area": True,
    "glued_numbers": True,
    "cut_thousands": True,
    "two_decimal_marks": True,
    "joined_amounts": True,
    "glued_fields": True,
    "re_emitted_values": True,
    "navigation_links": True,
    "column_words": True,
    "class_letters": True,
    "lone_header_values": True,
}
"""Which column rules the judge applies (all on; one off to measure it apart)."""

COLUMN_RULE_REASONS: dict[str, str] = {
    "sentinel bound": "a price or range bounded by a run of nines (99999999): no amount",
    "thousands read as a decimal": "a bare price like '51,9' in a column of prices read as "
    "floats (R$ 51.900 → 51.9)",
    "room count in an area column": "a one-digit number among areas of tens of square metres",
    "glued numbers": "several numbers glued into one ('9022' = 90 m², 2 rooms, 2 baths)",
    CUT_AT_THOUSANDS: "a price like '2' among '850', '900': '2.400 €' cut at its thousands mark",
    TWO_DECIMAL_MARKS: "one mark for thousands and decimals ('2.299.99'): a decimal comma "
    "turned into a point",
    JOINED_VALUES: "a price that is another price of its record with digits glued on "
    "('4200002000' beside '420000')",
    GLUED_FIELDS: "a value with another field of its record glued on ('HentschelZschopau' "
    "beside the city 'Zschopau')",
    RE_EMITTED_VALUE: "the previous record's value repeated in a column whose values never "
    "repeat otherwise: kept after a parse error",
    "navigation link": "the site's home page or a menu link repeated across items",
}
"""The reasons these rules give, with what they mean."""

_SENTINEL_RE = re.compile(r"(?<![\d.,])9{6,}(?![\d])")
_SHORT_DECIMAL_RE = re.compile(r"^\d{1,3},\d{1,2}$")
_ONE_DECIMAL_RE = re.compile(r"^\d{1,3},\d$")
_WHOLE_RE = re.compile(r"^\d+$")
_BARE_NUMBER_RE = re.compile(r"^\d+(?:[.,]\d+)?$")
_BARE_GROUPED_RE = re.compile(r"^\d+(?:[.,]\d+)*$")
# A bare number grouped in thousands ("51.900", "1,299,000"), its mark captured.
_GROUPED_RE = re.compile(r"^\d{1,3}([.,])\d{3}(?:\1\d{3})*$")
_SHORT_DECIMAL_ANY_RE = re.compile(r"^\d{1,3}[.,]\d{1,2}$")


def _text(value: Any) -> str | None:
    return ascii_digits(value.strip()) if type(value) is str else None


def _column(distinct: Sequence[Any], name: Any) -> list[Any]:
    absent = object()
    return [item.get(name, absent) if type(item) is dict else absent for item in distinct]


def _sentinel_bounds(values: list[Any], verdicts: list[str], kind: str) -> None:
    if kind != "price":
        return
    for index, value in enumerate(values):
        if type(value) is not str or verdicts[index]:
            continue
        if "999999" in value or not value.isascii():
            text = ascii_digits(value)
            if "999999" in text and _SENTINEL_RE.search(text):
                verdicts[index] = "sentinel bound"


def _float_thousands(values: list[Any], verdicts: list[str], kind: str, min_items: int) -> None:
    if kind != "price":
        return
    one_decimal = sum(
        1
        for value in values
        if type(value) is str and "," in value and _ONE_DECIMAL_RE.match(value.strip())
    )
    if one_decimal < 2:  # no column of them: the cheap test first
        return
    texts = [_text(value) or "" for value in values]
    bare = [text for text in texts if _SHORT_DECIMAL_RE.match(text) or _WHOLE_RE.match(text)]
    if len(bare) < min_items or one_decimal * 10 < len(bare) * 3:
        return
    for index, text in enumerate(texts):
        if not verdicts[index] and _SHORT_DECIMAL_RE.match(text):
            verdicts[index] = "thousands read as a decimal"


def _grouped_thousands(values: list[Any], verdicts: list[str], kind: str, min_items: int) -> None:
    if kind != "price":
        return
    texts = [_text(value) or "" for value in values]
    grouped = [match.group(1) for match in map(_GROUPED_RE.match, texts) if match]
    if len(grouped) < min_items:
        return
    mark, uses = Counter(grouped).most_common(1)[0]
    bare = sum(1 for text in texts if _BARE_GROUPED_RE.match(text))
    if uses * 2 < bare:
        return
    for index, text in enumerate(texts):
        if not verdicts[index] and _SHORT_DECIMAL_ANY_RE.match(text) and mark in text:
            verdicts[index] = "thousands read as a decimal"


def _is_area_name(name: str) -> bool:
    tokens = field_tokens(name)
    return any(token in vocab.AREA_UNITS for token in tokens) or (
        " ".join(tokens) in vocab.AREA_UNITS
    )


def _rooms_in_area(
    name: str, values: list[Any], verdicts: list[str], kind: str, min_items: int
) -> None:
    if kind not in ("count", "text") or not _is_area_name(name):
        return
    numbers = [
        (index, float(text.replace(",", ".")))
        for index, text in enumerate(map(_text, values))
        if text and _BARE_NUMBER_RE.match(text)
    ]
    if len(numbers) < min_items:
        return
    middle = median(number for _, number in numbers)
    if middle < 20:
        return
    for index, number in numbers:
        if not verdicts[index] and number < 10 and number.is_integer() and number * 10 < middle:
            verdicts[index] = "room count in an area column"


def _glued_sample(values: list[Any], size: int = 40) -> bool:
    """Whether the column's first whole numbers mostly end in two small digits (a cheap look
    before the whole column is read)."""
    seen = glued = 0
    for value in values:
        if type(value) is str and len(value) >= 3 and value.isdecimal():
            text = ascii_digits(value)
            seen += 1
            glued += "1" <= text[-1] <= "5" and "1" <= text[-2] <= "5"
            if seen == size:
                break
    return seen > 0 and glued * 10 >= seen * 7


def _glued_numbers(values: list[Any], verdicts: list[str], kind: str, min_items: int) -> None:
    if kind not in ("count", "text", "price"):
        return
    if not _glued_sample(values):
        return
    wholes: dict[int, str] = {}
    for index, value in enumerate(values):
        if type(value) is str and value[-1:].isdecimal():
            text = value.strip()
            if len(text) >= 3 and text.isdecimal():
                wholes[index] = ascii_digits(text)
    if len(wholes) < max(min_items, 10):
        return
    glued = sum(1 for text in wholes.values() if "1" <= text[-1] <= "5" and "1" <= text[-2] <= "5")
    if glued * 10 < len(wholes) * 8:
        return
    for index in wholes:
        if not verdicts[index]:
            verdicts[index] = "glued numbers"


def _navigation_links(values: list[Any], verdicts: list[str], kind: str, min_items: int) -> None:
    if kind != "url":
        return
    links = [(index, value.strip()) for index, value in enumerate(values) if type(value) is str]
    links = [(index, link) for index, link in links if link and not verdicts[index]]
    if len(links) < min_items:
        return
    parts = {link: urlsplit(link) for _, link in links}
    deep_hosts = Counter(
        part.netloc.lower() for part in parts.values() if part.path not in ("", "/")
    )
    counts = Counter(link for _, link in links)
    for index, link in links:
        part = parts[link]
        # The site's own home page: a bare "/", or the host the column's other links (or its
        # site-relative ones) go into.
        host = part.netloc.lower()
        inside = deep_hosts[host] + (deep_hosts[""] if host else 0)
        home = part.path in ("", "/") and not (part.query or part.fragment) and inside >= 2
        # A menu page of the site: the same address on several items, no id in its path, no
        # query (another site's home page, "https://bank.example", may recur: branches).
        menu = (
            counts[link] >= 2
            and inside >= 2
            and not part.query
            and not any(char.isdecimal() for char in part.path)
        )
        if home or menu:
            verdicts[index] = "navigation link"


def _column_words(values: list[Any], verdicts: list[str], kind: str) -> None:
    if kind != "count" or "not a count" not in verdicts:
        return
    filled = [value for value in values if type(value) is str and value.strip()]
    numbered = sum(1 for value in filled if any(char.isdecimal() for char in value))
    if numbered * 2 < len(filled):
        return
    words = Counter(
        value.strip()
        for index, value in enumerate(values)
        if verdicts[index] == "not a count" and type(value) is str
    )
    for index, value in enumerate(values):
        if verdicts[index] != "not a count" or type(value) is not str:
            continue
        word = value.strip()
        letters = word.replace(" ", "").replace(".", "")
        if (
            words[word] >= 2
            and words[word] * 2 < len(filled)
            and len(word) <= 20
            and len(word.split()) <= 2
            and letters.isalpha()
        ):
            verdicts[index] = ""


def _class_letters(values: list[Any], verdicts: list[str], kind: str) -> None:
    if kind != "text" or "too short" not in verdicts:
        return
    filled = [value.strip() for value in values if type(value) is str and value.strip()]
    letters = [text for text in filled if len(text) == 1 and text.isalpha()]
    if len(letters) * 2 < len(filled) or len(set(letters)) < 2:
        return
    for index, value in enumerate(values):
        if verdicts[index] == "too short" and type(value) is str and value.strip().isalpha():
            verdicts[index] = ""


def _lone_header_values(reasons: dict[Any, list[str]], header_reason: str) -> None:
    if len(reasons) < 3 or not any(header_reason in verdicts for verdicts in reasons.values()):
        return
    rows = len(next(iter(reasons.values())))
    for row in range(rows):
        headers = [name for name, verdicts in reasons.items() if verdicts[row] == header_reason]
        if len(headers) == 1:
            reasons[headers[0]][row] = ""


def mark_column_rules(
    distinct: Sequence[Any],
    reasons: dict[Any, list[str]],
    types: dict[Any, str],
    min_items: int,
    header_reason: str = "header row",
) -> None:
    """Apply the column rules (:data:`COLUMN_RULES`) to ``reasons`` in place.

    Args:
        distinct: The crawl's distinct items; ``reasons[name][i]`` is the verdict on
            ``distinct[i][name]``.
        reasons: Field -> one verdict per distinct item ("" accepted).
        types: Field -> value type.
        min_items: Fewer values than this in a column prove nothing about it.
        header_reason: The verdict of a value that equals a field name.
    """
    on = COLUMN_RULES
    if on["lone_header_values"]:
        _lone_header_values(reasons, header_reason)
    if on["joined_amounts"]:
        mark_joined_amounts(distinct, reasons, types)
    columns = {name: _column(distinct, name) for name in reasons}
    if on["glued_fields"]:
        mark_glued_fields(columns, reasons, types)
    if on["re_emitted_values"]:
        mark_re_emitted_values(distinct, columns, reasons, types)
    for name, verdicts in reasons.items():
        kind = types.get(name, "text")
        values = columns[name]
        if on["column_words"]:
            _column_words(values, verdicts, kind)
        if on["class_letters"]:
            _class_letters(values, verdicts, kind)
        if on["sentinel_bound"]:
            _sentinel_bounds(values, verdicts, kind)
        if on["float_thousands"]:
            _float_thousands(values, verdicts, kind, min_items)
            _grouped_thousands(values, verdicts, kind, min_items)
        if on["rooms_in_area"]:
            _rooms_in_area(str(name), values, verdicts, kind, min_items)
        if on["glued_numbers"]:
            _glued_numbers(values, verdicts, kind, min_items)
        if on["cut_thousands"]:
            mark_cut_thousands(values, verdicts, kind, min_items)
        if on["two_decimal_marks"]:
            mark_two_decimal_marks(values, verdicts, kind)
        if on["navigation_links"]:
            _navigation_links(values, verdicts, kind, min_items)
