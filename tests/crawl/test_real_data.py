"""The crawl reward agrees with a crawl-quality expert on real scraper outputs (SPEC §5).

The corpus is ``tests/data/realdata`` (30 real scrapes, labelled value by value); the figures
are measured by ``benchmarks/real_data.py`` exactly as ``make bench`` reports them.
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

CORPUS = ROOT / "tests" / "data" / "realdata"


@pytest.fixture(scope="module")
def report():
    return real_data.measure(CORPUS)


@pytest.mark.parametrize("figure", sorted(real_data.BARS))
def test_agreement_with_the_expert_meets_the_spec_bar(report, figure):
    assert report["figures"][figure] >= real_data.BARS[figure], report["disagreements"]


def _corpus():
    return real_data.load_corpus(CORPUS)


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
