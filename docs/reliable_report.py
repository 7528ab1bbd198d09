"""Write ``results/reliable.json``: every study's rliable figures, from its results file.

For each study file in ``results/`` (one with per-seed runs and the ``random`` / ``oracle``
baselines) this computes ``rlm_gym.training.studies.reliable.reliable_report``: the IQM of the
normalised true crawl score over seeds with its 95 % stratified bootstrap CI, and the
probability of improvement over the study's reference variants. Each entry keeps the
normalised per-seed scores it was computed from (``inputs``): an entry whose inputs and
bootstrap settings are those of the results file now is kept as it is (the bootstrap takes a
minute per study), any other is recomputed. The performance profiles of ``PROFILE_STUDIES`` are
drawn into ``docs/img/<study>_profiles.png``.

``make readme`` runs it before ``docs/render.py`` (which renders the tables from the file);
``tests/training/studies/test_reliable.py`` fails when an entry's inputs are not the results
file's.

Usage:
    python docs/reliable_report.py [--force]
"""

from __future__ import annotations

import argparse
import json
import sys

from block_tools import RESULTS, ROOT, read_json

RELIABLE = RESULTS / "reliable.json"
IMAGES = ROOT / "docs" / "img"
PROFILE_STUDIES = ("ablation", "defaults")


def study_files() -> dict[str, dict]:
    """Every study's results in ``results/``, by study name (other JSON files are skipped)."""
    studies = {}
    for path in sorted(RESULTS.glob("*.json")):
        if path == RELIABLE:
            continue
        results = read_json(path)
        baselines = results.get("baselines") or {}
        if "variants" in results and "random" in baselines and "oracle" in baselines:
            studies[results.get("study", path.stem)] = results
    return studies


def inputs_of(results: dict) -> dict[str, list[float]]:
    """The normalised per-seed scores an entry is computed from (rounded as stored)."""
    from rlm_gym.training.studies.reliable import normalised_seed_scores

    return {
        name: [round(float(value), 12) for value in matrix.ravel()]
        for name, matrix in normalised_seed_scores(results).items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="recompute every entry")
    args = parser.parse_args(argv)
    from rlm_gym.training.studies.reliable import (
        BOOTSTRAP_REPS,
        BOOTSTRAP_SEED,
        POI_REPS,
        POI_SCALE,
        plot_performance_profiles,
        reliable_report,
    )

    previous = read_json(RELIABLE) if RELIABLE.exists() else {}
    written: dict[str, dict] = {}
    for name, results in study_files().items():
        inputs = inputs_of(results)
        entry = previous.get(name)
        settings = {
            "reps": BOOTSTRAP_REPS,
            "poi_reps": POI_REPS,
            "poi_scale": POI_SCALE,
            "seed": BOOTSTRAP_SEED,
        }
        if entry is not None and "poi_scale" not in entry and not results.get("baselines_by_env"):
            # Written before the scale was recorded: on a study of one env the study env's
            # scale it then used is every variant's own, so the figures stand.
            entry = {**entry, "poi_scale": POI_SCALE}
        fresh = (
            entry is not None
            and entry.get("inputs") == inputs
            and all(entry.get(key) == value for key, value in settings.items())
        )
        if fresh and not args.force:
            written[name] = entry
            continue
        print(f"reliable: computing {name} ({len(inputs)} variants)", file=sys.stderr)
        written[name] = {**reliable_report(results), "inputs": inputs}
        if name in PROFILE_STUDIES:
            plot_performance_profiles(results, IMAGES / f"{name}_profiles.png")
    for name in PROFILE_STUDIES:
        image = IMAGES / f"{name}_profiles.png"
        if name in written and not image.exists():
            plot_performance_profiles(study_files()[name], image)
    RELIABLE.write_text(json.dumps(written, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {RELIABLE.relative_to(ROOT)} ({', '.join(written)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
