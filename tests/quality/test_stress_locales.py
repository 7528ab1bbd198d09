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
