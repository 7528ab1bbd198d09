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

import csv
import io
import os
import shutil
import sys
import textwrap
from collections.abc import Sequence
from typing import Any, TextIO

__all__ = [
    "cell_text",
    "csv_table",
    "fit_table",
    "markdown_table",
    "mean_and_ci",
    "print_table",
    "rich_table",
    "text_line",
    "terminal_width",
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


def terminal_width(file: TextIO | None = None) -> int | None:
    """The width a table printed to ``file`` must fit: ``COLUMNS`` when it is set, else the
    terminal's, else None (a pipe or a file: no limit, every column is written)."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    out = sys.stdout if file is None else file
    try:
        if out.isatty():
            return shutil.get_terminal_size().columns
    except (AttributeError, ValueError, OSError):
        pass
    return None


def _header_lines(header: str, width: int) -> list[str]:
    """``header`` wrapped on its spaces to ``width`` (a word longer than that stays whole)."""
    return textwrap.wrap(header, width, break_long_words=False, break_on_hyphens=False) or [""]


def fit_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    width: int | None,
    optional: Sequence[int] = (),
    right_aligned: Sequence[bool] | None = None,
    float_format: str = "{:.4f}",
) -> tuple[str, list[str]]:
    """Aligned text that fits ``width`` columns: headers wrap on their spaces, then optional
    columns are left out; a label or a value is never cut.

    Each column is as wide as its longest value or header word; the ``optional`` columns
    (indices, the first to leave out first) are kept while the table fits, and spare width
    puts headers back on one line. Columns that are not optional are always written, so a
    table of them alone may still be wider than ``width``.

    Returns:
        The table, and the headers of the columns left out.

    Example:
        >>> headers = ["agent", "valid items", "seconds per page"]
        >>> text, dropped = fit_table(headers, [["oracle", "22.8", "4.5"]], width=18,
        ...                           optional=[2], right_aligned=[False, True, True])
        >>> print(text)
        agent   valid
                items
        oracle   22.8
        >>> dropped
        ['seconds per page']
    """
    cells = [[cell_text(value, float_format) for value in row] for row in rows]
    right = _numeric_columns(headers, rows) if right_aligned is None else list(right_aligned)
    least = [
        max([len(word) for word in header.split()] + [len(row[i]) for row in cells] + [1])
        for i, header in enumerate(headers)
    ]
    full = [max(least[i], len(header)) for i, header in enumerate(headers)]
    keep = [i for i in range(len(headers)) if i not in set(optional)]

    def needed(columns: Sequence[int]) -> int:
        return sum(least[i] for i in columns) + 2 * max(0, len(columns) - 1)

    # The columns to leave out first are added last, each while the table still fits.
    for index in reversed(list(optional)):
        if width is None or needed([*keep, index]) <= width:
            keep.append(index)
    keep.sort()
    widths = {i: least[i] for i in keep}
    spare = None if width is None else width - needed(keep)
    # Headers back on one line where the width allows it, the cheapest first.
    for i in sorted(keep, key=lambda i: full[i] - least[i]):
        grow = full[i] - widths[i]
        if spare is None or grow <= spare:
            widths[i] = full[i]
            spare = None if spare is None else spare - grow
    wrapped = {i: _header_lines(headers[i], widths[i]) for i in keep}
    height = max((len(lines) for lines in wrapped.values()), default=1)
    header_rows = [
        [wrapped[i][line] if line < len(wrapped[i]) else "" for i in keep] for line in range(height)
    ]
    sizes = [widths[i] for i in keep]
    aligned = [right[i] for i in keep]
    lines = [text_line(row, sizes, aligned) for row in header_rows]
    lines += [text_line([row[i] for i in keep], sizes, aligned) for row in cells]
    dropped = [headers[i] for i in range(len(headers)) if i not in keep]
    return "\n".join(lines), dropped


def csv_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """The table as CSV (a header row, then the rows; values as given, floats unrounded).

    Example:
        >>> print(csv_table(["agent", "score"], [["best, fixed", 0.631]]), end="")
        agent,score
        "best, fixed",0.631
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(headers)
    writer.writerows(rows)
    return buffer.getvalue()


def print_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    title: str | None = None,
    float_format: str = "{:.4f}",
    right_aligned: Sequence[bool] | None = None,
    optional: Sequence[int] = (),
    file: TextIO | None = None,
) -> None:
    """Print a table for a terminal: the title, then :func:`fit_table` at the terminal's width
    (``COLUMNS`` when set), and a line naming the columns left out to fit it.

    Args:
        headers: The column names.
        rows: The cells, values or already-formatted strings.
        title: A line above the table.
        float_format: How floats are written.
        right_aligned: Per column, as in :func:`text_table`.
        optional: Columns that may be left out to fit, the first to go first.
        file: Where to print (default ``sys.stdout``).
    """
    out = sys.stdout if file is None else file
    width = terminal_width(out)
    text, dropped = fit_table(headers, rows, width, optional, right_aligned, float_format)
    if title:
        print(title, file=out)
    print(text, file=out)
    if dropped:
        note = (
            f"({len(dropped)} columns left out to fit {width} columns: {', '.join(dropped)}; "
            "a wider terminal, COLUMNS=200 or --format json shows them)"
        )
        print(textwrap.fill(note, width or len(note), break_long_words=False), file=out)
