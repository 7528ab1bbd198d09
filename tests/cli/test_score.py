"""``rlm-gym score``: output formats, summary, schema override and errors on bad lines."""

from __future__ import annotations

import argparse
import csv
import io
import json
from pathlib import Path

import pytest

from rlm_gym.cli import main
from rlm_gym.cli.score import register
from rlm_gym.crawl import CrawlRewardPolicy, crawl_reward
from rlm_gym.quality.corpora import read_crawls
from tests.corpora import corpus_or_skip

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
    assert header.split()[6:] == list(CrawlRewardPolicy.component_names)
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
    assert main(["score", _write(tmp_path, [""])]) == 2
    assert "the file is empty" in capsys.readouterr().err


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


# --- a scraper's own output (items / CSV) ---------------------------------------------------


@pytest.fixture(scope="module")
def realdata() -> Path:
    """The ``realdata`` corpus folder (``../shared/corpora``; a skip where it is absent)."""
    return corpus_or_skip("realdata")


@pytest.fixture(scope="module")
def corpus(realdata) -> list[dict]:
    return read_crawls(realdata)


def _raw(realdata, prefix):
    (path,) = (realdata / "raw").glob(f"{prefix}_*")
    return str(path)


@pytest.mark.parametrize(
    "prefix",
    [
        "06",  # CSV
        "08",  # a single JSON object: one item
        "12",  # UTF-8 with a BOM; a header name with a trailing space
        "18",  # a JSON array
        "20",  # cp1252
        "21",  # a JSON object holding the list
        "29",  # pretty-printed objects one after another
        "30",  # CSV
    ],
)
def test_a_raw_scraper_file_scores_as_its_corpus_crawl(prefix, capsys, realdata, corpus):
    crawl = corpus[int(prefix) - 1]
    assert len(crawl["data"]) < 100  # the whole file is in the corpus
    argv = ["score", _raw(realdata, prefix), "--format", "json", "--required"]
    argv += [",".join(crawl["extraction_schema"]["required"])]
    argv += ["--pages", str(crawl["navigation_result"]["pages_collected"])]
    argv += ["--time-ms", str(crawl["execution_time_ms"])]
    assert main(argv) == 0
    (row,) = json.loads(capsys.readouterr().out)["results"]
    assert row["reward"] == pytest.approx(crawl_reward(crawl).value, abs=1e-12)


def test_the_first_100_rows_of_a_long_file_score_as_the_corpus(tmp_path, capsys, realdata, corpus):
    crawl = corpus[0]  # jumia: 566 rows in the file, 100 in the corpus
    raw_lines = Path(_raw(realdata, "01")).read_text("utf-8").splitlines(keepends=True)
    cut = tmp_path / "jumia_first_100.csv"
    cut.write_text("".join(raw_lines[:101]), encoding="utf-8")
    argv = ["score", str(cut), "--format", "json", "--required"]
    argv += [",".join(crawl["extraction_schema"]["required"])]
    argv += ["--pages", str(crawl["navigation_result"]["pages_collected"])]
    argv += ["--time-ms", str(crawl["execution_time_ms"])]
    assert main(argv) == 0
    (row,) = json.loads(capsys.readouterr().out)["results"]
    assert row["reward"] == pytest.approx(crawl_reward(crawl).value, abs=1e-12)
    assert row["domain"] == "jumia_first_100.csv"


