"""The scripted RLM programs on ``rlm_gym/RLM-v0``: task score, sub-calls, characters read,
and each seed policy's episode return with its components; does each policy rank the
programs the way the task score does?

Every (family, length, program) runs on the same seeds with the offline reader as sub-model
(a stand-in: see docs/rlm.md). Each episode's steps are then replayed through
``RewardPolicyWrapper(env, policy)`` for the four seed policies, so the returns are what the
wrapper gives, episode hooks included. Writes ``results/rlm_agents.json`` (rendered into
docs/rlm.md by ``python docs/render.py``).

Run: ``.venv/bin/python benchmarks/rlm_agents.py [--seeds 20]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from itertools import combinations
from pathlib import Path
from time import perf_counter
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rlm_gym.envs.rlm import RLMEnv
from rlm_gym.envs.rlm.agents import CHUNK_CHARS, PROGRAMS
from rlm_gym.envs.rlm.replay import replay_returns

OUT = Path(__file__).resolve().parent.parent / "results" / "rlm_agents.json"
FAMILIES = ("needle", "aggregation", "pairs", "multihop")
LENGTHS = (2**13, 2**16, 2**20)
POLICIES = ("default", "strict", "lenient", "research")
EPISODE_COLUMNS = (
    "family",
    "length",
    "program",
    "seed",
    "score",
    "correct",
    "sub_calls",
    "chars_read",
    "steps",
    *POLICIES,
)
# Programs whose mean task scores differ by less than this are not ranked against each other.
TIE = 0.02


def play(env: RLMEnv, program, seed: int) -> dict[str, Any]:
    """One episode: its outcome and the steps' (action, result) infos for the replay."""
    observation, info = env.reset(seed=seed)
    steps, step = [], 0
    while True:
        observation, reward, terminated, truncated, info = env.step(program(observation, step))
        steps.append((reward, terminated, truncated, info))
        step += 1
        if terminated or truncated:
            break
    outcome = info["task"]
    return {
        "seed": seed,
        "score": float(outcome.get("score", 0.0)),
        "correct": bool(outcome.get("correct", False)),
        "sub_calls": outcome["sub_calls"],
        "chars_read": outcome["chars_read"],
        "steps": step,
        "returns": {
            policy: replay_returns(steps, policy, max_steps=env.max_steps) for policy in POLICIES
        },
    }


def _mean_ci(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, 0.0
    return mean, 1.96 * statistics.stdev(values) / len(values) ** 0.5


def summarise(episodes: list[dict[str, Any]]) -> dict[str, Any]:
    score, score_ci = _mean_ci([e["score"] for e in episodes])
    cell: dict[str, Any] = {
        "episodes": len(episodes),
        "solved": statistics.fmean(e["correct"] for e in episodes),
        "score": score,
        "score_ci95": score_ci,
        "sub_calls": statistics.fmean(e["sub_calls"] for e in episodes),
        "chars_read": statistics.fmean(e["chars_read"] for e in episodes),
        "steps": statistics.fmean(e["steps"] for e in episodes),
        "returns": {},
        "components": {},
    }
    for policy in POLICIES:
        value, half = _mean_ci([e["returns"][policy]["return"] for e in episodes])
        cell["returns"][policy] = {"mean": value, "ci95": half}
        names = episodes[0]["returns"][policy]["components"]
        cell["components"][policy] = {
            name: statistics.fmean(e["returns"][policy]["components"][name] for e in episodes)
            for name in names
        }
    return cell


def rankings(cells: list[dict[str, Any]]) -> dict[str, Any]:
    """Per policy: pairs of programs the task score orders, and how many the return orders
    the same way; for each reversed pair, the component that favours the worse program most."""
    report: dict[str, Any] = {}
    for policy in POLICIES:
        agree, total, reversals = 0, 0, []
        for family in FAMILIES:
            for length in LENGTHS:
                row = {
                    c["program"]: c for c in cells if (c["family"], c["length"]) == (family, length)
                }
                for a, b in combinations(row, 2):
                    better, worse = (a, b) if row[a]["score"] > row[b]["score"] else (b, a)
                    if abs(row[a]["score"] - row[b]["score"]) < TIE:
                        continue
                    total += 1
                    gap = (
                        row[better]["returns"][policy]["mean"]
                        - row[worse]["returns"][policy]["mean"]
                    )
                    if gap > 0:
                        agree += 1
                        continue
                    parts_better = row[better]["components"][policy]
                    parts_worse = row[worse]["components"][policy]
                    component = max(parts_worse, key=lambda n: parts_worse[n] - parts_better[n])
                    reversals.append(
                        {
                            "family": family,
                            "length": length,
                            "better_by_score": better,
                            "better_by_return": worse,
                            "return_gap": -gap,
                            "component": component,
                            "component_gap": parts_worse[component] - parts_better[component],
                        }
                    )
        counts: dict[str, int] = {}
        for reversal in reversals:
            counts[reversal["component"]] = counts.get(reversal["component"], 0) + 1
        report[policy] = {
            "ordered_pairs": total,
            "agreeing_pairs": agree,
            "reversals": reversals,
            "reversal_components": dict(sorted(counts.items(), key=lambda kv: -kv[1])),
        }
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    started = perf_counter()
    cells, episodes_out = [], []
    for family in FAMILIES:
        for length in LENGTHS:
            env = RLMEnv(family=family, length=length)
            for name, program in PROGRAMS.items():
                episodes = [play(env, program, seed) for seed in range(args.seeds)]
                cell = {"family": family, "length": length, "program": name, **summarise(episodes)}
                cells.append(cell)
                # One compact row per episode (the components are in the cell's means).
                episodes_out += [
                    [family, length, name]
                    + [e[key] for key in EPISODE_COLUMNS[3 : -len(POLICIES)]]
                    + [e["returns"][p]["return"] for p in POLICIES]
                    for e in episodes
                ]
                print(
                    f"{family:11s} 2^{length.bit_length() - 1:<2d} {name:24s} "
                    f"solved {cell['solved']:.2f} sub-calls {cell['sub_calls']:6.1f} "
                    f"research {cell['returns']['research']['mean']:+.3f}",
                    flush=True,
                )
            env.close()
    payload = {
        "command": f"python benchmarks/rlm_agents.py --seeds {args.seeds}",
        "seeds": args.seeds,
        "sub_model": "offline (rule-based stand-in)",
        "chunk_chars": CHUNK_CHARS,
        "policies": list(POLICIES),
        "programs": list(PROGRAMS),
        "families": list(FAMILIES),
        "lengths": list(LENGTHS),
        "tie": TIE,
        "cells": cells,
        "rankings": rankings(cells),
        "episode_columns": list(EPISODE_COLUMNS),
        "episodes": "EPISODES",
    }
    text = json.dumps(payload, indent=1, sort_keys=True)
    rows = ",\n  ".join(json.dumps(row) for row in episodes_out)
    text = text.replace('"EPISODES"', "[\n  " + rows + "\n ]")
    args.out.write_text(text + "\n", encoding="utf-8")
    print(f"{len(episodes_out)} episodes in {perf_counter() - started:.0f} s -> {args.out}")


if __name__ == "__main__":
    main()
