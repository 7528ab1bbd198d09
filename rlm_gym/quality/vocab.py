"""The word tables of the field judge, read from the JSON files in ``tables/``.

Everything the judge knows of the world's languages is data: field-name tokens per type and
role, currency codes, signs and names, rating units and scales, count units and number
suffixes, month and weekday names, relative-date words, placeholders, error-page texts. Adding
a language is adding words to a table; the rules in the other modules stay as they are. The
curated words come from the formats of real listing, review, news, job, event and real-estate
pages in the common scraping languages (en, fr, de, es, pt, it, nl, pl, ru, id, vi, tr, plus
CJK and Arabic forms), not from any one data set. ``cldr.json`` is generated
(``tools/build_tables.py``, pinned babel / dateparser) with the month and weekday names,
relative-date patterns, compact number words, currency signs and names and area units of 64
languages; they are merged into the curated tables here (``MONTHS``, ``WEEKDAYS``,
``CURRENCY_WORDS``, ``NUMBER_SUFFIXES``...). ``calendars.json`` holds what CLDR's Gregorian
data lacks: other calendars' months, era marks and the Japanese and ROC eras.

Each table in a file is an object with a ``doc`` (what it is, with examples), optional
``notes`` per language group and one form:

- ``words``: whitespace-separated words (a string, a list of lines, or language groups of
  either) → a frozenset;
- ``phrases``: whole strings that may hold spaces (a list, or language groups of lists) → a
  frozenset; a table may have both ``words`` and ``phrases``;
- ``sequence``: a list (or language groups of lists) → a tuple, order kept;
- ``chars``: a string → the frozenset of its characters;
- ``map``: an object (or language groups of objects) → a dict, order kept;
- ``words_by`` / ``sequence_by``: an object of ``words`` / ``sequence`` values → a dict of
  frozensets / tuples.

Example:
    >>> "preis" in NAME_TOKENS["price"], "sao" in NAME_TOKENS["rating"]
    (True, True)
    >>> "pln" in CURRENCY_CODES, "zł" in CURRENCY_WORDS, "€" in CURRENCY_SYMBOLS
    (True, True, True)
    >>> "marca" in MONTHS, "not available" in PLACEHOLDERS, NUMBER_SUFFIXES["k"]
    (True, True, 1000.0)
"""

from __future__ import annotations

import json
import os
from typing import Any

__all__ = [
    "TABLE_FILES",
    "load_tables",
    "CJK_CHARS",
    # names.json
    "NAME_TOKENS",
    "WEAK_NAME_TOKENS",
    "ID_TOKENS",
    "NAME_LIKE_TOKENS",
    "TEXT_TOKENS",
    "DURATION_TOKENS",
    "DATE_SUFFIX_TOKENS",
    "STRONG_COUNT_MODIFIERS",
    "NUMBER_MODIFIERS",
    "CLOCK_TOKENS",
    "SUBORDINATE_TOKENS",
    "CUT_TOKENS",
    "NAME_BIGRAMS",
    "CJK_NAME_SUFFIXES",
    # roles.json
    "FIELD_ROLES",
    "FIELD_ROLES_CJK",
    "ITEM_CONTENT",
    "ITEM_WORDS",
    # placeholders.json
    "PLACEHOLDERS",
    "PLACEHOLDER_NOUNS",
    "PLACEHOLDER_PREFIXES",
    "PLACEHOLDER_SUFFIXES",
    "PLACEHOLDER_TAILS",
    "CJK_PLACEHOLDER_PREFIXES",
    "CJK_PLACEHOLDER_SUFFIXES",
    # money.json
    "CURRENCY_CODES",
    "CURRENCY_SYMBOLS",
    "CURRENCY_WORDS",
    "FREE_WORDS",
    "PRICE_QUALIFIERS",
    "PRICE_KEYS",
    # ratings.json
    "STAR_WORDS",
    "STAR_GLYPHS",
    "RATING_UNITS",
    "SCALE_WORDS",
    "SCORE_KEYS",
    "SCALE_KEYS",
    # counts.json
    "COUNT_UNITS",
    "NUMBER_SUFFIXES",
    # dates.json
    "MONTHS",
    "CURATED_MONTHS",
    "WEEKDAYS",
    "WEEKDAY_MARKS",
    "RELATIVE_PATTERNS",
    "RELATIVE_WHOLE",
    # calendars.json
    "CALENDAR_MONTHS",
    "CALENDAR_FILLERS",
    "ERA_MARKERS",
    "JAPANESE_ERAS",
    "CALENDAR_SCRIPTS",
    "NEGATION_WORDS",
    "MISSING_NOUNS",
    "MISSING_FILLERS",
    # generated and merged
    "AREA_UNITS",
    "ENGINE_UNITS",
    "DECIMAL_MARKS",
    "GROUP_MARKS",
    "RELATIVE_DAYS",
    "RELATIVE_MARKERS",
    "TIME_UNITS",
    "CJK_POSTED_WORDS",
    "NUMBER_WORDS",
    "DATE_CONNECTORS",
    "DATE_FILLERS",
    "NOT_DATE_TEXTS",
    # junk.json
    "ERROR_PHRASES",
    "ERROR_TEXTS",
    "HTML_TAGS",
    "UI_PHRASES",
    "SEARCH_PARAMETERS",
    "CHROME_COOKIE_WORDS",
    "CHROME_CONSENT_WORDS",
    "NAV_LABELS",
    "NAV_HOME",
]

