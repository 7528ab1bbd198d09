"""rlm-gym replay: a trained agent's crawl, step by step, and as a GIF."""

from __future__ import annotations

import pytest

pytest.importorskip("stable_baselines3")
from PIL import Image

from rlm_gym.cli import main
from rlm_gym.envs import CRAWL_ENV_ID
from rlm_gym.training import train
from rlm_gym.training.playback import replay


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("replay") / "run"
    result = train(
        CRAWL_ENV_ID,
        "crawl",
        total_timesteps=256,
        n_envs=1,
        hyperparams={"n_steps": 256},  # one whole rollout: no short-budget warning
        log_dir=out,
        progress_bar=False,
        tensorboard=False,
        eval_freq=0,
        n_eval_episodes=0,
    )
    return result.log_dir


def test_replay_prints_a_line_per_step_and_the_crawl_score(run_dir):
    lines: list[str] = []
    records = replay(run_dir, episodes=2, echo=lines.append)
    assert len(records) == 2
    steps = [line for line in lines if line.lstrip().startswith("step")]
    assert len(steps) == sum(record["steps"] for record in records)
    assert sum(line.lstrip().startswith("=> crawl score") for line in lines) == 2
    assert all(0.0 <= record["score"] <= 1.0 for record in records)


def test_replay_gif_holds_one_frame_per_step_plus_the_first(run_dir, tmp_path):
    gif = tmp_path / "crawl.gif"
    records = replay(run_dir, episodes=1, gif=gif, echo=lambda line: None)
    image = Image.open(gif)
    assert image.n_frames == records[0]["steps"] + 1


def test_replay_cli_on_a_missing_run_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nope" in err[0]
