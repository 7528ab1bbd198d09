"""``rlm-gym score``: score crawl logs, or a scraper's own output file, with a reward policy.

Input (``--input-format``, default ``auto``):

* ``results`` — crawl-result dicts (SPEC §5), one JSON object per line. Read and scored line by
  line in constant memory: lines end at ``\\n`` only (U+2028, U+2029 or NEL inside a JSON
  string do not split a line), each line is decoded on its own, and errors name ``FILE:LINE``.
* ``items`` — a scraper's JSON output as it is: an array of items, JSON lines of items
  (Scrapy's feed export), objects written one after another, or an object holding the list.
* ``csv`` — a scraper's CSV (delimiter and encoding detected, see
  :mod:`rlm_gym.crawl.readers`).

``auto`` reads the file's name and first line (:func:`rlm_gym.crawl.readers.detect_format`):
``.csv``/``.tsv`` or text that is not JSON is CSV; a first line that is a whole crawl-result
object (``success``, or a ``data`` list) means crawl results; other JSON is items. Items and CSV
become one crawl result (``--required f1,f2``, ``--pages``, ``--time-ms``, ``--pattern-type``).

Output goes to stdout as it is scored (``--format table|json|csv``), problems to stderr.
``--explain`` adds each crawl's per-field diagnostics (type, share invalid, example bad values,
systematic defects); ``--bad-rows FILE`` writes the rows :func:`rlm_gym.crawl.check_items`
rejects as JSON lines. Exit codes: 0 scored (invalid lines skipped with ``--skip-invalid``),
1 invalid lines or nothing to score (nothing is written to stdout then), 2 an unreadable file,
bad arguments or an unknown policy.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import math
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import IO, Any, BinaryIO, TextIO

from rlm_gym._validation import did_you_mean, unknown_name_error
from rlm_gym.crawl import readers
from rlm_gym.crawl.patterns import (
    PATTERN_TYPES,
    TIERS,
    classify_quality_tier,
    pattern_thresholds,
    storage_bucket,
)
from rlm_gym.crawl.reward import crawl_reward
from rlm_gym.policies.base import RewardPolicy
from rlm_gym.policies.registry import PolicyRegistry
from rlm_gym.policies.types import ActionResult, PolicyContext

__all__ = [
    "register",
    "run",
    "main",
    "score_lines",
    "iter_scores",
    "summarize",
    "Summary",
    "explain_lines",
    "bad_rows",
]

_FINAL = {"action": "final"}
_ROW_KEYS = ("line", "domain", "pattern_type", "tier", "bucket", "reward")
_EXPLAIN_KEYS = ("items", "distinct_items", "junk_items", "valid_share", "defects")
# Fixed widths: the table is written row by row, before the longest value is known.
_WIDTHS = {"line": 5, "domain": 22, "pattern_type": 20, "tier": 10, "bucket": 10, "reward": 6}


class _CliError(Exception):
    """Bad arguments or an unreadable file: one line on stderr, exit code 2."""


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``score`` subcommand to an ``argparse`` subparsers object."""
    parser = subparsers.add_parser(
        "score",
        help="score crawl results or a scraper's output file (JSON, JSON lines, CSV)",
        description="Score crawl logs (one crawl result per line), or a scraper's own output "
        "file as one crawl, and summarize them per pattern type.",
    )
    parser.add_argument("file", metavar="FILE", help="the file to score ('-' reads stdin)")
    parser.add_argument("--policy", default="crawl", help="a registered reward policy name")
    parser.add_argument(
        "--input-format",
        choices=readers.INPUT_FORMATS,
        default="auto",
        help="results: crawl-result JSON lines; items: a scraper's JSON output; csv: a "
        "scraper's CSV; auto (default): from the file name and first line",
    )
    parser.add_argument(
        "--required",
        metavar="F1,F2",
        help="the fields the scraper extracts (comma-separated); replaces each crawl "
        "result's extraction_schema",
    )
    parser.add_argument(
        "--schema-field",
        action="append",
        dest="schema_fields",
        metavar="FIELD",
        help="a required field (repeatable; same as --required)",
    )
    parser.add_argument("--pages", type=int, help="items/csv input: pages the scrape fetched")
    parser.add_argument(
        "--time-ms", type=float, help="items/csv input: the scrape's duration in ms"
    )
    parser.add_argument(
        "--pattern-type", help="the crawl's pattern type (default: classified from the data)"
    )
    parser.add_argument("--domain", help="items/csv input: the site (default: the file name)")
    parser.add_argument("--encoding", help="items/csv input: force the file's encoding")
    parser.add_argument("--delimiter", help="csv input: force the delimiter (',', ';', 'tab')")
    parser.add_argument(
        "--columns", metavar="C1,C2", help="csv input: column names of a file without header"
    )
    parser.add_argument("--items-key", help="items input: the key holding the list of items")
    parser.add_argument("--format", choices=("table", "json", "csv"), default="table")
    parser.add_argument(
        "--explain",
        action="store_true",
        help="per crawl: each field's type, share invalid, example bad values, and defects",
    )
    parser.add_argument(
        "--bad-rows",
        metavar="OUT",
        help="write the rows check_items rejects to OUT (JSON lines)",
    )
    parser.add_argument(
        "--skip-invalid", action="store_true", help="report invalid lines and score the rest"
    )
    parser.set_defaults(func=run)
    return parser


