"""The generated stress set of ``benchmarks/stress_locales.py`` (issue 35): its saved figures
cover at least 50 locales and are what the script measures (where Faker is installed)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAVED = json.loads((ROOT / "benchmarks" / "results.json").read_text())["stress_locales"]


def test_the_saved_stress_set_covers_at_least_50_locales_with_every_value_judged():
    assert SAVED["locales"] >= 50
    assert SAVED["values"] == sum(row["values"] for row in SAVED["per_locale"])
    below = [row["locale"] for row in SAVED["per_locale"] if row["valid_accepted"] < SAVED["bar"]]
    assert below == SAVED["locales_below_bar"]


@pytest.mark.slow
def test_the_saved_stress_set_is_the_measured_one():
    faker = pytest.importorskip("faker")
    if SAVED["faker"] != faker.VERSION:
        pytest.skip(f"measured with Faker {SAVED['faker']}, installed {faker.VERSION}")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import stress_locales

    rows = {row["locale"]: row for row in SAVED["per_locale"]}
    for locale in ("de_LU", "ja_JP", "th_TH", "fi_FI"):
        assert stress_locales.measure_locale(locale, SAVED["items_per_locale"]) == rows[locale]


def _stress_locales():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import stress_locales

    return stress_locales


@pytest.mark.parametrize(
    ("value", "spec_valid"),
    [
        ("25 48 41", False),  # de_LU: 6 digits, no +352
        ("+352 25 48 41", True),
        ("901", False),
        ("(212) 980-9099", True),
        ("+1-657-281-5659x38778", True),  # the extension is not counted
        ("١٢٣٤٥٦٧", True),  # Arabic-Indic digits are digits
        ("1234567890123456", False),
    ],
)
def test_a_phone_is_labelled_by_its_digit_count_alone(value, spec_valid):
    assert (_stress_locales().spec_label("phone", value) == "") is spec_valid


def test_texts_prices_and_iso_dates_are_labelled_by_specs_own_rules():
    spec_label = _stress_locales().spec_label
    assert spec_label("company", "8")
    assert not spec_label("company", "8a")
    assert spec_label("price", "0 ден.")
    assert not spec_label("price", "0,50 €")
    assert spec_label("date", "1850-01-01")
    assert not spec_label("date", "12 มิ.ย. 2549")  # a Buddhist-era date: §11's calendars


def test_the_saved_figures_count_spec_invalid_values_apart():
    rows = SAVED["per_locale"]
    assert SAVED["spec_valid"] == sum(row["spec_valid"] for row in rows)
    for row in rows:
        assert row["spec_valid"] + sum(row["spec_invalid_counts"].values()) == row["values"]
    below = [row["locale"] for row in rows if row["valid_accepted_unfiltered"] < SAVED["bar"]]
    assert below == SAVED["locales_below_bar_unfiltered"]
