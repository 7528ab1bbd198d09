"""Run directories that never lose work: unique names, atomic writes, the files of a run.

A run directory holds one training run and nothing else::

    config.json      what was run (env, policy, ablation, hyper-parameters) and its ``status``:
                     "running", "interrupted", "failed" or "finished", with ``timesteps_done``
    metrics.json     summary numbers, with the same ``status``
    checkpoint.zip   the last periodic checkpoint (what ``resume`` continues from)
    model.zip        the final model (written when the run finishes)
    best_model.zip   the best model by periodic evaluation on the true score
    evaluations.json the periodic evaluations
    episodes.csv     one row per finished training episode
    progress.csv     SB3's log (TensorBoard events too)

Every file is written atomically: to a temporary file in the same directory, flushed and
``fsync``-ed, then ``os.replace``-d over the old one (and the directory ``fsync``-ed), so a crash,
a kill or a full disk leaves either the old file or the new one, never a truncated one.

A new run never reuses a directory that already holds something: ``unique_run_dir`` adds a
suffix (``-2``, ``-3``, ...), as rl-zoo3 numbers its runs, and says which directory it chose.
"""

from __future__ import annotations

import contextlib
import csv
import errno
import io
import json
import math
import os
import re
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

__all__ = [
    "BEST_MODEL_FILE",
    "CHECKPOINT_FILE",
    "EPISODES_FILE",
    "EVALUATIONS_FILE",
    "METRICS_FILE",
    "MODEL_FILE",
    "RUN_CONFIG_FILE",
    "RunWriteError",
    "append_episodes",
    "atomic_write",
    "default_run_name",
    "find_model",
    "finite_json",
    "read_episodes",
    "read_evaluations",
    "read_run_config",
    "unique_run_dir",
    "write_episodes",
    "write_json_atomic",
    "write_text_atomic",
]

RUN_CONFIG_FILE = "config.json"
METRICS_FILE = "metrics.json"
EPISODES_FILE = "episodes.csv"
EVALUATIONS_FILE = "evaluations.json"
MODEL_FILE = "model.zip"
CHECKPOINT_FILE = "checkpoint.zip"
BEST_MODEL_FILE = "best_model.zip"
# What `find_model` looks for in a run directory, in order: the final model, then the point an
# interrupted or killed run reached.
MODEL_CANDIDATES: tuple[str, ...] = (MODEL_FILE, CHECKPOINT_FILE)


def _file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


_FILE_MODE = _file_mode()


class RunWriteError(OSError):
    """A run file could not be written; the previous version of the file is intact.

    ``errno`` is the cause's (``ENOSPC`` for a full disk); the message is one sentence.
    """

    def __str__(self) -> str:
        return str(self.strerror)


def _fsync_dir(directory: Path) -> None:
    # The rename is durable only once the directory entry is on disk (POSIX); Windows has no
    # directory handles, hence the suppress.
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@contextlib.contextmanager
def atomic_write(path: str | Path, mode: str = "w", **open_kwargs: Any) -> Iterator[IO[Any]]:
    """Open a temporary file next to ``path``; on success it replaces ``path`` atomically.

    If the block raises (or the disk fills up), the temporary file is removed and ``path`` keeps
    its previous content.

    Args:
        path: The file to (re)write.
        mode: ``"w"`` (text) or ``"wb"`` (binary).
        **open_kwargs: Passed to ``open`` (``newline=""`` for CSV).

    Raises:
        RunWriteError: Writing, syncing or renaming failed (disk full, read-only, ...); the
            message names the file and says the previous version is intact.

    Example:
        >>> import tempfile, pathlib
        >>> target = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
        >>> with atomic_write(target) as handle:
        ...     _ = handle.write("hello")
        >>> target.read_text()
        'hello'
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"Expected `mode` 'w' or 'wb', got {mode!r}")
    path = Path(path)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    with contextlib.suppress(OSError):
        os.chmod(fd, _FILE_MODE)  # mkstemp makes 0600; run files are as readable as any other
    try:
        with os.fdopen(fd, mode, **open_kwargs) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            tmp.unlink()
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise RunWriteError(
            error.errno or errno.EIO,
            f"Could not write {path}: {reason}; its previous version (if any) is intact",
        ) from error
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (see ``atomic_write``)."""
    with atomic_write(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def finite_json(value: Any) -> Any:
    """``value`` with every NaN or infinite float replaced by None (JSON has neither).

    Example:
        >>> finite_json({"score": float("nan"), "seeds": [1.5, float("inf")]})
        {'score': None, 'seeds': [1.5, None]}
    """
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {key: finite_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite_json(item) for item in value]
    return value


def write_json_atomic(path: str | Path, value: Any, *, strict: bool = False) -> None:
    """Write ``value`` as indented JSON to ``path`` atomically.

    Args:
        path: The file.
        value: What to write.
        strict: Write standard JSON only: NaN and infinities become null (``finite_json``),
            so any JSON reader, not only Python's, can read the file (results files).

    Example:
        >>> import tempfile, pathlib
        >>> target = pathlib.Path(tempfile.mkdtemp()) / "config.json"
        >>> write_json_atomic(target, {"status": "running"})
        >>> json.loads(target.read_text())
        {'status': 'running'}
        >>> write_json_atomic(target, {"score": float("nan")}, strict=True)
        >>> target.read_text()
        '{\\n  "score": null\\n}\\n'
    """
    if strict:
        value = finite_json(value)
    text = json.dumps(value, indent=2, default=str, allow_nan=not strict)
    write_text_atomic(path, text + "\n")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=+-]+", "_", text).strip("_") or "x"


