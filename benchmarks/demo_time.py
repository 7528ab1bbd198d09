"""Wall time of ``rlm-gym demo`` after the install, as ``make demo`` runs it (target <= 60 s).

Each repetition runs the installed ``rlm-gym demo`` in a fresh process into a temporary run
directory (training, the baselines on the second core, the evaluation, the table and the
pictures), and records its wall time and CPU seconds (user + system, its worker processes
included), with the trained agent's true crawl score. Wall time is the figure: a newcomer waits
for it. It is only meaningful on an otherwise idle machine (2 cores), so the script reports the
machine's load average before each run next to it. Bytecode caches are warmed by a first,
unmeasured ``rlm-gym --help``, as after any install.

Run: ``.venv/bin/python benchmarks/demo_time.py [--repetitions 3]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from time import perf_counter

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import save_results


def _cli() -> str:
    found = Path(sys.executable).with_name("rlm-gym")
    return str(found) if found.exists() else shutil.which("rlm-gym") or "rlm-gym"


def time_demo(seed: int = 0, tree: str | None = None) -> dict[str, float]:
    """One ``rlm-gym demo`` run: wall s, CPU s, the trained agent's score, the load before
    (``tree``: run that checkout's code, through ``PYTHONPATH``)."""
    load = os.getloadavg()[0]
    env = None if tree is None else {**os.environ, "PYTHONPATH": str(Path(tree).resolve())}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "demo"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = perf_counter()
        subprocess.run(
            [_cli(), "demo", "--seed", str(seed), "--out", str(out)],
            check=True,
            capture_output=True,
            env=env,
        )
        wall = perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        rows = json.loads((out / "evaluation.json").read_text())
    trained = next(row for row in rows if row["label"] == "trained")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "score": round(trained["score"], 4),
        "normalised": round(trained["normalised"], 4),
        "load_before": round(load, 2),
    }


def _machine() -> str:
    """The CPU model and kernel the runs were timed on (``/proc/cpuinfo`` where it exists)."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.partition(":")[2].strip()
                    break
    except OSError:
        pass
    return f"{model}, {platform.system()} {platform.release()}"


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-save", action="store_true")
    parser.add_argument(
        "--paired",
        metavar="OLD_TREE",
        default=None,
        help="alternate runs of OLD_TREE's code and this checkout's (saved as demo_time_paired)",
    )
    args = parser.parse_args(argv)
    subprocess.run([_cli(), "--help"], check=True, capture_output=True)
    if args.paired:
        return paired(args.paired, args.repetitions, args.seed, not args.no_save)
    runs = []
    for repetition in range(args.repetitions):
        run = time_demo(args.seed)
        runs.append(run)
        print(
            f"run {repetition + 1}/{args.repetitions}: {run['wall_s']:.1f} s wall, "
            f"{run['cpu_s']:.1f} CPU s, score {run['score']:.3f} (normalised "
            f"{run['normalised']:.2f}), load before {run['load_before']:.2f}",
            flush=True,
        )
    walls = [run["wall_s"] for run in runs]
    result = {
        "runs": runs,
        "median_wall_s": statistics.median(walls),
        "max_wall_s": max(walls),
        "cores": os.cpu_count(),
        "machine": _machine(),
        "includes_install": False,
    }
    print(f"median wall {result['median_wall_s']:.1f} s (max {result['max_wall_s']:.1f} s)")
    if not args.no_save:
        save_results("demo_time", result)
    return result


def _commit(tree: str) -> str:
    found = subprocess.run(
        ["git", "-C", tree, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return found.stdout.strip() or "unknown"


def paired(old_tree: str, repetitions: int, seed: int, save: bool) -> dict:
    """Alternating runs, old code then this checkout's: on a busy machine both share its load,
    so their ratio says more than either wall time."""
    trees = {"old": old_tree, "new": str(Path(__file__).resolve().parents[1])}
    runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for repetition in range(repetitions):
        for label, tree in trees.items():
            run = time_demo(seed, tree)
            runs[label].append(run)
            print(
                f"run {repetition + 1}/{repetitions} {label}: {run['wall_s']:.1f} s wall, "
                f"{run['cpu_s']:.1f} CPU s, score {run['score']:.4f}, load before "
                f"{run['load_before']:.2f}",
                flush=True,
            )
    walls = {label: statistics.median(r["wall_s"] for r in rows) for label, rows in runs.items()}
    cpus = {label: statistics.median(r["cpu_s"] for r in rows) for label, rows in runs.items()}
    result = {
        "runs": runs,
        "median_wall_s": walls,
        "median_cpu_s": cpus,
        "new_vs_old_wall": round(walls["new"] / walls["old"], 4),
        "new_vs_old_cpu": round(cpus["new"] / cpus["old"], 4),
        "cores": os.cpu_count(),
        "machine": _machine(),
        "old_commit": _commit(trees["old"]),
        "new_commit": _commit(trees["new"]),
    }
    print(
        f"median wall old {walls['old']:.1f} s, new {walls['new']:.1f} s "
        f"(new / old {result['new_vs_old_wall']:.3f}); CPU new / old {result['new_vs_old_cpu']:.3f}"
    )
    if save:
        save_results("demo_time_paired", result)
    return result


if __name__ == "__main__":
    main()
