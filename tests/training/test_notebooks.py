"""The notebooks execute without error (with RLM_GYM_QUICK=1: tiny budgets)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("stable_baselines3")

pytestmark = pytest.mark.slow
NOTEBOOKS = sorted((Path(__file__).parents[2] / "notebooks").glob("*.ipynb"))


def test_the_three_notebooks_exist():
    assert [path.name for path in NOTEBOOKS] == [
        "01_policies_and_wrapper.ipynb",
        "02_train_ppo_crawl.ipynb",
        "03_ablation.ipynb",
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_executes(path, tmp_path, monkeypatch):
    monkeypatch.setenv("RLM_GYM_QUICK", "1")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    workdir = tmp_path / "notebooks"  # the notebooks write to ../runs
    workdir.mkdir()
    shutil.copy(path, workdir)
    notebook = nbformat.read(workdir / path.name, as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": workdir}}
    )
    client.execute()
    errors = [
        output
        for cell in notebook.cells
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]
    assert not errors
