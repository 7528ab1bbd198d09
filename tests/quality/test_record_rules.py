"""The saved figures of ``benchmarks/record_rules.py``: the mangled-number, record-level and
cut-text rules per corpus, and their settings chosen leave-one-corpus-out."""

from __future__ import annotations

import json
from pathlib import Path

from rlm_gym.quality.corpora import FIRST_SCORED_CORPORA, OPEN_CORPORA, SEALED_CORPORA
from rlm_gym.quality.records import RECORD_SETTINGS

ROOT = Path(__file__).resolve().parents[2]
SAVED = json.loads((ROOT / "benchmarks" / "results.json").read_text())["record_rules"]


def test_every_corpus_is_scored_and_the_first_scored_one_is_marked_development():
    assert SAVED["corpora"] == [*OPEN_CORPORA, *SEALED_CORPORA]
    assert SAVED["development"] == sorted(FIRST_SCORED_CORPORA) == ["world_b"]


def test_no_rule_rejects_a_labelled_valid_value_on_any_corpus():
    for rule, by_corpus in SAVED["rules"].items():
        for corpus, row in by_corpus.items():
            assert row["false_positives"] == 0, (rule, corpus, row)


def test_the_saved_settings_are_the_shipped_ones():
    for report in SAVED["leave_one_corpus_out"].values():
        for key, value in report["shipped"].items():
            assert RECORD_SETTINGS[key] == value
