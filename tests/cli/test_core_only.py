"""The CLI with only the core installed: no traceback, the `train` extra asked for up front.

The extras are hidden from a subprocess by an import hook (they stay installed): what a user
sees after `pip install rlm-gym` without `[train]`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Runs `rlm-gym ARGS...` with every module of the `train` and `ray` extras unimportable.
CORE_ONLY = """
import runpy, sys
EXTRAS = {"torch", "stable_baselines3", "sb3_contrib", "tensorboard", "matplotlib", "rich",
          "tqdm", "yaml", "ray"}
class HideExtras:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in EXTRAS:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, HideExtras())
sys.argv = ["rlm-gym", *sys.argv[1:]]
runpy.run_module("rlm_gym.cli", run_name="__main__", alter_sys=True)
"""
NEEDS_TRAIN = 'install it with `pip install -e ".[train]"` in the rlm_gym clone'


def _core_only(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-c", CORE_ONLY, *argv],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": path},
    )


def test_the_hook_hides_the_extras(tmp_path):
    process = _core_only(["train"], tmp_path)
    assert process.returncode == 2
    assert process.stderr.splitlines() == [
        "rlm-gym train: error: This needs `torch`: "
        f"{NEEDS_TRAIN} (torch CPU: `pip install torch==2.13.0` first)"
    ]


def test_evaluate_baselines_prints_its_table_without_rich(tmp_path):
    process = _core_only(["evaluate", "--baselines", "--episodes", "2", "--quiet"], tmp_path)
    assert process.returncode == 0, process.stderr
    assert process.stderr == ""
    lines = process.stdout.splitlines()
    assert lines[0].endswith("true score")
    assert lines[1].split()[:3] == ["agent", "score", "±"]
    # Headers may wrap onto more lines to fit the width (pytest-xdist sets COLUMNS=80).
    names = ("random", "heuristic", "best_fixed", "oracle")
    assert [line.split()[0] for line in lines[2:] if line.startswith(names)] == [
        "random",
        "heuristic",
        "best_fixed",
        "oracle",
    ]


def test_study_no_train_needs_no_train_extra(tmp_path):
    argv = ["study", "defaults", "--no-train", "--eval-episodes", "2", "--quiet"]
    process = _core_only([*argv, "--results-dir", "results", "--runs-dir", "runs"], tmp_path)
    assert process.returncode == 0, process.stderr
    assert (tmp_path / "results" / "defaults.json").is_file()
    assert "seeds complete: [] (0 runs)" in process.stdout


def _model_zip(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    run.mkdir()
    with zipfile.ZipFile(run / "model.zip", "w") as archive:
        archive.writestr("data", "{}")
        archive.writestr("policy.pth", b"")
    return run


@pytest.mark.parametrize(
    "argv",
    [
        ["train", "--timesteps", "64"],
        ["train", "--resume", "run"],
        ["ablate", "--seeds", "0", "--timesteps", "64"],
        ["study", "defaults", "--results-dir", "results", "--runs-dir", "runs"],
        ["demo", "--quick"],
        ["replay", "run"],
        # the baselines would be scored first: the model's missing torch must stop them
        ["evaluate", "run", "--baselines", "--episodes", "2"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_a_command_that_trains_asks_for_the_extra_in_one_line_before_any_work(tmp_path, argv):
    _model_zip(tmp_path)
    process = _core_only(argv, tmp_path)
    assert process.returncode == 2
    assert len(process.stderr.splitlines()) == 1, process.stderr
    assert NEEDS_TRAIN in process.stderr
    assert process.stdout == ""
    assert sorted(path.name for path in tmp_path.iterdir()) == ["run"]  # nothing written
