"""``run_study``: runs resume from their rows; ``train=False`` reports what is finished."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("stable_baselines3")

from rlm_gym.training.numerics import numerics
from rlm_gym.training.studies.runner import Study, run_study, summarise_study

TINY = Study(
    name="tiny",
    question="?",
    variants={"binary": {"policy": "binary"}, "crawl": {}},
    reference="binary",
    seeds=(0, 1),
    total_timesteps=256,
    n_eval_episodes=2,
    n_envs=2,
    hyperparams={"n_steps": 64, "batch_size": 64, "n_epochs": 1},
    baselines=("random", "oracle"),
)


@pytest.mark.slow
def test_no_train_reports_the_finished_seeds_and_trains_nothing(tmp_path):
    runs, results = tmp_path / "runs", tmp_path / "results"
    run_study(TINY, runs_dir=runs, results_dir=results, seeds=(0,), n_workers=1, progress=False)
    assert sorted(p.parent.parent.name for p in runs.glob("tiny/*/seed_0/row.json")) == [
        "binary",
        "crawl",
    ]
    report = run_study(TINY, runs_dir=runs, results_dir=results, train=False, progress=False)
    assert not list(runs.glob("tiny/*/seed_1"))  # nothing trained
    assert report["runs_done"] == 2 and report["runs_planned"] == 4
    assert report["seeds_complete"] == [0]
    assert report["variants"]["crawl"]["seeds"] == [0]
    assert json.loads((results / "tiny.json").read_text()) == json.loads(json.dumps(report))
    # Training again resumes: seed 0 is read back, only seed 1 is trained.
    again = run_study(TINY, runs_dir=runs, results_dir=results, n_workers=1, progress=False)
    assert again["seeds_complete"] == [0, 1]
    assert again["variants"]["crawl"]["per_seed"][0] == report["variants"]["crawl"]["per_seed"][0]
    # Each row says which float platform trained it (one entry: trained in one go, here).
    (recorded,) = again["variants"]["crawl"]["per_seed"][1]["numerics"]
    assert recorded == {**numerics(), "torch_threads": 1}


@pytest.mark.slow
def test_a_variant_with_its_own_budget_trains_for_it_unless_a_budget_is_forced(tmp_path):
    study = Study(
        name="budgets",
        question="?",
        variants={"short": {"policy": "binary"}, "long": {"total_timesteps": 512}},
        reference="short",
        seeds=(0,),
        total_timesteps=256,
        n_eval_episodes=2,
        n_envs=2,
        hyperparams={"n_steps": 64, "batch_size": 64, "n_epochs": 1},
        baselines=("random", "oracle"),
    )
    report = run_study(study, runs_dir=tmp_path / "runs", results_dir=tmp_path, progress=False)
    variants = report["variants"]
    assert variants["short"]["total_timesteps"] == 256
    assert variants["long"]["total_timesteps"] == 512
    assert variants["short"]["per_seed"][0]["train_timesteps"] == 256
    assert variants["long"]["per_seed"][0]["train_timesteps"] == 512
    forced = run_study(  # a forced budget is another study's results: another file
        study,
        runs_dir=tmp_path / "forced",
        results_dir=tmp_path / "forced",
        total_timesteps=128,
        progress=False,
    )
    assert {row["total_timesteps"] for row in forced["variants"].values()} == {128}
    assert forced["variants"]["long"]["per_seed"][0]["train_timesteps"] == 128


ROOT = Path(__file__).resolve().parents[3]
BASELINES = {"random": {"score": 0.3}, "oracle": {"score": 0.9}}


def _row(variant: str, seed: int, score: float) -> dict:
    return {"variant": variant, "seed": seed, "score": score}


def _strict(text: str) -> dict:
    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("name", ["defaults", "ablation"])
def test_a_study_with_no_finished_run_leaves_the_committed_results_untouched(
    name, tmp_path, monkeypatch
):
    from rlm_gym.cli import main

    shutil.copytree(ROOT / "results", tmp_path / "results")  # a fresh clone: results, no runs
    committed = (ROOT / "results" / f"{name}.json").read_bytes()
    monkeypatch.chdir(tmp_path)
    assert main(["study", name, "--no-train", "--quiet"]) == 0
    assert (tmp_path / "results" / f"{name}.json").read_bytes() == committed


def test_a_partial_rerun_merges_its_runs_into_the_results_file(tmp_path):
    runs, results = tmp_path / "runs", tmp_path / "results"
    results.mkdir()
    first = summarise_study(TINY, [_row("binary", 0, 0.5), _row("crawl", 0, 0.7)], BASELINES)
    (results / "tiny.json").write_text(json.dumps(first))
    for variant, score in (("binary", 0.4), ("crawl", 0.8)):  # seed 1 finished since
        row_dir = runs / "tiny" / variant / "seed_1"
        row_dir.mkdir(parents=True)
        (row_dir / "row.json").write_text(json.dumps(_row(variant, 1, score)))
    merged = run_study(TINY, runs_dir=runs, results_dir=results, train=False, progress=False)
    assert merged["seeds_complete"] == [0, 1] and merged["runs_done"] == 4
    assert merged["variants"]["crawl"]["scores"] == [0.7, 0.8]
    assert _strict((results / "tiny.json").read_text()) == merged


def test_a_rerun_of_fewer_seeds_keeps_the_other_seeds_of_the_file(tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    rows = [_row(v, s, 0.5 + s / 10) for s in (0, 1) for v in ("binary", "crawl")]
    (results / "tiny.json").write_text(json.dumps(summarise_study(TINY, rows[:3], BASELINES)))
    row_dir = tmp_path / "runs" / "tiny" / "crawl" / "seed_1"
    row_dir.mkdir(parents=True)
    (row_dir / "row.json").write_text(json.dumps(rows[3]))
    merged = run_study(
        TINY, runs_dir=tmp_path / "runs", results_dir=results, seeds=(1,), train=False,
        progress=False,
    )  # fmt: skip
    assert merged["seeds_complete"] == [0, 1] and merged["runs_done"] == 4


def test_a_finished_run_the_file_holds_but_no_seed_completes_is_kept(tmp_path):
    results = tmp_path / "results"
    summary = summarise_study(TINY, [_row("crawl", 0, 0.7)], BASELINES)
    assert summary["unpaired_runs"] == [_row("crawl", 0, 0.7)]
    results.mkdir()
    (results / "tiny.json").write_text(json.dumps(summary, allow_nan=False))
    again = run_study(TINY, runs_dir=tmp_path / "runs", results_dir=results, train=False)
    assert again["unpaired_runs"] == [_row("crawl", 0, 0.7)]


def test_results_without_a_finished_seed_are_strict_json_with_nulls(tmp_path):
    report = run_study(
        TINY, runs_dir=tmp_path / "runs", results_dir=tmp_path, train=False, progress=False
    )
    written = _strict((tmp_path / "tiny.json").read_text())
    assert written == report
    crawl = written["variants"]["crawl"]
    assert crawl["seeds"] == [] and crawl["score"] is None and crawl["vs_reference"] is None


def test_one_seed_has_a_mean_but_no_interval(tmp_path):
    rows = [_row("binary", 0, 0.5), _row("crawl", 0, 0.7)]
    crawl = summarise_study(TINY, rows, BASELINES)["variants"]["crawl"]
    assert crawl["score"] == 0.7 and crawl["score_ci95"] is None
    assert crawl["normalised_ci95"] is None and crawl["vs_reference_ci95"] is None


def test_a_results_file_of_other_settings_is_refused_and_kept(tmp_path):
    (tmp_path / "tiny.json").write_text(
        json.dumps(summarise_study(TINY, [_row("binary", 0, 0.5)], BASELINES))
    )
    before = (tmp_path / "tiny.json").read_bytes()
    with pytest.raises(ValueError, match=r"total_timesteps.*--results-dir"):
        run_study(TINY, runs_dir=tmp_path / "runs", results_dir=tmp_path, total_timesteps=128)
    assert (tmp_path / "tiny.json").read_bytes() == before
