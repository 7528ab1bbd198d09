"""Time of ``python -c "import rlm_gym"`` in a fresh interpreter (target < 0.5 s).

The figure is the child's CPU time (user + system), like the other benchmarks: on a busy
2-core machine wall time also counts the time the process waits for a core. Wall time is
reported beside it, and interpreter start-up alone (``python -c pass``). Bytecode caches are
warmed by a first, unmeasured run, as after any install.

Run: ``.venv/bin/python benchmarks/import_time.py [--repetitions 7]``
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
from pathlib import Path
from time import perf_counter

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import save_results


def _child_times(code: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one ``python -c code``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    wall = perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=7)
    args = parser.parse_args(argv)
    _child_times("import rlm_gym")
    bare = [_child_times("pass") for _ in range(args.repetitions)]
    full = [_child_times("import rlm_gym") for _ in range(args.repetitions)]
    results = {
        "import_cpu_s": statistics.median(cpu for cpu, _ in full),
        "import_wall_s": statistics.median(wall for _, wall in full),
        "interpreter_cpu_s": statistics.median(cpu for cpu, _ in bare),
        "repetitions": args.repetitions,
    }
    print(
        f"python -c 'import rlm_gym': {results['import_cpu_s']:.3f} s CPU, "
        f"{results['import_wall_s']:.3f} s wall, median of {args.repetitions} "
        f"(interpreter alone {results['interpreter_cpu_s']:.3f} s CPU; target < 0.5 s)"
    )
    save_results("import_time", results)
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
