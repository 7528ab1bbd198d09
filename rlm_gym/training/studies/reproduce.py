"""Does a study's recorded run reproduce here? A short re-run against its learning curve.

A run's learning-curve points (``curve_eval``: every ``eval_freq`` steps, the same seeded
episodes) are a cheap fingerprint of its training: re-training the run's first few
``eval_freq`` steps and comparing the points with the results file's tells, in seconds,
whether this code on this machine walks the same trajectory, and from which point it parts.
When it parts, the run's recorded float platform (``training.numerics``) says why: the same
platform means the code changed; another platform is expected to part (see
``rlm_gym.training.numerics``); a run recorded without it leaves the cause open until the
commit that wrote the file is re-run here.

Run: ``python -m rlm_gym.training.studies.reproduce ablation full 0 [--steps 16384]``
(exit status 0 when every point matches, 1 when the run parts from the file).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlm_gym._validation import unknown_name_error
from rlm_gym.training.numerics import numerics, numerics_differences
from rlm_gym.training.studies.plans import STUDIES, Study

__all__ = ["CurveCheck", "check_run", "compare_curve", "main"]

DEFAULT_STEPS = 16_384


@dataclass
class CurveCheck:
    """A re-run's learning curve against the recorded run's.

    Attributes:
        variant: The run's variant.
        seed: The run's seed.
        points: ``(timestep, recorded score or None, re-run score)`` per re-run point.
        numerics: What differs between the recorded run's float platform and this one
            (``numerics_differences``: ``[]`` same, ``["not recorded"]`` unknown).

    Example:
        >>> check = compare_curve({"curve": [{"timestep": 8, "score": 0.5}],
        ...                        "numerics": [{"cpu": "A"}]}, [(8, 0.5)], {"cpu": "A"})
        >>> check.first_difference is None, check.verdict()
        (True, 'reproduces: the 1 curve points up to 8 steps equal the recorded ones')
    """

    variant: str
    seed: int
    points: list[tuple[int, float | None, float]] = field(default_factory=list)
    numerics: list[str] = field(default_factory=list)

    @property
    def first_difference(self) -> int | None:
        """The first timestep whose re-run score is not the recorded one, else None."""
        for timestep, recorded, rerun in self.points:
            if recorded != rerun:
                return timestep
        return None

    def verdict(self) -> str:
        """One sentence: reproduces, or where it parts and what the platforms say of why."""
        at = self.first_difference
        if at is None:
            last = self.points[-1][0] if self.points else 0
            return (
                f"reproduces: the {len(self.points)} curve points up to {last:,} steps equal "
                "the recorded ones"
            )
        recorded, rerun = next((r, n) for t, r, n in self.points if t == at)
        parts = f"parts from the recorded run at {at:,} steps (recorded {recorded}, here {rerun})"
        if self.numerics == ["not recorded"]:
            why = (
                "the run does not record the float platform that trained it, so a platform "
                "difference cannot be told from a code change: re-run the commit that wrote "
                "the file here (PYTHONPATH=<its checkout>); if it parts too, the platform did"
            )
        elif self.numerics:
            why = f"the float platform differs ({'; '.join(self.numerics)}): expected"
        else:
            why = "same float platform: the code changed since the run was recorded"
        return f"{parts}; {why}"


def compare_curve(
    row: Mapping[str, Any],
    rerun: Sequence[tuple[int, float]],
    current_numerics: Mapping[str, Any],
    variant: str = "",
    seed: int = 0,
) -> CurveCheck:
    """Compare a re-run's curve points with a study row's (exact float equality).

    Args:
        row: The recorded run: a results file's ``per_seed`` row with its ``curve``.
        rerun: The re-run's ``(timestep, score)`` points.
        current_numerics: This process's ``numerics()``.
        variant: The run's variant (for the report).
        seed: The run's seed (for the report).

    Returns:
        The :class:`CurveCheck`.
    """
    recorded = {int(point["timestep"]): point["score"] for point in row.get("curve") or []}
    points = [(int(t), recorded.get(int(t)), score) for t, score in rerun]
    differences = numerics_differences(row.get("numerics"), current_numerics)
    return CurveCheck(variant, seed, points, differences)


def _recorded_row(results: Mapping[str, Any], variant: str, seed: int) -> dict[str, Any]:
    variants = results.get("variants", {})
    if variant not in variants:
        raise unknown_name_error("variant", variant, variants)
    rows = {int(row["seed"]): row for row in variants[variant].get("per_seed", [])}
    if seed not in rows:
        raise ValueError(
            f"seed: {seed} has no finished run of {variant!r} in the results; "
            f"finished seeds: {sorted(rows) or 'none'}"
        )
    return rows[seed]


def check_run(
    study: str | Study,
    variant: str,
    seed: int,
    *,
    results: Mapping[str, Any] | None = None,
    results_dir: str | Path = "results",
    steps: int = DEFAULT_STEPS,
) -> CurveCheck:
    """Re-train one recorded run of a study for ``steps`` steps and compare its curve.

    Args:
        study: A name in ``STUDIES``, or a :class:`Study`.
        variant: The run's variant.
        seed: The run's seed.
        results: The study's results (default: read from ``<results_dir>/<name>.json``).
        results_dir: Where the results JSON is.
        steps: Steps to re-train: a positive multiple of the study's ``curve_eval``
            ``eval_freq`` (default 16,384: two points of the studies' curves).

    Returns:
        The :class:`CurveCheck` (``verdict()`` says it in one sentence).

    Raises:
        ValueError: An unknown study or variant (with a suggestion), a seed without a
            finished run, a study without learning curves, ``steps`` not a positive multiple
            of ``eval_freq``.
        FileNotFoundError: No results file.
    """
    from rlm_gym.training.studies.runner import run_spec, train_run

    if not isinstance(study, Study):
        if study not in STUDIES:
            raise unknown_name_error("study", str(study), STUDIES)
        study = STUDIES[study]
    freq = int(study.curve_eval.get("eval_freq", 0)) if study.curve_eval else 0
    if not freq:
        raise ValueError(
            f"study {study.name!r} records no learning curve (curve_eval is empty); a short "
            "re-run has nothing to be compared with"
        )
    if steps <= 0 or steps % freq:
        closest = max(freq, round(steps / freq) * freq)
        raise ValueError(
            f"steps: {steps} is not a positive multiple of eval_freq {freq:,} (the points are "
            f"taken there); closest: {closest}"
        )
    if results is None:
        path = Path(results_dir) / f"{study.name}.json"
        if not path.is_file():
            raise FileNotFoundError(f"No results file {path} for study {study.name!r}")
        results = json.loads(path.read_text(encoding="utf-8"))
    row = _recorded_row(results, variant, seed)
    with tempfile.TemporaryDirectory() as tmp:
        spec = {**run_spec(study, variant, seed, Path(tmp) / "run"), "total_timesteps": steps}
        trained = train_run(spec)
        evaluations = json.loads((trained.log_dir / "evaluations.json").read_text("utf-8"))
    rerun = [(int(e["timestep"]), e["score"]) for e in evaluations]
    return compare_curve(row, rerun, numerics(), variant, seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rlm_gym.training.studies.reproduce",
        description="Re-train one recorded run of a study for a few curve points and say "
        "whether it walks the recorded trajectory.",
    )
    parser.add_argument("study", help=f"one of {', '.join(sorted(STUDIES))}")
    parser.add_argument("variant")
    parser.add_argument("seed", type=int)
    parser.add_argument("--steps", type=int, default=DEFAULT_STEPS)
    parser.add_argument("--results-dir", default="results")
    args = parser.parse_args(argv)
    check = check_run(
        args.study, args.variant, args.seed, results_dir=args.results_dir, steps=args.steps
    )
    for timestep, recorded, rerun in check.points:
        mark = "=" if recorded == rerun else "differs"
        print(f"{timestep:>9,}  recorded {recorded}  here {rerun}  {mark}")
    print(f"{args.study}/{args.variant} seed {args.seed}: {check.verdict()}")
    return 0 if check.first_difference is None else 1


if __name__ == "__main__":
    sys.exit(main())
