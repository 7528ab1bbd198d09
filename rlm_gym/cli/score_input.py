"""What ``rlm-gym score`` reads: crawl-result lines, or a scraper's own file as one crawl.

:func:`read_lines` turns the open file into numbered crawl-result lines for
:func:`rlm_gym.crawl.batch.iter_scores`:

* crawl-result JSON lines are read as they come, in constant memory: lines end at ``\\n`` only
  (U+2028, U+2029 or NEL inside a JSON string do not split a line), a leading byte-order mark
  is dropped, and each line keeps its number for the error messages;
* crawl results written with ``json.dump(result, indent=2)`` are read whole and numbered by the
  line each starts on;
* a scraper's items (JSON in any of its usual layouts, or CSV, see
  :mod:`rlm_gym.crawl.readers`) become one crawl result, with the ``--required`` fields,
  ``--pages``, ``--time-ms``, ``--pattern-type`` and ``--domain`` given.

Bad arguments and unreadable files raise ``ValueError`` with the one line the user sees.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, BinaryIO

from rlm_gym._validation import did_you_mean, unknown_name_error
from rlm_gym.crawl import readers
from rlm_gym.crawl.batch import short_repr
from rlm_gym.crawl.patterns import PATTERN_TYPES

__all__ = ["ACCEPTED", "check_arguments", "comma_names", "open_binary", "read_lines"]

# The options that describe a scraper's items; a crawl result carries its own.
_ITEMS_OPTIONS = ("pages", "time_ms", "domain", "columns", "items_key", "encoding")
# Said with every file refused as not crawl data.
ACCEPTED = (
    "score reads crawl results (JSON, one per line), a scraper's items (JSON objects) or a "
    "CSV with a header row"
)
_RAGGED_SHOWN = 3


def comma_names(text: str | None, option: str) -> list[str]:
    """The names of a comma-separated option (none when it is not given).

    Example:
        >>> comma_names("name,price", "--required")
        ['name', 'price']
        >>> comma_names("name,,price", "--required")
        Traceback (most recent call last):
        ...
        ValueError: `--required` needs comma-separated names, got 'name,,price'
    """
    if text is None:
        return []
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise ValueError(f"`{option}` needs comma-separated names, got {text!r}")
    return names


def check_arguments(args: argparse.Namespace) -> None:
    """Refuse option values no file could make right (``--delimiter tab`` becomes a tab)."""
    if args.pages is not None and args.pages < 1:
        raise ValueError(f"`--pages` must be at least 1, got {args.pages}")
    if args.time_ms is not None and not (math.isfinite(args.time_ms) and args.time_ms >= 0):
        raise ValueError(f"`--time-ms` must be a finite number >= 0, got {args.time_ms}")
    if args.pattern_type is not None and args.pattern_type not in PATTERN_TYPES:
        raise unknown_name_error("`--pattern-type`", args.pattern_type, PATTERN_TYPES)
    if args.delimiter is not None:
        args.delimiter = {"tab": "\t", "\\t": "\t"}.get(args.delimiter, args.delimiter)
        if len(args.delimiter) != 1:
            raise ValueError(
                f"`--delimiter` must be one character or 'tab', got {args.delimiter!r}"
            )


def open_binary(path: str) -> BinaryIO:
    """The file to score, opened for bytes (``-``: stdin)."""
    if path == "-":
        return sys.stdin.buffer
    if os.path.isdir(path):
        scorable = sorted(
            name
            for name in os.listdir(path)
            if name.lower().endswith((".jsonl", ".json", ".csv", ".tsv", ".ndjson"))
        )
        hint = f", e.g. {os.path.join(path, scorable[0])}" if scorable else ""
        raise ValueError(
            f"{path} is a directory: `rlm-gym score` reads one file (crawl results as JSON "
            f"lines, or a scraper's JSON or CSV output) or '-' for stdin; give a file{hint}"
        )
    try:
        return open(path, "rb")
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror or error}") from None


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
        return f"its first row has {short_repr(looks_like_data[0])} as a column name"
    return None


def _not_crawl_data(args: argparse.Namespace, problem: str) -> ValueError:
    return ValueError(f"{args.file}: {problem}; {ACCEPTED}")


def _check_items(args: argparse.Namespace, items: list[Any], input_format: str) -> None:
    """Refuse a file whose items cannot be a crawl: none at all, or none a JSON object (a
    crawl of zero items would score as a successful empty crawl)."""
    if not items:
        what = "a header row and no data rows" if input_format == "csv" else "an empty list"
        raise _not_crawl_data(args, f"no items to score ({what})")
    if not any(isinstance(item, dict) for item in items):
        first = items[0]
        raise _not_crawl_data(
            args,
            f"no item is a JSON object of fields (item 1 is {readers.describe(first)}: "
            f"{short_repr(first, 30)})",
        )


def _mend_ragged_rows(
    args: argparse.Namespace, data: bytes, items: list[Any], columns: Sequence[str] | None
) -> None:
    """Rows with more or fewer cells than the header: said on stderr by their line and scored
    as they are (the extra cells dropped, never a column named None); a file where most rows
    are ragged is no table and is refused."""
    if not any(None in item or None in item.values() for item in items):
        return
    text = readers.decode(data, args.encoding)[0]
    ragged = readers.ragged_rows(text, args.delimiter, columns)
    where = [
        f"line {line} has {cells} cell{'s' * (cells != 1)}"
        for line, cells, _ in ragged[:_RAGGED_SHOWN]
    ]
    more = f" and {len(ragged) - _RAGGED_SHOWN} more" if len(ragged) > _RAGGED_SHOWN else ""
    width = ragged[0][2] if ragged else 0
    if 2 * len(ragged) > len(items):
        raise _not_crawl_data(
            args,
            f"not a table: {len(ragged)} of {len(items)} rows do not have the header's {width} "
            f"cells ({', '.join(where)}{more})",
        )
    for item in items:
        item.pop(None, None)
    print(
        f"rlm-gym score: warning: {args.file}: {len(ragged)} of {len(items)} rows do not have "
        f"the header's {width} cells, scored as they are (extra cells dropped, missing ones "
        f"empty): {', '.join(where)}{more}",
        file=sys.stderr,
    )


def _items_result(args: argparse.Namespace, data: bytes, input_format: str) -> dict[str, Any]:
    columns = comma_names(args.columns, "--columns") or None
    name = "" if args.file == "-" else args.file
    binary = readers.binary_content(data)
    if binary is not None:
        raise _not_crawl_data(args, binary)
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
        raise ValueError(f"{args.file}: {error}") from None
    _check_items(args, items, input_format)
    if input_format == "csv":
        _mend_ragged_rows(args, data, items, columns)
    problem = _header_problem(items) if input_format == "csv" and not columns else None
    if problem:
        print(
            f"rlm-gym score: warning: {args.file}: {problem}; if the file has no header row, "
            "name its columns with --columns",
            file=sys.stderr,
        )
    required = comma_names(args.required, "--required") + list(args.schema_fields or [])
    present = {key for item in items if isinstance(item, dict) for key in item}
    # Header names keep their spaces ("time_of_posting "): match a stripped name to one.
    padded = {key.strip(): key for key in present if isinstance(key, str) and key != key.strip()}
    required = [field if field in present else padded.get(field, field) for field in required]
    for field in required:
        if field not in present:
            fields = sorted(str(key) for key in present)
            shown = ", ".join(short_repr(name, 30) for name in fields[:20]) or "(none)"
            more = f" and {len(fields) - 20} more" if len(fields) > 20 else ""
            raise ValueError(
                f"`--required` field {field!r} is in no item of {args.file}."
                f"{did_you_mean(field, fields)} Fields: {shown}{more}"
            )
    if not required:
        print(
            f"rlm-gym score: note: {args.file}: no --required fields; each item is scored on "
            "its own fields (validation capped at 0.85), and a field present in at least half "
            "the items is checked for systematic defects as a required one would be",
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


def _refuse_items_options(args: argparse.Namespace) -> None:
    for option in _ITEMS_OPTIONS:
        if getattr(args, option) is not None:
            raise ValueError(
                f"`--{option.replace('_', '-')}` is for a scraper's items or CSV, and "
                f"{args.file} holds crawl results (pass --input-format items or csv "
                "to read it as items)"
            )


def read_lines(
    args: argparse.Namespace, handle: BinaryIO
) -> tuple[Iterable[tuple[int, Any]], list[str]]:
    """The numbered crawl results of the open file, and the schema fields to score them with.

    ``--input-format auto`` decides from the file's name and first line
    (:func:`rlm_gym.crawl.readers.detect_format`).

    Raises:
        ValueError: An empty file, or one that is not crawl data: binary content, no items,
            no item a JSON object, a CSV whose rows mostly do not fit its header.
    """
    try:
        consumed, first = _first_line(handle)
    except OSError as error:
        raise ValueError(f"cannot read {args.file}: {error.strerror or error}") from None
    if not first.strip():
        raise _not_crawl_data(args, "the file is empty")
    input_format = args.input_format
    if input_format == "auto":
        input_format = readers.detect_format(first, "" if args.file == "-" else args.file)
    schema_fields = comma_names(args.required, "--required") + list(args.schema_fields or [])
    if input_format == "results":
        _refuse_items_options(args)
        return _numbered(consumed, handle), schema_fields
    data = b"".join(consumed) + handle.read()
    if input_format == "items" and args.input_format == "auto":
        # json.dump(result, indent=2): crawl results, not items, whatever the layout
        results = None
        with contextlib.suppress(ValueError):  # a bad encoding is reported below
            results = readers.pretty_crawl_results(readers.decode(data, args.encoding)[0])
        if results is not None:
            _refuse_items_options(args)
            return results, schema_fields
    return [(1, _items_result(args, data, input_format))], []  # the schema is in the result
