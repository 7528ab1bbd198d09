"""rl-zoo3 trains on ``rlm_gym/Crawl-v2`` from a hyperparams YAML with ``env_wrapper``.

The YAML is ``examples/clients/rl_zoo3_ppo.yml`` (the one the README shows), run through
rl-zoo3's own ``train`` entry point in a fresh interpreter with a tiny ``-n`` budget.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("rl_zoo3")

import gymnasium as gym
from rl_zoo3.utils import get_saved_hyperparams, get_wrapper_class

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "examples" / "clients" / "rl_zoo3_ppo.yml"


def zoo(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rl_zoo3.train", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_rl_zoo3_trains_with_the_reward_policy_as_env_wrapper(tmp_path):
    run = zoo(
        "--algo", "ppo",
        "--gym-packages", "rlm_gym",
        "--env", "rlm_gym/Crawl-v2",
        "-conf", str(CONFIG),
        "-n", "1024",
        "--eval-freq", "-1",
        "--seed", "0",
        "-f", "logs",
        cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    assert "total_timesteps" in run.stdout

    run_dir = tmp_path / "logs" / "ppo" / "rlm_gym-Crawl-v2_1"
    assert (run_dir / "rlm_gym-Crawl-v2.zip").is_file()
    # One Monitor file per env (n_envs: 8), each with finished crawl episodes.
    monitors = sorted(run_dir.glob("*.monitor.csv"))
    assert len(monitors) == 8
    assert all(len(m.read_text().splitlines()) > 2 for m in monitors)

    # The saved config keeps the wrapper, and rl-zoo3's own readers (those `enjoy` uses) turn
    # it into our wrapper with its keyword arguments: the env it trains on is scored by
    # `lenient`.
    hyperparams, _ = get_saved_hyperparams(str(run_dir / "rlm_gym-Crawl-v2"))
    wrap = get_wrapper_class(hyperparams)
    env = wrap(gym.make("rlm_gym/Crawl-v2"))
    env.reset(seed=0)
    _, _, _, _, info = env.step(0)
    assert info["reward_policy"] == "lenient"
    env.close()
