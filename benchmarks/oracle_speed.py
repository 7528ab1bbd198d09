"""The oracle baseline's CPU time: ``evaluate("oracle", ...)`` on seeded episodes, old vs new.

``make demo`` and every study score the oracle on the same seeded episodes
(``rlm_gym.training.evaluation.evaluate("oracle", env_id, n_episodes, seed)``); before issue 30
that took ~150 ms of CPU per episode, most of the demo's baseline process. This script plays
those episodes in a fresh process per run, once with this checkout and once with an older one
(``--old``: a checkout of the code before, e.g. ``git worktree add /tmp/oracle-old 09c8dd6``),
interleaved, and prints each one's CPU seconds (``time.process_time`` around ``evaluate``: the
imports and the env's construction are not counted), their median over the repetitions and the
ratio. It also checks that both play the same episodes: the ``evaluate`` records of both runs
must be identical (their JSON's hash), or the script stops with an error.

Run: ``.venv/bin/python benchmarks/oracle_speed.py --old /tmp/oracle-old [--episodes 300]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import print_table, save_results

ROOT = Path(__file__).resolve().parents[1]

# Run in a fresh interpreter with the package at ``root`` first on the path. An editable
# install's finder sits on sys.meta_path ahead of PYTHONPATH: it is dropped so that the
# package measured is the one at ``root`` (the script checks where it was imported from).
_CHILD = """
import sys
sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f).lower()]
sys.path.insert(0, {root!r})
import hashlib, json, resource, time, warnings
warnings.simplefilter("ignore")
import rlm_gym
from rlm_gym.training.evaluation import evaluate
started = time.process_time()
result = evaluate("oracle", {env_id!r}, {episodes}, {seed})
cpu = time.process_time() - started
records = json.dumps(result.episodes, sort_keys=True).encode()
print(json.dumps({{
    "package": rlm_gym.__file__,
    "cpu_s": cpu,
    "score": result.summary()["score"],
    "records_sha256": hashlib.sha256(records).hexdigest(),
    "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}}))
"""


def run_once(root: Path, env_id: str, episodes: int, seed: int) -> dict[str, Any]:
    """One timed ``evaluate("oracle", ...)`` with the package at ``root``, in a fresh process."""
    code = _CHILD.format(root=str(root), env_id=env_id, episodes=episodes, seed=seed)
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=3600,
    )
    measured = json.loads(out.stdout.strip().splitlines()[-1])
    if not measured["package"].startswith(str(root)):
        raise RuntimeError(f"measured {measured['package']}, not the package at {root}")
    return measured


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="a checkout of the code to compare with")
    parser.add_argument("--env", default="rlm_gym/Crawl-v2", help="the env id")
    parser.add_argument("--episodes", type=int, default=300, help="seeded episodes per run")
    parser.add_argument("--seed", type=int, default=0, help="episode i is reset(seed=seed + i)")
    parser.add_argument("--repetitions", type=int, default=2, help="runs of each, interleaved")
    parser.add_argument("--no-save", action="store_true", help="do not write results.json")
    args = parser.parse_args(argv)
    roots = {"before": Path(args.old).resolve(), "after": ROOT}
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in roots}
    for _ in range(args.repetitions):
        for name, root in roots.items():
            runs[name].append(run_once(root, args.env, args.episodes, args.seed))
    digests = {run["records_sha256"] for name in runs for run in runs[name]}
    if len(digests) != 1:
        raise SystemExit(f"the runs played different episodes: record hashes {sorted(digests)}")
    medians = {name: statistics.median(run["cpu_s"] for run in runs[name]) for name in runs}
    ratio = medians["before"] / medians["after"]
    rows = [
        [
            name,
            f"{medians[name]:.2f}",
            " ".join(f"{run['cpu_s']:.2f}" for run in runs[name]),
            f"{1000 * medians[name] / args.episodes:.1f}",
            f"{max(run['max_rss_mb'] for run in runs[name]):.0f}",
        ]
        for name in runs
    ]
    print(f"oracle on {args.episodes} episodes of {args.env} (seed {args.seed}), CPU seconds")
    print_table(["code", "median s", "runs", "ms / episode", "max RSS MB"], rows)
    print(f"before / after: {ratio:.2f}x; same records in every run (sha256 {digests.pop()[:12]})")
    payload = {
        "env_id": args.env,
        "episodes": args.episodes,
        "seed": args.seed,
        "repetitions": args.repetitions,
        "before_cpu_s": round(medians["before"], 3),
        "after_cpu_s": round(medians["after"], 3),
        "ratio": round(ratio, 2),
        "before_runs_s": [round(run["cpu_s"], 3) for run in runs["before"]],
        "after_runs_s": [round(run["cpu_s"], 3) for run in runs["after"]],
        "before_max_rss_mb": round(max(run["max_rss_mb"] for run in runs["before"]), 1),
        "after_max_rss_mb": round(max(run["max_rss_mb"] for run in runs["after"]), 1),
        "score": runs["after"][0]["score"],
    }
    if not args.no_save:
        save_results("oracle_speed", payload)
    return payload


if __name__ == "__main__":
    main()
