"""Greedy or sampled: does a trained crawler score higher playing its most likely action?

Studies score every agent greedily (``evaluate(..., deterministic=True)``). A policy trained
with an entropy bonus keeps some probability on other actions; on a partly observed site a
mixed choice can beat the most likely one (trying a second extractor when the first is in
doubt), or cost errors. ``eval_modes`` plays each finished run of a study both ways on the
study's evaluation episodes: greedy once, sampled with several sampling seeds (the episodes
are the same; only the policy's draws differ), and writes the true scores side by side.

Example:
    >>> from rlm_gym.training.studies.eval_modes import sampled_scores
    >>> callable(sampled_scores)
    True
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rlm_gym.training.evaluation import evaluate
from rlm_gym.training.runs import write_json_atomic
from rlm_gym.training.studies.plans import STUDIES
from rlm_gym.training.studies.task_measures import mean_and_ci

__all__ = ["main", "sampled_scores", "study_eval_modes"]

#: Seeds of the policy's action draws (torch's and the action space's).
SAMPLING_SEEDS = (0, 1, 2)


def sampled_scores(
    model: Any,
    env_id: str,
    n_episodes: int,
    eval_seed: int,
    sampling_seeds: Sequence[int] = SAMPLING_SEEDS,
) -> list[float]:
    """The true score of ``model`` playing sampled actions, once per sampling seed.

    Args:
        model: An SB3 model.
        env_id: The env played.
        n_episodes: Episodes per sampling seed, ``reset(seed=eval_seed + i)``.
        eval_seed: Seed of the first episode.
        sampling_seeds: Seeds of the policy's draws, one evaluation each.

    Returns:
        One mean true score per sampling seed.

    Raises:
        ValueError: No sampling seed.
    """
    if not sampling_seeds:
        raise ValueError("Expected at least one seed in `sampling_seeds`, got none")
    scores = []
    for seed in sampling_seeds:
        model.set_random_seed(int(seed))
        result = evaluate(model, env_id, n_episodes, eval_seed, deterministic=False)
        scores.append(float(result.summary()["score"]))
    return scores


def study_eval_modes(
    study_name: str,
    runs_dir: str | Path = "runs/studies",
    variants: Sequence[str] | None = None,
    sampling_seeds: Sequence[int] = SAMPLING_SEEDS,
) -> dict[str, Any]:
    """Greedy and sampled true scores of a study's finished runs found under ``runs_dir``.

    A run counts when its directory holds ``row.json`` (its greedy evaluation, as the study
    recorded it) and a model.

    Raises:
        ValueError: An unknown study or variant, or no finished run to play.
    """
    from rlm_gym.training.models import load_model

    study = STUDIES.get(study_name)
    if study is None:
        raise ValueError(f"Unknown study {study_name!r}; known: {sorted(STUDIES)}")
    chosen = list(variants) if variants else list(study.variants)
    unknown = [name for name in chosen if name not in study.variants]
    if unknown:
        raise ValueError(f"Expected `variants` of study {study_name!r}, got unknown {unknown}")
    runs = []
    for variant in chosen:
        env_id = study.variants[variant].get("env_id", study.env_id)
        for seed in study.seeds:
            run_dir = Path(runs_dir) / study.name / variant / f"seed_{seed}"
            row_path = run_dir / "row.json"
            if not row_path.exists():
                continue
            greedy = json.loads(row_path.read_text(encoding="utf-8"))["score"]
            sampled = sampled_scores(
                load_model(run_dir), env_id, study.n_eval_episodes, study.eval_seed, sampling_seeds
            )
            mean, half = mean_and_ci(sampled)
            runs.append(
                {
                    "variant": variant,
                    "seed": seed,
                    "greedy": greedy,
                    "sampled": sampled,
                    "sampled_mean": mean,
                    "sampled_ci95": half,
                    "sampled_minus_greedy": mean - greedy,
                }
            )
    if not runs:
        raise ValueError(f"No finished run of {study_name!r} under {runs_dir} to play")
    return {
        "study": study.name,
        "n_eval_episodes": study.n_eval_episodes,
        "eval_seed": study.eval_seed,
        "sampling_seeds": list(sampling_seeds),
        "runs": runs,
    }


def main(argv: list[str] | None = None) -> int:
    """Write a study's greedy and sampled scores as JSON (``--out``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", default="moonshot-screen", help="the study whose runs play")
    parser.add_argument("--variants", nargs="*", default=None, help="default: all finished")
    parser.add_argument("--runs-dir", default="runs/studies", help="where the study's runs are")
    parser.add_argument("--out", default="results/moonshot-modes.json", help="the JSON written")
    args = parser.parse_args(argv)
    results = study_eval_modes(args.study, args.runs_dir, args.variants)
    write_json_atomic(args.out, results, strict=True)
    for run in results["runs"]:
        print(
            f"{run['variant']} seed {run['seed']}: greedy {run['greedy']:.3f}, sampled "
            f"{run['sampled_mean']:.3f} ({run['sampled_minus_greedy']:+.3f})"
        )
    print(json.dumps({"wrote": args.out}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
