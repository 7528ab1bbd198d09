"""CleanRL's ``ppo.py`` idiom trains on ``rlm_gym/Crawl-v2`` given only ``--env-id``.

CleanRL ships no installable ``ppo.py`` for Gymnasium >= 1.0 (its PyPI package is the 2021
``gym`` snapshot; the repository pins ``gymnasium==0.29.1``), so this runs
``examples/clients/cleanrl_ppo.py``, a minimal equivalent of ppo.py's env handling and update
loop, as a script in a fresh interpreter: nothing imports ``rlm_gym`` but the id's prefix.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

# PPO trains in every test here: run by `make test` and the clients suite, not test-fast.
pytestmark = pytest.mark.slow

pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "clients" / "cleanrl_ppo.py"
RETURN = re.compile(r"^global_step=(\d+), episodic_return=(\S+)$", re.MULTILINE)


def run_ppo(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # One torch thread: a 64-unit MLP gains nothing from more, and on a shared 2-core machine
    # thread oversubscription makes it 30x slower.
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def episodic_returns(stdout: str) -> list[float]:
    return [float(value) for _, value in RETURN.findall(stdout)]


def test_ppo_py_idiom_trains_from_the_env_id(tmp_path):
    run = run_ppo(
        "--env-id", "rlm_gym:rlm_gym/Crawl-v2",
        "--total-timesteps", "512",
        "--num-envs", "4",
        "--num-steps", "64",
        cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    # 512 steps in batches of 4 x 64: two rollout + update iterations.
    assert re.findall(r"^iteration=(\d+)", run.stdout, re.MULTILINE) == ["1", "2"]
    returns = episodic_returns(run.stdout)
    # Crawl episodes end within the step budget (30), so each of the 4 envs finishes several;
    # each return is the crawl reward of the episode's last step, in [0, 1].
    assert len(returns) >= 8
    assert all(0.0 <= r <= 1.0 for r in returns)


def test_a_reward_policy_wrapper_in_make_env_sets_the_trained_return(tmp_path):
    run = run_ppo(
        "--env-id", "rlm_gym:rlm_gym/Crawl-v2",
        "--total-timesteps", "256",
        "--num-envs", "4",
        "--num-steps", "64",
        "--reward-policy", "lenient",
        cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    returns = episodic_returns(run.stdout)
    assert returns
    # `lenient` pays every attempt (0.2 a step, up to 1.0 with a success), so its episode
    # returns exceed the crawl reward's [0, 1] once an episode has a few steps.
    assert max(returns) > 1.0