def _describe(value: Any) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def _is_crawl_policy(policy: RewardPolicy) -> bool:
    from rlm_gym.crawl.policy import CrawlRewardPolicy

    return isinstance(policy, CrawlRewardPolicy)


def _score_one(
    result: dict[str, Any], policy: RewardPolicy, context: PolicyContext
) -> dict[str, Any]:
    crawl_policy = _is_crawl_policy(policy)
    # The crawl policy's own score is crawl_reward's: validate and score in one pass.
    crawl = None if crawl_policy else crawl_reward(result)  # validates the line whatever the policy
    action_result = ActionResult(
        "final", bool(result.get("success")), metadata={"crawl_result": result}
    )
    policy.on_episode_start(context)
    signal = policy.calculate(_FINAL, action_result, context)
    policy.on_episode_end(context, signal.value)
    details = signal.details if crawl is None else crawl.details
    own = signal.details if "tier" in signal.details else {}
    pattern_type = details["pattern_type"]
    thresholds = pattern_thresholds(pattern_type)
    data = result["data"] or ()
    return {
        "domain": str(result.get("domain") or "unknown"),
        "pattern_type": pattern_type,
        "tier": own.get("tier") or classify_quality_tier(signal.value, thresholds, len(data)),
        "bucket": own.get("bucket") or storage_bucket(signal.value, thresholds),
        "reward": signal.value,
        "components": {name: float(value) for name, value in signal.components.items()},
        "details": details,
    }


def _parse_line(
    raw: bytes | str | dict[str, Any],
    schema: dict[str, Any] | None,
    overrides: Mapping[str, Any],
) -> dict[str, Any] | str:
    """A crawl result from one line (or a parsed result), or the problem with it (a string)."""
    if isinstance(raw, dict):
        result = raw
    elif isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            return f"not UTF-8: byte {raw[error.start]:#04x} at column {error.start + 1}"
    if not isinstance(raw, dict):
        try:
            result = json.loads(raw)
        except json.JSONDecodeError as error:
            return f"invalid JSON: {error.msg} (column {error.colno})"
    if not isinstance(result, dict):
        return f"expected a JSON object (one crawl result), got {_describe(result)}"
    if schema is not None:
        result = {**result, "extraction_schema": schema}
    if overrides:
        result = {**result, **overrides}
    return result


