"""Runs that never lose work, in process: new directories, status, best model, interrupt, resume."""

from __future__ import annotations

import json
import os
import signal
import sys

import pytest

pytest.importorskip("stable_baselines3")

from rlm_gym.cli import main
from rlm_gym.training import lifecycle
from rlm_gym.training.runs import read_run_config
from rlm_gym.training.trainer import TrainingInterrupted, read_episodes, resume, train

pytestmark = pytest.mark.slow
TINY = {"total_timesteps": 256, "n_envs": 2, "n_eval_episodes": 2, "progress_bar": False}


def _train_cartpole(log_dir, **overrides):
    return train("CartPole-v1", "lenient", log_dir=log_dir, **{**TINY, **overrides})


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


def test_the_cli_evaluates_a_run_on_the_env_of_its_config(tmp_path, capsys):
    run_dir = tmp_path / "cartpole"
    argv = ["train", "--env", "CartPole-v1", "--policy", "lenient", "--timesteps", "256"]
    assert main([*argv, "--n-envs", "2", "--log-dir", str(run_dir), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["evaluate", str(run_dir), "--episodes", "2", "--format", "json"]) == 0
    captured = capsys.readouterr()
    (row,) = json.loads(captured.out)
    assert row["label"].endswith("model.zip") and row["score"] >= 8  # CartPole episode lengths
    assert "[1/1]" in captured.err


def test_the_cli_reads_rl_zoo_hyperparams_and_flags_win(tmp_path, capsys):
    pytest.importorskip("yaml")
    zoo = tmp_path / "ppo.yml"
    zoo.write_text(
        "CartPole-v1:\n  n_envs: 2\n  n_timesteps: !!float 256\n  policy: 'MlpPolicy'\n"
        "  gamma: 0.98\n  n_epochs: 20\n  learning_rate: lin_0.001\n"
    )
    run_dir = tmp_path / "zoo"
    argv = ["train", "--env", "CartPole-v1", "--policy", "lenient", "--hyperparams", str(zoo)]
    assert main([*argv, "--hp", "n_epochs=2", "--log-dir", str(run_dir), "--quiet"]) == 0
    config = read_run_config(run_dir)
    assert (config["total_timesteps"], config["n_envs"]) == (256, 2)
    assert config["hyperparams"]["gamma"] == 0.98 and config["hyperparams"]["n_epochs"] == 2
    assert config["hyperparams"]["learning_rate"] == "lin_0.001"


def test_train_from_python_prints_progress_lines_without_tqdm(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm now raises ImportError
    _train_cartpole(tmp_path / "run", progress_bar=True)
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines and lines[-1].startswith("train run: 256/256 steps (100 %)")


def test_the_cli_says_where_a_taken_run_directory_went(tmp_path, capsys):
    run_dir = tmp_path / "taken"
    run_dir.mkdir()
    (run_dir / "notes.txt").write_text("keep me")
    argv = ["train", "--env", "CartPole-v1", "--policy", "lenient", "--timesteps", "128"]
    assert main([*argv, "--log-dir", str(run_dir), "--eval-episodes", "0", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert f"wrote this one to {run_dir}-2" in captured.err
    assert (run_dir / "notes.txt").read_text() == "keep me"
    assert (tmp_path / "taken-2" / "model.zip").is_file()
