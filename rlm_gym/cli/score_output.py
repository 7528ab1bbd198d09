"""What ``rlm-gym score`` writes: scored rows as they come, then the summary.

Three formats (``--format``): an aligned ``table`` (through :mod:`rlm_gym.tables`), one
``json`` document (``policy``, ``results``, ``summary``, ``invalid``) and ``csv`` (one row per
crawl, numbers with the table's four decimals). Rows are written the moment they are scored,
so nothing grows with the log.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping, Sequence
from typing import IO, Any, TextIO

from rlm_gym.crawl.batch import EXPLAIN_KEYS, ROW_KEYS, explain_lines, explanation
from rlm_gym.crawl.patterns import TIERS
from rlm_gym.tables import cell_text, text_line, text_table

__all__ = ["WRITERS", "RowWriter"]

# Fixed widths: the table is written row by row, before the longest value is known.
_WIDTHS = {"line": 5, "domain": 22, "pattern_type": 20, "tier": 10, "bucket": 10, "reward": 6}
_LEFT_ALIGNED = {"domain", "pattern_type", "tier", "bucket"}


class RowWriter:
    """Writes scored rows as they come (``start`` with the first, ``row`` each), then
    ``finish`` with the summary rows and the invalid lines (a file of JSON lines)."""

    def __init__(self, out: TextIO, policy_name: str, components: Sequence[str], explain: bool):
        self.out, self.policy_name, self.components, self.explain = (
            out,
            policy_name,
            list(components),
            explain,
        )

    def start(self, first: Mapping[str, Any]) -> None:
        """Write what comes before the rows, knowing the first."""

    def row(self, row: Mapping[str, Any]) -> None:
        """Write one scored row."""

    def finish(self, summary: list[dict[str, Any]], invalid: IO[str]) -> None:
        """Write what comes after the rows."""


class _TableWriter(RowWriter):
    def start(self, first: Mapping[str, Any]) -> None:
        # Rows are written as they come: widths from the first row (a scraper file's one
        # crawl fits exactly), wider later values push their line out.
        keys = [max(_WIDTHS[key], len(cell_text(first[key]))) for key in ROW_KEYS]
        self.widths = [
            max(len(name), width) for name, width in zip(ROW_KEYS, keys, strict=True)
        ] + [max(len(name), 6) for name in self.components]
        self.right_aligned = [key not in _LEFT_ALIGNED for key in ROW_KEYS]
        self.right_aligned += [True] * len(self.components)
        self._line([*ROW_KEYS, *self.components])

    def _line(self, values: Sequence[Any]) -> None:
        self.out.write(text_line(values, self.widths, self.right_aligned) + "\n")

    def row(self, row: Mapping[str, Any]) -> None:
        values = [row[key] for key in ROW_KEYS]
        values += [row["components"].get(name, 0.0) for name in self.components]
        self._line(values)
        if self.explain:
            for line in explain_lines(row["details"]):
                self.out.write(f"      {line}\n".rstrip() + "\n")
            self.out.write("\n")

    def finish(self, summary: list[dict[str, Any]], invalid: IO[str]) -> None:
        headers = ["pattern_type", "count", "mean", "min", "max", *TIERS]
        # after --explain blocks the blank line is already there
        self.out.write(
            "summary by pattern type\n" if self.explain else "\nsummary by pattern type\n"
        )
        self.out.write(text_table(headers, [[s[key] for key in headers] for s in summary]) + "\n")


class _JsonWriter(RowWriter):
    def start(self, first: Mapping[str, Any]) -> None:
        self.first = True
        self.out.write(f'{{\n  "policy": {json.dumps(self.policy_name)},\n  "results": [')

    def row(self, row: Mapping[str, Any]) -> None:
        record = {key: row[key] for key in (*ROW_KEYS, "components")}
        if self.explain:
            record["explain"] = explanation(row["details"])
        text = json.dumps(record, ensure_ascii=False, default=repr)
        self.out.write(("\n    " if self.first else ",\n    ") + text)
        self.first = False

    def finish(self, summary: list[dict[str, Any]], invalid: IO[str]) -> None:
        self.out.write("\n  ],\n" if not self.first else "],\n")
        self.out.write(f'  "summary": {json.dumps(summary)},\n  "invalid": [')
        invalid.seek(0)
        separator = "\n    "
        for line in invalid:
            self.out.write(separator + line.rstrip("\n"))
            separator = ",\n    "
        self.out.write("]\n}\n" if separator == "\n    " else "\n  ]\n}\n")


class _CsvWriter(RowWriter):
    def start(self, first: Mapping[str, Any]) -> None:
        self.writer = csv.writer(self.out, lineterminator="\n")
        extra = list(EXPLAIN_KEYS) if self.explain else []
        self.writer.writerow([*ROW_KEYS, *self.components, *extra])

    def row(self, row: Mapping[str, Any]) -> None:
        values = [row[key] for key in ROW_KEYS]
        values += [row["components"].get(name, 0.0) for name in self.components]
        if self.explain:
            details = row["details"]
            values += [details.get(key) for key in EXPLAIN_KEYS[:-1]]
            values.append("; ".join(str(defect) for defect in details.get("defects") or ()))
        # the table's decimals, not repr's float noise (-0.44999999999999996)
        self.writer.writerow(["" if value is None else cell_text(value) for value in values])


WRITERS: dict[str, type[RowWriter]] = {
    "table": _TableWriter,
    "json": _JsonWriter,
    "csv": _CsvWriter,
}
"""The writer class of each ``--format``."""
