# ruff: noqa: RUF001 - the wave dashes of CJK pages are the point
"""Control characters and cut numeric entities are junk; a closing date after a tilde is a date."""

from __future__ import annotations

import pytest

from rlm_gym.quality import check_value


@pytest.mark.parametrize("control", ["\x00", "\x02", "\x1b", "\x1f"])
def test_a_control_character_in_text_is_mis_encoded(control):
    assert check_value("text", f"2 rooms + kitchen{control}ette") == "mis-encoded text"


def test_tabs_and_line_breaks_are_text():
    assert check_value("text", "2 rooms\tkitchen\nbalcony") == ""


@pytest.mark.parametrize("value", ["1h, kitchen&#...", "Caf&#x", "Gr&#246"])
def test_a_numeric_entity_cut_at_the_end_is_markup_residue(value):
    assert check_value("text", value) == "markup residue"


def test_an_ampersand_in_text_is_text():
    assert check_value("text", "Tom & Jerry #2") == ""


@pytest.mark.parametrize("value", ["~ 11/14(금)", "~11/14(金)", "〜 11/26(火)", "～ 2024-11-26"])
def test_a_date_after_an_until_mark_is_a_date(value):
    assert check_value("date", value) == ""


def test_an_until_mark_alone_is_no_date():
    assert check_value("date", "~ soon") == "not a date"
