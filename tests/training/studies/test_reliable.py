"""rliable's figures of a study: IQM, bootstrap CIs, probability of improvement, profiles; and
``results/reliable.json`` computed from the committed results files as they are now."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from rlm_gym.training.studies.reliable import (
    normalised_seed_scores,
    plot_performance_profiles,
    reliable_report,
)

ROOT = Path(__file__).resolve().parents[3]
# The bootstrap's tests import rliable (and arch, statsmodels: seconds) and resample.
needs_rliable = pytest.mark.skipif(
    importlib.util.find_spec("rliable") is None,
    reason="rliable (the train extra) is not installed",
)


def _results(scores: dict[str, list[float]], reference: str = "a") -> dict:
    return {
        "reference": reference,
        "compare_to": [],
        "baselines": {"random": {"score": 0.0}, "oracle": {"score": 1.0}},
        "variants": {
            name: {"per_seed": [{"seed": s, "score": v} for s, v in enumerate(values)]}
            for name, values in scores.items()
        },
    }


@pytest.mark.slow
@needs_rliable
def test_the_iqm_is_the_mean_of_the_middle_half_and_its_interval_holds_it():
    report = reliable_report(_results({"a": [0.1, 0.4, 0.5, 0.9]}), reps=500, poi_reps=100)
    row = report["variants"]["a"]
    assert row["seeds"] == 4
    assert row["iqm"] == pytest.approx(0.45)  # (0.4 + 0.5) / 2
    low, high = row["iqm_ci95"]
    assert 0.1 <= low <= row["iqm"] <= high <= 0.9


@pytest.mark.slow
@needs_rliable
def test_a_variant_above_the_reference_on_every_seed_improves_with_probability_one():
    report = reliable_report(
        _results({"a": [0.5, 0.6, 0.7], "b": [0.8, 0.85, 0.9], "c": [0.1, 0.2, 0.3]}),
        reps=200,
        poi_reps=200,
    )
    assert report["references"] == ["a"]
    assert report["variants"]["b"]["vs"]["a"] == {"poi": 1.0, "poi_ci95": [1.0, 1.0]}
    assert report["variants"]["c"]["vs"]["a"]["poi"] == 0.0
    assert report["variants"]["a"]["vs"] == {}  # not compared with itself


@pytest.mark.slow
@needs_rliable
def test_ties_count_half_and_the_same_seed_gives_the_same_intervals():
    results = _results({"a": [0.5, 0.6], "b": [0.5, 0.6]})
    first = reliable_report(results, reps=300, poi_reps=300)
    assert first["variants"]["b"]["vs"]["a"]["poi"] == pytest.approx(0.5)
    assert reliable_report(results, reps=300, poi_reps=300) == first


def test_scores_are_normalised_between_random_and_oracle_in_seed_order():
    results = _results({"a": [0.5, 0.25]})
    results["baselines"] = {"random": {"score": 0.0}, "oracle": {"score": 0.5}}
    np.testing.assert_array_equal(normalised_seed_scores(results)["a"], [[1.0], [0.5]])


def _two_envs() -> dict:
    results = _results({"a": [0.5, 0.7], "b": [0.4, 0.45]})
    results["env_id"] = "v1"
    results["variants"]["b"]["env_id"] = "v2"
    results["baselines_by_env"] = {"v2": {"random": {"score": 0.0}, "oracle": {"score": 0.5}}}
    return results


def test_a_variant_on_another_env_is_normalised_with_that_envs_baselines():
    results = _two_envs()
    own = normalised_seed_scores(results)
    np.testing.assert_array_equal(own["a"], [[0.5], [0.7]])
    np.testing.assert_array_equal(own["b"], [[0.8], [0.9]])
    del results["baselines_by_env"]
    with pytest.raises(ValueError, match=r"baselines for `v2`"):
        normalised_seed_scores(results)


@pytest.mark.slow
@needs_rliable
def test_the_iqm_and_the_improvement_read_each_run_on_its_own_envs_scale():
    report = reliable_report(_two_envs(), reps=200, poi_reps=200)
    assert report["variants"]["b"]["iqm"] == pytest.approx(0.85)
    assert report["poi_scale"] == "own_env"
    # b's runs score below a's raw (0.4, 0.45 against 0.5, 0.7) but above them on their own
    # env's scale (0.8, 0.9 against 0.5, 0.7): every pair of runs favours b.
    assert report["variants"]["b"]["vs"]["a"]["poi"] == 1.0


@pytest.mark.slow
@needs_rliable
def test_a_missing_baseline_or_an_unknown_reference_is_refused_by_name():
    results = _results({"a": [0.5]})
    with pytest.raises(ValueError, match=r"Unknown reference variant 'aa'. Did you mean 'a'"):
        reliable_report(results, references=["aa"], reps=10, poi_reps=10)
    del results["baselines"]["oracle"]
    with pytest.raises(ValueError, match=r"missing \['oracle'\]"):
        normalised_seed_scores(results)


@pytest.mark.slow
@needs_rliable
def test_the_performance_profile_picture_is_drawn(tmp_path):
    path = plot_performance_profiles(
        _results({"a": [0.2, 0.5, 0.7], "b": [0.6, 0.8, 0.9]}), tmp_path / "p.png", reps=50
    )
    assert path.stat().st_size > 1000


def test_the_committed_reliable_figures_are_those_of_the_committed_results():
    sys.path.insert(0, str(ROOT / "docs"))
    import reliable_report as script

    stored = json.loads((ROOT / "results" / "reliable.json").read_text(encoding="utf-8"))
    studies = script.study_files()
    assert set(stored) == set(studies)
    for name, results in studies.items():
        assert stored[name]["inputs"] == script.inputs_of(results), (
            f"results/reliable.json is stale for {name}: run `make readme`"
        )
        assert stored[name]["references"] == [
            results["reference"],
            *results.get("compare_to", ()),
        ]