def default_run_name(
    policy: str,
    seed: int,
    disable: Iterable[str] = (),
    weights: Mapping[str, float] | None = None,
    env_id: str | None = None,
    scheduled: Iterable[str] = (),
) -> str:
    """The default run directory name: env, policy, the ablated components, the seed.

    Two ablation variants never share a name: every disabled component appears as
    ``no_<name>``, every weight as ``<name>x<weight>`` and every component whose weight
    follows a schedule as ``sched_<name>``.

    Example:
        >>> default_run_name("crawl", 0, ["efficiency"], {"quantity": 2.0}, "rlm_gym/Crawl-v1")
        'Crawl-v1-crawl-no_efficiency-quantityx2-seed0'
        >>> default_run_name("lenient", 3)
        'lenient-seed3'
        >>> default_run_name("crawl", 0, scheduled=["efficiency"])
        'crawl-sched_efficiency-seed0'
    """
    parts = [env_id.rsplit("/", 1)[-1]] if env_id else []
    parts.append(policy)
    parts += [f"no_{name}" for name in sorted(disable)]
    parts += [f"{name}x{float(value):g}" for name, value in sorted((weights or {}).items())]
    parts += [f"sched_{name}" for name in sorted(scheduled)]
    parts.append(f"seed{int(seed)}")
    return "-".join(_slug(part) for part in parts)


def _is_free(path: Path) -> bool:
    return not path.exists() or (path.is_dir() and not any(path.iterdir()))


def unique_run_dir(path: str | Path) -> Path:
    """Create and return ``path``, or ``path-2``, ``path-3``, ... if it already holds anything.

    An existing empty directory is used as is (a file in the way counts as taken). Never
    returns a directory holding files, so a new run cannot overwrite or mix with an old one.

    Example:
        >>> import tempfile, pathlib
        >>> base = pathlib.Path(tempfile.mkdtemp()) / "run"
        >>> unique_run_dir(base).name
        'run'
        >>> (base / "config.json").write_text("{}")
        2
        >>> unique_run_dir(base).name
        'run-2'
    """
    path = Path(path)
    candidate, number = path, 1
    while True:
        if _is_free(candidate):
            # Another process may take the name between the check and mkdir: check again.
            with contextlib.suppress(FileExistsError):
                candidate.mkdir(parents=True, exist_ok=True)
                if not any(candidate.iterdir()):
                    return candidate
        number += 1
        candidate = path.with_name(f"{path.name}-{number}")


def read_run_config(run_dir: str | Path) -> dict[str, Any]:
    """The ``config.json`` of a run directory.

    Raises:
        FileNotFoundError: ``run_dir`` does not exist or holds no ``config.json``.
        ValueError: ``config.json`` is not a JSON object.
    """
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise FileNotFoundError(f"No run directory at {run_dir}")
    path = run_dir / RUN_CONFIG_FILE
    if not path.is_file():
        raise FileNotFoundError(
            f"{run_dir} is not a run directory: it has no {RUN_CONFIG_FILE} "
            "(`rlm-gym train` writes one)"
        )
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} is not valid JSON: {error}") from None
    if not isinstance(config, dict):
        raise ValueError(f"Expected {path} to hold a JSON object, got {type(config).__name__}")
    return config


