"""Read a scraper's own output file as crawl items, the way ``rlm-gym score`` does.

Scrapers write their items in a handful of shapes; :func:`read_items` takes each as it is:

* a JSON array of items (Scrapy's ``json`` feed export, ``json.dump(items)``);
* JSON lines, one item per line (Scrapy's ``jsonlines`` feed export);
* JSON objects written one after another, pretty-printed or not (``f.write(json.dumps(item,
  indent=4))`` in a loop);
* one JSON object holding the list: the list under its only key (``{"8121": [...]}``), or under
  a usual container key (``items``, ``data``, ``results``, ``records``, ``rows``, ``entries``,
  ``products``, ``listings``, ``hits``); any other object is one item;
* CSV with a header row (or ``columns`` for a file that has none), delimiter sniffed among comma,
  semicolon, tab and pipe, cells kept as the strings the file holds.

Bytes are decoded by :func:`decode`: a UTF-8, UTF-16 or UTF-32 byte-order mark decides; else
strict UTF-8; else cp1252 (the Windows default that Excel and pandas ``to_csv`` on Windows
write); else Latin-1, which never fails. Measured on the 30 raw files of ``realdata/raw`` of
the labelled corpora (27 UTF-8, one with a BOM, 3 cp1252; CSV, TSV named ``.csv``, a JSON
array, objects written one after another, an object holding the list, a single object): every
file's first 100 rows equal the ``data`` of its line in ``crawls.jsonl``, built independently by
the corpus's ``build.py`` (``tests/crawl/test_readers.py``).

:func:`crawl_result_from_items` wraps the items in the crawl-result dict ``crawl_reward``
scores (its shape: :mod:`rlm_gym.crawl.result`).
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rlm_gym._validation import too_deep, unknown_name_error

__all__ = [
    "INPUT_FORMATS",
    "CONTAINER_KEYS",
    "binary_content",
    "decode",
    "sniff_delimiter",
    "read_csv_items",
    "ragged_rows",
    "read_json_items",
    "read_items",
    "describe",
    "detect_format",
    "is_crawl_result",
    "pretty_crawl_results",
    "crawl_result_from_items",
]

INPUT_FORMATS = ("auto", "results", "items", "csv")
"""``results``: crawl-result dicts, one per line; ``items``: a scraper's JSON output; ``csv``."""

CONTAINER_KEYS = (
    "items",
    "data",
    "results",
    "records",
    "rows",
    "entries",
    "products",
    "listings",
    "hits",
)
"""Keys of a JSON object whose list value is taken as the items (when the object has others)."""

DELIMITERS = (",", ";", "\t", "|")

_BOMS = (  # longest first: the UTF-32-LE mark starts with the UTF-16-LE one
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# The first bytes of the files most often renamed or exported by mistake, and what they are.
_BINARY_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF-", "a PDF document"),
    (b"\x1f\x8b", "gzip-compressed (decompress it first)"),
    (b"PK\x03\x04", "a zip archive, such as an Excel .xlsx (export it as CSV)"),
    (b"SQLite format 3\x00", "an SQLite database"),
)
_BINARY_SCAN = 8000  # git's rule: a NUL byte in the first 8000 bytes makes a file binary
_SNIFF_CHARS = 64 * 1024
_SNIFF_ROWS = 50

csv.field_size_limit(min(sys.maxsize, 2**31 - 1))  # README dumps and HTML cells exceed 128 KB


