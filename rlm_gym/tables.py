"""The one table renderer: Markdown tables for files and notebooks, aligned text for terminals.

Every table rlm_gym prints or writes goes through these functions, so a column looks the
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

import sys
from collections.abc import Sequence
from typing import Any, TextIO

__all__ = [
    "cell_text",
    "markdown_table",
    "mean_and_ci",
    "print_table",
    "rich_table",
    "text_line",
    "text_table",
]


def cell_text(value: Any, float_format: str = "{:.4f}") -> str:
    """One cell as text: floats through ``float_format``, everything else through ``str``."""
    return float_format.format(value) if isinstance(value, float) else str(value)


def mean_and_ci(mean: float, half_width: float, samples: int, number: str = "{:.3f}") -> str:
    """``mean ± half-width`` of a 95 % interval; ``n/a`` where a value does not exist: no mean
    without a sample, no interval from one (``± 0.000`` would claim a certainty nobody measured).

    Example:
        >>> mean_and_ci(0.8123, 0.0412, 5), mean_and_ci(0.8123, 0.0, 1), mean_and_ci(0.0, 0.0, 0)
        ('0.812 ± 0.041', '0.812 ± n/a', 'n/a')
        >>> mean_and_ci(0.05, 0.02, 3, "{:+.3f}")
        '+0.050 ± 0.020'
    """
    if samples < 1:
        return "n/a"
    spread = "n/a" if samples < 2 else number.format(half_width).lstrip("+")
    return f"{number.format(mean)} ± {spread}"


def markdown_table(
    headers: Sequence[str], rows: Sequence[Sequence[Any]], float_format: str = "{:.4f}"
) -> str:
    """A Markdown (GitHub) table: a header row, a separator, one line per row."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += [
        "| " + " | ".join(cell_text(value, float_format) for value in row) + " |" for row in rows
    ]
    return "\n".join(lines)


def _numeric_columns(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[bool]:
    """A column is numeric when the first row holds a non-string there (rows share types)."""
    return [bool(rows) and not isinstance(rows[0][i], str) for i in range(len(headers))]


def text_line(
    values: Sequence[Any],
    widths: Sequence[int],
    right_aligned: Sequence[bool],
    float_format: str = "{:.4f}",
) -> str:
    """One line of an aligned text table: cells padded to ``widths``, two spaces apart.

    A table written row by row (before its longest value is known) calls this for each line
    with widths fixed up front; a longer value pushes the rest of its line out.

    Example:
        >>> text_line(["x", 0.5], [3, 7], [False, True])
        'x     0.5000'
    """
    parts = [
        text.rjust(width) if right else text.ljust(width)
        for text, width, right in zip(
            (cell_text(value, float_format) for value in values), widths, right_aligned, strict=True
        )
    ]
    return "  ".join(parts).rstrip()


def text_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    float_format: str = "{:.4f}",
    right_aligned: Sequence[bool] | None = None,
) -> str:
    """Plain aligned text: text columns left-aligned, numbers right-aligned, two spaces apart.

    ``right_aligned`` says per column which side it aligns to; by default the numeric columns
    (those holding a non-string in the first row: the rows of one table share their types)
    align right. Give it when the cells are already-formatted strings.

    Example:
        >>> print(text_table(["field", "bad"], [["rating", "64 %"]], right_aligned=[False, True]))
        field    bad
        rating  64 %
    """
    cells = [[cell_text(value, float_format) for value in row] for row in rows]
    widths = [
        max([len(header)] + [len(row[i]) for row in cells]) for i, header in enumerate(headers)
    ]
    right = _numeric_columns(headers, rows) if right_aligned is None else list(right_aligned)
    return "\n".join(text_line(line, widths, right) for line in [headers, *cells])


def rich_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    title: str | None = None,
    float_format: str = "{:.4f}",
    right_aligned: Sequence[bool] | None = None,
) -> Any:
    """The table as a ``rich.table.Table`` (box-drawn in a terminal; needs ``rich`` installed).

    Alignment as in :func:`text_table`; print it with a ``rich`` console.
    """
    from rich.table import Table

    right = _numeric_columns(headers, rows) if right_aligned is None else list(right_aligned)
    table = Table(title=title)
    for header, is_right in zip(headers, right, strict=True):
        table.add_column(header, justify="right" if is_right else "left")
    for row in rows:
        table.add_row(*(cell_text(value, float_format) for value in row))
    return table


def print_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    title: str | None = None,
    float_format: str = "{:.4f}",
    right_aligned: Sequence[bool] | None = None,
    min_width: int = 0,
    file: TextIO | None = None,
) -> None:
    """Print a table for a terminal: box-drawn with ``rich`` when it is installed, else the
    title and :func:`text_table` (rich comes with the ``train`` extra; commands of the core
    print their tables too).

    Args:
        headers: The column names.
        rows: The cells, values or already-formatted strings.
        title: A line above the table.
        float_format: How floats are written.
        right_aligned: Per column, as in :func:`text_table`.
        min_width: The console width rich lays the table out in, at least (wide tables).
        file: Where to print (default ``sys.stdout``).
    """
    out = sys.stdout if file is None else file
    try:
        from rich.console import Console
    except ImportError:
        if title:
            print(title, file=out)
        print(text_table(headers, rows, float_format, right_aligned), file=out)
        return
    console = Console(file=out)
    if min_width > console.width:
        console = Console(file=out, width=min_width)
    console.print(rich_table(headers, rows, title, float_format, right_aligned))
