"""``run_study``: runs resume from their rows; ``train=False`` reports what is finished."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("stable_baselines3")

from rlm_gym.training.study import Study, run_study

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
    forced = run_study(
        study,
        runs_dir=tmp_path / "forced",
        results_dir=tmp_path,
        total_timesteps=128,
        progress=False,
    )
    assert {row["total_timesteps"] for row in forced["variants"].values()} == {128}
    assert forced["variants"]["long"]["per_seed"][0]["train_timesteps"] == 128
