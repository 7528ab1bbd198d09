"""Judging scraped values on real data: is each value of a crawl result usable, and what is it?

One way through: **item → column → value**. :func:`judge_items` judges a result's items field
by field; each field's type comes from its column (:func:`column_type`: the name decides when
it can, :func:`name_type`, else the values do); each value is then checked as that type
(:func:`check_value`, ``""`` or a reason from :data:`REASONS`) and in its column's context
(header rows, shifted columns, page-wide values, section headings). :func:`classify_pattern_type`
says what kind of extraction the result is. The knowledge of the world's languages (field-name
tokens, currencies, months, units, placeholders...) is data: the JSON tables of ``tables/``,
read by :mod:`rlm_gym.quality.vocab`.

Modules, bottom up: ``vocab`` (the tables), ``numbers``, ``junk`` (what every type rejects),
one rule per type (``prices``, ``ratings``, ``counts``, ``dates``, ``contacts``, ``text``),
``kinds`` (what a value looks like alone), ``names`` (field names), ``values``
(:func:`check_value`), ``columns`` (:func:`column_type`), ``checks`` (one check per field name,
the 0.1 API), ``roles`` and ``pattern_types`` (what a result is), ``judge`` (the items).

How well it agrees with a crawl-quality expert on real scrapes, and how it compares with the
field-parsing libraries (price-parser, dateparser, phonenumbers, ftfy, number-parser), is
measured by committed benchmarks and written into ``docs/crawl-reward.md`` by
``docs/render.py`` ("Measured on real scrapes", the libraries' table), where a test keeps each
figure equal to the JSON it came from; this docstring quotes none, so none goes stale. None of
those libraries is imported at run time: the CLDR-derived word tables are built ahead of time
(``tools/build_tables.py`` writes ``tables/cldr.json``).

Example:
    >>> from rlm_gym.quality import check_value, column_type, judge_items
    >>> check_value("price", "1.299.000đ"), check_value("date", "hôm qua")
    ('', '')
    >>> check_value("text", "N/A"), check_value("rating", "45")
    ('placeholder', 'out of range')
    >>> column_type("Ratings", ["4.5 out of 5 stars", "3.9 out of 5 stars"])
    'rating'
    >>> rows = [{"name": "Phở 24", "rating": "4.5/5"}, {"name": "5 sao", "rating": "45"}]
    >>> judge_items(rows, ("name", "rating")).reasons
    {'name': ['', 'shifted column'], 'rating': ['', 'out of range']}
"""

from __future__ import annotations

from rlm_gym.quality.checks import (
    CURRENCY_MARKERS,
    FIELD_CHECKS,
    PLACEHOLDERS,
    FieldCheck,
    check_field,
    field_check,
    is_count,
    is_date,
    is_email,
    is_empty,
    is_meaningful,
    is_phone,
    is_price,
    is_rating,
    is_url,
)
from rlm_gym.quality.columns import column_type
from rlm_gym.quality.duplicates import item_identity
from rlm_gym.quality.judge import (
    COPIED_VALUE,
    HEADER_ROW,
    MISSING,
    NOT_A_NAME,
    NOT_AN_ITEM,
    PAGE_WIDE_VALUE,
    SECTION_HEADING,
    SHIFTED_COLUMN,
    UNUSABLE_REASONS,
    Judgement,
    judge_items,
)
from rlm_gym.quality.junk import text_junk
from rlm_gym.quality.kinds import value_kind
from rlm_gym.quality.names import field_tokens, name_hint, name_type
from rlm_gym.quality.numbers import parse_number
from rlm_gym.quality.pattern_types import (
    BASE_PATTERN_TYPES,
    DEFAULT_PATTERN_TYPE,
    LISTING_TYPES,
    PATTERN_TYPES,
    classify_columns,
    classify_pattern_type,
    column_types,
)
from rlm_gym.quality.roles import field_roles
from rlm_gym.quality.values import FIELD_TYPES, REASONS, check_value

__all__ = [
    # values
    "FIELD_TYPES",
    "REASONS",
    "check_value",
    "value_kind",
    "text_junk",
    "parse_number",
    # names and columns
    "field_tokens",
    "name_type",
    "name_hint",
    "column_type",
    # one check per field name (the 0.1 API)
    "PLACEHOLDERS",
    "CURRENCY_MARKERS",
    "FieldCheck",
    "FIELD_CHECKS",
    "field_check",
    "check_field",
    "is_empty",
    "is_meaningful",
    "is_price",
    "is_rating",
    "is_count",
    "is_date",
    "is_email",
    "is_phone",
    "is_url",
    # roles and pattern types
    "field_roles",
    "PATTERN_TYPES",
    "BASE_PATTERN_TYPES",
    "DEFAULT_PATTERN_TYPE",
    "LISTING_TYPES",
    "classify_columns",
    "classify_pattern_type",
    "column_types",
    # the item judge
    "Judgement",
    "judge_items",
    "item_identity",
    "MISSING",
    "NOT_AN_ITEM",
    "HEADER_ROW",
    "SHIFTED_COLUMN",
    "PAGE_WIDE_VALUE",
    "SECTION_HEADING",
    "NOT_A_NAME",
    "COPIED_VALUE",
    "UNUSABLE_REASONS",
]
