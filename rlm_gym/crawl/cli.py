"""``rlm-gym score``: score crawl logs (one crawl result per JSON line) with a reward policy.

The lead CLI (``rlm_gym.cli``) calls :func:`register` on its subparsers; :func:`main` runs the
``score`` command on its own. Output goes to stdout, problems to stderr. Exit codes: 0 scored
(invalid lines skipped with ``--skip-invalid``), 1 invalid lines or nothing to score, 2 an
unreadable file or an unknown policy.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from rlm_gym.crawl.patterns import (
    TIERS,
    classify_quality_tier,
    pattern_thresholds,
    storage_bucket,
)
from rlm_gym.crawl.reward import crawl_reward
from rlm_gym.policies.base import RewardPolicy
from rlm_gym.policies.registry import PolicyRegistry
from rlm_gym.policies.types import ActionResult, PolicyContext

__all__ = ["register", "run", "main", "score_lines", "summarize"]

_FINAL = {"action": "final"}
_ROW_KEYS = ("line", "domain", "pattern_type", "tier", "bucket", "reward")


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``score`` subcommand to an ``argparse`` subparsers object."""
    parser = subparsers.add_parser(
        "score",
        help="score crawl results (JSON lines) with a reward policy",
        description="Score crawl logs, one crawl result dict per line, and summarize them "
        "per pattern type.",
    )
    parser.add_argument("file", metavar="FILE", help="a JSON-lines file ('-' reads stdin)")
    parser.add_argument("--policy", default="crawl", help="a registered reward policy name")
    parser.add_argument(
        "--schema-field",
        action="append",
        dest="schema_fields",
        metavar="FIELD",
        help="a required field (repeatable); replaces each result's extraction_schema",
    )
    parser.add_argument("--format", choices=("table", "json", "csv"), default="table")
    parser.add_argument(
        "--skip-invalid", action="store_true", help="report invalid lines and score the rest"
    )
    parser.set_defaults(func=run)
    return parser


def _describe(value: Any) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def _score_one(
    result: dict[str, Any], policy: RewardPolicy, context: PolicyContext
) -> dict[str, Any]:
    crawl = crawl_reward(result)  # validates the line whatever the policy
    action_result = ActionResult(
        "final", bool(result["success"]), metadata={"crawl_result": result}
    )
    policy.on_episode_start(context)
    signal = policy.calculate(_FINAL, action_result, context)
    policy.on_episode_end(context, signal.value)
    details = signal.details if "tier" in signal.details else {}
    pattern_type = crawl.details["pattern_type"]
    thresholds = pattern_thresholds(pattern_type)
    data = result["data"] or ()
    return {
        "domain": str(result.get("domain") or "unknown"),
        "pattern_type": pattern_type,
        "tier": details.get("tier") or classify_quality_tier(signal.value, thresholds, len(data)),
        "bucket": details.get("bucket") or storage_bucket(signal.value, thresholds),
        "reward": signal.value,
        "components": {name: float(value) for name, value in signal.components.items()},
    }


def score_lines(
    lines: Iterable[str],
    policy: RewardPolicy,
    schema_fields: Sequence[str] | None = None,
    task: str = "",
) -> tuple[list[dict[str, Any]], list[tuple[int, str]]]:
    """Score JSON lines; blank lines are ignored.

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
    schema = {"required": list(schema_fields)} if schema_fields else None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            result = json.loads(line)
        except json.JSONDecodeError as error:
            invalid.append((number, f"invalid JSON: {error.msg} (column {error.colno})"))
            continue
        if not isinstance(result, dict):
            kind = _describe(result)
            invalid.append((number, f"expected a JSON object (one crawl result), got {kind}"))
            continue
        if schema is not None:
            result = {**result, "extraction_schema": schema}
        try:
            row = _score_one(result, policy, PolicyContext(task=task))
        except (ValueError, TypeError) as error:
            invalid.append((number, str(error)))
            continue
        rows.append({"line": number, **row})
    return rows, invalid


def summarize(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per pattern type (in order of first appearance) and overall: count, mean, min, max of
    the reward and the count of each tier.

    Example:
        >>> rows = [{"pattern_type": "product_list", "reward": 0.9, "tier": "excellent"},
        ...         {"pattern_type": "product_list", "reward": 0.5, "tier": "acceptable"}]
        >>> summary = summarize(rows)
        >>> [(s["pattern_type"], s["count"], round(s["mean"], 4), s["excellent"]) for s in summary]
        [('product_list', 2, 0.7, 1), ('all', 2, 0.7, 1)]
    """
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(row["pattern_type"], []).append(row)
    if rows:
        groups["all"] = list(rows)
    summary = []
    for pattern_type, members in groups.items():
        rewards = [row["reward"] for row in members]
        entry = {
            "pattern_type": pattern_type,
            "count": len(members),
            "mean": sum(rewards) / len(rewards),
            "min": min(rewards),
            "max": max(rewards),
        }
        entry.update({tier: sum(row["tier"] == tier for row in members) for tier in TIERS})
        summary.append(entry)
    return summary


