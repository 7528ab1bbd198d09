"""SB3's log of a run directory: ``progress.csv`` (and TensorBoard events), one history per run.

A resumed run continues the same ``progress.csv``: rows a killed run logged after its last
checkpoint are dropped first, then SB3's CSV writer appends under the existing header.
stable-baselines3 is imported only when a logger is made.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from rlm_gym.training.runs import atomic_write

__all__ = ["PROGRESS_FILE", "run_logger", "truncate_progress"]

PROGRESS_FILE = "progress.csv"


def run_logger(run_dir: Path, done: int, tensorboard: bool, verbose: int) -> Any:
    """SB3's logger for the run directory; a resumed run (``done`` > 0) appends to
    ``progress.csv``."""
    from stable_baselines3.common.logger import CSVOutputFormat, Logger, make_output_format

    progress = run_dir / PROGRESS_FILE
    if done and progress.is_file():
        truncate_progress(progress, done)
        csv_format = _appending_csv(progress)
    else:
        csv_format = CSVOutputFormat(str(progress))
    formats = [csv_format]
    if tensorboard:
        formats.append(make_output_format("tensorboard", str(run_dir)))
    if verbose:
        formats.append(make_output_format("stdout", str(run_dir)))
    return Logger(str(run_dir), formats)


def truncate_progress(path: Path, done: int) -> None:
    """Drop rows logged after step ``done`` (a killed run's lost stretch).

    Example:
        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "progress.csv"
        >>> _ = path.write_text("time/total_timesteps,loss\\n64,0.5\\n128,0.4\\n")
        >>> truncate_progress(path, 64)
        >>> path.read_text()
        'time/total_timesteps,loss\\n64,0.5\\n'
    """
    with open(path, newline="") as handle:
        rows = list(csv.reader(handle))
    if not rows:
        return
    header = rows[0]
    column = header.index("time/total_timesteps") if "time/total_timesteps" in header else None
    keep = [header]
    for row in rows[1:]:
        try:
            steps = float(row[column]) if column is not None else 0.0
        except (ValueError, IndexError):
            steps = 0.0
        if steps <= done:
            keep.append(row)
    with atomic_write(path, "w", newline="") as handle:
        # SB3's own CSV writer does not quote numbers; keep its format for the appended rows.
        handle.writelines(",".join(row) + "\n" for row in keep)


def _appending_csv(path: Path) -> Any:
    """SB3's CSV writer continuing an existing ``progress.csv`` (its header gives the columns)."""
    from stable_baselines3.common.logger import CSVOutputFormat

    writer = CSVOutputFormat.__new__(CSVOutputFormat)
    writer.file = open(path, "r+")  # noqa: SIM115 (closed by Logger.close)
    header = writer.file.readline().rstrip("\n")
    writer.keys = header.split(",") if header else []
    writer.file.seek(0, 2)
    writer.separator = ","
    writer.quotechar = '"'
    return writer
