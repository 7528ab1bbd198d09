"""The vector-wrapper block of ``docs/performance.md`` (rendered by ``docs/render.py``), from the
``vector_wrapper`` section of ``benchmarks/results.json`` (``benchmarks/vector_wrapper.py``)."""

from __future__ import annotations

import json
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks" / "results.json"

# The speed goals of the vector wrapper, µs of CPU per sub-env step.
GOALS = {"own_64": 0.3, "own_1024": 0.05, "in_place_64": 0.5}
ENVPOOL_GOAL = 1.2


def _rounds(section: dict, name: str, unit: str, digits: int) -> str:
    """A measure's figure in each round of the run, e.g. ``0.21 / 0.20 / 0.22 µs``."""
    values = section.get("per_round", {}).get(name)
    if not values:
        return "-"
    return " / ".join(f"{value:.{digits}f}" for value in values) + unit


def vector_wrapper() -> str:
    """The vector wrapper's own cost and its cost in place, against the goals."""
    section = json.loads(BENCHMARKS.read_text(encoding="utf-8"))["vector_wrapper"]
    medians = section["medians_us"]
    policy = section["policy"]
    us = (" µs", 2)
    rows = [
        (
            f"`VectorRewardPolicyWrapper(envs, {policy!r})`'s own CPU per sub-env step, "
            "64 sub-envs (recorded inner steps)",
            f"**{section['own_64']:.2f} µs**",
            _rounds(section, "own_64", *us),
            f"≤ {GOALS['own_64']} µs",
        ),
        (
            "the same, 1,024 sub-envs",
            f"**{section['own_1024']:.3f} µs**",
            _rounds(section, "own_1024", " µs", 3),
            f"≤ {GOALS['own_1024']} µs",
        ),
        (
            "added in place over `SyncVectorEnv` of CartPole-v1 x 64 "
            f"(bare {medians['sync_64']:.2f} µs per sub-env step)",
            f"**+{section['in_place_64']:.2f} µs**",
            _rounds(section, "in_place_64", *us),
            f"≤ +{GOALS['in_place_64']} µs",
        ),
        (
            "per-env `RewardPolicyWrapper` inside that `SyncVectorEnv`, for comparison",
            f"+{section['per_env_64']:.2f} µs",
            _rounds(section, "per_env_64", *us),
            "informative",
        ),
        (
            "a minimal hand-written table wrapper (rows, sums, components in `infos`; no "
            "checks, weights or resets) in that `SyncVectorEnv`, for reference",
            f"+{section['minimal_in_place_64']:.2f} µs",
            _rounds(section, "minimal_in_place_64", *us),
            "informative",
        ),
    ]
    if "envpool_64_ratio" in section:
        rows.append(
            (
                "EnvPool CartPole-v1 x 64 wrapped, over bare EnvPool "
                f"(bare {medians['envpool_64']:.2f} µs per sub-env step)",
                f"**{section['envpool_64_ratio']:.2f}x**",
                _rounds(section, "envpool_64_ratio", "x", 2),
                f"≤ {ENVPOOL_GOAL}x",
            )
        )
        rows.append(
            (
                "the minimal table wrapper over EnvPool, for reference",
                f"{section['minimal_envpool_64_ratio']:.2f}x",
                _rounds(section, "minimal_envpool_64_ratio", "x", 2),
                "informative",
            )
        )
        if "envpool_64_main_thread_added" in section:
            rows.append(
                (
                    "the main thread's own CPU the wrapper adds over EnvPool (its own time in "
                    f"the replay loop: {section['own_64']:.2f} µs); the minimal wrapper's",
                    f"+{section['envpool_64_main_thread_added']:.2f} µs; "
                    f"+{section['minimal_envpool_64_main_thread_added']:.2f} µs",
                    _rounds(section, "envpool_64_main_thread_added", *us),
                    "informative",
                )
            )
    else:
        rows.append(
            (
                "EnvPool x 64 wrapped over bare",
                "not measured (no envpool)",
                "-",
                f"≤ {ENVPOOL_GOAL}x",
            )
        )
    lines = ["| what | measured | each round | goal |", "|---|---|---|---|"]
    lines += [
        f"| {what} | {measured} | {rounds} | {goal} |" for what, measured, rounds, goal in rows
    ]
    goals = {
        "its own time at 64 sub-envs": ("own_64", GOALS["own_64"]),
        "at 1,024": ("own_1024", GOALS["own_1024"]),
        "in place over `SyncVectorEnv`": ("in_place_64", GOALS["in_place_64"]),
    }
    if "envpool_64_ratio" in section:
        goals["over EnvPool"] = ("envpool_64_ratio", ENVPOOL_GOAL)
    held, overall, missed = [], [], []
    for label, (name, goal) in goals.items():
        if section[name] > goal:
            missed.append(label)
        elif all(value <= goal for value in section.get("per_round", {}).get(name, [])):
            held.append(label)
        else:
            overall.append(label)
    rounds = section.get("rounds", 1)
    lines.append("")
    lines.append(
        f"Goals met in all {rounds} rounds: {', '.join(held) or 'none'}; met over the pooled "
        f"repetitions only: {', '.join(overall) or 'none'}; not met: {', '.join(missed) or 'none'}."
    )
    return "\n".join(lines) + "\n"


def training_wrapping() -> str:
    """``rlm-gym train``'s two reward wrappings (``benchmarks/training_wrapping.py``)."""
    section = json.loads(BENCHMARKS.read_text(encoding="utf-8")).get("training_wrapping")
    if section is None:
        return "Not measured yet: run `python benchmarks/training_wrapping.py`.\n"
    lines = [
        "| env, policy | envs | stepping: per env / vector (µs per env step) | vector / per env "
        f"| {section['train_steps']:,}-step PPO run: per env / vector (CPU s) | vector / per env |",
        "|---|---|---|---|---|---|",
    ]
    for row in section["rows"]:
        lines.append(
            f"| `{row['env_id']}`, `{row['policy']}` | {row['n_envs']} "
            f"| {row['step_per_env']:.1f} / {row['step_vector']:.1f} "
            f"| **{row['step_ratio']:.2f}x** "
            f"| {row['train_per_env']:.2f} / {row['train_vector']:.2f} "
            f"| **{row['train_ratio']:.2f}x** |"
        )
    return "\n".join(lines) + "\n"