def _format_cell(value: Any) -> str:
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def _table(headers: Sequence[str], records: Sequence[Sequence[Any]]) -> str:
    """Plain aligned text: text columns left-aligned, numbers right-aligned."""
    cells = [[_format_cell(value) for value in record] for record in records]
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


def _component_names(policy: RewardPolicy, rows: Sequence[dict[str, Any]]) -> list[str]:
    names = list(policy.component_names)
    for row in rows:
        names += [name for name in row["components"] if name not in names]
    return names


def _write_table(out: TextIO, rows, summary, components) -> None:
    headers = [*_ROW_KEYS, *components]
    records = [
        [*(row[key] for key in _ROW_KEYS), *(row["components"].get(n, 0.0) for n in components)]
        for row in rows
    ]
    out.write(_table(headers, records) + "\n\nsummary by pattern type\n")
    summary_headers = ["pattern_type", "count", "mean", "min", "max", *TIERS]
    out.write(_table(summary_headers, [[s[key] for key in summary_headers] for s in summary]))
    out.write("\n")


def _write_csv(out: TextIO, rows, components) -> None:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*_ROW_KEYS, *components])
    for row in rows:
        values = [row[key] for key in _ROW_KEYS]
        values += [row["components"].get(name, 0.0) for name in components]
        writer.writerow(values)


def run(args: argparse.Namespace) -> int:
    """Run ``rlm-gym score`` with parsed arguments; returns the exit code."""
    try:
        policy = PolicyRegistry.get_reward(args.policy)
    except (ValueError, TypeError) as error:
        print(f"rlm-gym score: error: {error}", file=sys.stderr)
        return 2
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        print(f"rlm-gym score: error: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    rows, invalid = score_lines(text.splitlines(), policy, args.schema_fields, task=args.file)
    suffix = " (skipped)" if args.skip_invalid else ""
    for number, problem in invalid:
        print(f"rlm-gym score: {args.file}:{number}: {problem}{suffix}", file=sys.stderr)
    if invalid and not args.skip_invalid:
        print(
            f"rlm-gym score: error: {len(invalid)} invalid line(s) in {args.file}; "
            "fix them or pass --skip-invalid",
            file=sys.stderr,
        )
        return 1
    if not rows:
        print(f"rlm-gym score: error: no crawl results to score in {args.file}", file=sys.stderr)
        return 1
    components = _component_names(policy, rows)
    summary = summarize(rows)
    out = io.StringIO()
    if args.format == "json":
        document = {
            "policy": args.policy,
            "results": rows,
            "summary": summary,
            "invalid": [{"line": number, "error": problem} for number, problem in invalid],
        }
        json.dump(document, out, indent=2, ensure_ascii=False)
        out.write("\n")
    elif args.format == "csv":
        _write_csv(out, rows, components)
    else:
        _write_table(out, rows, summary, components)
    sys.stdout.write(out.getvalue())
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``rlm-gym score ...`` on its own (``argv`` starts with ``"score"``)."""
    parser = argparse.ArgumentParser(prog="rlm-gym")
    register(parser.add_subparsers(dest="command", required=True, metavar="COMMAND"))
    args = parser.parse_args(argv)
    return args.func(args)
