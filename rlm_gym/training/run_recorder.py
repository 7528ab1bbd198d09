"""``RunRecorder``: the state of a training run, written to its directory in a crash-safe order.

Episodes, models and metrics are written first and ``config.json`` last: ``config.json`` is the
commit record of the state, so its ``status``, ``timesteps_done`` and ``checkpoint_timesteps``
never claim more than the other files hold.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from pathlib import Path
from typing import Any

from rlm_gym.training.evaluation import evaluate
from rlm_gym.training.models import save_model_atomic
from rlm_gym.training.numerics import numerics
from rlm_gym.training.run_config import RunConfig
from rlm_gym.training.runs import (
    BEST_MODEL_FILE,
    CHECKPOINT_FILE,
    EPISODES_FILE,
    EVALUATIONS_FILE,
    METRICS_FILE,
    MODEL_FILE,
    RUN_CONFIG_FILE,
    RunWriteError,
    append_episodes,
    write_episodes,
    write_json_atomic,
)

__all__ = ["RunRecorder", "run_metrics"]


def run_metrics(episodes: list[dict[str, Any]], timesteps: int, wall_time: float) -> dict[str, Any]:
    """Summary numbers of a run: steps, time, episodes, the last tenth's mean scores.

    Example:
        >>> run_metrics([{"true_score": 0.5, "shaped_return": 0.25}], 100, 2.0)["steps_per_s"]
        50.0
    """
    tail = episodes[-max(1, len(episodes) // 10) :] if episodes else []
    mean = (lambda key: sum(e[key] for e in tail) / len(tail)) if tail else (lambda key: None)
    return {
        "timesteps": int(timesteps),
        "wall_time_s": round(wall_time, 3),
        "steps_per_s": round(timesteps / wall_time, 1) if wall_time > 0 else None,
        "episodes": len(episodes),
        "final_true_score": mean("true_score"),
        "final_shaped_return": mean("shaped_return"),
    }


class RunRecorder:
    """Writes one run directory's files, always atomically and in a crash-safe order.

    Args:
        run_dir: The run directory.
        config: The run's settings (what the periodic evaluation plays).
        record: The ``config.json`` content: the settings plus the run's state (``status``,
            ``timesteps_done``, ``segments``, ``best``, ...), updated in place.
        episodes: The training episodes so far (the callback appends to this list).
        evaluations: The periodic evaluations so far.
        started: ``time.perf_counter()`` when this segment of the run started.
    """

    def __init__(
        self,
        run_dir: Path,
        config: RunConfig,
        record: dict[str, Any],
        episodes: list[dict[str, Any]],
        evaluations: list[dict[str, Any]],
        started: float,
    ) -> None:
        self.run_dir = run_dir
        self.config = config
        self.record = record
        self.episodes = episodes
        self.evaluations = evaluations
        self.started = started
        self.previous_wall = float(record.get("wall_time_s") or 0.0)
        best = record.get("best")
        self.best_score = best["score"] if best and (run_dir / BEST_MODEL_FILE).is_file() else None
        # The episodes file's columns and how many records it holds, once this recorder wrote
        # it whole: later writes append the new records (``append_episodes``).
        self._episode_columns: list[str] | None = None
        self._episodes_written = 0

    def wall_time(self) -> float:
        """Seconds trained over every segment of the run."""
        return self.previous_wall + (time.perf_counter() - self.started)

    def start_segment(self, model: Any) -> None:
        """Open a segment of training (the whole run, or what one ``resume`` adds) and record
        the run as ``running``, with the float platform it trains on (``numerics``: a
        resume on another machine continues with other numbers)."""
        self.record["segments"] = [
            *self.record.get("segments", []),
            {
                "from_timesteps": int(model.num_timesteps),
                "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                "numerics": numerics(),
            },
        ]
        self.write_state(model, "running", checkpoint=False)

    def finish_segment(self, model: Any, error: BaseException | None, stopped: bool) -> bool:
        """Close the segment: a finished run gets its final evaluation and ``model.zip``; an
        interrupted or failed one a checkpoint, so ``resume`` can continue it.

        Returns:
            Whether the run's state is saved (False only when a failed run could not even write
            its checkpoint; its last periodic checkpoint is still on disk).
        """
        segment = self.record["segments"][-1]
        segment["ended"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        segment["to_timesteps"] = int(model.num_timesteps)
        if stopped or isinstance(error, KeyboardInterrupt):
            status = "interrupted"
        elif error is not None:
            status = "failed"
            self.record["error"] = f"{type(error).__name__}: {error}"
        else:
            status = "finished"
        segment["status"] = status
        if status == "finished":
            if self.config.n_eval_episodes:
                self.evaluate(model)
            self.write_state(model, "finished", checkpoint=False, final=True)
            return True
        try:
            self.write_state(model, status, checkpoint=True, keep_going=error is not None)
        except OSError:
            if error is None:
                raise
            # The training error is the news; the last periodic checkpoint is still on disk.
            return False
        return True

    def explain(self, error: BaseException) -> BaseException:
        """A full or read-only disk hit by SB3's own log writes, said as what it is (any other
        error as it is)."""
        if (
            isinstance(error, RunWriteError)
            or not isinstance(error, OSError)
            or error.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EROFS)
        ):
            return error
        checkpoint = self.record.get("checkpoint_timesteps")
        kept = (
            f"its last checkpoint ({checkpoint:,} steps) is intact"
            if checkpoint
            else "no checkpoint was written yet"
        )
        return RunWriteError(
            error.errno,
            f"{os.strerror(error.errno)} while training in {self.run_dir}; {kept}; free space, "
            f"then `rlm-gym train --resume {self.run_dir}`",
        )

    def write_state(
        self,
        model: Any,
        status: str,
        checkpoint: bool,
        final: bool = False,
        keep_going: bool = False,
    ) -> None:
        """Episodes, models, metrics, then config.json (the commit record of the state).

        With ``keep_going`` a failed data write (a full disk) is noted in the config instead
        of raised, so a failing run still records its status.
        """
        steps = int(model.num_timesteps)
        try:
            self._write_episodes()
            if checkpoint:
                save_model_atomic(model, self.run_dir / CHECKPOINT_FILE)
                self.record["checkpoint_timesteps"] = steps
            if final:
                save_model_atomic(model, self.run_dir / MODEL_FILE)
        except OSError as error:
            if not keep_going:
                raise
            self.record["save_error"] = str(error)
        metrics = run_metrics(self.episodes, steps, self.wall_time())
        metrics["status"] = status
        write_json_atomic(self.run_dir / METRICS_FILE, metrics)
        self.record["status"] = status
        self.record["timesteps_done"] = steps
        self.record["wall_time_s"] = round(self.wall_time(), 3)
        write_json_atomic(self.run_dir / RUN_CONFIG_FILE, self.record)
        if final:
            with contextlib.suppress(FileNotFoundError):
                (self.run_dir / CHECKPOINT_FILE).unlink()

    def _write_episodes(self) -> None:
        """Append the episodes recorded since the last write; the whole file the first time,
        or when a record brings a new column (or an append failed)."""
        path = self.run_dir / EPISODES_FILE
        columns, written = self._episode_columns, self._episodes_written
        self._episode_columns = None  # until this write succeeds: a failed one rewrites next
        if columns is None or not append_episodes(self.episodes[written:], path, columns):
            write_episodes(self.episodes, path)
            columns = list(dict.fromkeys(key for record in self.episodes for key in record))
        self._episode_columns, self._episodes_written = columns, len(self.episodes)

    def evaluate(self, model: Any) -> None:
        """Score ``model`` on the true score; keep it as ``best_model.zip`` if it is the best."""
        summary = evaluate(
            model,
            self.config.env_id,
            self.config.n_eval_episodes,
            self.config.eval_seed,
            env_kwargs=self.config.env_kwargs,
        ).summary()
        steps = int(model.num_timesteps)
        evaluation = {"timestep": steps, "score": summary["score"], "ci95": summary["score_ci95"]}
        self.evaluations.append(evaluation)
        if self.best_score is None or summary["score"] > self.best_score:
            save_model_atomic(model, self.run_dir / BEST_MODEL_FILE)
            self.best_score = summary["score"]
            self.record["best"] = {"timestep": steps, "score": summary["score"]}
        write_json_atomic(self.run_dir / EVALUATIONS_FILE, self.evaluations)
