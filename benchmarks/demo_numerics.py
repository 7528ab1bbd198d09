"""How far the demo's trained score moves when only the float kernels change.

A run is bit-for-bit reproducible on one platform, not across CPUs (``rlm_gym.training.numerics``):
torch and MKL pick their kernels from the CPU, and PPO turns the last bits into another
trajectory. This trains the demo's recipe (``rlm-gym train --recipe demo``, seed 0) once per
kernel setting on this machine, forcing the kernels another CPU would take
(``ATEN_CPU_CAPABILITY``, ``MKL_CBWR``), and scores each trained agent on the demo's 300 seeded
evaluation episodes. The spread is what a newcomer on another CPU should expect the demo's
trained row to move by. Writes ``demo_numerics`` into ``benchmarks/results.json``.

Usage:
    python benchmarks/demo_numerics.py [--workers 2] [--no-save]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import save_results

# The kernels a CPU may give torch and MKL: this machine's own, AVX2 (CPUs without AVX-512),
# torch's plain build, and MKL's conditional-numerical-reproducibility branch.
SETTINGS: dict[str, dict[str, str]] = {
    "native": {},
    "ATEN_CPU_CAPABILITY=avx2": {"ATEN_CPU_CAPABILITY": "avx2"},
    "ATEN_CPU_CAPABILITY=default": {"ATEN_CPU_CAPABILITY": "default"},
    "MKL_CBWR=COMPATIBLE": {"MKL_CBWR": "COMPATIBLE"},
}


def _cli(*argv: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "rlm_gym.cli", *argv],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
    )
    return done.stdout


def train_and_score(name: str, seed: int, episodes: int) -> dict:
    """Train the demo recipe under one kernel setting and score the agent."""
    from rlm_gym.training.demo import EVAL_SEED

    env = SETTINGS[name]
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        _cli(
            "train",
            "--recipe",
            "demo",
            "--seed",
            str(seed),
            "--log-dir",
            str(run),
            "--quiet",
            env=env,
        )
        rows = json.loads(
            _cli(
                "evaluate",
                str(run),
                "--episodes",
                str(episodes),
                "--seed",
                str(EVAL_SEED),
                "--quiet",
                "--format",
                "json",
                env=env,
            )
        )
        segments = json.loads((run / "config.json").read_text()).get("segments", [])
        numerics = [segment.get("numerics") for segment in segments]
    row = rows[0]
    return {
        "setting": name,
        "score": round(row["score"], 4),
        "job_done": round(row["job_done"], 4),
        "numerics": numerics,
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--no-save", action="store_true")
    args = parser.parse_args(argv)
    with ThreadPoolExecutor(args.workers) as pool:
        runs = list(
            pool.map(lambda name: train_and_score(name, args.seed, args.episodes), SETTINGS)
        )
    for run in runs:
        print(f"{run['setting']:<30} score {run['score']:.4f}  job done {run['job_done']:.1%}")
    scores = [run["score"] for run in runs]
    result = {
        "seed": args.seed,
        "episodes": args.episodes,
        "runs": runs,
        "min_score": min(scores),
        "max_score": max(scores),
    }
    print(f"score {min(scores):.3f} to {max(scores):.3f} ({max(scores) - min(scores):.3f} apart)")
    if not args.no_save:
        save_results("demo_numerics", result)
    return result


if __name__ == "__main__":
    main()
