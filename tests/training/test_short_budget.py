"""A budget below one PPO rollout is said out loud; a best model is named with its evaluation."""

from __future__ import annotations

import pytest

from rlm_gym.training.run_config import RunConfig, ShortBudgetWarning, short_budget_message

pytest.importorskip("stable_baselines3")

from rlm_gym.cli import main

CARTPOLE = ["train", "--env", "CartPole-v1", "--policy", "lenient"]


def test_a_budget_below_one_rollout_names_the_budget_the_rollout_and_the_smallest_budget():
    message = short_budget_message(100, 4)
    assert message is not None
    assert "`total_timesteps` (--timesteps) 100" in message
    assert "1,024 x 4 = 4,096 steps" in message
    assert "smallest budget that trains the recipe's rollout is 4,096" in message


def test_a_budget_of_a_whole_rollout_says_nothing():
    assert short_budget_message(4_096, 4) is None
    assert short_budget_message(256, 2, {"n_steps": 128}) is None


def test_a_run_config_below_one_rollout_warns_and_records_the_cut_rollout():
    with pytest.warns(ShortBudgetWarning, match="cut to 25 x 4 = 100 steps"):
        config = RunConfig("CartPole-v1", total_timesteps=100, n_envs=4)
    assert config.hyperparams["n_steps"] == 25


@pytest.mark.slow
def test_the_cli_warns_of_a_short_budget_even_when_quiet(tmp_path, capsys):
    argv = [*CARTPOLE, "--timesteps", "100", "--log-dir", str(tmp_path / "run")]
    assert main([*argv, "--eval-episodes", "2", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert err.count("rlm-gym train: warning: `total_timesteps` (--timesteps) 100 is below") == 1


@pytest.mark.slow
def test_the_best_model_is_named_with_the_evaluation_that_chose_it(tmp_path, capsys):
    argv = [*CARTPOLE, "--timesteps", "256", "--hp", "n_steps=64", "--eval-episodes", "2"]
    assert main([*argv, "--log-dir", str(tmp_path / "run"), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "best_model.zip (the best of 1 evaluation on the true score: " in out
    assert "at 256 steps)" in out


@pytest.mark.slow
def test_no_evaluation_no_best_model_claimed(tmp_path, capsys):
    argv = [*CARTPOLE, "--timesteps", "256", "--hp", "n_steps=64", "--eval-episodes", "0"]
    assert main([*argv, "--log-dir", str(tmp_path / "run"), "--quiet"]) == 0
    assert "best_model" not in capsys.readouterr().out
    assert not (tmp_path / "run" / "best_model.zip").exists()
