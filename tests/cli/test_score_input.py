"""``rlm-gym score`` checks that its file is crawl data before it scores (issue 21).

Files that are not crawl data get one line naming the file and what is accepted, exit code 2;
a ragged row inside a real CSV is scored, and named on stderr.
"""

from __future__ import annotations

import csv
import io
import json
import zlib
from pathlib import Path

import pytest

from rlm_gym.cli import main
from rlm_gym.cli.score_input import ACCEPTED


def _png() -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body).to_bytes(4, "big")
        return len(body).to_bytes(4, "big") + kind + body + crc

    header = chunk(b"IHDR", (1).to_bytes(4, "big") * 2 + bytes([8, 0, 0, 0, 0]))
    pixels = chunk(b"IDAT", zlib.compress(b"\x00\x00"))
    return b"\x89PNG\r\n\x1a\n" + header + pixels + chunk(b"IEND", b"")


NOT_CRAWL_DATA = [
    ("image.csv", _png(), "binary content, not text: it looks like a PNG image"),
    ("export.csv", b"name,price\x00\x00\x01\x02\n", "binary content, not text (a NUL byte at"),
    ("numbers.json", b"[1, 2, 3]\n", "no item is a JSON object of fields (item 1 is a number: 1)"),
    ("strings.json", b'["a", "b"]', "no item is a JSON object of fields (item 1 is a string"),
    ("header.csv", b"name,price\n", "no items to score (a header row and no data rows)"),
    ("empty.json", b"[]", "no items to score (an empty list)"),
    ("wrapped.json", b'{"items": []}', "no items to score (an empty list)"),
    ("empty.jsonl", b"", "the file is empty"),
    ("blank.jsonl", b"\n  \n", "the file is empty"),
    ("empty.csv", b"", "the file is empty"),
    ("prose.csv", b"a,b\n1\n1,2,3\n4\n5,6\n", "not a table: 3 of 4 rows do not have the header's"),
]


def _error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(("name", "content", "problem"), NOT_CRAWL_DATA, ids=lambda v: str(v)[:20])
def test_not_crawl_data_names_the_file_the_problem_and_what_is_accepted(
    tmp_path, capsys, name, content, problem
):
    path = tmp_path / name
    path.write_bytes(content)
    assert main(["score", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    line = _error_line(captured.err)
    assert line.startswith(f"rlm-gym score: error: {path}: {problem}"), line
    assert line.endswith(f"; {ACCEPTED}"), line


def test_an_empty_file_exits_2_whatever_the_input_format(tmp_path, capsys):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    for input_format in ("auto", "results", "items", "csv"):
        assert main(["score", str(path), "--input-format", input_format]) == 2
        assert "the file is empty" in _error_line(capsys.readouterr().err)


RAGGED = "name,price\nSofa,12\nLamp,5,extra\nChair\nTable,9\nBed,100\n"


def test_a_ragged_row_in_a_real_csv_is_scored_and_named_by_its_line(tmp_path, capsys):
    path = tmp_path / "shop.csv"
    path.write_text(RAGGED, encoding="utf-8")
    assert main(["score", str(path), "--required", "name,price", "--format", "json"]) == 0
    captured = capsys.readouterr()
    warning = next(line for line in captured.err.splitlines() if "warning" in line)
    assert f"{path}: 2 of 5 rows do not have the header's 2 cells" in warning
    assert "line 3 has 3 cells, line 4 has 1 cell" in warning
    assert len(json.loads(captured.out)["results"]) == 1


def test_a_ragged_row_never_makes_a_column_named_none(tmp_path, capsys):
    path = tmp_path / "shop.csv"
    path.write_text(RAGGED, encoding="utf-8")
    assert main(["score", str(path), "--explain", "--format", "json"]) == 0
    fields = json.loads(capsys.readouterr().out)["results"][0]["explain"]["fields"]
    assert set(fields) == {"name", "price"}


def test_a_crawl_result_without_items_is_poor_whatever_its_reward(tmp_path, capsys):
    path = tmp_path / "crawls.jsonl"
    lines = [{"success": True, "data": []}, {"success": True, "data": [1, 2, 3]}]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    assert main(["score", str(path), "--format", "json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert [row["tier"] for row in results] == ["poor", "poor"]


def test_csv_output_has_the_tables_decimals_not_float_noise(tmp_path, capsys):
    examples = Path(__file__).resolve().parents[2] / "examples" / "crawl_results.jsonl"
    assert main(["score", str(examples), "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    header, body = rows[0], rows[1:]
    numbers = [
        cell
        for row in body
        for name, cell in zip(header, row, strict=True)
        if name not in ("line", "domain", "pattern_type", "tier", "bucket")
    ]
    assert numbers and all(len(cell.partition(".")[2]) == 4 for cell in numbers), numbers


def test_a_directory_is_refused_with_a_file_inside_it_to_try(tmp_path, capsys):
    (tmp_path / "products.csv").write_text("name,price\nKettle,$19\n", encoding="utf-8")
    assert main(["score", str(tmp_path)]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith(f"rlm-gym score: error: {tmp_path} is a directory")
    assert "reads one file" in error and str(tmp_path / "products.csv") in error


DEPTH = 20_000  # far past Python's recursion limit, which its JSON decoder recurses into


@pytest.mark.parametrize(
    "document",
    ["[" * DEPTH + "]" * DEPTH, '{"data": ' + "[" * DEPTH + "]" * DEPTH + "}"],
    ids=["items", "inside-an-object"],
)
def test_json_nested_too_deeply_gets_one_line(document, tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text(document)
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "JSON nested too deeply to read" in err[0] and str(path) in err[0]


def test_a_crawl_result_line_nested_too_deeply_is_an_invalid_line(tmp_path, capsys):
    path = tmp_path / "deep.jsonl"
    path.write_text('{"success": true, "data": ' + "[" * DEPTH + "]" * DEPTH + "}\n")
    assert main(["score", str(path), "--input-format", "results"]) == 1  # as any invalid line
    err = capsys.readouterr().err
    assert f"{path}:1: JSON nested too deeply to read" in err and "Traceback" not in err
