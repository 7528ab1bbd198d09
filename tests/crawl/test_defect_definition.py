"""The README's definition of a systematic defect is the rule ``crawl_reward`` applies,
with a schema and without one (``rlm-gym score`` without ``--required``)."""

from __future__ import annotations

import re
from pathlib import Path

from rlm_gym.crawl import crawl_reward
from rlm_gym.crawl.settings import DEFAULT_SETTINGS

README = Path(__file__).resolve().parents[2] / "README.md"
ROWS = [
    {"name": "Anvil", "price": "$10"},
    {"name": "Bucket", "price": "$12"},
    {"name": "Chisel", "price": "N/A"},
    {"name": "Drill", "price": "$90"},
    {"name": "Easel", "price": "$11"},
]


def _defects(required: list[str] | None) -> list[str]:
    result = {"success": True, "data": ROWS, "pattern_type": "product_list"}
    if required is not None:
        result["extraction_schema"] = {"required": required}
    return crawl_reward(result).details["defects"]


def _defect_row() -> str:
    return next(line for line in README.read_text().splitlines() if line.startswith("| `defects`"))


def test_the_readme_states_the_thresholds_the_reward_uses():
    row = _defect_row()
    assert f"with ≥ {DEFAULT_SETTINGS.defect_min_items} distinct items" in row
    shares = [int(share) for share in re.findall(r"≥ (\d+) %", row)]
    assert shares == [
        round(100 * DEFAULT_SETTINGS.defect_field_share),
        round(100 * DEFAULT_SETTINGS.defect_duplicate_share),
    ]


def test_without_required_fields_one_placeholder_in_five_rows_is_a_defect_as_the_readme_says():
    assert "one `N/A` price in 5 rows is a defect" in _defect_row()
    defects = _defects(None)
    assert len(defects) == 1 and defects[0].startswith("price: 20% of 5 distinct items")


def test_a_field_that_is_not_required_is_not_checked_for_defects():
    assert "The checked fields are the required ones" in _defect_row()
    assert _defects(["name"]) == []
    assert len(_defects(["name", "price"])) == 1


def test_score_without_required_says_which_fields_it_checks_for_defects(tmp_path, capsys):
    from rlm_gym.cli import main

    path = tmp_path / "shop.csv"
    path.write_text("name,price\n" + "".join(f"{r['name']},{r['price']}\n" for r in ROWS))
    assert main(["score", str(path), "--format", "json"]) == 0
    err = capsys.readouterr().err
    assert "a field present in at least half the items is checked for systematic defects" in err
