"""The crawl reward agrees with a crawl-quality expert on real scraper outputs.

Two source groups of labelled real scrapes: ``tests/data/realdata`` (the original 30) and
``tests/data/devcorpus`` (33 crawls from other repositories and sites, labelled before any
scoring); the figures are measured by ``benchmarks/real_data.py`` exactly as ``make bench``
reports them. Every group meets the per-group bars; the new crawls alone and the whole corpus
meet the stricter ones (the original 30 cannot reach the stricter tier bar: even a perfect
value judge puts only 27 of them in the verdict's tiers, ``benchmarks/tier_ceiling.py``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from rlm_gym.crawl import check_items, crawl_reward

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import real_data  # noqa: E402

CORPORA = dict(real_data.CORPORA)


@pytest.fixture(scope="module")
def report():
    return real_data.measure_groups()


@pytest.mark.parametrize("group", ["original", "new", "overall"])
@pytest.mark.parametrize("figure", sorted(real_data.SPEC_BARS))
def test_every_source_group_meets_the_spec_bar(report, group, figure):
    figures = report["groups"][group]["figures"]
    assert figures[figure] >= real_data.SPEC_BARS[figure], report["disagreements"]


@pytest.mark.parametrize("group", ["new", "overall"])
@pytest.mark.parametrize("figure", sorted(real_data.BARS))
def test_the_new_crawls_and_the_whole_corpus_meet_the_issue_22_bar(report, group, figure):
    figures = report["groups"][group]["figures"]
    assert figures[figure] >= real_data.BARS[figure], report["disagreements"]


def _corpus():
    return [pair for path in CORPORA.values() for pair in real_data.load_corpus(path)]


def test_every_value_of_the_corpus_is_scored_without_error():
    for crawl, _ in _corpus():
        signal = crawl_reward(crawl)
        assert 0.0 <= signal.value <= 1.0
        assert len(check_items(crawl)) == len(crawl["data"])


def test_every_item_of_the_corpus_is_scored_without_a_schema():
    for crawl, _ in _corpus():
        schemaless = {key: value for key, value in crawl.items() if key != "extraction_schema"}
        assert 0.0 <= crawl_reward(schemaless).value <= 1.0


def test_broken_crawls_score_below_every_clean_one(report):
    rewards = {row["verdict"]: [] for row in report["per_crawl"]}
    for row in report["per_crawl"]:
        rewards[row["verdict"]].append(row["reward"])
    assert max(rewards["broken"]) < min(rewards["clean"])


def test_the_saved_benchmark_figures_are_the_measured_ones(report):
    saved = json.loads((ROOT / "benchmarks" / "results.json").read_text())["real_data"]
    assert saved["figures"] == report["figures"]
    assert saved["groups"] == report["groups"]


# --------------------------------------------------------------------------------------------
# sealed batches (issue 28): never in the default run, scored apart, first score kept
# --------------------------------------------------------------------------------------------
def test_the_default_run_never_includes_a_sealed_batch():
    assert not [path for _, path in real_data.CORPORA if real_data.is_sealed(path)]
    assert real_data.is_sealed(ROOT / "tests" / "data" / "sealed1")
    assert not real_data.is_sealed(ROOT / "tests" / "data" / "devcorpus")


def test_measure_groups_refuses_a_sealed_batch(tmp_path):
    with pytest.raises(ValueError, match="sealed batches are scored apart"):
        real_data.measure_groups((("x", tmp_path / "sealed9"),))


def test_data_refuses_a_sealed_batch_before_reading_it(tmp_path, capsys):
    with pytest.raises(SystemExit):
        real_data.main(["--data", str(tmp_path / "sealed9")])  # the folder does not even exist
    assert "--sealed" in capsys.readouterr().err


def _tiny_sealed_batch(folder: Path) -> Path:
    """A made-up labelled batch in the corpus format (not real data: the plumbing only)."""
    folder.mkdir()
    crawl = {
        "success": True,
        "data": [{"name": f"Lampa {n}", "price": f"{100 + n} Kč"} for n in range(6)]
        + [{"name": "Lampa 7", "price": "N/A"}],
        "navigation_result": {"pages_collected": 1, "strategy_used": "single_page"},
        "execution_time_ms": 1000.0,
        "errors": [],
        "extraction_schema": {"required": ["name", "price"]},
    }
    label = {
        "line": 1,
        "domain": "example.cz",
        "verdict": "clean",
        "pattern_types": ["product_list"],
        "values": [
            {"field": "price", "value": "100 Kč", "valid": True, "why": "amount with currency"},
            {"field": "name", "value": "Lampa 0", "valid": True, "why": "readable text"},
            {"field": "price", "value": "N/A", "valid": False, "why": "placeholder"},
        ],
    }
    (folder / "crawls.jsonl").write_text(json.dumps(crawl) + "\n", encoding="utf-8")
    (folder / "labels.json").write_text(json.dumps([label]), encoding="utf-8")
    return folder


def test_a_sealed_batch_is_saved_apart_and_its_first_score_is_kept(tmp_path, monkeypatch):
    import _common

    monkeypatch.setattr(_common, "RESULTS_PATH", tmp_path / "results.json")
    batch = _tiny_sealed_batch(tmp_path / "sealed9")
    report = real_data.main(["--sealed", str(batch), "--save", "--quiet"])
    assert report["figures"]["valid_accepted"] == 1.0
    saved = json.loads((tmp_path / "results.json").read_text())
    first = saved["real_data_sealed"]["sealed9"]["first"]
    assert first["crawls"] == 1 and first["scored_at"] and first["commit"]
    assert "real_data" not in saved  # the corpus figures are not touched
    with pytest.raises(SystemExit, match="first score is kept"):
        real_data.main(["--sealed", str(batch), "--save", "--quiet"])
    real_data.main(["--sealed", str(batch), "--save", "--rescore", "--quiet"])
    entry = json.loads((tmp_path / "results.json").read_text())["real_data_sealed"]["sealed9"]
    assert entry["first"] == first and len(entry["later"]) == 1