def decode(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """Decode a file's bytes; returns ``(text, encoding used)``.

    With ``encoding`` None: a byte-order mark decides (and is dropped), else strict UTF-8, else
    cp1252, else Latin-1.

    Example:
        >>> decode("Preis: 12,99 €".encode("cp1252"))
        ('Preis: 12,99 €', 'cp1252')
        >>> decode(codecs.BOM_UTF8 + "giá".encode())
        ('giá', 'utf-8-sig')
    """
    if encoding is not None:
        try:
            text = data.decode(encoding)
        except LookupError:
            raise ValueError(f"Unknown `encoding` {encoding!r} (e.g. 'utf-8', 'cp1252')") from None
        except UnicodeDecodeError as error:
            raise ValueError(
                f"the file is not {encoding}: byte {data[error.start]:#04x} at offset "
                f"{error.start} cannot be decoded ({error.reason})"
            ) from None
        return text.removeprefix("\ufeff"), encoding
    for mark, name in _BOMS:
        if data.startswith(mark):
            return data.decode(name).removeprefix("\ufeff"), name
    for name in ("utf-8", "cp1252"):
        try:
            return data.decode(name), name
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1"), "latin-1"


def binary_content(data: bytes) -> str | None:
    r"""What a file's bytes are when they are not text (an image, an archive, any file with a
    NUL byte early on), else None. Text in UTF-16 or UTF-32 with its byte-order mark is text.

    Example:
        >>> binary_content(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
        'binary content, not text: it looks like a PNG image'
        >>> binary_content(b"name,price\x00\n"), binary_content("name".encode("utf-16"))
        ('binary content, not text (a NUL byte at offset 10)', None)
    """
    if data.startswith(tuple(mark for mark, name in _BOMS if name != "utf-8-sig")):
        return None
    for signature, kind in _BINARY_SIGNATURES:
        if data.startswith(signature):
            return f"binary content, not text: it looks like {kind}"
    nul = data.find(b"\x00", 0, _BINARY_SCAN)
    return None if nul < 0 else f"binary content, not text (a NUL byte at offset {nul})"


def _complete_rows(sample: str, delimiter: str) -> list[list[str]]:
    """The first records of ``sample`` parsed with ``delimiter``, the possibly cut last one
    dropped."""
    reader = csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter)
    rows: list[list[str]] = []
    try:
        for row in reader:
            if row:
                rows.append(row)
            if len(rows) > _SNIFF_ROWS:
                break
    except csv.Error:
        pass
    return rows[:-1] if len(sample) >= _SNIFF_CHARS and len(rows) > 1 else rows


def sniff_delimiter(text: str) -> str:
    """The delimiter among comma, semicolon, tab and pipe that splits the first rows into the
    same number (> 1) of columns most consistently, more columns breaking ties; comma when none
    splits anything.

    Example:
        >>> sniff_delimiter('name;price\\n"Sofa, grey";"1.299,00 €"\\nLamp;"12,50 €"\\n')
        ';'
        >>> sniff_delimiter("title\\nA headline, with a comma\\n")
        ','
    """
    sample = text[:_SNIFF_CHARS]
    best, best_score = ",", (0.0, 0)
    for delimiter in DELIMITERS:
        rows = _complete_rows(sample, delimiter)
        if not rows or len(rows[0]) < 2:
            continue
        width = len(rows[0])
        score = (sum(len(row) == width for row in rows) / len(rows), width)
        if score > best_score:
            best, best_score = delimiter, score
    return best


def read_csv_items(
    text: str, delimiter: str | None = None, columns: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """CSV rows as dicts, cells kept as strings (``csv.DictReader``'s rules: blank lines are
    skipped, a short row lacks its last keys as None, a long row's extra cells go under None).

    Args:
        text: The decoded file.
        delimiter: None to sniff (:func:`sniff_delimiter`).
        columns: The column names of a file without a header row (its first row is then data).

    Example:
        >>> read_csv_items("name\\tprice\\nSofa\\t€ 1.299\\n")
        [{'name': 'Sofa', 'price': '€ 1.299'}]
    """
    delimiter = sniff_delimiter(text) if delimiter is None else delimiter
    reader = csv.DictReader(
        io.StringIO(text, newline=""),
        fieldnames=list(columns) if columns else None,
        delimiter=delimiter,
    )
    try:
        return list(reader)
    except csv.Error as error:
        raise ValueError(f"line {reader.line_num}: invalid CSV: {error}") from None


def ragged_rows(
    text: str, delimiter: str | None = None, columns: Sequence[str] | None = None
) -> list[tuple[int, int, int]]:
    r"""The CSV rows whose number of cells is not the header's, as ``(line, cells, header
    cells)``; blank lines are skipped as :func:`read_csv_items` skips them.

    ``read_csv_items`` keeps such rows (a short row lacks its last values, a long row's extra
    cells go under the key None); this says which rows they are, by the line each starts on.

    Example:
        >>> ragged_rows("name,price\nSofa,12\nLamp,5,extra\n\nChair\n")
        [(3, 3, 2), (5, 1, 2)]
    """
    delimiter = sniff_delimiter(text) if delimiter is None else delimiter
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    width = len(columns) if columns else None
    ragged: list[tuple[int, int, int]] = []
    line = 1
    try:
        for row in reader:
            if row:
                if width is None:
                    width = len(row)
                elif len(row) != width:
                    ragged.append((line, len(row), width))
            line = reader.line_num + 1
    except csv.Error as error:
        raise ValueError(f"line {reader.line_num}: invalid CSV: {error}") from None
    return ragged


def _json_values(text: str) -> Iterator[tuple[int, Any]]:
    """Every JSON value in ``text`` (JSON lines, or values written one after another) with the
    line it starts on."""
    decoder = json.JSONDecoder()
    position, line, size = 0, 1, len(text)
    while True:
        start = position
        while position < size and text[position] in " \t\r\n":
            position += 1
        line += text.count("\n", start, position)
        if position >= size:
            return
        try:
            value, end = decoder.raw_decode(text, position)
        except json.JSONDecodeError as error:
            raise ValueError(
                f"line {error.lineno} column {error.colno}: invalid JSON: {error.msg}"
            ) from None
        except RecursionError:
            raise too_deep(line) from None
        yield line, value
        line += text.count("\n", position, end)
        position = end


def describe(value: Any) -> str:
    """What kind of JSON value ``value`` is, for messages.

    Example:
        >>> describe([1]), describe({}), describe(2.5), describe(None)
        ('an array', 'an object', 'a number', 'null')
    """
    names = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "an object" if isinstance(value, dict) else "a number")


