"""Write the README's measured numbers from the committed JSON files they come from.

Every figure in README.md sits in a generated block::

    <!-- generated: NAME (python docs/render_readme.py) -->
    ...
    <!-- end: NAME -->

and is rendered here from a committed JSON file (``benchmarks/results.json`` for
``make bench``, ``results/*.json`` for ``make results``) or from a deterministic command over
committed data. ``make readme`` rewrites the blocks; ``--check`` (run by
``tests/test_readme_numbers.py``) fails when the README and the JSON disagree, so a number
cannot go stale.

Usage:
    python docs/render_readme.py [--check]
"""

from __future__ import annotations

import argparse
import difflib
import io
import json
import re
import sys
from collections.abc import Callable
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BENCHMARKS = ROOT / "benchmarks" / "results.json"
RESULTS = ROOT / "results"

_BLOCK = re.compile(
    r"(<!-- generated: (?P<name>[a-z_]+) \(python docs/render_readme.py\) -->\n)"
    r"(?P<body>.*?)"
    r"(<!-- end: (?P=name) -->)",
    re.S,
)


def _json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def real_data_figures() -> str:
    """The four agreement figures on the dev corpus, against their bars."""
    report = _json(BENCHMARKS)["real_data"]
    names = {
        "valid_accepted": f"valid values accepted ({report['valid_values']} labelled valid)",
        "invalid_rejected": (
            f"invalid values rejected ({report['invalid_values']} labelled invalid)"
        ),
        "pattern_type": f"pattern type acceptable ({report['crawls']} crawls)",
        "tier_agreement": "tier follows the verdict (clean: good/excellent; flawed: not excellent; "
        "broken: acceptable/poor)",
    }
    rows = [
        [label, f"**{report['figures'][key]:.3f}**", f"≥ {report['bars'][key]:.2f}"]
        for key, label in names.items()
    ]
    return _table(["agreement with the expert", "measured", "bar"], rows)


def real_data_crawls() -> str:
    """One row per dev crawl: verdict, reward, tier, type, valid share, defects."""
    report = _json(BENCHMARKS)["real_data"]
    rows = [
        [
            row["line"],
            row["domain"],
            row["verdict"],
            f"{row['reward']:.3f}",
            row["tier"],
            row["pattern_type"],
            f"{row['valid_share']:.2f}",
            row["defects"],
        ]
        for row in report["per_crawl"]
    ]
    headers = ["line", "site", "verdict", "reward", "tier", "type", "valid share", "defects"]
    return _table(headers, rows)


def real_data_disagreements() -> str:
    """Every disagreement with the expert labels, as a list."""
    report = _json(BENCHMARKS)["real_data"]
    return "".join(f"- {text}\n" for text in report["disagreements"])


SCORE_EXAMPLE = [
    "score",
    "tests/data/realdata/raw/03_justdial__justdial.csv",
    "--required",
    "img_link,name,rating,price",
    "--pages",
    "9",
    "--time-ms",
    "45000",
    "--explain",
]


def score_explain() -> str:
    """``rlm-gym score --explain`` on a scraper's own CSV from the corpus."""
    from rlm_gym.cli import main

    stream = io.StringIO()
    with redirect_stdout(stream):
        main(SCORE_EXAMPLE)
    command = " ".join(["rlm-gym", *SCORE_EXAMPLE])
    return f"```console\n$ {command}\n{stream.getvalue()}```\n"


BLOCKS: dict[str, Callable[[], str]] = {
    "real_data_figures": real_data_figures,
    "real_data_crawls": real_data_crawls,
    "real_data_disagreements": real_data_disagreements,
    "score_explain": score_explain,
}


def render(text: str) -> str:
    """``text`` with every generated block rewritten from its source."""

    def replace(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in BLOCKS:
            raise KeyError(f"README block {name!r} has no renderer; known: {sorted(BLOCKS)}")
        return match.group(1) + BLOCKS[name]() + match.group(4)

    return _BLOCK.sub(replace, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if README.md is stale")
    args = parser.parse_args(argv)
    current = README.read_text(encoding="utf-8")
    rendered = render(current)
    if args.check:
        if rendered != current:
            diff = difflib.unified_diff(
                current.splitlines(), rendered.splitlines(), "README.md", "rendered", lineterm=""
            )
            print("\n".join(diff))
            print("README.md is stale: run `make readme`", file=sys.stderr)
            return 1
        return 0
    README.write_text(rendered, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
