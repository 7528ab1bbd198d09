"""``summarise_study``: pairs with more than the reference, and steps to the heuristic."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rlm_gym.crawl import CrawlRewardPolicy
from rlm_gym.training.run_config import RunConfig
from rlm_gym.training.studies.plans import STUDIES, Study
from rlm_gym.training.studies.summary import steps_to_beat, summarise_study

STUDY = Study(
    "t", "?", {"a": {}, "b": {}, "c": {}}, reference="b", seeds=(0, 1, 2), compare_to=("a",)
)
BASELINES = {"random": {"score": 0.3}, "heuristic": {"score": 0.7, "curve_score": 0.65}}
BASELINES["oracle"] = {"score": 0.9}


def _row(variant: str, seed: int, score: float, job: float, curve=None) -> dict:
    row = {"variant": variant, "seed": seed, "score": score, "job_done": job}
    if curve is not None:
        row["curve"] = [{"timestep": t, "score": s} for t, s in curve]
    return row


def test_every_variant_is_paired_with_each_compare_to_variant_by_seed():
    rows = [
        _row(v, s, 0.5 + 0.1 * i + 0.01 * s, 0.4 + 0.1 * i)
        for i, v in enumerate("abc")
        for s in (0, 1, 2)
    ]
    summary = summarise_study(STUDY, rows, BASELINES)
    assert summary["compare_to"] == ["a"]
    c_vs_a = summary["variants"]["c"]["vs"]["a"]
    assert c_vs_a["score"]["diff"] == pytest.approx(0.2)
    assert c_vs_a["score"]["ci95"] == pytest.approx(0.0, abs=1e-12)
    assert c_vs_a["job_done"]["diff"] == pytest.approx(0.2)
    assert summary["variants"]["a"]["vs"]["a"]["score"]["diff"] == 0.0
    # The reference pairing is still there, task measures included.
    assert summary["variants"]["c"]["vs_reference"] == pytest.approx(0.1)
    assert summary["variants"]["c"]["task"]["job_done"]["vs_reference"] == pytest.approx(0.1)
    json.dumps(summary, allow_nan=False)


def test_steps_to_the_heuristic_come_from_the_curves_and_the_heuristic_on_their_episodes():
    curves = {0: [(10, 0.6), (20, 0.66), (30, 0.8)], 1: [(10, 0.7), (20, 0.5)], 2: [(10, 0.6)]}
    rows = [_row(v, s, 0.8, 0.5, curves[s]) for v in "abc" for s in (0, 1, 2)]
    efficiency = summarise_study(STUDY, rows, BASELINES)["variants"]["a"]["steps_to_heuristic"]
    # 0.66 > 0.65 (the heuristic on the curves' episodes), not the final evaluation's 0.7.
    assert efficiency["per_seed"] == [20, 10, None]
    assert efficiency["reached"] == 2
    assert efficiency["mean"] is None  # a seed that never got there has no step to average
    reached = [_row(v, s, 0.8, 0.5, curves[s]) for v in "abc" for s in (0, 1)]
    two = replace(STUDY, seeds=(0, 1))
    both = summarise_study(two, reached, BASELINES)["variants"]["b"]["steps_to_heuristic"]
    assert both["mean"] == 15 and both["ci95"] > 0


def test_no_curves_no_steps_to_heuristic():
    rows = [_row(v, s, 0.8, 0.5) for v in "abc" for s in (0, 1, 2)]
    assert "steps_to_heuristic" not in summarise_study(STUDY, rows, BASELINES)["variants"]["a"]


def test_steps_to_beat_is_strictly_above():
    assert steps_to_beat([{"timestep": 5, "score": 0.5}], 0.5) is None
    assert steps_to_beat([], 0.0) is None


def test_the_ablation_asks_on_crawl_v2_with_curricula_and_pairs_with_full():
    ablation = STUDIES["ablation"]
    assert ablation.env_id == "rlm_gym/Crawl-v2" and ablation.reference == "binary"
    assert ablation.compare_to == ("full",) and len(ablation.seeds) >= 5
    assert {"full", "binary", "graded", "no_has_data", "no_validation", "no_defects"} <= set(
        ablation.variants
    )
    curricula = [v for v in ablation.variants.values() if "reward_schedule" in v]
    assert len(curricula) >= 1
    assert ablation.curve_eval["eval_freq"] > 0
    assert STUDIES["ablation-v1"].env_id == "rlm_gym/Crawl-v1"


def test_the_curricula_are_schedules_the_crawl_policy_accepts():
    ablation = STUDIES["ablation"]
    for name, settings in ablation.variants.items():
        if "reward_schedule" not in settings:
            continue
        config = RunConfig(
            env_id=ablation.env_id, policy="crawl", reward_schedule=settings["reward_schedule"]
        )
        schedule = config.reward_schedule
        end = schedule.weights_at(ablation.total_timesteps)
        # A curriculum ends on the full reward's own weights.
        defaults = CrawlRewardPolicy().config["weights"]
        assert end == {k: defaults[k] for k in end}, name