def _unwrap(document: Mapping[str, Any], items_key: str | None) -> list[Any]:
    if items_key is not None:
        if items_key not in document:
            raise unknown_name_error("`items_key`", items_key, [str(key) for key in document])
        found = document[items_key]
        if not isinstance(found, list):
            raise ValueError(
                f"Expected a list of items under `items_key` {items_key!r}, got {describe(found)}"
            )
        return found
    if len(document) == 1:
        (only,) = document.values()
        if isinstance(only, list):
            return only
    for key in CONTAINER_KEYS:
        found = document.get(key)
        if isinstance(found, list) and found and all(isinstance(x, dict) for x in found):
            return found
    return [document]


def read_json_items(text: str, items_key: str | None = None) -> list[Any]:
    """The items of a scraper's JSON output (array, JSON lines, concatenated objects, or an
    object holding the list; see the module docstring).

    Args:
        text: The decoded file.
        items_key: Take the list under this key of the top-level object (default: found as the
            module docstring says).

    Example:
        >>> read_json_items('{"name": "Sofa"}\\n{"name": "Lamp"}\\n')
        [{'name': 'Sofa'}, {'name': 'Lamp'}]
        >>> read_json_items('{"8121": [{"name": "EFO Pizza"}]}')
        [{'name': 'EFO Pizza'}]
    """
    values = [value for _, value in _json_values(text)]
    if not values:
        raise ValueError("no JSON value in the file")
    if len(values) == 1:
        (document,) = values
        if isinstance(document, list):
            return document
        if isinstance(document, dict):
            return _unwrap(document, items_key)
        raise ValueError(f"expected JSON objects or an array of them, got {describe(document)}")
    if all(isinstance(value, list) for value in values):  # arrays appended one after another
        return [item for value in values for item in value]
    return values


def pretty_crawl_results(text: str) -> list[tuple[int, dict[str, Any]]] | None:
    """The crawl results of a file of pretty-printed (multi-line) crawl-result objects, or
    a JSON array of them, each with the line it starts on; None when the file holds anything
    else (a scraper's items, invalid JSON).

    Example:
        >>> pretty_crawl_results('{\\n  "success": true,\\n  "data": []\\n}\\n{"success": false, "data": []}')
        [(1, {'success': True, 'data': []}), (5, {'success': False, 'data': []})]
        >>> pretty_crawl_results('[{"name": "Sofa"}]') is None
        True
    """  # noqa: E501
    try:
        values = list(_json_values(text))
    except ValueError:
        return None
    if len(values) == 1 and isinstance(values[0][1], list):
        line, array = values[0]
        values = [(line, value) for value in array]  # one array: its position is the line's
    if values and all(is_crawl_result(value) for _, value in values):
        return values
    return None


def is_crawl_result(value: Any) -> bool:
    """Whether a JSON value looks like a crawl-result dict (``success``, or a ``data`` list).

    Example:
        >>> is_crawl_result({"success": True, "data": []}), is_crawl_result({"price": "€ 5"})
        (True, False)
    """
    return isinstance(value, dict) and ("success" in value or isinstance(value.get("data"), list))


