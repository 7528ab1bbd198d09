"""The results table of ``demo`` and ``evaluate``: it fits the terminal, never cuts a label,
and ``--format json|csv`` give the rows back as they are."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest

from rlm_gym.cli import main
from rlm_gym.cli.evaluate import OPTIONAL_COLUMNS, print_comparison
from rlm_gym.envs import CURRENT_CRAWL_ENV_ID
from rlm_gym.training.evaluation import BASELINES, comparison_table, evaluate, table_cells

TITLE = f"{CURRENT_CRAWL_ENV_ID}: true crawl score"


@pytest.fixture(scope="module")
def rows():
    """Rows with every column of the demo's table (a trained agent's row has the same keys)."""
    return comparison_table(
        [evaluate(name, CURRENT_CRAWL_ENV_ID, 4, 1_000_000, label=name) for name in BASELINES]
    )


def _printed(rows, fmt, capsys) -> str:
    print_comparison(rows, TITLE, fmt)
    return capsys.readouterr().out


def _headers(rows) -> list[str]:
    return [header for header, _ in table_cells(rows[0])]


@pytest.mark.parametrize("columns", [80, 100, 200])
def test_the_table_fits_the_terminal(rows, columns, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", str(columns))
    lines = _printed(rows, "table", capsys).splitlines()
    assert max(len(line) for line in lines) <= columns


@pytest.mark.parametrize("columns", [80, 100, 200])
def test_no_label_is_cut_and_every_column_is_shown_or_named(rows, columns, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", str(columns))
    lines = _printed(rows, "table", capsys).splitlines()
    header_lines = lines[1 : lines.index(next(line for line in lines if line.startswith("random")))]
    shown_words = " ".join(header_lines).split()
    note = " ".join(lines[lines.index(next(ln for ln in lines if ln.startswith("oracle"))) + 1 :])
    dropped = note.partition(" columns: ")[2].partition(";")[0].split(", ") if note else []
    shown = [header for header in _headers(rows) if header not in dropped]
    # Headers wrap on their spaces (a column's words on lines below each other): every word
    # of a shown header is printed whole, and nothing else is.
    assert sorted(shown_words) == sorted(word for header in shown for word in header.split())
    assert "…" not in "\n".join(lines)
    assert set(dropped) <= set(OPTIONAL_COLUMNS)


def test_a_wide_terminal_shows_every_column_on_one_header_line(rows, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "200")
    lines = _printed(rows, "table", capsys).splitlines()
    assert lines[1].split("  ")[0] == "agent" and "tiers E/G/A/P %" in lines[1]
    assert lines[2].startswith("random") and len(lines) == 2 + len(rows)


def test_json_gives_the_rows_back(rows, capsys):
    assert json.loads(_printed(rows, "json", capsys)) == json.loads(json.dumps(rows))


def test_csv_gives_every_value_of_every_row(rows, capsys):
    read = list(csv.DictReader(io.StringIO(_printed(rows, "csv", capsys))))
    assert [row["label"] for row in read] == [row["label"] for row in rows]
    for got, row in zip(read, rows, strict=True):
        assert {key: float(got[key]) for key in row if key != "label"} == pytest.approx(
            {key: value for key, value in row.items() if key != "label"}
        )


def test_evaluate_json_round_trips(capsys):
    argv = ["evaluate", "random", "oracle", "--episodes", "3", "--quiet", "--format", "json"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert [row["label"] for row in json.loads(out)] == ["random", "oracle"]


@pytest.mark.slow
def test_demo_json_is_the_rows_alone_on_stdout(tmp_path):
    argv = ["demo", "--quick", "--format", "json", "--out", str(tmp_path / "demo")]
    done = subprocess.run(
        [sys.executable, "-m", "rlm_gym.cli", *argv], capture_output=True, text=True, check=True
    )
    rows = json.loads(done.stdout)
    assert [row["label"] for row in rows] == [
        "random",
        "heuristic",
        "best fixed",
        "trained",
        "oracle",
    ]
    written = json.loads(next((tmp_path).glob("demo*/evaluation.json")).read_text())
    assert rows == written


def test_study_json_is_the_results_file_and_csv_a_row_per_variant(tmp_path, capsys):
    argv = ["study", "defaults", "--no-train", "--eval-episodes", "2", "--quiet"]
    argv += ["--results-dir", str(tmp_path / "r"), "--runs-dir", str(tmp_path / "runs")]
    assert main([*argv, "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads((tmp_path / "r" / "defaults.json").read_text())
    assert main([*argv, "--format", "csv"]) == 0
    read = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [row["variant"] for row in read] == list(printed["variants"])
