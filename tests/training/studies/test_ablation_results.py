"""Ablation results: the summary table and the files, from plain rows."""

from __future__ import annotations

import csv
import json
import math

from rlm_gym.training.studies.ablation_results import (
    AblationResult,
    summarise_ablation,
    write_ablation,
)

SUMMARY = [
    {"variant": "full", "runs": 2, "score": 0.81234, "score_ci95": 0.0123, "normalised": 0.7,
     "normalised_ci95": 0.05},
    {"variant": "binary", "runs": 2, "score": 0.5, "score_ci95": math.nan,
     "normalised": math.nan, "normalised_ci95": math.nan},
]  # fmt: skip
BASELINES = {"random": 0.3, "oracle": 0.9}


def test_the_table_is_the_markdown_ablation_md_has_always_held():
    table = AblationResult([], SUMMARY, baselines=BASELINES).table()
    assert table == (
        "| variant | runs | true crawl score (mean ± 95% CI) | normalised (mean ± 95% CI) |\n"
        "|---|---|---|---|\n"
        "| full | 2 | 0.812 ± 0.012 | 0.70 ± 0.05 |\n"
        "| binary | 2 | 0.500 ± nan | nan ± nan |\n"
        "| *random (baseline)* | - | 0.300 | 0.00 |\n"
        "| *oracle (baseline)* | - | 0.900 | 1.00 |"
    )


def test_the_files_hold_the_rows_the_table_and_the_settings(tmp_path):
    rows = [
        {"variant": "full", "seed": s, "score": x, "normalised": x} for s, x in ((0, 0.8), (1, 0.9))
    ]
    result = AblationResult(rows, summarise_ablation(rows, ["full"]), {}, BASELINES, tmp_path)
    write_ablation(result, {"env_id": "CartPole-v1", "seeds": [0, 1]}, plots=False)
    with open(tmp_path / "ablation.csv") as handle:
        assert [row["seed"] for row in csv.DictReader(handle)] == ["0", "1"]
    assert (tmp_path / "ablation.md").read_text() == result.table() + "\n"
    written = json.loads((tmp_path / "ablation.json").read_text())
    assert written["config"]["seeds"] == [0, 1] and written["baselines"] == BASELINES


ONE_SEED = [{"variant": "full", "seed": 0, "score": 0.8, "normalised": 0.5}]


def test_one_seed_gives_a_mean_and_no_interval_in_the_table():
    result = AblationResult(ONE_SEED, summarise_ablation(ONE_SEED, ["full"]), baselines=BASELINES)
    assert "| full | 1 | 0.800 ± n/a | 0.50 ± n/a |" in result.table()


def test_ablation_json_is_strict_and_claims_no_interval_from_one_seed(tmp_path):
    summary = summarise_ablation(ONE_SEED, ["full", "binary"])  # binary: no run at all
    result = AblationResult(ONE_SEED, summary, {}, BASELINES, tmp_path)
    write_ablation(result, {"seeds": [0]}, plots=False)

    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is not JSON")

    written = json.loads((tmp_path / "ablation.json").read_text(), parse_constant=refuse)
    full, binary = written["summary"]
    assert (full["score"], full["score_ci95"], full["normalised_ci95"]) == (0.8, None, None)
    assert binary["score"] is None and binary["runs"] == 0
    assert "| binary | 0 | n/a | n/a |" in (tmp_path / "ablation.md").read_text()