TABLE_FILES = (
    "names",
    "roles",
    "placeholders",
    "money",
    "ratings",
    "counts",
    "dates",
    "junk",
    "calendars",
    "cldr",
)
"""The table files of ``tables/`` (without ``.json``). ``cldr.json`` is generated from Unicode
CLDR and dateparser's data by ``tools/build_tables.py`` (pinned sources, re-runnable); the
others are curated, each table saying what its words are for."""

_TABLES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tables")


def _groups(value: Any) -> list[Any]:
    """The parts of a table value: the language groups of an object, else the value itself."""
    return list(value.values()) if isinstance(value, dict) else [value]


def _words(value: Any) -> frozenset[str]:
    words: list[str] = []
    for part in _groups(value):
        for line in [part] if isinstance(part, str) else part:
            words.extend(line.split())
    return frozenset(words)


def _sequence(value: Any) -> tuple[Any, ...]:
    return tuple(item for part in _groups(value) for item in part)


def _map(value: dict[str, Any]) -> dict[str, Any]:
    if all(isinstance(part, dict) for part in value.values()):  # language groups
        return {key: item for part in value.values() for key, item in part.items()}
    return dict(value)


def _table(spec: dict[str, Any]) -> Any:
    if "words" in spec or "phrases" in spec:
        phrases = frozenset(_sequence(spec.get("phrases", [])))
        return _words(spec.get("words", "")) | phrases
    if "sequence" in spec:
        return _sequence(spec["sequence"])
    if "chars" in spec:
        return frozenset(spec["chars"])
    if "map" in spec:
        return _map(spec["map"])
    if "words_by" in spec:
        return {key: _words(value) for key, value in spec["words_by"].items()}
    if "sequence_by" in spec:
        return {key: tuple(value) for key, value in spec["sequence_by"].items()}
    raise ValueError(f"a table needs one of the forms of rlm_gym.quality.vocab, got {sorted(spec)}")


def load_tables() -> dict[str, Any]:
    """Every table of :data:`TABLE_FILES` by name, as the Python value its form gives.

    Example:
        >>> tables = load_tables()
        >>> tables["SCORE_KEYS"][:2], sorted(tables["STAR_WORDS"].items())[0]
        (('ratingvalue', 'rating'), ('five', 5))
    """
    tables: dict[str, Any] = {}
    for name in TABLE_FILES:
        with open(os.path.join(_TABLES_DIR, f"{name}.json"), encoding="utf-8") as stream:
            for table, spec in json.load(stream).items():
                if not table.startswith("_"):  # "_source": how a generated file was made
                    tables[table] = _table(spec)
    return tables


_TABLES = load_tables()

CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
"""A regular-expression character range of kana, CJK ideographs and hangul: the scripts
written without spaces, where one character can be a word."""

