"""``reproduce``: a short re-run of a recorded study run against its learning curve."""

from __future__ import annotations

import copy

import pytest

from rlm_gym.training.studies.plans import STUDIES, Study
from rlm_gym.training.studies.reproduce import check_run, compare_curve

HERE = {"cpu": "A", "torch_cpu_capability": "AVX512", "env": {}}
ROW = {
    "curve": [{"timestep": 8, "score": 0.5}, {"timestep": 16, "score": 0.625}],
    "numerics": [HERE],
}


def test_equal_points_reproduce():
    check = compare_curve(ROW, [(8, 0.5), (16, 0.625)], HERE)
    assert check.first_difference is None and check.numerics == []
    assert check.verdict().startswith("reproduces: the 2 curve points up to 16 steps")


def test_a_point_that_differs_on_the_same_platform_blames_the_code():
    check = compare_curve(ROW, [(8, 0.5), (16, 0.6250000000000001)], HERE)
    assert check.first_difference == 16
    assert "parts from the recorded run at 16 steps" in check.verdict()
    assert check.verdict().endswith(
        "same float platform: the code changed since the run was recorded"
    )


def test_a_point_that_differs_on_another_platform_is_expected():
    other = {**HERE, "torch_cpu_capability": "AVX2"}
    check = compare_curve(ROW, [(8, 0.5), (16, 0.7)], other)
    assert check.numerics == ["torch_cpu_capability: AVX512 -> AVX2"]
    assert "the float platform differs (torch_cpu_capability: AVX512 -> AVX2): expected" in (
        check.verdict()
    )


def test_a_run_without_numerics_leaves_the_cause_open():
    row = {"curve": ROW["curve"]}  # a file written before runs recorded their platform
    check = compare_curve(row, [(8, 0.4)], HERE)
    assert check.first_difference == 8
    assert "cannot be told from a code change" in check.verdict()


def test_a_point_the_file_lacks_counts_as_a_difference():
    check = compare_curve(ROW, [(8, 0.5), (16, 0.625), (24, 0.7)], HERE)
    assert check.points[-1] == (24, None, 0.7) and check.first_difference == 24


def test_bad_requests_are_refused_before_any_training(tmp_path):
    with pytest.raises(ValueError, match="ablation"):
        check_run("ablatoin", "full", 0)
    with pytest.raises(ValueError, match=r"steps: 10000 .* eval_freq 8,192 .*closest: 8192"):
        check_run("ablation-16envs", "full", 0, steps=10_000)
    with pytest.raises(ValueError, match=r"steps: 10000 .* eval_freq 16,384 .*closest: 16384"):
        check_run("ablation", "full", 0, steps=10_000)
    with pytest.raises(ValueError, match="steps: 0 "):
        check_run("ablation", "full", 0, steps=0)
    with pytest.raises(ValueError, match="records no learning curve"):
        check_run(STUDIES["demo-version"], "Crawl-v2", 0)
    with pytest.raises(FileNotFoundError, match="No results file"):
        check_run("ablation", "full", 0, results_dir=tmp_path)
    results = {"variants": {"full": {"per_seed": [{"seed": 0, "curve": []}]}}}
    with pytest.raises(ValueError, match=r"variant.*'ful'.*full"):
        check_run("ablation", "ful", 0, results=results)
    with pytest.raises(ValueError, match=r"seed: 3 .*finished seeds: \[0\]"):
        check_run("ablation", "full", 3, results=results)


@pytest.mark.slow
def test_a_run_study_wrote_reproduces_and_a_changed_point_is_found(tmp_path):
    pytest.importorskip("stable_baselines3")
    from rlm_gym.training.studies.runner import run_study

    study = Study(
        name="curves",
        question="?",
        variants={"crawl": {}},
        reference="crawl",
        seeds=(0,),
        total_timesteps=256,
        n_eval_episodes=2,
        n_envs=2,
        hyperparams={"n_steps": 64, "batch_size": 64, "n_epochs": 1},
        baselines=("random", "oracle"),
        curve_eval={"eval_freq": 128, "n_eval_episodes": 2, "eval_seed": 7},
    )
    results = run_study(study, runs_dir=tmp_path, results_dir=tmp_path, progress=False)
    check = check_run(study, "crawl", 0, results_dir=tmp_path, steps=256)
    assert [t for t, _, _ in check.points] == [128, 256]
    assert check.first_difference is None and check.numerics == []
    changed = copy.deepcopy(results)
    changed["variants"]["crawl"]["per_seed"][0]["curve"][1]["score"] += 1e-9
    again = check_run(study, "crawl", 0, results=changed, steps=256)
    assert again.first_difference == 256
    assert "the code changed" in again.verdict()