def find_model(path: str | Path) -> Path:
    """The model file of ``path``: the path itself if it is a file, else the run's model.

    In a run directory: ``model.zip`` (the finished run), else ``checkpoint.zip`` (the last
    checkpoint of an interrupted or killed run).

    Raises:
        FileNotFoundError: No such file, or a directory without any model.

    Example:
        >>> import tempfile
        >>> find_model(tempfile.mkdtemp())  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        FileNotFoundError: No model in /tmp/...: expected model.zip or checkpoint.zip (a run directory written by `rlm-gym train`)
    """  # noqa: E501
    path = Path(path)
    if path.is_file():
        return path
    if not path.exists():
        raise FileNotFoundError(f"No such model file or run directory: {path}")
    for name in MODEL_CANDIDATES:
        if (path / name).is_file():
            return path / name
    raise FileNotFoundError(
        f"No model in {path}: expected {' or '.join(MODEL_CANDIDATES)} "
        "(a run directory written by `rlm-gym train`)"
    )


def write_episodes(episodes: list[dict[str, Any]], path: str | Path) -> None:
    """Write episode records as CSV (columns: the union of their keys, first-seen order),
    atomically."""
    columns: dict[str, None] = {}
    for record in episodes:
        columns.update(dict.fromkeys(record))
    with atomic_write(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(columns))
        writer.writeheader()
        writer.writerows(episodes)


def append_episodes(episodes: list[dict[str, Any]], path: str | Path, columns: list[str]) -> bool:
    """Append episode records to a file ``write_episodes`` wrote with ``columns``, synced.

    A run's episodes only grow, so a checkpoint appends its new ones instead of rewriting the
    whole file (rewriting made a run's file writes grow with the square of its episodes:
    8 CPU seconds of a 600k-step crawl run). A record with a column the file lacks cannot be
    appended: the call writes nothing and returns False (rewrite with ``write_episodes``). A
    kill during the append leaves at most one line without its terminator, which
    ``read_episodes`` skips.

    Example:
        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "episodes.csv"
        >>> write_episodes([{"timestep": 8, "score": 0.5}], path)
        >>> append_episodes([{"timestep": 16, "score": 1.0}], path, ["timestep", "score"])
        True
        >>> append_episodes([{"timestep": 24, "tier": "good"}], path, ["timestep", "score"])
        False
        >>> [record["timestep"] for record in read_episodes(path)]
        [8, 16]
    """
    known = set(columns)
    if any(key not in known for record in episodes for key in record):
        return False
    path = Path(path)
    try:
        with open(path, "a", newline="", encoding="utf-8") as handle:
            csv.DictWriter(handle, fieldnames=columns).writerows(episodes)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise RunWriteError(
            error.errno or errno.EIO,
            f"Could not append to {path}: {reason}; the episodes it held before are intact",
        ) from error
    return True


def _cell(text: str) -> Any:
    for kind in (int, float):
        try:
            value = kind(text)
        except ValueError:
            continue
        return value if kind is int or math.isfinite(value) else text
    return text


def read_episodes(path: str | Path, max_timestep: int | None = None) -> list[dict[str, Any]]:
    """Episode records written by ``write_episodes`` (numbers parsed back), optionally only
    those recorded at or before ``max_timestep``.

    Example:
        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "episodes.csv"
        >>> write_episodes([{"timestep": 8, "score": 0.5, "tier": "good"},
        ...                 {"timestep": 16, "score": 1.0, "tier": "poor"}], path)
        >>> read_episodes(path, max_timestep=10)
        [{'timestep': 8, 'score': 0.5, 'tier': 'good'}]
    """
    path = Path(path)
    if not path.is_file():
        return []
    with open(path, newline="", encoding="utf-8") as handle:
        text = handle.read()
    # A run appends its new episodes at each checkpoint (``append_episodes``); a line without
    # its terminator is an append cut short (a kill, a full disk) and is not a record.
    complete = text[: text.rfind("\n") + 1]
    records = [
        {key: _cell(value) for key, value in row.items() if value != ""}
        for row in csv.DictReader(io.StringIO(complete))
    ]
    if max_timestep is None:
        return records
    return [r for r in records if int(r.get("timestep", 0)) <= max_timestep]


def read_evaluations(run_dir: str | Path, max_timestep: int) -> list[dict[str, Any]]:
    """The periodic evaluations of a run recorded at or before ``max_timestep`` (none when
    ``evaluations.json`` is missing or unreadable: a resumed run then starts a new list)."""
    path = Path(run_dir) / EVALUATIONS_FILE
    if not path.is_file():
        return []
    try:
        evaluations = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        return []
    return [e for e in evaluations if isinstance(e, dict) and e.get("timestep", 0) <= max_timestep]
