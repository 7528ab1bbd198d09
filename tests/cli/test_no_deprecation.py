"""The project's own main job and `rlm-gym train` with its defaults meet no Gymnasium
deprecation: both run with Gymnasium's deprecation warnings as errors (issue 31).

`make demo` is `rlm-gym demo` (here with `--quick`, the same code path at a tiny budget); its
baselines play in a worker process, whose printed notice would show on stderr. The docs' and
README's code blocks are held to the same rule in ``tests/test_docs_code.py``.
"""

from __future__ import annotations

import subprocess

import pytest

from tests.deprecations import met_deprecation, run_strict


def _run(arguments: list[str], workdir) -> subprocess.CompletedProcess[str]:
    return run_strict("module", "rlm_gym.cli", arguments, workdir)


def test_the_filter_catches_an_out_of_date_env(tmp_path):
    done = _run(["evaluate", "--env", "rlm_gym/Crawl-v1", "--episodes", "1", "random"], tmp_path)
    assert done.returncode != 0 and met_deprecation(done)
    assert "DeprecationWarning" in done.stderr.splitlines()[-1]


@pytest.mark.slow
def test_train_with_its_defaults_meets_no_deprecation(tmp_path):
    done = _run(["train", "--timesteps", "256", "--quiet"], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert not met_deprecation(done)
    assert list((tmp_path / "runs" / "train").glob("Crawl-v2-crawl-seed0*"))


@pytest.mark.slow
def test_the_demo_meets_no_deprecation(tmp_path):
    done = _run(["demo", "--quick", "--quiet", "--out", str(tmp_path / "demo")], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert not met_deprecation(done)
    assert "rlm_gym/Crawl-v2: true crawl score" in done.stdout
