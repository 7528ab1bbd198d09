"""Run every benchmark (``make bench``) and write ``benchmarks/results.json``."""

from __future__ import annotations

import sys
from pathlib import Path
from time import perf_counter

sys.path.insert(0, str(Path(__file__).resolve().parent))

import crawl_env_throughput
import import_time
import real_data
import scorer_throughput
import training_share
import wrapper_overhead


def main() -> None:
    started = perf_counter()
    for module in (
        import_time,
        wrapper_overhead,
        crawl_env_throughput,
        scorer_throughput,
        training_share,
    ):
        print(f"\n== {module.__name__} ==")
        module.main([])
    print("\n== real_data ==")
    real_data.main(["--save", "--quiet"])
    print(f"\nall benchmarks: {perf_counter() - started:.0f} s; results in benchmarks/results.json")


if __name__ == "__main__":
    main()
