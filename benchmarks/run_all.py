"""Run every benchmark (``make bench``) and write ``benchmarks/results.json``.

Each benchmark runs in a fresh interpreter, one after the other: what one leaves in memory
(the crawl env's caches, a trained model) must not slow the next. In one shared process the
cyclic garbage collector walks the earlier benchmarks' objects during the later ones, which
made ``crawl_reward``'s cost per item grow with the list on a heap the env benchmark had
filled, and not on its own or with the collector off.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from time import perf_counter

HERE = Path(__file__).resolve().parent
# (script, arguments) in run order; each merges its section into results.json.
BENCHMARKS = (
    ("import_time.py", []),
    ("wrapper_overhead.py", []),
    ("vector_wrapper.py", []),
    ("training_wrapping.py", []),
    ("crawl_env_throughput.py", []),
    ("crawl_vector_env.py", ["--save"]),
    ("crawl_vector_env.py", ["--valid", "--save"]),
    ("crawl_vector_training.py", []),
    ("live_env.py", []),
    ("scorer_throughput.py", []),
    ("training_share.py", []),
    ("study_cost.py", []),
    ("real_data.py", ["--save", "--quiet"]),
    ("judge_signals.py", ["--save"]),
    ("generated_defects.py", ["--save"]),
    ("record_rules.py", ["--save"]),
    ("scrapy_memory.py", []),
)


def main() -> None:
    started = perf_counter()
    for script, arguments in BENCHMARKS:
        print(f"\n== {Path(script).stem} ==", flush=True)
        subprocess.run([sys.executable, str(HERE / script), *arguments], check=True)
    print(f"\nall benchmarks: {perf_counter() - started:.0f} s; results in benchmarks/results.json")


if __name__ == "__main__":
    main()
