"""Written numbers in both decimal conventions."""

from __future__ import annotations

from rlm_gym.quality import parse_number


def test_both_thousands_conventions_give_the_same_number():
    assert parse_number("1,299.99") == parse_number("1.299,99") == parse_number("1 299,99")
    assert parse_number("1,09,900") == 109900.0
    assert parse_number("0.125") == 0.125
