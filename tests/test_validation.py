"""Did-you-mean suggests a name a typo or an abbreviation away, and nothing further off."""

from __future__ import annotations

import pytest

from rlm_gym._validation import did_you_mean, edit_distance


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("lenint", "lenient"),
        ("CartPol-v1", "CartPole-v1"),
        ("reward_cfg", "reward_config"),
        ("ablaton", "ablation"),
        ("LENIENT", "lenient"),
    ],
)
def test_a_typo_or_an_abbreviation_gets_the_name(typed, meant):
    assert did_you_mean(typed, [meant, "strict", "CartPole-v0", "ablation-v1"]).endswith(
        f"'{meant}'?"
    )


@pytest.mark.parametrize(
    ("typed", "valid"),
    [
        ("MyCrawler-v0", ["CartPole-v0", "rlm_gym/Crawl-v1", "rlm_gym/Crawl-v2"]),
        ("xyz", ["lenient", "strict"]),
        ("validation", ["attempt", "success", "progress"]),
    ],
)
def test_a_name_far_off_gets_no_suggestion(typed, valid):
    assert did_you_mean(typed, valid) == ""


def test_equally_close_names_suggest_the_newest_version():
    assert (
        did_you_mean("CartPole-v9", ["CartPole-v0", "CartPole-v1"])
        == " Did you mean 'CartPole-v1'?"
    )


def test_edit_distance_counts_insertions_deletions_and_substitutions():
    assert edit_distance("", "abc") == 3
    assert edit_distance("kitten", "sitting") == 3
    assert edit_distance("same", "same") == 0
