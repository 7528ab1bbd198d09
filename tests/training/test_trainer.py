"""train / resume end to end, on tiny budgets: the files of a run, its status, interrupt, resume."""

from __future__ import annotations

import json
import os
import signal
import sys

import pytest

pytest.importorskip("stable_baselines3")

from rlm_gym.crawl import WEIGHTED_COMPONENTS as RAW_SCORES
from rlm_gym.envs import CRAWL_ENV_ID
from rlm_gym.training import lifecycle
from rlm_gym.training.evaluation import evaluate
from rlm_gym.training.runs import read_episodes, read_run_config
from rlm_gym.training.trainer import TrainingInterrupted, resume, train

# Tiny budgets on purpose (seconds per run): each cuts PPO's rollout to fit, which
# tests/training/test_short_budget.py asserts warns; here the warning is expected and silenced.
_SHORT_BUDGET = pytest.mark.filterwarnings("ignore::rlm_gym.training.run_config.ShortBudgetWarning")
pytestmark = [pytest.mark.slow, _SHORT_BUDGET]
CRAWL = CRAWL_ENV_ID
TINY = {"total_timesteps": 256, "n_envs": 2, "n_eval_episodes": 2, "progress_bar": False}


def _train_cartpole(log_dir, **overrides):
    return train("CartPole-v1", "lenient", log_dir=log_dir, **{**TINY, **overrides})


def test_train_writes_model_config_metrics_and_episodes(trained):
    files = {path.name for path in trained.log_dir.iterdir()}
    assert {"model.zip", "config.json", "metrics.json", "episodes.csv", "progress.csv"} <= files
    config = json.loads((trained.log_dir / "config.json").read_text())
    assert config["policy"] == "crawl" and config["seed"] == 3
    assert config["algo"] == "maskable_ppo"
    metrics = json.loads((trained.log_dir / "metrics.json").read_text())
    assert metrics["timesteps"] == 512
    assert metrics["episodes"] == len(trained.episodes) > 0


def test_the_episodes_file_holds_every_episode_the_run_recorded(tmp_path):
    # Checkpoints append their new episodes: the file must equal one whole rewrite of them.
    trained = _train_cartpole(tmp_path / "run", checkpoint_freq=64, total_timesteps=512)
    path = trained.log_dir / "episodes.csv"
    assert read_episodes(path) == read_episodes(_rewritten(trained.episodes, tmp_path))
    assert len(read_episodes(path)) == len(trained.episodes) > 10


def _rewritten(episodes, tmp_path):
    from rlm_gym.training.runs import write_episodes

    write_episodes(episodes, tmp_path / "whole.csv")
    return tmp_path / "whole.csv"


def test_training_episodes_carry_the_true_crawl_score(trained):
    record = trained.episodes[0]
    assert 0.0 <= record["true_score"] <= 1.0
    assert record["true_score"] == pytest.approx(record["shaped_return"])  # crawl == env reward
    assert set(RAW_SCORES) <= set(record)


def test_maskable_ppo_trains_and_evaluates_with_masks():
    result = train(CRAWL, "crawl", total_timesteps=256, n_envs=2, seed=0, algo="maskable_ppo")
    evaluation = evaluate(result.model, CRAWL, n_episodes=4, seed=0)
    assert len(evaluation.episodes) == 4


def test_disabled_components_are_zero_while_true_score_is_not():
    result = train(CRAWL, "crawl", disable=("validation",), total_timesteps=256, n_envs=2)
    assert any(e["true_score"] > e["shaped_return"] for e in result.episodes)


def test_unknown_algo_is_rejected_with_a_suggestion():
    with pytest.raises(ValueError, match="Did you mean 'ppo'"):
        train(CRAWL, "crawl", total_timesteps=64, algo="ppo2")


def test_a_second_run_gets_a_new_directory_and_the_first_is_untouched(tmp_path):
    first = _train_cartpole(tmp_path / "run")
    model_bytes = (first.log_dir / "model.zip").read_bytes()
    second = _train_cartpole(tmp_path / "run", seed=1)
    assert (first.log_dir.name, second.log_dir.name) == ("run", "run-2")
    assert (first.log_dir / "model.zip").read_bytes() == model_bytes
    assert read_run_config(first.log_dir)["seed"] == 0
    assert read_run_config(second.log_dir)["seed"] == 1


def test_a_finished_run_records_its_status_best_model_and_evaluations(tmp_path):
    result = _train_cartpole(tmp_path / "run")
    config = read_run_config(result.log_dir)
    assert config["status"] == "finished" and config["timesteps_done"] >= 256
    assert json.loads((result.log_dir / "metrics.json").read_text())["status"] == "finished"
    evaluations = json.loads((result.log_dir / "evaluations.json").read_text())
    assert evaluations[-1]["timestep"] == config["timesteps_done"]
    assert (result.log_dir / "best_model.zip").is_file()
    assert config["best"]["score"] == max(e["score"] for e in evaluations)
    assert not (result.log_dir / "checkpoint.zip").exists()


def test_a_finished_run_cannot_be_resumed(tmp_path):
    result = _train_cartpole(tmp_path / "run")
    with pytest.raises(ValueError, match="already finished"):
        resume(result.log_dir)


def test_an_interrupted_run_is_saved_and_resumes_to_the_budget(tmp_path, monkeypatch):
    original = lifecycle.RunCallback._on_step

    def interrupt_once(self):
        if self.model.num_timesteps >= 600 and not self.flag.stopped:
            os.kill(os.getpid(), signal.SIGINT)
        return original(self)

    monkeypatch.setattr(lifecycle.RunCallback, "_on_step", interrupt_once)
    budget = {"total_timesteps": 2048, "hyperparams": {"n_steps": 128}, "checkpoint_freq": 256}
    with pytest.raises(TrainingInterrupted) as raised:
        _train_cartpole(tmp_path / "run", **budget)
    run_dir = raised.value.run_dir
    assert raised.value.signum == signal.SIGINT
    config = read_run_config(run_dir)
    assert config["status"] == "interrupted"
    stopped_at = config["timesteps_done"]
    assert 600 <= stopped_at < 2048 and config["checkpoint_timesteps"] == stopped_at
    assert (run_dir / "checkpoint.zip").is_file() and not (run_dir / "model.zip").exists()

    monkeypatch.setattr(lifecycle.RunCallback, "_on_step", original)
    resumed = resume(run_dir, progress_bar=False)
    config = read_run_config(run_dir)
    assert config["status"] == "finished" and config["timesteps_done"] >= 2048
    assert [s["from_timesteps"] for s in config["segments"]] == [0, stopped_at]
    steps = [e["timestep"] for e in read_episodes(run_dir / "episodes.csv")]
    assert steps == sorted(steps) and steps[-1] <= config["timesteps_done"]
    assert len(steps) == len(resumed.episodes)


def test_train_from_python_prints_progress_lines_without_tqdm(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm now raises ImportError
    _train_cartpole(tmp_path / "run", progress_bar=True)
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines and lines[-1].startswith("train run: 256/256 steps (100 %)")


def test_each_segment_records_the_float_platform_it_trained_on(trained):
    from rlm_gym.training.numerics import numerics

    config = json.loads((trained.log_dir / "config.json").read_text())
    (segment,) = config["segments"]
    here = numerics()
    assert segment["numerics"]["cpu"] == here["cpu"]
    assert segment["numerics"]["versions"] == here["versions"]
    assert segment["numerics"]["torch_threads"] == 1  # RunConfig's torch_threads, set first
