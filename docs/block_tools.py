"""What every generated block shares: reading the committed JSON and writing Markdown tables."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks" / "results.json"
RESULTS = ROOT / "results"


def read_json(path: Path) -> dict[str, Any]:
    """A committed JSON file."""
    return json.loads(path.read_text(encoding="utf-8"))


def study(name: str) -> dict[str, Any]:
    """``results/<name>.json``, a study's results."""
    return read_json(RESULTS / f"{name}.json")


def table(headers: list[str], rows: list[list[Any]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def pm(value: float | None, half: float | None, digits: int = 3, scale: float = 1.0) -> str:
    """``value ± half`` (``value`` alone when there is no interval; ``-`` when no value)."""
    if value is None:
        return "-"
    if half is None:
        return f"{value * scale:.{digits}f}"
    return f"{value * scale:.{digits}f} ± {half * scale:.{digits}f}"