def iter_scores(
    lines: Iterable[tuple[int, bytes | str]] | Iterable[bytes | str],
    policy: RewardPolicy,
    schema_fields: Sequence[str] | None = None,
    task: str = "",
    overrides: Mapping[str, Any] | None = None,
) -> Iterator[tuple[int, dict[str, Any], dict[str, Any] | str]]:
    """Score crawl-result lines one at a time; blank lines are skipped.

    ``lines`` are ``bytes`` (decoded as UTF-8 one by one) or ``str``, numbered from 1, or
    ``(number, line)`` pairs. Yields ``(number, result, row)`` for a scored line (``row`` as in
    :func:`score_lines`, plus ``details``: the score's details) and ``(number, {}, problem)``
    for an invalid one. Nothing is kept between lines.

    Example:
        >>> from rlm_gym.crawl.policy import CrawlRewardPolicy
        >>> for number, _, row in iter_scores([b'{"success": true, "data": []}', b'[1]'],
        ...                                   CrawlRewardPolicy()):
        ...     print(number, row if isinstance(row, str) else row["reward"])
        1 0.4
        2 expected a JSON object (one crawl result), got an array
    """
    schema = {"required": list(schema_fields)} if schema_fields else None
    overrides = dict(overrides or {})
    for number, line in enumerate(lines, start=1):
        if isinstance(line, tuple):
            number, line = line
        if not isinstance(line, dict) and not line.strip():
            continue
        result = _parse_line(line, schema, overrides)
        if isinstance(result, str):
            yield number, {}, result
            continue
        try:
            row = _score_one(result, policy, PolicyContext(task=task))
        except (ValueError, TypeError) as error:
            yield number, {}, str(error)
            continue
        yield number, result, {"line": number, **row}


def score_lines(
    lines: Iterable[str],
    policy: RewardPolicy,
    schema_fields: Sequence[str] | None = None,
    task: str = "",
) -> tuple[list[dict[str, Any]], list[tuple[int, str]]]:
    """Score JSON lines; blank lines are ignored (a list-returning :func:`iter_scores`).

    Returns:
        The scored rows (``line``, ``domain``, ``pattern_type``, ``tier``, ``bucket``,
        ``reward``, ``components``) and the invalid lines as ``(line_number, problem)``.

    Example:
        >>> from rlm_gym.crawl.policy import CrawlRewardPolicy
        >>> rows, invalid = score_lines(['{"success": true, "data": []}', '', '[1]', '{"data": 1}'],
        ...                             CrawlRewardPolicy())
        >>> [(row["line"], row["reward"]) for row in rows]
        [(1, 0.4)]
        >>> invalid
        [(3, 'expected a JSON object (one crawl result), got an array'), (4, 'Invalid crawl result: missing `success` (a crawl result needs `success` and `data`)')]
    """  # noqa: E501
    rows: list[dict[str, Any]] = []
    invalid: list[tuple[int, str]] = []
    for number, _, row in iter_scores(lines, policy, schema_fields, task):
        if isinstance(row, str):
            invalid.append((number, row))
        else:
            row.pop("details")
            rows.append(row)
    return rows, invalid


class Summary:
    """Per pattern type (in order of first appearance) and overall: count, mean, min, max of
    the reward and the count of each tier, updated one row at a time (constant memory).

    Example:
        >>> summary = Summary()
        >>> summary.add({"pattern_type": "product_list", "reward": 0.9, "tier": "excellent"})
        >>> summary.add({"pattern_type": "product_list", "reward": 0.5, "tier": "acceptable"})
        >>> [(s["pattern_type"], s["count"], round(s["mean"], 4)) for s in summary.rows()]
        [('product_list', 2, 0.7), ('all', 2, 0.7)]
    """

    def __init__(self) -> None:
        self._groups: dict[str, dict[str, Any]] = {}
        self._all = self._empty("all")

    @staticmethod
    def _empty(pattern_type: str) -> dict[str, Any]:
        return {
            "pattern_type": pattern_type,
            "count": 0,
            "total": 0.0,
            "min": math.inf,
            "max": -math.inf,
            **dict.fromkeys(TIERS, 0),
        }

    def add(self, row: Mapping[str, Any]) -> None:
        """Count one scored row (``pattern_type``, ``reward``, ``tier``)."""
        group = self._groups.get(row["pattern_type"])
        if group is None:
            group = self._groups[row["pattern_type"]] = self._empty(row["pattern_type"])
        reward = row["reward"]
        for entry in (group, self._all):
            entry["count"] += 1
            entry["total"] += reward
            entry["min"] = min(entry["min"], reward)
            entry["max"] = max(entry["max"], reward)
            if row["tier"] in TIERS:
                entry[row["tier"]] += 1

    @property
    def count(self) -> int:
        return self._all["count"]

    def rows(self) -> list[dict[str, Any]]:
        """The summary rows: ``pattern_type, count, mean, min, max`` and one count per tier."""
        entries = [*self._groups.values(), self._all] if self.count else []
        return [
            {
                "pattern_type": entry["pattern_type"],
                "count": entry["count"],
                "mean": entry["total"] / entry["count"],
                "min": entry["min"],
                "max": entry["max"],
                **{tier: entry[tier] for tier in TIERS},
            }
            for entry in entries
        ]


