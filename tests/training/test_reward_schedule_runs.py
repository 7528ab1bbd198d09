"""Runs with a reward schedule: recorded in config.json, weights logged, restored on resume."""

from __future__ import annotations

import csv
import os
import signal

import pytest

pytest.importorskip("stable_baselines3")

from rlm_gym import WeightSchedule
from rlm_gym.training import lifecycle
from rlm_gym.training.runs import read_run_config
from rlm_gym.training.trainer import TrainingInterrupted, resume, train

pytestmark = pytest.mark.slow
SCHEDULE = WeightSchedule({"success": [(0, 1.0), (1024, 0.0)]})
ROLLOUT = 128  # 2 envs x 64 steps
TINY = {
    "total_timesteps": 1024,
    "n_envs": 2,
    "n_eval_episodes": 0,
    "progress_bar": False,
    "hyperparams": {"n_steps": 64, "batch_size": 64, "n_epochs": 1},
}


def _logged_weights(run_dir):
    """(total_timesteps, reward_weight/success) of each progress.csv row."""
    with (run_dir / "progress.csv").open(newline="") as file:
        rows = list(csv.DictReader(file))
    return [(int(row["time/total_timesteps"]), float(row["reward_weight/success"])) for row in rows]


def _expected(logged):
    # Each row's weight was recorded at its rollout's start, one rollout before its step count.
    return [SCHEDULE.weights_at(step - ROLLOUT)["success"] for step, _ in logged]


def test_a_run_records_its_schedule_and_logs_the_scheduled_weights(tmp_path):
    result = train(
        "CartPole-v1", "lenient", log_dir=tmp_path / "run", reward_schedule=SCHEDULE, **TINY
    )
    assert read_run_config(result.log_dir)["reward_schedule"] == SCHEDULE.to_dict()
    logged = _logged_weights(result.log_dir)
    assert [step for step, _ in logged] == list(range(ROLLOUT, 1025, ROLLOUT))
    assert [weight for _, weight in logged] == pytest.approx(_expected(logged))
    assert logged[-1][1] < logged[0][1] == 1.0


@pytest.mark.parametrize("wrapping", ["per_env", "vector"])
def test_resume_continues_with_the_schedule_where_it_stopped(tmp_path, monkeypatch, wrapping):
    original = lifecycle.RunCallback._on_step

    def interrupt_once(self):
        if self.model.num_timesteps >= 300 and not self.flag.stopped:
            os.kill(os.getpid(), signal.SIGINT)
        return original(self)

    monkeypatch.setattr(lifecycle.RunCallback, "_on_step", interrupt_once)
    with pytest.raises(TrainingInterrupted) as raised:
        train(
            "CartPole-v1",
            "lenient",
            log_dir=tmp_path / "run",
            reward_schedule=SCHEDULE,
            checkpoint_freq=ROLLOUT,
            reward_wrapping=wrapping,
            **TINY,
        )
    run_dir = raised.value.run_dir
    stopped_at = read_run_config(run_dir)["timesteps_done"]
    monkeypatch.setattr(lifecycle.RunCallback, "_on_step", original)

    resume(run_dir, progress_bar=False)
    config = read_run_config(run_dir)
    assert config["status"] == "finished"
    assert config["reward_schedule"] == SCHEDULE.to_dict()
    assert config["reward_wrapping"] == wrapping
    logged = _logged_weights(run_dir)
    after = [(step, weight) for step, weight in logged if step > stopped_at]
    assert after and [w for _, w in after] == pytest.approx(_expected(after))
