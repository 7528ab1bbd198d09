"""Shared helpers for the on-demand benchmarks: timing and the results file."""

from __future__ import annotations

import json
import os
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path
from time import process_time
from typing import Any

# CPU time of this process: unlike wall time it does not count the time the process waits
# while other work (a training run, a test suite) has the machine's two cores, so the
# single-process timings below stay comparable on a busy machine.
clock = process_time

RESULTS_PATH = Path(__file__).with_name("results.json")


def interleaved_samples(
    variants: dict[str, Callable[[], float]], repetitions: int
) -> dict[str, list[float]]:
    """Run each variant once per repetition, in turn; every variant's results, in order.

    Interleaving spreads machine noise (frequency changes, other load) evenly over variants,
    so their ratios are fair even when absolute numbers drift.
    """
    samples: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(repetitions):
        for name, run in variants.items():
            samples[name].append(run())
    return samples


def interleaved_medians(
    variants: dict[str, Callable[[], float]], repetitions: int
) -> dict[str, float]:
    """Each variant's median over interleaved repetitions (see ``interleaved_samples``)."""
    samples = interleaved_samples(variants, repetitions)
    return {name: statistics.median(values) for name, values in samples.items()}


def paired_median_difference(samples: list[float], baseline: list[float]) -> float:
    """Median of per-repetition differences: each sample minus the baseline run beside it.

    A difference of two separate medians carries both runs' noise; pairing runs taken
    moments apart cancels the slow drift they share.
    """
    return statistics.median(a - b for a, b in zip(samples, baseline, strict=True))


def time_per_call_us(function: Callable[[], Any], calls: int) -> float:
    """Mean CPU time of ``function`` in microseconds over ``calls`` calls."""
    started = clock()
    for _ in range(calls):
        function()
    return (clock() - started) / calls * 1e6


def save_results(section: str, payload: dict[str, Any]) -> None:
    """Merge ``payload`` under ``section`` into ``benchmarks/results.json`` (atomic replace)."""
    results = json.loads(RESULTS_PATH.read_text()) if RESULTS_PATH.exists() else {}
    results[section] = payload
    handle, temporary = tempfile.mkstemp(dir=RESULTS_PATH.parent, suffix=".json")
    with os.fdopen(handle, "w") as stream:
        json.dump(results, stream, indent=2, sort_keys=True)
        stream.write("\n")
    os.replace(temporary, RESULTS_PATH)


def print_table(headers: list[str], rows: list[list[Any]]) -> None:
    """Print a plain aligned text table."""
    cells = [headers, *[[str(cell) for cell in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    for index, row in enumerate(cells):
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))
        if index == 0:
            print("  ".join("-" * width for width in widths))