def summarize(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per pattern type (in order of first appearance) and overall: count, mean, min, max of
    the reward and the count of each tier.

    Example:
        >>> rows = [{"pattern_type": "product_list", "reward": 0.9, "tier": "excellent"},
        ...         {"pattern_type": "product_list", "reward": 0.5, "tier": "acceptable"}]
        >>> summary = summarize(rows)
        >>> [(s["pattern_type"], s["count"], round(s["mean"], 4), s["excellent"]) for s in summary]
        [('product_list', 2, 0.7, 1), ('all', 2, 0.7, 1)]
    """
    summary = Summary()
    for row in rows:
        summary.add(row)
    return summary.rows()


# --- explanations -------------------------------------------------------------------------


def _short(value: Any, width: int = 40) -> str:
    """A value as it would be written in Python (strings quoted), cut to about ``width``."""
    if isinstance(value, str):
        return repr(value if len(value) <= width else value[: width - 1] + "…")
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= width else text[: width - 1] + "…"


def _share(part: Any, whole: Any) -> str:
    try:
        return f"{100.0 * float(part) / float(whole):.1f} %" if whole else "-"
    except (TypeError, ValueError):
        return "-"


def explain_lines(details: Mapping[str, Any]) -> list[str]:
    """Readable lines explaining a crawl's score from its details (SPEC §5): items, the share
    of valid required values, the systematic defects, and per field its type, how many values
    were checked and invalid, and up to 3 bad values.

    Example:
        >>> details = {"items": 20, "distinct_items": 20, "junk_items": 0, "valid_share": 0.5,
        ...            "defects": ["rating: invalid on 100 % of items (e.g. '45', '50')"],
        ...            "fields": {"rating": {"type": "rating", "checked": 20, "invalid": 20,
        ...                                  "examples": ["45", "50"]}}}
        >>> print("\\n".join(explain_lines(details)))
        items 20, distinct 20, junk 0; valid required values 50.0 %
        defects:
          - rating: invalid on 100 % of items (e.g. '45', '50')
        field   type    checked  invalid  invalid %  bad values
        rating  rating       20       20    100.0 %  '45', '50'
    """
    if not any(key in details for key in (*_EXPLAIN_KEYS, "fields")):
        return ["no per-field diagnostics: this policy's details have none"]
    valid_share = details.get("valid_share")
    share = f"{100.0 * valid_share:.1f} %" if isinstance(valid_share, (int, float)) else "-"
    lines = [
        f"items {details.get('items', '-')}, distinct {details.get('distinct_items', '-')}, "
        f"junk {details.get('junk_items', '-')}; valid required values {share}"
    ]
    defects = details.get("defects") or []
    lines.append("defects:" if defects else "defects: none")
    lines += [f"  - {defect}" for defect in defects]
    fields = details.get("fields") or {}
    if fields:
        headers = ["field", "type", "checked", "invalid", "invalid %", "bad values"]
        records = [
            [
                str(name),
                str(info.get("type", "-")),
                str(info.get("checked", "-")),
                str(info.get("invalid", "-")),
                _share(info.get("invalid"), info.get("checked")),
                ", ".join(_short(example) for example in info.get("examples") or ()),
            ]
            for name, info in fields.items()
        ]
        widths = [max(len(row[i]) for row in [headers, *records]) for i in range(len(headers))]
        right = {2, 3, 4}
        for row in [headers, *records]:
            cells = [
                cell.rjust(width) if i in right else cell.ljust(width)
                for i, (cell, width) in enumerate(zip(row, widths, strict=True))
            ]
            lines.append("  ".join(cells).rstrip())
    return lines


def _explanation(details: Mapping[str, Any]) -> dict[str, Any]:
    return {key: details.get(key) for key in (*_EXPLAIN_KEYS, "fields")}


def bad_rows(
    result: Mapping[str, Any],
    line: int,
    check: Callable[[Mapping[str, Any]], list[dict[str, tuple[bool, str]]]] | None = None,
) -> Iterator[dict[str, Any]]:
    """The items of ``result`` that ``check`` (default :func:`rlm_gym.crawl.check_items`)
    rejects: ``{"line", "index", "item", "reasons": {field: reason}}`` for each item with an
    invalid field, in order.

    Example:
        >>> result = {"success": True, "data": [{"price": "€ 5"}, {"price": "N/A"}]}
        >>> verdicts = lambda r: [{"price": (True, "")}, {"price": (False, "placeholder")}]
        >>> list(bad_rows(result, 3, verdicts))
        [{'line': 3, 'index': 1, 'item': {'price': 'N/A'}, 'reasons': {'price': 'placeholder'}}]
    """
    if check is None:
        from rlm_gym.crawl import check_items as check
    items = result.get("data") or []
    for index, (item, verdicts) in enumerate(zip(items, check(result), strict=False)):
        reasons = {field: reason for field, (valid, reason) in verdicts.items() if not valid}
        if reasons:
            yield {"line": line, "index": index, "item": item, "reasons": reasons}


# --- output --------------------------------------------------------------------------------


def _cell(value: Any) -> str:
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def _table(headers: Sequence[str], records: Sequence[Sequence[Any]]) -> str:
    """Plain aligned text: text columns left-aligned, numbers right-aligned."""
    cells = [[_cell(value) for value in record] for record in records]
    widths = [
        max([len(header)] + [len(row[i]) for row in cells]) for i, header in enumerate(headers)
    ]
    numeric = [bool(records) and not isinstance(records[0][i], str) for i in range(len(headers))]

    def line(values: Sequence[str]) -> str:
        parts = [
            value.rjust(width) if is_number else value.ljust(width)
            for value, width, is_number in zip(values, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    return "\n".join([line(headers), *(line(row) for row in cells)])


class _Writer:
    """Writes scored rows as they come, then the summary."""

    def __init__(self, out: TextIO, policy_name: str, components: Sequence[str], explain: bool):
        self.out, self.policy_name, self.components, self.explain = (
            out,
            policy_name,
            list(components),
            explain,
        )

    def start(self, first: Mapping[str, Any]) -> None: ...

    def row(self, row: Mapping[str, Any]) -> None: ...

    def finish(self, summary: list[dict[str, Any]], invalid: IO[str]) -> None: ...


class _TableWriter(_Writer):
    def _widths(self) -> list[int]:
        return self.widths

    def _set_widths(self, first: Mapping[str, Any]) -> None:
        # Rows are written as they come: widths from the first row (a scraper file's one
        # crawl fits exactly), wider later values push their line out.
        keys = [max(_WIDTHS[key], len(_cell(first[key]))) for key in _ROW_KEYS]
        self.widths = [
            max(len(name), width) for name, width in zip(_ROW_KEYS, keys, strict=True)
        ] + [max(len(name), 6) for name in self.components]

    def _line(self, values: Sequence[Any]) -> str:
        parts = []
        for index, (value, width) in enumerate(zip(values, self._widths(), strict=True)):
            text = _cell(value)
            left = index in (1, 2, 3, 4)
            parts.append(text.ljust(width) if left else text.rjust(width))
        return "  ".join(parts).rstrip()

    def start(self, first: Mapping[str, Any]) -> None:
        self._set_widths(first)
        headers = [*_ROW_KEYS, *self.components]
        self.out.write(self._line(headers) + "\n")

    def row(self, row: Mapping[str, Any]) -> None:
        values = [row[key] for key in _ROW_KEYS]
        values += [row["components"].get(name, 0.0) for name in self.components]
        self.out.write(self._line(values) + "\n")
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
        self.out.write(_table(headers, [[s[key] for key in headers] for s in summary]) + "\n")


class _JsonWriter(_Writer):
    def start(self, first: Mapping[str, Any]) -> None:
        self.first = True
        self.out.write(f'{{\n  "policy": {json.dumps(self.policy_name)},\n  "results": [')

    def row(self, row: Mapping[str, Any]) -> None:
        record = {key: row[key] for key in (*_ROW_KEYS, "components")}
        if self.explain:
            record["explain"] = _explanation(row["details"])
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


class _CsvWriter(_Writer):
    def start(self, first: Mapping[str, Any]) -> None:
        self.writer = csv.writer(self.out, lineterminator="\n")
        extra = list(_EXPLAIN_KEYS) if self.explain else []
        self.writer.writerow([*_ROW_KEYS, *self.components, *extra])

    def row(self, row: Mapping[str, Any]) -> None:
        values = [row[key] for key in _ROW_KEYS]
        values += [row["components"].get(name, 0.0) for name in self.components]
        if self.explain:
            details = row["details"]
            values += [details.get(key) for key in _EXPLAIN_KEYS[:-1]]
            values.append("; ".join(str(defect) for defect in details.get("defects") or ()))
        self.writer.writerow(values)


_WRITERS = {"table": _TableWriter, "json": _JsonWriter, "csv": _CsvWriter}


# --- input ---------------------------------------------------------------------------------


def _split_names(text: str | None, option: str) -> list[str]:
    if text is None:
        return []
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise _CliError(f"`{option}` needs comma-separated names, got {text!r}")
    return names


def _check_arguments(args: argparse.Namespace) -> None:
    if args.pages is not None and args.pages < 1:
        raise _CliError(f"`--pages` must be at least 1, got {args.pages}")
    if args.time_ms is not None and not (math.isfinite(args.time_ms) and args.time_ms >= 0):
        raise _CliError(f"`--time-ms` must be a finite number >= 0, got {args.time_ms}")
    if args.pattern_type is not None and args.pattern_type not in PATTERN_TYPES:
        raise _CliError(
            str(unknown_name_error("`--pattern-type`", args.pattern_type, PATTERN_TYPES))
        )
    if args.delimiter is not None:
        args.delimiter = {"tab": "\t", "\\t": "\t"}.get(args.delimiter, args.delimiter)
        if len(args.delimiter) != 1:
            raise _CliError(f"`--delimiter` must be one character or 'tab', got {args.delimiter!r}")


def _open_binary(path: str) -> BinaryIO:
    if path == "-":
        return sys.stdin.buffer
    try:
        return open(path, "rb")
    except OSError as error:
        raise _CliError(f"cannot read {path}: {error.strerror or error}") from None


def _first_line(handle: BinaryIO) -> tuple[list[bytes], bytes]:
    """The lines read up to and including the first non-blank one, and that line."""
    consumed: list[bytes] = []
    for line in handle:
        consumed.append(line)
        if line.strip():
            return consumed, line
    return consumed, b""


def _header_problem(items: Sequence[Any]) -> str | None:
    """Why the first CSV row does not look like a header (a file written without one)."""
    if not items or not isinstance(items[0], dict):
        return None
    names = [name for name in items[0] if isinstance(name, str)]
    looks_like_data = [
        name
        for name in names
        if name.startswith(("http://", "https://", "www.")) or len(name) > 60 or not name.strip()
    ]
    if looks_like_data:
        return f"its first row has {_short(looks_like_data[0])} as a column name"
    return None


def _items_result(args: argparse.Namespace, data: bytes, input_format: str) -> dict[str, Any]:
    columns = _split_names(args.columns, "--columns") or None
    name = "" if args.file == "-" else args.file
    try:
        items = readers.read_items(
            data,
            input_format,
            name=name,
            encoding=args.encoding,
            delimiter=args.delimiter,
            columns=columns,
            items_key=args.items_key,
        )
    except ValueError as error:
        raise _CliError(f"{args.file}: {error}") from None
    problem = _header_problem(items) if input_format == "csv" and not columns else None
    if problem:
        print(
            f"rlm-gym score: warning: {args.file}: {problem}; if the file has no header row, "
            "name its columns with --columns",
            file=sys.stderr,
        )
    required = _split_names(args.required, "--required") + list(args.schema_fields or [])
    present = {key for item in items if isinstance(item, dict) for key in item}
    # Header names keep their spaces ("time_of_posting "): match a stripped name to one.
    padded = {key.strip(): key for key in present if isinstance(key, str) and key != key.strip()}
    required = [field if field in present else padded.get(field, field) for field in required]
    for field in required:
        if field not in present:
            fields = sorted(str(key) for key in present)
            shown = ", ".join(_short(name, 30) for name in fields[:20]) or "(none)"
            more = f" and {len(fields) - 20} more" if len(fields) > 20 else ""
            raise _CliError(
                f"`--required` field {field!r} is in no item of {args.file}."
                f"{did_you_mean(field, fields)} Fields: {shown}{more}"
            )
    if not required:
        print(
            f"rlm-gym score: note: {args.file}: no --required fields; each item is scored on "
            "its own fields (validation capped at 0.85)",
            file=sys.stderr,
        )
    domain = args.domain or (os.path.basename(args.file) if args.file != "-" else "stdin")
    return readers.crawl_result_from_items(
        items,
        required,
        pages=args.pages,
        execution_time_ms=args.time_ms,
        pattern_type=args.pattern_type,
        domain=domain,
    )


def _numbered(consumed: list[bytes], handle: BinaryIO) -> Iterator[tuple[int, bytes]]:
    """Every line with its number; lines end at b"\\n" only (binary iteration)."""
    for number, line in enumerate(consumed, start=1):
        yield number, line.removeprefix(b"\xef\xbb\xbf") if number == 1 else line
    yield from enumerate(handle, start=len(consumed) + 1)


# --- run -----------------------------------------------------------------------------------


def _component_names(policy: RewardPolicy) -> list[str]:
    return [str(name) for name in policy.component_names]


def _score_stream(
    args: argparse.Namespace,
    policy: RewardPolicy,
    lines: Iterable[tuple[int, bytes]],
    out: TextIO,
    bad_out: TextIO | None,
    schema_fields: Sequence[str],
) -> tuple[int, int]:
    """Score and write every line; returns (scored, invalid)."""
    components = _component_names(policy)
    writer = _WRITERS[args.format](out, args.policy, components, args.explain)
    summary, invalid_count, undeclared = Summary(), 0, set()
    overrides = {"pattern_type": args.pattern_type} if args.pattern_type else {}
    suffix = " (skipped)" if args.skip_invalid else ""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as invalid:
        for number, result, row in iter_scores(
            lines, policy, schema_fields, task=args.file, overrides=overrides
        ):
            if isinstance(row, str):
                invalid_count += 1
                print(f"rlm-gym score: {args.file}:{number}: {row}{suffix}", file=sys.stderr)
                invalid.write(json.dumps({"line": number, "error": row}, ensure_ascii=False))
                invalid.write("\n")
                continue
            undeclared.update(set(row["components"]) - set(components))
            if not summary.count:
                writer.start(row)  # lazily: no rows, no output
            summary.add(row)
            writer.row(row)
            if bad_out is not None:
                for bad in bad_rows(result, number):
                    bad_out.write(json.dumps(bad, ensure_ascii=False, default=repr) + "\n")
        if summary.count:
            writer.finish(summary.rows(), invalid)
    if undeclared and args.format != "json":
        print(
            f"rlm-gym score: note: components not declared by policy {args.policy!r} are in the "
            f"json output only: {', '.join(sorted(undeclared))}",
            file=sys.stderr,
        )
    return summary.count, invalid_count


def _refuse_items_options(args: argparse.Namespace) -> None:
    for option in ("pages", "time_ms", "domain", "columns", "items_key", "encoding"):
        if getattr(args, option) is not None:
            raise _CliError(
                f"`--{option.replace('_', '-')}` is for a scraper's items or CSV, and "
                f"{args.file} holds crawl results (pass --input-format items or csv "
                "to read it as items)"
            )


def _run(args: argparse.Namespace) -> int:
    _check_arguments(args)
    try:
        policy = PolicyRegistry.get_reward(args.policy)
    except (ValueError, TypeError) as error:
        raise _CliError(str(error)) from None
    handle = _open_binary(args.file)
    try:
        try:
            consumed, first = _first_line(handle)
        except OSError as error:
            raise _CliError(f"cannot read {args.file}: {error.strerror or error}") from None
        input_format = args.input_format
        if input_format == "auto" and not first.strip():
            input_format = "results"  # an empty file: "no crawl results to score"
        elif input_format == "auto":
            input_format = readers.detect_format(first, "" if args.file == "-" else args.file)
        schema_fields = _split_names(args.required, "--required") + list(args.schema_fields or [])
        if input_format == "results":
            _refuse_items_options(args)
            lines: Iterable[tuple[int, Any]] = _numbered(consumed, handle)
        else:
            data = b"".join(consumed) + handle.read()
            results = None
            if input_format == "items" and args.input_format == "auto":
                # json.dump(result, indent=2): crawl results, not items, whatever the layout
                with contextlib.suppress(ValueError):  # a bad encoding is reported below
                    results = readers.pretty_crawl_results(readers.decode(data, args.encoding)[0])
            if results is not None:
                _refuse_items_options(args)
                lines = results
            else:
                lines = [(1, _items_result(args, data, input_format))]
                schema_fields = []  # already in the result
        return _score_and_write(args, policy, lines, schema_fields)
    finally:
        if handle is not sys.stdin.buffer:
            handle.close()


def _score_and_write(
    args: argparse.Namespace,
    policy: RewardPolicy,
    lines: Iterable[tuple[int, bytes]],
    schema_fields: Sequence[str],
) -> int:
    bad_out = None
    if args.bad_rows is not None:
        try:
            bad_out = open(args.bad_rows, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as error:
            raise _CliError(f"cannot write {args.bad_rows}: {error.strerror or error}") from None
    # Without --skip-invalid an invalid line anywhere means no output, so the output waits in
    # a temporary file (memory up to 1 MB, then disk) until the last line is scored.
    spool = None
    if not args.skip_invalid:
        spool = tempfile.SpooledTemporaryFile(2**20, "w+", encoding="utf-8")  # noqa: SIM115
    out = sys.stdout if spool is None else spool
    try:
        scored, invalid = _score_stream(args, policy, lines, out, bad_out, schema_fields)
        if invalid and not args.skip_invalid:
            print(
                f"rlm-gym score: error: {invalid} invalid line(s) in {args.file}; "
                "fix them or pass --skip-invalid",
                file=sys.stderr,
            )
            return 1
        if not scored:
            print(
                f"rlm-gym score: error: no crawl results to score in {args.file}", file=sys.stderr
            )
            return 1
        if spool is not None:
            spool.seek(0)
            shutil.copyfileobj(spool, sys.stdout)
        sys.stdout.flush()
        return 0
    finally:
        if spool is not None:
            spool.close()
        if bad_out is not None:
            bad_out.close()


def run(args: argparse.Namespace) -> int:
    """Run ``rlm-gym score`` with parsed arguments; returns the exit code."""
    try:
        return _run(args)
    except _CliError as error:
        print(f"rlm-gym score: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # `rlm-gym score big.jsonl | head`: the reader left; end quietly, as the shell expects.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``rlm-gym score ...`` on its own (``argv`` starts with ``"score"``)."""
    parser = argparse.ArgumentParser(prog="rlm-gym")
    register(parser.add_subparsers(dest="command", required=True, metavar="COMMAND"))
    args = parser.parse_args(argv)
    return args.func(args)