def test_items_from_stdin_with_a_pattern_type(monkeypatch, capsys):
    items = [{"product_name": f"Sofa {i}", "price": f"€ {i + 10}"} for i in range(12)]
    stdin = io.TextIOWrapper(io.BytesIO(json.dumps(items).encode()))
    monkeypatch.setattr("sys.stdin", stdin)
    argv = ["score", "-", "--required", "product_name,price", "--pattern-type", "price_extraction"]
    assert main([*argv, "--format", "json", "--domain", "shop.example"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["results"]
    assert (row["pattern_type"], row["domain"]) == ("price_extraction", "shop.example")


def test_a_headerless_csv_gets_a_warning_naming_columns(capsys, realdata):
    assert main(["score", _raw(realdata, "26"), "--format", "json"]) == 0
    assert "name its columns with --columns" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--required", "name,prise"], "`--required` field 'prise' is in no item"),
        (["--required", "name,,price"], "`--required` needs comma-separated names"),
        (["--pages", "0"], "`--pages` must be at least 1, got 0"),
        (["--time-ms", "nan"], "`--time-ms` must be a finite number >= 0"),
        (["--pattern-type", "product_lists"], "Did you mean 'product_list'"),
        (["--delimiter", ";;"], "`--delimiter` must be one character"),
        (["--encoding", "utf-9"], "Unknown `encoding`"),
        (["--input-format", "items"], "invalid JSON"),
    ],
)
def test_bad_arguments_for_a_scraper_file_exit_2_with_one_line(argv, message, capsys, realdata):
    assert main(["score", _raw(realdata, "01"), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_items_options_on_a_crawl_results_file_are_refused(capsys):
    assert main(["score", str(EXAMPLES), "--pages", "3"]) == 2
    assert "`--pages` is for a scraper's items or CSV" in capsys.readouterr().err


def test_required_replaces_the_schema_of_crawl_results(tmp_path, capsys):
    path = _write(tmp_path, [GOOD])
    main(["score", path, "--format", "json", "--required", "product_name,sku"])
    with_required = json.loads(capsys.readouterr().out)["results"][0]["reward"]
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
    assert json.loads(capsys.readouterr().out)["results"][0]["reward"] == with_required


# --- --explain and --bad-rows -----------------------------------------------------------------

DETAILS = {
    "pattern_type": "review_extraction",
    "tier": "acceptable",
    "bucket": "acceptable",
    "items": 25,
    "distinct_items": 25,
    "junk_items": 2,
    "valid_share": 0.62,
    "defects": ["rating: invalid on 64 % of distinct items (e.g. '9', '10', '8')"],
    "fields": {
        "rating": {"type": "rating", "checked": 25, "invalid": 16, "examples": ["9", "10", "8"]},
        "text": {"type": "text", "checked": 25, "invalid": 0, "examples": []},
    },
}


class _FakeSignal:
    value, components, details = 0.5, {}, DETAILS


@pytest.fixture
def explained(monkeypatch):
    """Every crawl's details are DETAILS (a hand-made 0.2 details dict)."""
    monkeypatch.setattr("rlm_gym.crawl.batch.crawl_reward", lambda result: _FakeSignal())


def test_explain_table_prints_fields_defects_and_shares(tmp_path, capsys, explained):
    path = _write(tmp_path, [GOOD])
    assert main(["score", path, "--policy", "binary", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "items 25, distinct 25, junk 2; valid required values 62.0 %" in out
    assert "rating: invalid on 64 % of distinct items" in out
    rating = next(line for line in out.splitlines() if line.split()[:2] == ["rating", "rating"])
    assert rating.split()[2:6] == ["25", "16", "64.0", "%"]
    assert "'9', '10', '8'" in rating


def test_explain_json_and_csv_carry_the_diagnostics(tmp_path, capsys, explained):
    path = _write(tmp_path, [GOOD])
    main(["score", path, "--policy", "binary", "--explain", "--format", "json"])
    explain = json.loads(capsys.readouterr().out)["results"][0]["explain"]
    assert explain["fields"]["rating"]["invalid"] == 16
    assert explain["valid_share"] == 0.62 and explain["junk_items"] == 2
    main(["score", path, "--policy", "binary", "--explain", "--format", "csv"])
    row = next(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert row["valid_share"] == "0.6200"
    assert row["defects"].startswith("rating: invalid on 64 %")


def test_explain_without_diagnostics_says_so(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(_FakeSignal, "details", {"pattern_type": "product_list"})
    monkeypatch.setattr("rlm_gym.crawl.batch.crawl_reward", lambda result: _FakeSignal())
    assert main(["score", _write(tmp_path, [GOOD]), "--policy", "binary", "--explain"]) == 0
    assert "no per-field diagnostics" in capsys.readouterr().out


def test_bad_rows_writes_each_rejected_item_with_its_reasons(tmp_path, capsys, monkeypatch):
    import rlm_gym.crawl.batch

    def check_items(result):
        return [
            {"price": (not str(item.get("price")).startswith("N/A"), "placeholder")}
            for item in result["data"]
        ]

    monkeypatch.setattr(rlm_gym.crawl.batch, "check_items", check_items, raising=False)
    crawl = {"success": True, "data": [{"price": "€ 5"}, {"price": "N/A"}, {"price": "N/A "}]}
    path = _write(tmp_path, [GOOD, json.dumps(crawl)])
    out = tmp_path / "bad.jsonl"
    assert main(["score", path, "--format", "csv", "--bad-rows", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert rows == [
        {"line": 2, "index": 1, "item": {"price": "N/A"}, "reasons": {"price": "placeholder"}},
        {"line": 2, "index": 2, "item": {"price": "N/A "}, "reasons": {"price": "placeholder"}},
    ]


def test_bad_rows_to_an_unwritable_path_exits_2(tmp_path, capsys):
    path = _write(tmp_path, [GOOD])
    assert main(["score", path, "--bad-rows", str(tmp_path / "no" / "bad.jsonl")]) == 2
    assert "cannot write" in capsys.readouterr().err


# --- end to end on the real-data corpus (the 0.2 scorer) ---------------------------------------


@pytest.fixture(scope="module")
def corpus_file(realdata) -> str:
    return str(realdata / "crawls.jsonl")


def test_explain_on_the_corpus_shows_clean_as_good_and_broken_as_poor_with_reasons(
    capsys, corpus_file
):
    assert main(["score", corpus_file, "--explain", "--format", "json"]) == 0
    rows = {row["line"]: row for row in json.loads(capsys.readouterr().out)["results"]}
    assert rows[1]["domain"] == "jumia.com.ng"
    assert rows[1]["tier"] in ("good", "excellent")
    assert rows[1]["explain"]["defects"] == []
    # booking.com's ratings are bare scores on its 10-point scale (SPEC §11): valid; its
    # empty authors are what break it.
    for line, field in ((6, "title"), (14, "author")):
        assert rows[line]["tier"] in ("acceptable", "poor")
        explain = rows[line]["explain"]
        assert any(defect.startswith(f"{field}:") for defect in explain["defects"])
        assert explain["fields"][field]["invalid"] > 0
        assert explain["fields"][field]["examples"]


def test_explain_table_on_the_corpus_names_the_bad_values(capsys, corpus_file):
    assert main(["score", corpus_file, "--explain"]) == 0
    out = capsys.readouterr().out
    block = out[out.index("\n    6  detik.com") : out.index("\n    7  ")]
    assert "acceptable" in block.splitlines()[1] or "poor" in block.splitlines()[1]
    assert "title: " in block and "'News Feed'" in block
    title = next(line for line in block.splitlines() if line.split()[:2] == ["title", "text"])
    assert title.split()[2:4] == ["18", "11"]


def test_bad_rows_on_the_corpus_are_the_rows_check_items_rejects(
    tmp_path, capsys, corpus_file, corpus
):
    from rlm_gym.crawl import check_items

    out = tmp_path / "bad.jsonl"
    assert main(["score", corpus_file, "--format", "csv", "--bad-rows", str(out)]) == 0
    written = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    expected = [
        (line, index)
        for line, crawl in enumerate(corpus, start=1)
        for index, verdicts in enumerate(check_items(crawl))
        if not all(valid for valid, _ in verdicts.values())
    ]
    assert [(row["line"], row["index"]) for row in written] == expected
    detik = [row for row in written if row["line"] == 6]
    assert len(detik) == 11
    assert {"title"} == {field for row in detik for field in row["reasons"]}
    assert detik[0]["item"] == corpus[5]["data"][detik[0]["index"]]


def test_pretty_printed_crawl_results_are_scored_as_results(tmp_path, capsys):
    first, second = json.loads(GOOD), {"success": False, "data": []}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(first, indent=2) + "\n" + json.dumps(second, indent=2), "utf-8")
    assert main(["score", str(path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["results"]
    assert [row["line"] for row in rows] == [1, 1 + json.dumps(first, indent=2).count("\n") + 1]
    assert rows[0]["reward"] == pytest.approx(crawl_reward(first).value)
    path.write_text(json.dumps([first, second]), "utf-8")
    assert main(["score", str(path), "--format", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["results"]) == 2