def detect_format(first_line: bytes, name: str = "") -> str:
    """``"results"``, ``"items"`` or ``"csv"`` from a file's name and first non-blank line.

    A ``.csv``/``.tsv`` name, or a first line that starts with neither ``{`` nor ``[``: CSV. A
    first line that is a whole JSON object looking like a crawl result
    (:func:`is_crawl_result`): crawl results, one per line. Anything else that starts like
    JSON: a scraper's items.

    Example:
        >>> detect_format(b'{"success": true, "data": []}'), detect_format(b'[')
        ('results', 'items')
        >>> detect_format(b"name,price", "shop.txt")
        'csv'
    """
    if os.path.splitext(name)[1].lower() in (".csv", ".tsv"):
        return "csv"
    for mark, encoding in _BOMS:
        if first_line.startswith(mark):
            first_line = first_line.decode(encoding, errors="replace").encode()
            break
    stripped = first_line.lstrip(b" \t\r\n\xef\xbb\xbf")
    if not stripped.startswith((b"{", b"[")):
        return "csv"
    try:
        value = json.loads(stripped)
    except ValueError:  # a multi-line document, or not JSON
        return "items"
    except RecursionError:  # too deep for a crawl result: read as items, which says so
        return "items"
    return "results" if is_crawl_result(value) else "items"


def read_items(
    source: str | os.PathLike[str] | bytes,
    input_format: str = "auto",
    *,
    name: str = "",
    encoding: str | None = None,
    delimiter: str | None = None,
    columns: Sequence[str] | None = None,
    items_key: str | None = None,
) -> list[Any]:
    """The items of a scraper's output file, read as it is.

    Args:
        source: A file path, or the file's bytes.
        input_format: ``"auto"`` (:func:`detect_format`), ``"items"`` (JSON) or ``"csv"``.
        name: The file's name when ``source`` is bytes (its extension helps detection).
        encoding: Force an encoding (default: :func:`decode` detects it).
        delimiter: Force the CSV delimiter (default: sniffed).
        columns: Column names of a CSV file without a header row.
        items_key: The key holding the item list in a JSON object.

    Raises:
        ValueError: Undecodable bytes with a forced encoding, invalid JSON or CSV (with the
            line), an empty file, binary content (:func:`binary_content`), a file of crawl
            results, an unknown format.
        OSError: The file cannot be read.

    Example:
        >>> read_items(b'[{"title": "Hasil Piala Thomas", "link": "/news/1"}]')
        [{'title': 'Hasil Piala Thomas', 'link': '/news/1'}]
    """
    if input_format not in INPUT_FORMATS or input_format == "results":
        valid = [name for name in INPUT_FORMATS if name != "results"]
        raise unknown_name_error("`input_format`", input_format, valid)
    if isinstance(source, bytes):
        data = source
    else:
        name = name or os.fspath(source)
        with open(source, "rb") as handle:
            data = handle.read()
    if not data.strip():
        raise ValueError("the file is empty")
    binary = binary_content(data)
    if binary is not None:
        raise ValueError(binary)
    text, _ = decode(data, encoding)
    if not text.strip():
        raise ValueError("the file is empty")
    if input_format == "auto":
        first = next((line for line in text.encode().splitlines() if line.strip()), b"")
        input_format = detect_format(first, name)
        if input_format == "results":
            raise ValueError(
                "the file holds crawl results (dicts with `success` and `data`), not a "
                "scraper's items"
            )
    if input_format == "csv":
        return read_csv_items(text, delimiter, columns)
    return read_json_items(text, items_key)


def crawl_result_from_items(
    items: list[Any],
    required: Sequence[str] = (),
    *,
    pages: int | None = None,
    execution_time_ms: float | None = None,
    pattern_type: str | None = None,
    domain: str | None = None,
    strategy: str = "unknown",
) -> dict[str, Any]:
    """One successful crawl result holding ``items`` (the shape ``crawl_reward`` reads).

    ``pages`` defaults to 1 and ``execution_time_ms`` to 0 (no time penalty): the efficiency
    component then scores only the absence of errors.

    Example:
        >>> result = crawl_result_from_items([{"name": "Sofa"}], ["name"], pages=2)
        >>> result["navigation_result"], result["extraction_schema"]
        ({'pages_collected': 2, 'strategy_used': 'unknown'}, {'required': ['name']})
    """
    result: dict[str, Any] = {
        "success": True,
        "data": items,
        "navigation_result": {
            "pages_collected": 1 if pages is None else pages,
            "strategy_used": strategy,
        },
        "execution_time_ms": 0.0 if execution_time_ms is None else float(execution_time_ms),
        "errors": [],
        "extraction_schema": {"required": list(required)},
    }
    if pattern_type is not None:
        result["pattern_type"] = pattern_type
    if domain is not None:
        result["domain"] = domain
    return result
