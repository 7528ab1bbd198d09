"""`rlm-gym train` killed mid-run: SIGINT / SIGTERM save it, SIGKILL loses only the last stretch.

Each test starts a real `rlm-gym train` process on the crawl env with a small budget and frequent
checkpoints, waits (polling the run directory, with a deadline) until the first checkpoint is on
disk, then signals it. The run is resumed with `rlm-gym train --resume` and must finish its budget
with one consistent history: SB3's log steps strictly increasing, episodes in step order, no
row from the stretch a killed run trained past its checkpoint.
"""

from __future__ import annotations

import csv
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("stable_baselines3")

from rlm_gym.envs import CRAWL_ENV_ID

pytestmark = pytest.mark.slow
BUDGET = 16_384
TRAIN = [
    sys.executable, "-m", "rlm_gym.cli", "train", "--env", CRAWL_ENV_ID, "--policy", "crawl",
    "--timesteps", str(BUDGET), "--n-envs", "2", "--hp", "n_steps=256", "--checkpoint-freq",
    "1024", "--eval-freq", "0", "--eval-episodes", "5", "--quiet",
]  # fmt: skip
DEADLINE_S = 180


def _config(run_dir: Path) -> dict:
    try:
        return json.loads((run_dir / "config.json").read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return {}


def _progress_steps(run_dir: Path) -> list[int]:
    try:
        with open(run_dir / "progress.csv", newline="") as handle:
            rows = list(csv.DictReader(handle))
    except FileNotFoundError:
        return []
    return [int(float(row["time/total_timesteps"])) for row in rows]


def _wait_for(condition, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        assert process.poll() is None, "training ended before it could be signalled"
        assert time.monotonic() < deadline, "no checkpoint within the deadline"
        time.sleep(0.05)


def _start(run_dir: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [*TRAIN, "--log-dir", str(run_dir)],
        cwd=run_dir.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _resume_and_check(run_dir: Path, stopped_at: int) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rlm_gym.cli", "train", "--resume", str(run_dir), "--quiet"],
        capture_output=True,
        text=True,
        timeout=DEADLINE_S,
    )
    assert done.returncode == 0, done.stderr
    config = _config(run_dir)
    assert config["status"] == "finished" and config["timesteps_done"] >= BUDGET
    assert [segment["from_timesteps"] for segment in config["segments"]] == [0, stopped_at]
    assert (run_dir / "model.zip").is_file() and (run_dir / "best_model.zip").is_file()
    steps = _progress_steps(run_dir)
    assert steps == sorted(set(steps)), "SB3 log rows of two runs are mixed"
    with open(run_dir / "episodes.csv", newline="") as handle:
        episode_steps = [int(row["timestep"]) for row in csv.DictReader(handle)]
    assert episode_steps == sorted(episode_steps) and episode_steps[-1] <= config["timesteps_done"]
    assert not list(run_dir.glob(".*.tmp"))


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stop_signal_saves_an_interrupted_run_that_resumes(signum, tmp_path):
    run_dir = tmp_path / "run"
    process = _start(run_dir)
    _wait_for(lambda: _config(run_dir).get("checkpoint_timesteps", 0) > 0, process)
    process.send_signal(signum)
    _, err = process.communicate(timeout=DEADLINE_S)
    assert process.returncode == 128 + signum, err
    assert "Traceback" not in err
    assert (
        err.strip().splitlines()[-1].endswith(f"(continue with `rlm-gym train --resume {run_dir}`)")
    )
    config = _config(run_dir)
    metrics = json.loads((run_dir / "metrics.json").read_text())
    assert config["status"] == metrics["status"] == "interrupted"
    stopped_at = config["timesteps_done"]
    assert config["checkpoint_timesteps"] == stopped_at == metrics["timesteps"] < BUDGET
    assert (run_dir / "checkpoint.zip").is_file() and not (run_dir / "model.zip").exists()
    _resume_and_check(run_dir, stopped_at)


def test_a_killed_run_resumes_from_its_checkpoint_without_the_lost_stretch(tmp_path):
    run_dir = tmp_path / "run"
    process = _start(run_dir)

    def trained_past_a_checkpoint() -> bool:
        checkpoint = _config(run_dir).get("checkpoint_timesteps", 0)
        return checkpoint > 0 and max(_progress_steps(run_dir), default=0) > checkpoint

    _wait_for(trained_past_a_checkpoint, process)
    process.kill()
    process.communicate(timeout=DEADLINE_S)
    config = _config(run_dir)
    assert config["status"] == "running"  # nobody could write more
    checkpoint = config["checkpoint_timesteps"]
    assert max(_progress_steps(run_dir)) > checkpoint
    _resume_and_check(run_dir, checkpoint)
