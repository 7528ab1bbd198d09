"""Amounts written in parts, scale words that do not scale, and votes under a score name."""

from __future__ import annotations

import pytest

from rlm_gym.quality import value_kind
from rlm_gym.quality.columns import column_type
from rlm_gym.quality.numbers import amounts


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1億2000万円", 120_000_000.0),
        ("1億2,000万円", 120_000_000.0),
        ("3億5000万", 350_000_000.0),
        ("12万3000円", 123_000.0),
        ("1万2千", 12_000.0),
    ],
)
def test_a_number_glued_after_a_cjk_scale_word_is_one_amount(text, value):
    assert [number for number, _ in amounts(text)] == [value]


def test_two_amounts_apart_stay_two():
    assert len(amounts("1億円 2000万円")) == 2


@pytest.mark.parametrize(
    ("text", "value"),
    [("3 mil pesos", 3000.0), ("5 miliar rupiah", 5e9), ("1.2 million views", 1.2e6)],
)
def test_a_scale_word_before_a_currency_or_unit_scales(text, value):
    assert amounts(text)[0][0] == value


def test_a_scale_word_before_another_word_does_not_scale():
    assert amounts("3 mie ayam") == [(3.0, 1)]
    assert value_kind("3 mie ayam") is None
    assert value_kind("1.2 million views") == "count"


def test_a_score_named_column_of_whole_votes_with_zeros_is_a_count():
    votes = ["0", "1", "6", "4", "14", "0", "15", "2"]
    assert column_type("Cry Score", votes) == "count"
    assert column_type("rating", ["8", "7", "9", "10", "6"]) == "rating"
