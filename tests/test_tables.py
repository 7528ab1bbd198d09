"""The one table renderer (``rlm_gym.tables``)."""

from __future__ import annotations

from rlm_gym.tables import cell_text, markdown_table, text_table


def test_floats_are_formatted_never_repr_noise():
    assert cell_text(-0.44999999999999996) == "-0.4500"
    assert cell_text(0.5, "{:.2f}") == "0.50"
    assert cell_text(3) == "3"


def test_markdown_table_has_header_separator_and_rows():
    table = markdown_table(["a", "b"], [["x", 1], ["y", 2.0]])
    assert table.splitlines() == ["| a | b |", "|---|---|", "| x | 1 |", "| y | 2.0000 |"]


def test_text_table_right_aligns_numbers_and_left_aligns_text():
    lines = text_table(["name", "n"], [["long name", 1], ["x", 100]]).splitlines()
    assert lines == ["name         n", "long name    1", "x          100"]


def test_text_table_without_rows_is_the_header():
    assert text_table(["a", "b"], []) == "a  b"
