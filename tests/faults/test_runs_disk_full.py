"""A full disk while training: the previous model stays intact and the error is one clear line.

Two ways to fill the disk: a failing writer (``os.replace`` raising ``ENOSPC`` for the final
model, in process) always; and a real 2 MB tmpfs filled up while `rlm-gym train` runs, when this
process may mount one (root in a container; skipped otherwise).
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytest.importorskip("stable_baselines3")

from rlm_gym.cli import main
from rlm_gym.training import runs
from rlm_gym.training.models import algorithm_class

pytestmark = pytest.mark.slow
TRAIN = [sys.executable, "-m", "rlm_gym.cli", "train"]
CARTPOLE = ["--env", "CartPole-v1", "--policy", "lenient", "--n-envs", "2", "--quiet"]
# A long budget: the disk fills long before it ends.
FILL_RUN = [
    "--timesteps", "200000", "--hp", "n_steps=128", "--checkpoint-freq", "1024",
    "--eval-episodes", "2",
]  # fmt: skip


def _checkpoint_steps(run_dir: Path) -> int:
    config = json.loads((run_dir / "config.json").read_text())
    model = algorithm_class(config["algo"]).load(run_dir / "checkpoint.zip", device="cpu")
    assert model.num_timesteps == config["checkpoint_timesteps"]
    return model.num_timesteps


def test_a_failing_model_write_keeps_the_checkpoint_and_says_one_line(
    tmp_path, monkeypatch, capsys
):
    real_replace = os.replace

    def no_space_for_the_model(source, target):
        if Path(target).name == "model.zip":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_replace(source, target)

    monkeypatch.setattr(runs.os, "replace", no_space_for_the_model)
    run_dir = tmp_path / "run"
    argv = ["train", *CARTPOLE, "--timesteps", "512", "--hp", "n_steps=64"]
    code = main(
        [*argv, "--checkpoint-freq", "128", "--eval-episodes", "2", "--log-dir", str(run_dir)]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert err.splitlines() == [
        f"rlm-gym train: error: Could not write {run_dir / 'model.zip'}: No space left on "
        "device; its previous version (if any) is intact"
    ]
    assert not (run_dir / "model.zip").exists()
    assert not list(run_dir.glob(".*.tmp"))
    assert 0 < _checkpoint_steps(run_dir) < 512  # the last checkpoint loads: nothing lost

    monkeypatch.setattr(runs.os, "replace", real_replace)
    assert main(["train", "--resume", str(run_dir), "--quiet"]) == 0
    assert json.loads((run_dir / "config.json").read_text())["status"] == "finished"


def _mount_tmpfs(target: Path, size: str) -> bool:
    if os.geteuid() != 0:
        return False
    target.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", f"runs-{uuid.uuid4().hex[:8]}", target],
        capture_output=True,
    )
    return done.returncode == 0


def _fill(path: Path) -> None:
    block = b"\0" * 65536
    with open(path, "wb") as handle:
        try:
            while True:
                handle.write(block)
                handle.flush()
        except OSError as error:
            assert error.errno == errno.ENOSPC


def test_a_full_tmpfs_mid_run_keeps_the_checkpoint_and_says_one_line(tmp_path):
    disk = tmp_path / "disk"
    if not _mount_tmpfs(disk, "2m"):
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    process = None
    try:
        run_dir = disk / "run"
        process = subprocess.Popen(
            [*TRAIN, *CARTPOLE, *FILL_RUN, "--log-dir", str(run_dir)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 120
        while not (run_dir / "checkpoint.zip").is_file():
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        _fill(disk / "filler")
        _, err = process.communicate(timeout=120)
        lines = err.strip().splitlines()
        assert process.returncode == 2, err
        assert len(lines) == 1 and "No space left on device" in lines[0], err
        assert f"`rlm-gym train --resume {run_dir}`" in lines[0] or "intact" in lines[0]
        assert _checkpoint_steps(run_dir) >= 1024  # the checkpoint before the disk filled loads
    finally:
        if process is not None and process.poll() is None:
            process.kill()
            process.communicate()
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)
