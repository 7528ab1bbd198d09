"""Run a program with Gymnasium's deprecation warnings as errors.

``python -W error::...`` is not enough: importing ``gymnasium`` installs its own "once" filter
for its deprecations, in front of the command line's. The launcher imports Gymnasium first,
then puts the error filter in front of Gymnasium's, then runs the script or module as
``__main__``. Worker processes start with Gymnasium's filter only, which prints the notice
once to stderr: :func:`met_deprecation` looks there too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_LAUNCHER = """
import runpy, sys, warnings
import gymnasium
warnings.filterwarnings("error", category=DeprecationWarning, module=r"^gymnasium\\.")
kind, target, *arguments = sys.argv[1:]
sys.argv = [target, *arguments]
if kind == "module":
    runpy.run_module(target, run_name="__main__", alter_sys=True)
else:
    runpy.run_path(target, run_name="__main__")
"""


def run_strict(
    kind: str, target: str | Path, arguments: list[str], cwd: Path, timeout: float = 900
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m target`` (``kind="module"``) or ``python target`` (``"script"``)."""
    return subprocess.run(
        [sys.executable, "-c", _LAUNCHER, kind, str(target), *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )


def met_deprecation(done: subprocess.CompletedProcess[str]) -> bool:
    """Whether the run met an out-of-date env: as an error, or a worker's printed notice."""
    return "is out of date" in done.stderr
