"""The one table renderer: Markdown tables for files and notebooks, aligned text for terminals.

Every table rlm_gym prints or writes goes through these two functions, so a column looks the
same wherever it appears. Cells arrive as already-formatted strings or as values: floats are
written with ``float_format`` (never with Python's repr, whose float noise such as
``0.44999999999999996`` does not belong in a table).

Example:
    >>> print(markdown_table(["agent", "score"], [["random", 0.5], ["oracle", 0.91]]))
    | agent | score |
    |---|---|
    | random | 0.5000 |
    | oracle | 0.9100 |
    >>> print(text_table(["agent", "score"], [["random", 0.5], ["oracle", 0.91]]))
    agent    score
    random  0.5000
    oracle  0.9100
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["cell_text", "markdown_table", "text_table"]


def cell_text(value: Any, float_format: str = "{:.4f}") -> str:
    """One cell as text: floats through ``float_format``, everything else through ``str``."""
    return float_format.format(value) if isinstance(value, float) else str(value)


def markdown_table(
    headers: Sequence[str], rows: Sequence[Sequence[Any]], float_format: str = "{:.4f}"
) -> str:
    """A Markdown (GitHub) table: a header row, a separator, one line per row."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += [
        "| " + " | ".join(cell_text(value, float_format) for value in row) + " |" for row in rows
    ]
    return "\n".join(lines)


def text_table(
    headers: Sequence[str], rows: Sequence[Sequence[Any]], float_format: str = "{:.4f}"
) -> str:
    """Plain aligned text: text columns left-aligned, numbers right-aligned, two spaces apart.

    A column is numeric when the first row holds a non-string there (the rows of one table
    share their types).
    """
    cells = [[cell_text(value, float_format) for value in row] for row in rows]
    widths = [
        max([len(header)] + [len(row[i]) for row in cells]) for i, header in enumerate(headers)
    ]
    numeric = [bool(rows) and not isinstance(rows[0][i], str) for i in range(len(headers))]

    def line(values: Sequence[str]) -> str:
        parts = [
            value.rjust(width) if is_number else value.ljust(width)
            for value, width, is_number in zip(values, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    return "\n".join([line(headers), *(line(row) for row in cells)])
