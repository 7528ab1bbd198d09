"""``rlm-gym score``: score crawl logs, or a scraper's own output file, with a reward policy.

Input (``--input-format``, default ``auto``, see :mod:`rlm_gym.cli.score_input`):

* ``results`` — crawl-result dicts (``docs/crawl-reward.md``), one JSON object per line, read
  and scored line by line in constant memory; errors name ``FILE:LINE``.
* ``items`` — a scraper's JSON output as it is: an array of items, JSON lines of items
  (Scrapy's feed export), objects written one after another, or an object holding the list.
* ``csv`` — a scraper's CSV (delimiter and encoding detected, see
  :mod:`rlm_gym.crawl.readers`).

Items and CSV become one crawl result (``--required f1,f2``, ``--pages``, ``--time-ms``,
``--pattern-type``). The scoring itself is :func:`rlm_gym.crawl.batch.iter_scores`.

Output goes to stdout as it is scored (``--format table|json|csv``), problems to stderr.
``--explain`` adds each crawl's per-field diagnostics (type, share invalid, example bad values,
systematic defects); ``--bad-rows FILE`` writes the rows :func:`rlm_gym.crawl.check_items`
rejects as JSON lines. Before scoring, a file that is not crawl data is refused: binary
content, an empty file, no items, no item a JSON object, a CSV whose rows mostly do not fit its
header (a few ragged rows are scored and named on stderr). A crawl without items is never
better than ``poor``. Exit codes: 0 scored (invalid lines skipped with ``--skip-invalid``),
1 invalid lines (nothing is written to stdout then), 2 an unreadable file or one that is not
crawl data, bad arguments or an unknown policy.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from rlm_gym.cli.options import add_command
from rlm_gym.cli.score_input import check_arguments, open_binary, read_lines
from rlm_gym.cli.score_output import WRITERS
from rlm_gym.crawl import readers
from rlm_gym.crawl.batch import Summary, bad_rows, iter_scores
from rlm_gym.policies.base import RewardPolicy
from rlm_gym.policies.registry import PolicyRegistry

__all__ = ["register", "run"]


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``score`` subcommand to an ``argparse`` subparsers object."""
    parser = add_command(
        subparsers,
        "score",
        "score crawl results or a scraper's output file (JSON, JSON lines, CSV)",
        [
            "rlm-gym score examples/crawl_results.jsonl",
            "rlm-gym score products.csv --required title,price --explain",
            "cat crawls.jsonl | rlm-gym score - --format json",
        ],
        description="Score crawl logs (one crawl result per line), or a scraper's own output "
        "file as one crawl, and summarize them per pattern type. --explain says, per field, "
        "which values were rejected and why.",
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
        "result's extraction_schema (default: each result's own schema; for a scraper's "
        "file, none: every field is judged on its values)",
    )
    parser.add_argument(
        "--schema-field",
        action="append",
        dest="schema_fields",
        metavar="FIELD",
        help="a required field, repeatable; same as --required (default: none)",
    )
    parser.add_argument(
        "--pages",
        type=int,
        help="items/csv input: pages the scrape fetched (default: 1)",
    )
    parser.add_argument(
        "--time-ms",
        type=float,
        help="items/csv input: the scrape's duration in ms (default: 0, no time penalty)",
    )
    parser.add_argument(
        "--pattern-type", help="the crawl's pattern type (default: classified from the data)"
    )
    parser.add_argument("--domain", help="items/csv input: the site (default: the file name)")
    parser.add_argument(
        "--encoding",
        help="items/csv input: force the file's encoding (default: detected from the bytes)",
    )
    parser.add_argument(
        "--delimiter",
        help="csv input: force the delimiter, ',', ';' or 'tab' (default: sniffed)",
    )
    parser.add_argument(
        "--columns",
        metavar="C1,C2",
        help="csv input: column names of a file without header (default: its first row)",
    )
    parser.add_argument(
        "--items-key",
        help="items input: the key holding the list of items (default: found in the JSON)",
    )
    parser.add_argument(
        "--format",
        choices=("table", "json", "csv"),
        default="table",
        help="how to print the scores",
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help="per crawl: each field's type, share invalid, example bad values, and defects",
    )
    parser.add_argument(
        "--bad-rows",
        metavar="OUT",
        help="write the rows check_items rejects to OUT, JSON lines (default: not written)",
    )
    parser.add_argument(
        "--skip-invalid", action="store_true", help="report invalid lines and score the rest"
    )
    # `rlm-gym score big.jsonl | head`: the reader leaving early is how a filter ends.
    parser.set_defaults(func=run, closed_pipe_exit=0)
    return parser


def _score_stream(
    args: argparse.Namespace,
    policy: RewardPolicy,
    lines: Iterable[tuple[int, Any]],
    out: TextIO,
    bad_out: TextIO | None,
    schema_fields: Sequence[str],
) -> tuple[int, int]:
    """Score and write every line; returns (scored, invalid)."""
    components = [str(name) for name in policy.component_names]
    writer = WRITERS[args.format](out, args.policy, components, args.explain)
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


def _score_and_write(
    args: argparse.Namespace,
    policy: RewardPolicy,
    lines: Iterable[tuple[int, Any]],
    schema_fields: Sequence[str],
) -> int:
    bad_out = None
    if args.bad_rows is not None:
        try:
            bad_out = open(args.bad_rows, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as error:
            raise ValueError(f"cannot write {args.bad_rows}: {error.strerror or error}") from None
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
        if not scored:  # every line invalid, and skipped
            print(
                f"rlm-gym score: error: no valid crawl result to score in {args.file}",
                file=sys.stderr,
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
    """Run ``rlm-gym score`` with parsed arguments; returns the exit code.

    Raises:
        ValueError: bad arguments, an unknown policy, or a file that cannot be read.
    """
    check_arguments(args)
    policy = PolicyRegistry.get_reward(args.policy)
    handle = open_binary(args.file)
    try:
        lines, schema_fields = read_lines(args, handle)
        return _score_and_write(args, policy, lines, schema_fields)
    finally:
        if handle is not sys.stdin.buffer:
            handle.close()
