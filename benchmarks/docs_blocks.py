"""How long the documented training blocks take as written (full budgets), on this machine.

The recipes and the clients page state each training block's run time; this measures it: every
```python block of those pages that calls ``.learn(`` runs as it stands, in its own interpreter
in a temporary directory, and its CPU and wall time are saved with a digest of the block's code
under ``docs_blocks`` in ``benchmarks/results.json``. ``docs/render.py`` writes the times into the
pages, and ``tests/test_readme_numbers.py`` fails when a block changed since it was timed.

Usage:
    python benchmarks/docs_blocks.py [--repetitions N]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from time import perf_counter

from _common import save_results

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("docs/recipes.md", "docs/clients.md")


def python_blocks(page: Path) -> list[tuple[int, str]]:
    """``(first line, code)`` of every ```python block of ``page`` (the docs' code-block test
    reads the pages through this too)."""
    blocks, code, start = [], None, 0
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if code is None and line.strip() == "```python":
            code, start = [], number + 1
        elif code is not None and line.strip() == "```":
            blocks.append((start, "\n".join(code) + "\n"))
            code = None
        elif code is not None:
            code.append(line)
    return blocks


def digest(code: str) -> str:
    """A short digest of a block's code: its timing holds while this does."""
    return hashlib.sha256(code.encode()).hexdigest()[:16]


def training_blocks() -> dict[str, str]:
    """``{"<page>#<n>": code}`` of the training blocks (n counts the page's python blocks)."""
    return {
        f"{page}#{index}": code
        for page in PAGES
        for index, (_, code) in enumerate(python_blocks(ROOT / page))
        if ".learn(" in code
    }


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_times_s(code: str) -> tuple[float, float]:
    """``(wall, CPU)`` seconds of one run of the block in its own interpreter.

    The CPU time (all the run's threads and processes) does not grow when other work shares
    the machine, and on an idle machine the wall time is at most that, so it is what the pages
    state; the wall time of this run is kept beside it.
    """
    with tempfile.TemporaryDirectory() as workdir:
        script = Path(workdir) / "block.py"
        script.write_text(code, encoding="utf-8")
        cpu_before, started = _children_cpu_s(), perf_counter()
        subprocess.run(
            [sys.executable, str(script)],
            cwd=workdir,
            check=True,
            capture_output=True,
            env={**os.environ, "MPLBACKEND": "Agg"},
        )
        return perf_counter() - started, _children_cpu_s() - cpu_before


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=1, help="runs per block (median)")
    args = parser.parse_args(argv)
    payload = {}
    for key, code in training_blocks().items():
        runs = [run_times_s(code) for _ in range(args.repetitions)]
        payload[key] = {
            "digest": digest(code),
            "cpu_s": statistics.median(cpu for _, cpu in runs),
            "wall_s": statistics.median(wall for wall, _ in runs),
        }
        print(f"{key}: {payload[key]['cpu_s']:.0f} s CPU, {payload[key]['wall_s']:.0f} s wall")
    save_results("docs_blocks", {"cores": os.cpu_count(), "blocks": payload})


if __name__ == "__main__":
    main()
