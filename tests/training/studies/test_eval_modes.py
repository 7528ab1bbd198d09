"""Greedy against sampled play of a study's finished runs."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace

import pytest

from rlm_gym.envs import CRAWL_ENV_ID
from rlm_gym.training.evaluation import evaluate
from rlm_gym.training.studies.eval_modes import main, sampled_scores, study_eval_modes


def test_sampled_play_is_reproducible_per_sampling_seed(trained):
    first = sampled_scores(trained.model, CRAWL_ENV_ID, 4, 0, sampling_seeds=(7, 8))
    again = sampled_scores(trained.model, CRAWL_ENV_ID, 4, 0, sampling_seeds=(7, 8))
    assert first == again
    assert len(first) == 2


def test_sampled_play_scores_what_evaluate_scores_with_sampled_actions(trained):
    (score,) = sampled_scores(trained.model, CRAWL_ENV_ID, 3, 5, sampling_seeds=(4,))
    trained.model.set_random_seed(4)
    expected = evaluate(trained.model, CRAWL_ENV_ID, 3, 5, deterministic=False)
    assert score == pytest.approx(expected.summary()["score"])


def test_no_sampling_seed_is_refused_by_name(trained):
    with pytest.raises(ValueError, match="`sampling_seeds`"):
        sampled_scores(trained.model, CRAWL_ENV_ID, 2, 0, sampling_seeds=())


def _fake_run(trained, runs_dir, variant, greedy):
    """A finished run of ``moonshot-screen``: the package's tiny model and a row.json."""
    run_dir = runs_dir / "moonshot-screen" / variant / "seed_0"
    shutil.copytree(trained.log_dir, run_dir)
    (run_dir / "row.json").write_text(json.dumps({"score": greedy}), encoding="utf-8")


def test_a_studys_finished_runs_are_played_greedy_beside_sampled(trained, tmp_path, monkeypatch):
    # The study's 300 evaluation episodes on Crawl-v2 would take the tiny model a while: 3 on
    # the env it was trained on tell the same thing.
    from rlm_gym.training.studies.plans import STUDIES

    small = replace(STUDIES["moonshot-screen"], n_eval_episodes=3, env_id=CRAWL_ENV_ID)
    monkeypatch.setitem(STUDIES, "moonshot-screen", small)
    _fake_run(trained, tmp_path, "demo-2M", greedy=0.5)
    results = study_eval_modes("moonshot-screen", tmp_path, sampling_seeds=(0, 1))
    (run,) = results["runs"]
    assert (run["variant"], run["seed"], run["greedy"]) == ("demo-2M", 0, 0.5)
    assert run["sampled"] == sampled_scores(
        trained.model, CRAWL_ENV_ID, 3, results["eval_seed"], sampling_seeds=(0, 1)
    )
    assert run["sampled_minus_greedy"] == pytest.approx(sum(run["sampled"]) / 2 - 0.5)


def test_an_unknown_variant_is_refused_by_name(tmp_path):
    with pytest.raises(ValueError, match=r"`variants`.*'nope'"):
        study_eval_modes("moonshot-screen", tmp_path, variants=["nope"])


def test_a_study_without_finished_runs_is_refused(tmp_path):
    with pytest.raises(ValueError, match="No finished run"):
        main(["--study", "moonshot-screen", "--runs-dir", str(tmp_path)])
