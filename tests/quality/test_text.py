"""The text rule: one CJK character is a word, one letter is not; texts cut off mid-quotation or
mid-entity are rejected, closed quotes and ampersands are not."""

from __future__ import annotations

import pytest

from rlm_gym.quality import check_value


@pytest.mark.parametrize("value", ["南", "有", "東", "木", "猫", "는", "집", "の"])
def test_one_cjk_character_is_a_word(value):
    assert check_value("text", value) == ""


@pytest.mark.parametrize("value", ["x", "-", "5", "é", "ж"])
def test_one_letter_or_sign_of_an_alphabet_is_too_short_or_a_placeholder(value):
    assert check_value("text", value) in {"too short", "placeholder"}


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("Le ministre a dénoncé ce qu'il appelle un «\u00a0", "truncated"),
        ("Streit um Tempolimit: »Wir", "truncated"),
        ("Die Kanzlerin sprach von einer „", "truncated"),
        ("Cast: Daniel Brühl, Nina Hoss  &nb", "markup residue"),
        ("Fish &amp", "markup residue"),
    ],
)
def test_values_cut_off_mid_quote_or_mid_entity_are_rejected(value, reason):
    assert check_value("text", value) == reason


@pytest.mark.parametrize(
    "value",
    [
        "Il parle d'un «\u00a0coup d\u2019État\u00a0» contre la loi",
        "Streit um »Tempolimit« geht weiter",
        "Lockerungen bei Schulen: »Gefährliche Scheinsicherheit«",
        "und es wurde grün«",
        "Die „Ampel“ streitet",
        "AT&T",
        "Q&A",
        "R&B classics",
        "Tom & Jerry",
    ],
)
def test_closed_quotes_and_ampersands_stay_valid(value):
    assert check_value("text", value) == ""
