"""`rlm-gym train` / `evaluate` on run directories: the run's env, rl-zoo3 files, a taken name."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("stable_baselines3")

from rlm_gym.cli import main
from rlm_gym.training.runs import read_run_config

pytestmark = pytest.mark.slow


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


def test_the_cli_takes_a_reward_schedule_from_the_flag_and_records_it(tmp_path):
    run_dir = tmp_path / "flag"
    argv = ["train", "--env", "CartPole-v1", "--policy", "lenient", "--timesteps", "128"]
    schedule = ["--reward-schedule", "success=0:1,64:0", "--reward-schedule-interpolation", "step"]
    assert (
        main([*argv, *schedule, "--log-dir", str(run_dir), "--eval-episodes", "0", "--quiet"]) == 0
    )
    assert read_run_config(run_dir)["reward_schedule"] == {
        "interpolation": "step",
        "breakpoints": {"success": [[0, 1.0], [64, 0.0]]},
    }


def test_the_cli_reads_reward_schedule_from_the_hyperparams_file(tmp_path):
    pytest.importorskip("yaml")
    zoo = tmp_path / "ppo.yml"
    zoo.write_text(
        "CartPole-v1:\n  n_timesteps: 128\n  n_envs: 2\n"
        "  reward_schedule: {breakpoints: {success: [[0, 1.0], [100, 0.5]]}}\n"
    )
    run_dir = tmp_path / "zoo"
    argv = ["train", "--env", "CartPole-v1", "--policy", "lenient", "--hyperparams", str(zoo)]
    assert main([*argv, "--log-dir", str(run_dir), "--eval-episodes", "0", "--quiet"]) == 0
    assert read_run_config(run_dir)["reward_schedule"] == {
        "interpolation": "linear",
        "breakpoints": {"success": [[0, 1.0], [100, 0.5]]},
    }
