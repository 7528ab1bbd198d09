"""``summarise_study``: pairs with more than the reference, steps to the heuristic, and each
variant compared with the baselines of the env it trains on."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rlm_gym.crawl import CrawlRewardPolicy
from rlm_gym.training.run_config import RunConfig
from rlm_gym.training.studies.plans import STUDIES, Study
from rlm_gym.training.studies.summary import (
    steps_to_beat,
    study_env_ids,
    summarise_study,
    variant_baselines,
    variant_env_id,
)

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


V1, V2 = "rlm_gym/Crawl-v1", "rlm_gym/Crawl-v2"
TWO_ENVS = Study(
    "two", "?", {"v1": {}, "v2": {"env_id": V2}}, reference="v1", seeds=(0, 1), env_id=V1
)
# The same random, heuristic and best fixed on both envs, as on Crawl-v1 and -v2; the oracle
# and the heuristic on the curves' episodes differ.
ON_V1 = {
    "random": {"score": 0.3},
    "heuristic": {"score": 0.7, "curve_score": 0.7},
    "best_fixed": {"score": 0.6},
    "oracle": {"score": 0.9},
}
ON_V2 = {**ON_V1, "heuristic": {"score": 0.7, "curve_score": 0.6}, "oracle": {"score": 0.8}}


def _two_env_rows() -> list[dict]:
    curve = [(10, 0.65), (20, 0.75)]
    return [_row(v, s, 0.75, 0.5, curve) for v in ("v1", "v2") for s in (0, 1)]


def test_a_variant_on_another_env_is_compared_with_that_envs_baselines():
    summary = summarise_study(TWO_ENVS, _two_env_rows(), ON_V1, {V2: ON_V2})
    v1, v2 = summary["variants"]["v1"], summary["variants"]["v2"]
    assert (v1["env_id"], v2["env_id"]) == (V1, V2)
    # The same runs' score, normalised by each env's own random and oracle.
    assert v1["normalised"] == pytest.approx((0.75 - 0.3) / (0.9 - 0.3))
    assert v2["normalised"] == pytest.approx((0.75 - 0.3) / (0.8 - 0.3))
    # Steps to the heuristic against the heuristic on its own env's curve episodes.
    assert v1["steps_to_heuristic"]["per_seed"] == [20, 20]
    assert v2["steps_to_heuristic"]["per_seed"] == [10, 10]
    assert summary["baselines"] == ON_V1 and summary["baselines_by_env"] == {V2: ON_V2}
    json.dumps(summary, allow_nan=False)


def test_across_envs_the_difference_is_also_taken_on_each_envs_own_normalised_scale():
    summary = summarise_study(TWO_ENVS, _two_env_rows(), ON_V1, {V2: ON_V2})
    v1, v2 = summary["variants"]["v1"], summary["variants"]["v2"]
    # The same raw scores: no raw difference, but v2's oracle is lower, so it got further.
    assert v2["vs_reference"] == 0.0
    assert v2["normalised_scores"] == pytest.approx([0.9, 0.9])
    assert v2["vs_reference_normalised"] == pytest.approx(0.9 - 0.75)
    assert v2["vs_reference_normalised_ci95"] == pytest.approx(0.0)
    assert v1["vs_reference_normalised"] == 0.0


def test_a_study_on_one_env_has_no_normalised_difference_beside_the_raw_one():
    summary = summarise_study(STUDY, [_row(v, 0, 0.5, 0.5) for v in "abc"], BASELINES)
    assert not any("vs_reference_normalised" in row for row in summary["variants"].values())


def test_the_beats_flags_use_the_variants_own_envs_heuristic_and_best_fixed():
    on_v2 = {**ON_V2, "heuristic": {"score": 0.8}, "best_fixed": {"score": 0.5}}
    summary = summarise_study(TWO_ENVS, _two_env_rows(), ON_V1, {V2: on_v2})
    assert summary["variants"]["v1"]["beats_heuristic_every_seed"] is True
    assert summary["variants"]["v2"]["beats_heuristic_every_seed"] is False
    assert summary["variants"]["v2"]["beats_best_fixed_every_seed"] is True


def test_a_study_on_one_env_writes_no_baselines_by_env():
    summary = summarise_study(STUDY, [_row(v, 0, 0.5, 0.5) for v in "abc"], BASELINES)
    assert "baselines_by_env" not in summary
    assert {row["env_id"] for row in summary["variants"].values()} == {STUDY.env_id}


def test_a_variants_env_without_baselines_is_refused_by_name():
    with pytest.raises(ValueError, match=r"missing \['rlm_gym/Crawl-v2'\]"):
        summarise_study(TWO_ENVS, _two_env_rows(), ON_V1)


def test_the_study_env_comes_first_then_the_variants_other_envs():
    assert study_env_ids(TWO_ENVS) == (V1, V2)
    # A variant naming the study's own env adds no second one.
    assert study_env_ids(replace(TWO_ENVS, env_id=V2)) == (V2,)
    assert variant_env_id(TWO_ENVS, "v1") == V1 and variant_env_id(TWO_ENVS, "v2") == V2


def test_variant_baselines_reads_a_file_written_before_variants_recorded_their_env():
    summary = summarise_study(TWO_ENVS, _two_env_rows(), ON_V1, {V2: ON_V2})
    for row in summary["variants"].values():
        del row["env_id"]  # as files written before: the env is in the variant's settings
    assert variant_baselines(summary, "v1") == ON_V1
    assert variant_baselines(summary, "v2") == ON_V2
    del summary["baselines_by_env"]  # a file whose baselines were scored on one env only
    with pytest.raises(ValueError, match=r"rlm_gym/Crawl-v2.*'v2'.*study two --no-train"):
        variant_baselines(summary, "v2")


def test_a_study_of_fast_resets_says_so_and_one_of_exact_resets_writes_what_it_wrote():
    half = summarise_study(STUDIES["ablation-half"], [], BASELINES)
    assert half["vector_resets"] == "fast"
    assert half["variants"].keys() == STUDIES["ablation"].variants.keys()
    assert "vector_resets" not in summarise_study(STUDIES["ablation"], [], BASELINES)


def test_a_results_file_of_exact_resets_is_refused_for_a_study_of_fast_ones(tmp_path):
    from rlm_gym.training.studies.runner import _recorded_runs

    exact = replace(STUDIES["ablation-half"], vector_resets="exact", name="t")
    (tmp_path / "t.json").write_text(json.dumps(summarise_study(exact, [], BASELINES)))
    with pytest.raises(ValueError, match="`vector_resets` None there, 'fast' here"):
        _recorded_runs(tmp_path / "t.json", replace(exact, vector_resets="fast"))
