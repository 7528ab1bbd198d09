"""``run_study``: runs resume from their rows; ``train=False`` reports what is finished."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("stable_baselines3")

from rlm_gym.training.evaluation import evaluate
from rlm_gym.training.numerics import numerics
from rlm_gym.training.studies.runner import STUDIES, Study, run_study, summarise_study

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


@pytest.mark.parametrize("name", ["defaults", "ablation", "demo-version"])
def test_a_study_with_no_finished_run_leaves_the_committed_results_untouched(
    name, tmp_path, monkeypatch
):
    from rlm_gym.cli import main

    shutil.copytree(ROOT / "results", tmp_path / "results")  # a fresh clone: results, no runs
    committed = (ROOT / "results" / f"{name}.json").read_bytes()
    monkeypatch.chdir(tmp_path)
    assert main(["study", name, "--no-train", "--quiet"]) == 0
    assert (tmp_path / "results" / f"{name}.json").read_bytes() == committed


def test_resummarise_writes_the_file_anew_from_the_runs_it_holds(tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    rows = [_row(v, 0, 0.6) for v in ("binary", "crawl")]
    held = summarise_study(TINY, rows, BASELINES)
    del held["variants"]["crawl"]["scores"]  # a file written by an older summary
    (results / "tiny.json").write_text(json.dumps(held))
    kwargs = {"runs_dir": tmp_path / "runs", "results_dir": results, "progress": False}
    assert "scores" not in run_study(TINY, train=False, **kwargs)["variants"]["crawl"]
    rewritten = run_study(TINY, train=False, resummarise=True, **kwargs)
    assert rewritten["variants"]["crawl"]["scores"] == [0.6]
    assert _strict((results / "tiny.json").read_text()) == rewritten


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


V2 = "rlm_gym/Crawl-v2"
# A variant trained and scored on another env than the study's (as demo-version's Crawl-v2).
TWO_ENVS = replace(TINY, name="two-envs", variants={"v1": {}, "v2": {"env_id": V2}}, reference="v1")


def _baseline_scores(env_id: str) -> dict[str, float]:
    return {
        name: evaluate(name, env_id, TINY.n_eval_episodes, TINY.eval_seed).summary()["score"]
        for name in TINY.baselines
    }


@pytest.mark.slow
def test_a_variant_on_another_env_is_scored_and_normalised_on_that_env(tmp_path):
    report = run_study(
        TWO_ENVS, runs_dir=tmp_path / "runs", results_dir=tmp_path, seeds=(0,), progress=False
    )
    on_v1, on_v2 = _baseline_scores(TINY.env_id), _baseline_scores(V2)
    assert on_v1["oracle"] != on_v2["oracle"]  # the episodes tell the two envs apart
    assert {k: v["score"] for k, v in report["baselines"].items()} == on_v1
    assert {k: v["score"] for k, v in report["baselines_by_env"][V2].items()} == on_v2
    v2 = report["variants"]["v2"]
    assert v2["env_id"] == V2 and v2["per_seed"][0]["train_timesteps"] == 256
    low, high = on_v2["random"], on_v2["oracle"]
    assert v2["normalised"] == pytest.approx((v2["score"] - low) / (high - low))


def test_no_train_scores_the_baselines_of_an_env_the_file_lacks_and_keeps_its_runs(tmp_path):
    rows = [_row("v1", 0, 0.5), _row("v2", 0, 0.7)]
    old = summarise_study(TWO_ENVS, rows, BASELINES, {V2: BASELINES})
    # A file from before the baselines were scored per env: the study env's only.
    del old["baselines_by_env"]
    for row in old["variants"].values():
        del row["env_id"]
    (tmp_path / "two-envs.json").write_text(json.dumps(old))
    report = run_study(
        TWO_ENVS, runs_dir=tmp_path / "runs", results_dir=tmp_path, train=False, progress=False
    )
    assert report["baselines"] == BASELINES  # the file's own, not scored again
    on_v2 = {k: v["score"] for k, v in report["baselines_by_env"][V2].items()}
    assert on_v2 == _baseline_scores(V2)
    v2 = report["variants"]["v2"]
    assert v2["per_seed"] == [_row("v2", 0, 0.7)] and report["runs_done"] == 2
    assert v2["normalised"] == pytest.approx(
        (0.7 - on_v2["random"]) / (on_v2["oracle"] - on_v2["random"])
    )
    assert _strict((tmp_path / "two-envs.json").read_text()) == report
    # Once they are held, the file is complete: nothing new, left as it is.
    written = (tmp_path / "two-envs.json").read_bytes()
    run_study(TWO_ENVS, runs_dir=tmp_path / "runs", results_dir=tmp_path, train=False)
    assert (tmp_path / "two-envs.json").read_bytes() == written


def test_every_committed_study_holds_the_baselines_of_each_variants_env():
    from rlm_gym.training.studies.summary import variant_baselines

    for path in sorted((ROOT / "results").glob("*.json")):
        results = json.loads(path.read_text(encoding="utf-8"))
        # A study's results (not a file about one, such as oracle-gap.json).
        if results.get("study") not in STUDIES or "variants" not in results:
            continue
        for name, row in results["variants"].items():
            env_id = (row.get("settings") or {}).get("env_id", results["env_id"])
            assert row.get("env_id", env_id) == env_id, (path.name, name)
            scale = variant_baselines(results, name)  # raises for an env without baselines
            if row["seeds"]:
                low, high = scale["random"]["score"], scale["oracle"]["score"]
                assert row["normalised"] == pytest.approx((row["score"] - low) / (high - low))
