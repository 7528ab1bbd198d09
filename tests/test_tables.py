"""The one table renderer (``rlm_gym.tables``)."""

from __future__ import annotations

import io
import sys

from rlm_gym.tables import cell_text, markdown_table, mean_and_ci, print_table, text_table


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


def test_print_table_without_rich_prints_the_title_and_aligned_text(monkeypatch):
    monkeypatch.setitem(sys.modules, "rich", None)  # what `import rich` meets when it is absent
    monkeypatch.setitem(sys.modules, "rich.console", None)
    out = io.StringIO()
    print_table(["agent", "score"], [["random", 0.15], ["oracle", 0.92]], title="t", file=out)
    assert out.getvalue().splitlines() == [
        "t",
        "agent    score",
        "random  0.1500",
        "oracle  0.9200",
    ]


def test_mean_and_ci_says_n_a_where_no_interval_exists():
    assert mean_and_ci(0.8, 0.05, 5) == "0.800 ± 0.050"
    assert mean_and_ci(0.8, 0.0, 1) == "0.800 ± n/a"
    assert mean_and_ci(float("nan"), float("nan"), 0) == "n/a"