# names.json: field-name tokens
NAME_TOKENS: dict[str, frozenset[str]] = _TABLES["NAME_TOKENS"]
WEAK_NAME_TOKENS: dict[str, str] = _TABLES["WEAK_NAME_TOKENS"]
ID_TOKENS: frozenset[str] = _TABLES["ID_TOKENS"]
NAME_LIKE_TOKENS: frozenset[str] = _TABLES["NAME_LIKE_TOKENS"]
TEXT_TOKENS: frozenset[str] = ID_TOKENS | NAME_LIKE_TOKENS | _TABLES["TEXT_KIND_TOKENS"]
DURATION_TOKENS: frozenset[str] = _TABLES["DURATION_TOKENS"]
DATE_SUFFIX_TOKENS: frozenset[str] = _TABLES["DATE_SUFFIX_TOKENS"]
STRONG_COUNT_MODIFIERS: frozenset[str] = _TABLES["STRONG_COUNT_MODIFIERS"]
NUMBER_MODIFIERS: frozenset[str] = _TABLES["NUMBER_MODIFIERS"]
CLOCK_TOKENS: frozenset[str] = _TABLES["CLOCK_TOKENS"]
SUBORDINATE_TOKENS: frozenset[str] = _TABLES["SUBORDINATE_TOKENS"]
CUT_TOKENS: frozenset[str] = _TABLES["CUT_TOKENS"]
NAME_BIGRAMS: dict[str, str] = _TABLES["NAME_BIGRAMS"]
CJK_NAME_SUFFIXES: dict[str, str] = _TABLES["CJK_NAME_SUFFIXES"]

# roles.json: what a field name means to the pattern and item rules
FIELD_ROLES: dict[str, frozenset[str]] = _TABLES["FIELD_ROLES"]
FIELD_ROLES_CJK: dict[str, tuple[str, ...]] = _TABLES["FIELD_ROLES_CJK"]
ITEM_CONTENT: frozenset[str] = _TABLES["ITEM_CONTENT"]
ITEM_WORDS: frozenset[str] = ITEM_CONTENT | _TABLES["ITEM_KIND_WORDS"]

# placeholders.json: stand-ins for a missing value
PLACEHOLDERS: frozenset[str] = _TABLES["PLACEHOLDERS"]
PLACEHOLDER_NOUNS: frozenset[str] = _TABLES["PLACEHOLDER_NOUNS"]
PLACEHOLDER_PREFIXES: tuple[str, ...] = _TABLES["PLACEHOLDER_PREFIXES"]
PLACEHOLDER_SUFFIXES: tuple[str, ...] = _TABLES["PLACEHOLDER_SUFFIXES"]
PLACEHOLDER_TAILS: frozenset[str] = _TABLES["PLACEHOLDER_TAILS"]
CJK_PLACEHOLDER_PREFIXES: tuple[str, ...] = _TABLES["CJK_PLACEHOLDER_PREFIXES"]
CJK_PLACEHOLDER_SUFFIXES: tuple[str, ...] = _TABLES["CJK_PLACEHOLDER_SUFFIXES"]

# money.json: currencies and the words around a price
CURRENCY_CODES: frozenset[str] = _TABLES["CURRENCY_CODES"]
CURRENCY_SYMBOLS: frozenset[str] = _TABLES["CURRENCY_SYMBOLS"] | _TABLES["CLDR_CURRENCY_SIGNS"]
CURRENCY_WORDS: frozenset[str] = _TABLES["CURRENCY_WORDS"] | _TABLES["CLDR_CURRENCY_WORDS"]
FREE_WORDS: frozenset[str] = _TABLES["FREE_WORDS"]
PRICE_QUALIFIERS: frozenset[str] = _TABLES["PRICE_QUALIFIERS"]
PRICE_KEYS: frozenset[str] = _TABLES["PRICE_KEYS"]

# ratings.json: scores, scales and stars
STAR_WORDS: dict[str, int] = _TABLES["STAR_WORDS"]
STAR_GLYPHS: frozenset[str] = _TABLES["STAR_GLYPHS"]
RATING_UNITS: frozenset[str] = _TABLES["RATING_UNITS"]
SCALE_WORDS: frozenset[str] = _TABLES["SCALE_WORDS"]
SCORE_KEYS: tuple[str, ...] = _TABLES["SCORE_KEYS"]
SCALE_KEYS: tuple[str, ...] = _TABLES["SCALE_KEYS"]

