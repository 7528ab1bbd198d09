"""``rlm-gym score``: output formats, summary, schema override and errors on bad lines."""

from __future__ import annotations

import argparse
import csv
import io
import json
from pathlib import Path

import pytest

from rlm_gym.crawl import crawl_reward
from rlm_gym.crawl.cli import main, register

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "crawl_results.jsonl"


def _write(tmp_path, lines):
    path = tmp_path / "crawl.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


GOOD = json.dumps(
    {"domain": "tiki.vn", "success": True, "data": [{"product_name": "Áo sơ mi", "price": 10.0}]}
)


def test_the_sample_file_has_twenty_or_more_valid_results():
    lines = EXAMPLES.read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 20
    for line in lines:
        crawl_reward(json.loads(line))


def test_table_lists_every_line_and_a_summary_per_pattern_type(capsys):
    assert main(["score", str(EXAMPLES)]) == 0
    out = capsys.readouterr().out
    header = out.splitlines()[0]
    assert header.split()[:6] == ["line", "domain", "pattern_type", "tier", "bucket", "reward"]
    assert header.split()[6:] == ["success", "has_data", "validation", "quantity", "efficiency"]
    assert "summary by pattern type" in out
    assert "product_list" in out and "article_extraction" in out
    assert out.splitlines()[-1].split()[:2] == ["all", "22"]


def test_table_reward_matches_crawl_reward(capsys):
    first = json.loads(EXAMPLES.read_text(encoding="utf-8").splitlines()[2])
    main(["score", str(EXAMPLES)])
    row = capsys.readouterr().out.splitlines()[3].split()
    assert row[0] == "3"
    assert float(row[5]) == pytest.approx(crawl_reward(first).value, abs=5e-5)


def test_json_format_has_results_summary_and_components(capsys):
    assert main(["score", str(EXAMPLES), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["policy"] == "crawl"
    assert len(document["results"]) == 22
    row = document["results"][0]
    assert set(row) == {"line", "domain", "pattern_type", "tier", "bucket", "reward", "components"}
    assert row["reward"] == pytest.approx(sum(row["components"].values()))
    assert document["summary"][-1]["pattern_type"] == "all"
    assert document["invalid"] == []


def test_csv_format_has_one_row_per_result(capsys):
    assert main(["score", str(EXAMPLES), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 22
    assert set(rows[0]) >= {"line", "reward", "validation", "efficiency"}


def test_schema_field_replaces_each_results_schema(tmp_path, capsys):
    path = _write(tmp_path, [GOOD])
    main(["score", path, "--format", "json", "--schema-field", "product_name"])
    with_one = json.loads(capsys.readouterr().out)["results"][0]["components"]["validation"]
    main(
        [
            "score",
            path,
            "--format",
            "json",
            "--schema-field",
            "product_name",
            "--schema-field",
            "sku",
        ]
    )
    with_two = json.loads(capsys.readouterr().out)["results"][0]["components"]["validation"]
    assert with_one == pytest.approx(0.3)
    assert with_two == pytest.approx(0.3 * (0.4 * 0.5 + 0.3 * 0.5 + 0.3 * 1.0))


def test_other_registered_policies_can_score(tmp_path, capsys):
    path = _write(tmp_path, [GOOD])
    assert main(["score", path, "--policy", "binary", "--format", "json"]) == 0
    row = json.loads(capsys.readouterr().out)["results"][0]
    assert row["reward"] == 1.0
    assert row["pattern_type"] == "product_list"


BAD_LINES = [
    ("{not json", "line 2: invalid JSON"),
    ("[1, 2]", "line 2: expected a JSON object (one crawl result), got an array"),
    ('{"data": []}', "line 2: Invalid crawl result: missing `success`"),
    ('{"success": true}', "line 2: Invalid crawl result: missing `data`"),
    ('{"success": true, "data": [], "execution_time_ms": -5}', "execution_time_ms"),
]


@pytest.mark.parametrize(("bad", "message"), BAD_LINES)
def test_bad_line_is_an_error_naming_the_line(tmp_path, capsys, bad, message):
    path = _write(tmp_path, [GOOD, bad, GOOD])
    assert main(["score", path]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{path}:{message.removeprefix('line ')}" in captured.err or message in captured.err
    assert "--skip-invalid" in captured.err


def test_skip_invalid_reports_and_scores_the_rest(tmp_path, capsys):
    path = _write(tmp_path, [GOOD, "{not json", "", GOOD])
    assert main(["score", path, "--skip-invalid", "--format", "json"]) == 0
    captured = capsys.readouterr()
    document = json.loads(captured.out)
    assert [row["line"] for row in document["results"]] == [1, 4]
    assert document["invalid"][0]["line"] == 2
    assert f"{path}:2: invalid JSON" in captured.err
    assert "(skipped)" in captured.err


def test_missing_file_exits_2(tmp_path, capsys):
    assert main(["score", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_unknown_policy_exits_2_with_a_suggestion(capsys):
    assert main(["score", str(EXAMPLES), "--policy", "crawll"]) == 2
    assert "Did you mean 'crawl'" in capsys.readouterr().err


def test_empty_file_is_an_error(tmp_path, capsys):
    assert main(["score", _write(tmp_path, [""])]) == 1
    assert "no crawl results" in capsys.readouterr().err


def test_register_adds_score_to_a_parent_parser():
    parser = argparse.ArgumentParser(prog="rlm-gym")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["score", "f.jsonl", "--schema-field", "a", "--schema-field", "b"])
    assert (args.file, args.schema_fields, args.format, args.skip_invalid) == (
        "f.jsonl",
        ["a", "b"],
        "table",
        False,
    )
    assert callable(args.func)
