"""The generated defect tables of ``benchmarks/generated_defects.py`` (issue 35): the saved
figures cover at least 50 locales, the learned value roles are what catches a value of another
role, and the figures are what the script measures (where Faker is installed)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAVED = json.loads((ROOT / "benchmarks" / "results.json").read_text())["generated_defects"]


def test_the_saved_defect_tables_cover_at_least_50_locales():
    assert SAVED["locales"] >= 50


def test_values_of_another_role_are_caught_by_the_learned_roles():
    cross = SAVED["classes"]["cross"]
    assert cross["caught"] >= 0.9
    assert cross["caught_without_roles"] < cross["caught"]


def test_untouched_values_stay_accepted():
    for row in SAVED["classes"].values():
        assert row["clean_accepted"] >= 0.99


@pytest.mark.slow
def test_the_saved_defect_tables_are_the_measured_ones():
    faker = pytest.importorskip("faker")
    if SAVED["faker"] != faker.VERSION:
        pytest.skip(f"measured with Faker {SAVED['faker']}, installed {faker.VERSION}")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import generated_defects

    assert json.loads(json.dumps(generated_defects.main([]))) == SAVED