# counts.json: units and multipliers of counts
AREA_UNITS: frozenset[str] = _TABLES["CLDR_AREA_UNITS"] | _TABLES["EXTRA_AREA_UNITS"]
ENGINE_UNITS: frozenset[str] = _TABLES["CLDR_ENGINE_UNITS"]
COUNT_UNITS: frozenset[str] = _TABLES["COUNT_UNITS"] | frozenset(
    form for unit in AREA_UNITS if " " not in unit for form in (unit, unit.rstrip("."))
)
# The curated suffixes win where CLDR's compact forms give another multiplier, and the short
# forms where a long form ("mil": Spanish thousand) reads otherwise.
NUMBER_SUFFIXES: dict[str, float] = {
    **_TABLES["CLDR_SCALE_WORDS"],
    **_TABLES["CLDR_NUMBER_SUFFIXES"],
    **_TABLES["NUMBER_SUFFIXES"],
}
DECIMAL_MARKS: frozenset[str] = _TABLES["CLDR_DECIMAL_MARKS"]
GROUP_MARKS: frozenset[str] = _TABLES["CLDR_GROUP_MARKS"]

# dates.json: absolute and relative dates
CURATED_MONTHS: frozenset[str] = _TABLES["MONTHS"]
MONTHS: frozenset[str] = CURATED_MONTHS | _TABLES["CLDR_MONTHS"]
WEEKDAYS: frozenset[str] = _TABLES["WEEKDAYS"] | _TABLES["CLDR_WEEKDAYS"]
WEEKDAY_MARKS: frozenset[str] = _TABLES["CLDR_WEEKDAY_MARKS"]
RELATIVE_PATTERNS: frozenset[str] = _TABLES["CLDR_RELATIVE_PATTERNS"]
RELATIVE_WHOLE: frozenset[str] = _TABLES["CLDR_RELATIVE_DAYS"]

# calendars.json: non-Gregorian calendars and eras; placeholders.json: negations
CALENDAR_MONTHS: dict[str, str] = _TABLES["CALENDAR_MONTHS"]
CALENDAR_FILLERS: frozenset[str] = _TABLES["CALENDAR_FILLERS"]
ERA_MARKERS: dict[str, str] = _TABLES["ERA_MARKERS"]
JAPANESE_ERAS: dict[str, int] = _TABLES["JAPANESE_ERAS"]
CALENDAR_SCRIPTS: tuple[list[str], ...] = _TABLES["CALENDAR_SCRIPTS"]
NEGATION_WORDS: frozenset[str] = _TABLES["NEGATION_WORDS"]
MISSING_NOUNS: frozenset[str] = _TABLES["MISSING_NOUNS"]
MISSING_FILLERS: frozenset[str] = _TABLES["MISSING_FILLERS"]
RELATIVE_DAYS: frozenset[str] = _TABLES["RELATIVE_DAYS"]
RELATIVE_MARKERS: frozenset[str] = _TABLES["RELATIVE_MARKERS"] | _TABLES["CLDR_RELATIVE_MARKERS"]
TIME_UNITS: frozenset[str] = _TABLES["TIME_UNITS"] | _TABLES["CLDR_TIME_UNITS"]
CJK_POSTED_WORDS: tuple[str, ...] = _TABLES["CJK_POSTED_WORDS"]
NUMBER_WORDS: frozenset[str] = _TABLES["NUMBER_WORDS"]
DATE_CONNECTORS: frozenset[str] = _TABLES["DATE_CONNECTORS"]
DATE_FILLERS: frozenset[str] = _TABLES["DATE_FILLERS"]
NOT_DATE_TEXTS: frozenset[str] = _TABLES["NOT_DATE_TEXTS"]

# junk.json: error pages and markup
ERROR_PHRASES: tuple[str, ...] = _TABLES["ERROR_PHRASES"]
ERROR_TEXTS: frozenset[str] = _TABLES["ERROR_TEXTS"]
HTML_TAGS: frozenset[str] = _TABLES["HTML_TAGS"]
UI_PHRASES: frozenset[str] = _TABLES["UI_PHRASES"]
SEARCH_PARAMETERS: frozenset[str] = _TABLES["SEARCH_PARAMETERS"]
CHROME_COOKIE_WORDS: frozenset[str] = _TABLES["CHROME_COOKIE_WORDS"]
CHROME_CONSENT_WORDS: frozenset[str] = _TABLES["CHROME_CONSENT_WORDS"]
NAV_LABELS: frozenset[str] = _TABLES["NAV_LABELS"]
NAV_HOME: frozenset[str] = _TABLES["NAV_HOME"]
