"""The item judge: one judgement of a crawl result's items, field by field, with the column
context (the crawl reward and its ``check_items`` both read it).

One way through: item → column → value. A value is judged by the type of its column
(:func:`rlm_gym.quality.columns.column_type`, read off the field name and the column's values;
where the values clearly show another type than the name's, theirs:
:func:`rlm_gym.quality.column_roles.judged_type`) and then *where it stands*: a well-formed
value can still be wrong in its column. The column-context rules follow the real-data labels:

- **header row**: the value is a field name of the result (``"product_title"`` under
  ``product_title``): a scraped table header;
- **shifted column**: a field whose name means a person, name, title, comment or body holds a
  bare rating, count, price or date (``"5 sao"`` under ``comment``);
- **page-wide value**: one value on every distinct item (at least ``PAGE_WIDE_MIN_ITEMS``) of a
  field whose name means item-specific content (title, name, tags, body, review, link) or
  whose values are links, while other fields vary: the selector was not scoped to the item, or
  the value was re-emitted from an earlier record (:mod:`rlm_gym.quality.constant`);
- **a sentence as a name**: a field whose name means a person (author, byline, user,
  customer, reviewer) holding a text of ``NAME_MAX_WORDS`` words or more — a related headline
  or a "share your story" prompt caught by the author selector: a name is not a sentence;
- **heading row** (:mod:`rlm_gym.quality.headings`): a short text alone in its record under
  a title or name field, every other field empty while the other records fill theirs ("北京"
  before a city's job ads): a section heading written as a record;
- **section heading** (article listings of at least ``PAGE_WIDE_MIN_ITEMS`` distinct items
  whose headline column is mostly sentences): a headline of one or two words ("News Feed",
  "Polling") among headlines of ``HEADLINE_SENTENCE_WORDS`` words or more is a page's section
  label caught by a too-broad heading selector. A column of short titles throughout (an
  encyclopedia's "Paris", "Hello, world") is left alone, and so are scripts written without
  spaces (CJK, Thai).

- **another role** (:mod:`rlm_gym.quality.value_roles`): in a column of names, titles or
  texts, a value whose learned role is plainly another ("a salary in the `company` column");
  its reason names both roles and how many rows hold one ("an amount in the `company` column
  of organisations: 3 of 40 rows").

- **label in the value** (:mod:`rlm_gym.quality.labels`): a value that carries its own
  label, "Price: 3,7 mld" under ``price``.

- **cut short** (:mod:`rlm_gym.quality.truncated`): in a column of sentences, a text that
  does not end its sentence and is far shorter than the rest ("Il a réalisé «") or stops on a
  dangling space or number ("... au titre de la 18").

- **column consistency** (:mod:`rlm_gym.quality.consistency`): crossed columns (a column
  holding what a neighbour is named for while that neighbour lacks it: shifted), a field
  repeating the item's own name (a copy of another field), and symbol columns (a lone "$"
  among price levels, "₽" in a currency column: valid).

The judgement runs once over the *distinct* items (exact duplicates count once) and is linear
in the number of values: column types are read from a bounded sample and the value checks are
cached per distinct text.

Example:
    >>> judgement = judge_items([{"title": "Giá vàng", "price": "N/A"}], ("title", "price"))
    >>> judgement.types, judgement.reasons
    ({'title': 'text', 'price': 'price'}, {'title': [''], 'price': ['placeholder']})
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from typing import Any

from rlm_gym.quality import vocab
from rlm_gym.quality.column_roles import VALUE_TYPED_NAMES, judged_type
from rlm_gym.quality.column_rules import mark_column_rules
from rlm_gym.quality.columns import column_type
from rlm_gym.quality.consistency import (
    copied_columns,
    crossed_columns,
    is_symbol,
    out_of_place,
    symbol_column,
)
from rlm_gym.quality.constant import is_per_record_kind, mark_widget_labels
from rlm_gym.quality.duplicates import (
    distinct_items,
    duplicates_but_for,
    index_column,
)
from rlm_gym.quality.headings import heading_rows
from rlm_gym.quality.junk import negated
from rlm_gym.quality.kinds import value_kind
from rlm_gym.quality.labels import LABELLED_VALUE, carried_label, minority_labels
from rlm_gym.quality.names import field_tokens
from rlm_gym.quality.pattern_types import classify_columns
from rlm_gym.quality.rating_scales import on_scale, rating_scale
from rlm_gym.quality.roles import field_roles, is_item_content
from rlm_gym.quality.shapes import SHAPE_SETTINGS, SHIFT_TYPES, accepted_columns, shifted_records
from rlm_gym.quality.truncated import TRUNCATED, truncated_values
from rlm_gym.quality.value_roles import RoleOutliers, role_outliers
from rlm_gym.quality.values import check_value

__all__ = [
    "MISSING",
    "NOT_AN_ITEM",
    "HEADER_ROW",
    "SHIFTED_COLUMN",
    "PAGE_WIDE_VALUE",
    "SECTION_HEADING",
    "NOT_A_NAME",
    "COPIED_VALUE",
    "NAME_MAX_WORDS",
    "UNUSABLE_REASONS",
    "PAGE_WIDE_MIN_ITEMS",
    "LABEL_RULE",
    "HEADLINE_MIN_WORDS",
    "HEADLINE_SENTENCE_WORDS",
    "HEADLINE_SENTENCE_SHARE",
    "Judgement",
    "judge_items",
    "rating_scale",
]

MISSING = "missing"
NOT_AN_ITEM = "not a dict item"
HEADER_ROW = "header row"
SHIFTED_COLUMN = "shifted column"
PAGE_WIDE_VALUE = "page-wide value"
SECTION_HEADING = "section heading"
NOT_A_NAME = "not a name"
COPIED_VALUE = "copy of another field"

UNUSABLE_REASONS = frozenset(
    {
        MISSING,
        NOT_AN_ITEM,
        HEADER_ROW,
        "empty",
        "placeholder",
        "markup residue",
        "code residue",
        "stringified container",
        "error page text",
        "page chrome",
        "mis-encoded text",
    }
)
"""Reasons that make a value *incomplete* (absent, empty, a placeholder or junk text), not only
invalid: completeness counts the values that are neither."""

PAGE_WIDE_MIN_ITEMS = 5
LABEL_RULE = {"enabled": True}
"""Whether a value carrying its own label is rejected (:mod:`rlm_gym.quality.labels`); a
switch so ``benchmarks/judge_signals.py`` can measure the rule apart."""
HEADLINE_MIN_WORDS = 3
NAME_MAX_WORDS = 10
HEADLINE_SENTENCE_WORDS = 5
HEADLINE_SENTENCE_SHARE = 0.25

_SHIFT_ROLES = VALUE_TYPED_NAMES
_HEADLINE_ROLES = frozenset({"title", "headline"})
_PERSON_ROLES = frozenset({"author", "person"})
_NAME_ROLES = frozenset({"name", "title"})
# What a lone currency sign is taken for out of context ("₽" too short, "$" no alphanumerics).
_SYMBOL_MISREADS = frozenset({"too short", "placeholder", "not a price"})
_SHIFTED_KINDS = frozenset({"rating", "count", "price", "date"})


@dataclass(slots=True)
class Judgement:
    """The verdicts of one crawl's distinct items, column by column.

    Attributes:
        fields: The checked fields: the required fields, or with none the union of the items'
            own fields (first-seen order).
        required: Whether ``fields`` are a schema's required fields.
        core_fields: The fields systematic defects and ``valid_share`` are measured on: the
            required fields, or with none those present in at least half the distinct items.
        types: Field -> value type.
        distinct: The distinct items, in first-seen order.
        row_index: For each row of the data, the index of its distinct item.
        reasons: Field -> one reason per distinct item (``""`` valid; ``MISSING`` when the item
            lacks the field; ``NOT_AN_ITEM`` for a non-dict item under required fields).
        columns: Field -> the values of the items that have it (what the types are read from).
        pattern_type: The result's pattern type (given, or classified from every column).
        index_column: The field that only numbers the rows (:mod:`.duplicates`), or None.
        index_duplicates: Distinct items repeating another in every field but that one.
    """

    fields: tuple[Any, ...]
    required: bool
    core_fields: tuple[Any, ...]
    types: dict[Any, str]
    distinct: list[Any]
    row_index: list[int]
    reasons: dict[Any, list[str]]
    columns: dict[Any, list[Any]]
    pattern_type: str
    index_column: Any = None
    index_duplicates: int = 0


def _constant(values: list[Any]) -> bool:
    return values.count(values[0]) == len(values)


def _is_headline_column(values: list[Any]) -> bool:
    """At least ``HEADLINE_SENTENCE_SHARE`` of the texts are sentence-long headlines."""
    texts = [value for value in values if type(value) is str and value.strip()]
    sentences = sum(1 for text in texts if len(text.split()) >= HEADLINE_SENTENCE_WORDS)
    return bool(texts) and sentences >= HEADLINE_SENTENCE_SHARE * len(texts)


def _is_short_headline(value: str) -> bool:
    words = value.split()
    if len(words) >= HEADLINE_MIN_WORDS or not words:
        return False
    # Scripts written without spaces carry a whole headline in one "word".
    return all(ord(char) < 0x2E80 for char in value)


def _mostly_words(values: list[Any]) -> bool:
    """Fewer than half the column's texts are bare whole numbers: a "1984" or a "320" among
    titles or models is a name, while a column of numbers under a name is shifted."""
    texts = [value.strip() for value in values if type(value) is str and value.strip()]
    return sum(text.isdecimal() for text in texts) * 2 < len(texts)


@lru_cache(maxsize=32768)
def _negated_field(value: str, nouns: frozenset[str]) -> bool:
    return negated(value.lower(), nouns)


_CONTENT_ROLES = frozenset({"body", "review", "title", "name", "headline"})


@lru_cache(maxsize=4096)
def _content_nouns(name: str, roles: frozenset[str]) -> frozenset[str]:
    """The tokens of a field name that means content (a body, review, title, description,
    image...): a negation of it is a placeholder ("No abstract"). A negated attribute is
    information, not a gap ("No discount", "No parking"): those fields get none."""
    tokens = frozenset(token for token in field_tokens(name) if len(token) >= 3)
    if roles & _CONTENT_ROLES or tokens & vocab.MISSING_NOUNS:
        return tokens
    return frozenset()


def _value_judge(
    kind: str,
    shift: bool,
    page_wide: bool,
    headline: bool,
    person: bool,
    header_names: frozenset[str],
    numbers_are_names: bool = False,
    nouns: frozenset[str] = frozenset(),
) -> Callable[[Any], str]:
    """The judge of one column's values: its type's check, then the column context
    (``nouns``: the field name's tokens, which a negation turns into a placeholder)."""
    if page_wide:

        def judge_page_wide(value: Any) -> str:
            return check_value(kind, value) or PAGE_WIDE_VALUE

        return judge_page_wide
    # Header names are short: longer texts (allowing for padding) cannot be one.
    longest = max(map(len, header_names), default=0) + 16

    def judge(value: Any) -> str:
        reason = check_value(kind, value)
        if reason or type(value) is not str:
            return reason
        if len(value) <= longest and value.strip().casefold() in header_names:
            return HEADER_ROW
        if (
            shift
            and value_kind(value) in _SHIFTED_KINDS
            and not (numbers_are_names and value.strip().isdecimal())
        ):
            return SHIFTED_COLUMN
        if headline and _is_short_headline(value):
            return SECTION_HEADING
        if person and len(value.split()) >= NAME_MAX_WORDS:
            return NOT_A_NAME
        if nouns and len(value) <= 60 and _negated_field(value, nouns):
            return "placeholder"  # "No abstract" under abstract, "Ingen beskrivning"
        return ""

    return judge


def _in_context(
    judge: Callable[[Any], str], crossed_type: str | None, symbols: bool
) -> Callable[[Any], str]:
    """``judge`` with the column-level findings of :mod:`rlm_gym.quality.consistency`: values
    of a crossed column that its named type cannot hold are shifted; in a symbol column a lone
    currency sign is a whole value."""
    if crossed_type is None and not symbols:
        return judge

    def judge_in_context(value: Any) -> str:
        reason = judge(value)
        if symbols and reason in _SYMBOL_MISREADS and is_symbol(value):
            return ""
        if crossed_type is not None and not reason and out_of_place(crossed_type, value):
            return SHIFTED_COLUMN
        return reason

    return judge_in_context


def _also_rejecting(
    judge: Callable[[Any], str], reject: Callable[..., str], *args: Any
) -> Callable[[Any], str]:
    """``judge`` with the texts it accepts also rejected by ``reject(value, *args)`` (a reason,
    or "" for none): a label in the value, a text cut short, a value of another role."""

    def judged(value: Any) -> str:
        reason = judge(value)
        if not reason and type(value) is str:
            return reject(value, *args)
        return reason

    return judged


def _label_reason(value: str, field: str, kind: str) -> str:
    return LABELLED_VALUE if carried_label(value, field, kind) else ""


def _member_reason(value: str, found: frozenset[str], reason: str) -> str:
    return reason if value in found else ""


def _role_reason(value: str, field: str, found: RoleOutliers) -> str:
    return found.reason(field, value) if value in found.roles else ""


def _mark_shifted_records(
    distinct: Sequence[Any], reasons: dict[Any, list[str]], types: dict[Any, str]
) -> None:
    """Accepted values of records shifted against their columns (:mod:`.shapes`) become
    shifted-column values: a year in the address column on the rows where the town column
    holds a latitude and the condition column a URL. Only columns of free text and links are
    read: typed columns check their values' form themselves."""
    checked = {name: verdicts for name, verdicts in reasons.items() if types[name] in SHIFT_TYPES}
    if len(checked) < SHAPE_SETTINGS["shift_columns"]:
        return
    shifted = shifted_records(accepted_columns(distinct, checked))
    for verdicts, rows in zip(checked.values(), shifted, strict=True):
        for index in rows:
            verdicts[index] = SHIFTED_COLUMN


def judge_items(
    data: Sequence[Any], required: tuple[Any, ...] = (), pattern_type: str | None = None
) -> Judgement:
    """Judge every distinct item of ``data`` against ``required`` (or, with none, its own fields).

    Args:
        data: The crawl result's items, as given (duplicates and non-dicts included).
        required: The required field names; empty for "each item's own fields".
        pattern_type: The result's pattern type; None classifies it from every column's name
            and value type.

    Returns:
        The :class:`Judgement`.

    Example:
        >>> rows = [{"name": "Phở 24", "rating": "4.5/5"}, {"name": "5 sao", "rating": "45"}]
        >>> judge_items(rows * 2, ("name", "rating")).reasons
        {'name': ['', 'shifted column'], 'rating': ['', 'out of range']}
    """
    distinct, row_index = distinct_items(data)
    is_dict = [type(item) is dict or isinstance(item, dict) for item in distinct]
    all_dicts = all(is_dict)
    dicts = (
        distinct if all_dicts else [item for item, ok in zip(distinct, is_dict, strict=True) if ok]
    )
    names = dict.fromkeys(chain.from_iterable(dicts))
    columns = {name: [item[name] for item in dicts if name in item] for name in names}
    if required:
        fields = tuple(required)
        core = fields
    else:
        fields = tuple(names)
        half = len(dicts) / 2.0
        core = tuple(name for name in fields if len(columns[name]) >= half)
    named = {name: column_type(str(name), columns.get(name, [])) for name in fields}
    types = {name: judged_type(name, kind, columns, dicts) for name, kind in named.items()}
    if pattern_type is None:
        every_type = {str(name): kind for name, kind in types.items()}
        for name, values in columns.items():
            if name not in types:
                every_type[str(name)] = column_type(str(name), values)
        pattern_type = classify_columns(
            every_type,
            {str(name): values for name, values in columns.items()},
            overruled={str(name) for name, kind in types.items() if kind != named[name]},
        )
    article = pattern_type == "article_extraction" and len(dicts) >= PAGE_WIDE_MIN_ITEMS
    header_names = frozenset(str(name).strip().casefold() for name in names)
    filler = NOT_AN_ITEM if required else MISSING
    crossed = crossed_columns(columns)
    copied = copied_columns(dicts, fields, PAGE_WIDE_MIN_ITEMS)
    reasons: dict[Any, list[str]] = {}
    for name in fields:
        values = columns.get(name, [])
        text_name = str(name)
        kind = types[name]
        roles = field_roles(text_name)
        page_wide = (
            len(dicts) >= PAGE_WIDE_MIN_ITEMS
            and len(values) == len(dicts)
            and (is_item_content(text_name) or is_per_record_kind(kind))
            and _constant(values)
            and any(not _constant(other) for other in columns.values() if other is not values)
        )
        shift = kind == "text" and bool(roles & _SHIFT_ROLES)
        headline = article and kind == "text" and bool(roles & _HEADLINE_ROLES)
        headline = headline and "body" not in roles and _is_headline_column(values)
        person = kind == "text" and bool(roles & _PERSON_ROLES)
        numbers_are_names = (
            shift and bool(roles & _NAME_ROLES) and not roles & _PERSON_ROLES
        ) and _mostly_words(values)
        nouns = _content_nouns(text_name, roles)
        judge = _value_judge(
            kind, shift, page_wide, headline, person, header_names, numbers_are_names, nouns
        )
        judge = _in_context(judge, crossed.get(name), symbol_column(kind, roles, values))
        if LABEL_RULE["enabled"]:
            judge = _also_rejecting(judge, _label_reason, text_name, kind)
            rare = minority_labels(values, kind)
            if rare:
                judge = _also_rejecting(judge, _member_reason, rare, LABELLED_VALUE)
        if kind == "text" and not page_wide:
            found = role_outliers(values)
            if found is not None:
                judge = _also_rejecting(judge, _role_reason, text_name, found)
            cut = truncated_values(values)
            if cut:
                judge = _also_rejecting(judge, _member_reason, cut, TRUNCATED)
        if kind == "rating":
            scale = rating_scale(text_name, values)
            if scale > 5:
                judge = on_scale(judge, scale)
        verdicts = [judge(item[name]) if name in item else MISSING for item in dicts]
        source = copied.get(name)
        if source is not None:
            verdicts = [
                COPIED_VALUE if name in item and item[name] == item.get(source) else verdict
                for item, verdict in zip(dicts, verdicts, strict=True)
            ]
        if not all_dicts:
            judged = iter(verdicts)
            verdicts = [next(judged) if ok else filler for ok in is_dict]
        if kind == "text" and roles & _NAME_ROLES:
            for index in heading_rows(distinct, name, fields):
                if not verdicts[index]:
                    verdicts[index] = SECTION_HEADING  # "北京" alone in its record
        reasons[name] = verdicts
    mark_widget_labels(columns, reasons, len(dicts), PAGE_WIDE_MIN_ITEMS)
    mark_column_rules(distinct, reasons, types, PAGE_WIDE_MIN_ITEMS, HEADER_ROW)
    _mark_shifted_records(distinct, reasons, types)
    index = index_column(columns, len(dicts)) if all_dicts else None
    return Judgement(
        fields,
        bool(required),
        core,
        types,
        distinct,
        row_index,
        reasons,
        columns,
        pattern_type,
        index,
        0 if index is None else duplicates_but_for(dicts, index, columns),
    )
