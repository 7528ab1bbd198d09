"""The run time of each documented training block, from ``benchmarks/docs_blocks.py``.

A block ``runtime_<page>_<n>`` sits under the n-th ```python block of ``docs/<page>.md`` (n
counts from 0). Its time holds only for the code it timed: when the block's code no longer has
the digest that was timed, rendering fails and says which command re-times it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from block_tools import BENCHMARKS, ROOT, read_json

sys.path.insert(0, str(ROOT / "benchmarks"))
from docs_blocks import digest, training_blocks

COMMAND = "python benchmarks/docs_blocks.py"


def _minutes(seconds: float) -> str:
    if seconds < 90:
        return f"about {seconds:.0f} s"
    return f"about {seconds / 60:.0f} min"


def runtime(key: str) -> Callable[[], str]:
    """The renderer of one training block's run time (``key`` as ``docs/<page>.md#<n>``)."""

    def render() -> str:
        timed = read_json(BENCHMARKS).get("docs_blocks", {})
        record = timed.get("blocks", {}).get(key)
        code = training_blocks().get(key)
        if code is None:
            raise KeyError(f"{key} is not a training block any more; move its runtime marker")
        if record is None or record["digest"] != digest(code):
            raise ValueError(f"{key} changed since it was timed: run `{COMMAND}`")
        return (
            f"*Run time as written: {_minutes(record['cpu_s'])} of CPU, the install not "
            f"included, so at most that long on an idle {timed['cores']}-core machine and longer "
            f"on a busy one (`{COMMAND}`).*\n"
        )

    return render


def runtime_blocks() -> dict[str, Callable[[], str]]:
    """``{"runtime_<page>_<n>": renderer}`` for every training block of the timed pages."""
    blocks = {}
    for key in training_blocks():
        path, index = key.split("#")
        blocks[f"runtime_{Path(path).stem}_{index}"] = runtime(key)
    return blocks
