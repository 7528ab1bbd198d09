"""Written numbers in both decimal conventions."""

from __future__ import annotations

from rlm_gym.quality import parse_number
from rlm_gym.quality.numbers import amounts


def test_both_thousands_conventions_give_the_same_number():
    assert parse_number("1,299.99") == parse_number("1.299,99") == parse_number("1 299,99")
    assert parse_number("1,09,900") == 109900.0
    assert parse_number("0.125") == 0.125


def test_long_scale_words_of_cldr_give_an_amount_its_magnitude():
    # CLDR's long compact formats (tools/build_tables.py, CLDR_SCALE_WORDS), in any language
    assert amounts("Rp 1,5 Miliar") == [(1.5e9, 6)]
    assert amounts("€ 2 Millionen")[0][0] == 2e6
    assert amounts("3,7 tỷ")[0][0] == 3.7e9
    assert amounts("₹ 45 लाख")[0][0] == 4.5e6


def test_a_two_word_scale_word_wins_over_its_first_word():
    assert amounts("5 nghìn tỷ")[0][0] == 5e12
    assert amounts("5 nghìn")[0][0] == 5e3


def test_a_scale_word_glued_to_its_unit_counts_in_scripts_without_spaces():
    assert amounts("450万円")[0][0] == 4.5e6
    assert amounts("3억원")[0][0] == 3e8


def test_a_word_merely_starting_like_a_scale_word_is_no_scale_word():
    assert amounts("3 millionaires")[0][0] == 3.0
