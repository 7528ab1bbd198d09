"""The word tables: every table of the JSON files is documented and read into the vocabulary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rlm_gym.quality import vocab

TABLES = Path(vocab.__file__).parent / "tables"

# Tables read as a part of a larger one (TEXT_TOKENS, ITEM_WORDS) rather than under their name.
PARTS = {
    "TEXT_KIND_TOKENS": "TEXT_TOKENS",
    "ITEM_KIND_WORDS": "ITEM_WORDS",
    # generated from CLDR (tools/build_tables.py) and merged with the curated tables
    "CLDR_MONTHS": "MONTHS",
    "CLDR_WEEKDAYS": "WEEKDAYS",
    "CLDR_WEEKDAY_MARKS": "WEEKDAY_MARKS",
    "CLDR_RELATIVE_PATTERNS": "RELATIVE_PATTERNS",
    "CLDR_RELATIVE_DAYS": "RELATIVE_WHOLE",
    "CLDR_CURRENCY_SIGNS": "CURRENCY_SYMBOLS",
    "CLDR_CURRENCY_WORDS": "CURRENCY_WORDS",
    "CLDR_AREA_UNITS": "AREA_UNITS",
    "EXTRA_AREA_UNITS": "AREA_UNITS",
    "CLDR_DECIMAL_MARKS": "DECIMAL_MARKS",
    "CLDR_GROUP_MARKS": "GROUP_MARKS",
    "CLDR_NUMBER_SUFFIXES": "NUMBER_SUFFIXES",
    "CLDR_SCALE_WORDS": "NUMBER_SUFFIXES",
    "CLDR_TIME_UNITS": "TIME_UNITS",
    "CLDR_RELATIVE_MARKERS": "RELATIVE_MARKERS",
    "CLDR_ENGINE_UNITS": "ENGINE_UNITS",
}


def _specs() -> dict[str, dict]:
    specs: dict[str, dict] = {}
    for name in vocab.TABLE_FILES:
        specs.update(json.loads((TABLES / f"{name}.json").read_text(encoding="utf-8")))
    return {name: spec for name, spec in specs.items() if not name.startswith("_")}


def test_every_table_file_is_read():
    assert sorted(path.stem for path in TABLES.glob("*.json")) == sorted(vocab.TABLE_FILES)


@pytest.mark.parametrize("table", sorted(_specs()))
def test_every_table_has_a_doc_and_is_bound_in_the_vocabulary(table):
    spec = _specs()[table]
    assert spec["doc"]
    bound = getattr(vocab, PARTS.get(table, table))
    loaded = vocab.load_tables()[table]
    if isinstance(loaded, dict):  # every key bound (the curated value wins a clash)
        assert loaded.keys() <= bound.keys()
    else:
        assert loaded == bound or loaded <= bound


def test_tables_are_lower_case_where_values_are_compared_lower_cased():
    for table in ("MONTHS", "PLACEHOLDERS", "CURRENCY_WORDS", "RELATIVE_DAYS", "TIME_UNITS"):
        words = getattr(vocab, table)
        assert all(word == word.lower() for word in words), table
