"""Time of ``python -c "import rlm_gym"`` in a fresh interpreter (target < 0.5 s).

The figure is the child's CPU time (user + system), like the other benchmarks: on a busy
2-core machine wall time also counts the time the process waits for a core. Wall time is
reported beside it, and interpreter start-up alone (``python -c pass``). Bytecode caches are
warmed by a first, unmeasured run, as after any install (``pip install`` compiles them). The
children run without ``PYTHONDONTWRITEBYTECODE``, which some machines set (this VM does): with
it, an editable install recompiles every ``rlm_gym`` module on every import, and the warm-up
could not warm anything. That figure is measured too, as ``import_no_bytecode_cpu_s``.

Run: ``.venv/bin/python benchmarks/import_time.py [--repetitions 7]``
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path
from time import perf_counter

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import save_results


def _child_times(code: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one ``python -c code``, bytecode writes allowed."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    wall = perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


# ``import rlm_gym`` with rlm_gym's own bytecode caches ignored (neither read nor written), as
# an editable install runs under PYTHONDONTWRITEBYTECODE=1; other packages keep their caches.
_UNCACHED = """
import sys
import importlib.machinery as machinery

sys.dont_write_bytecode = True
read = machinery.SourceFileLoader.get_data

def get_data(loader, path):
    if path.endswith(".pyc") and "rlm_gym" in path:
        raise OSError(path)  # "no cache": the loader compiles the source
    return read(loader, path)

machinery.SourceFileLoader.get_data = get_data
import rlm_gym
"""


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=7)
    args = parser.parse_args(argv)
    _child_times("import rlm_gym")
    bare = [_child_times("pass") for _ in range(args.repetitions)]
    full = [_child_times("import rlm_gym") for _ in range(args.repetitions)]
    uncached = [_child_times(_UNCACHED) for _ in range(args.repetitions)]
    results = {
        "import_cpu_s": statistics.median(cpu for cpu, _ in full),
        "import_wall_s": statistics.median(wall for _, wall in full),
        "interpreter_cpu_s": statistics.median(cpu for cpu, _ in bare),
        "import_no_bytecode_cpu_s": statistics.median(cpu for cpu, _ in uncached),
        "repetitions": args.repetitions,
    }
    print(
        f"python -c 'import rlm_gym': {results['import_cpu_s']:.3f} s CPU, "
        f"{results['import_wall_s']:.3f} s wall, median of {args.repetitions} "
        f"(interpreter alone {results['interpreter_cpu_s']:.3f} s CPU; target < 0.5 s); "
        f"compiling rlm_gym's modules every time: {results['import_no_bytecode_cpu_s']:.3f} s CPU"
    )
    save_results("import_time", results)
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
