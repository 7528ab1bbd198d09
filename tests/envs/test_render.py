"""rgb_array frames and the ansi status line of the crawl env."""

from __future__ import annotations

import itertools

import gymnasium as gym
import numpy as np
import pytest

from rlm_gym.envs import CRAWL_ENV_ID, CrawlEnv
from rlm_gym.envs.render import FRAME_SHAPE
from tests.envs.episodes import play


def test_rgb_array_frames_follow_the_crawl():
    env = CrawlEnv(render_mode="rgb_array", pattern_types=["product_list"], protection="none")
    env.reset(seed=1)
    frames = [env.render()]
    for _ in play(env, lambda e: e.heuristic_action(), 1):
        frames.append(env.render())
    for frame in frames:
        assert frame.shape == FRAME_SHAPE and frame.dtype == np.uint8
        assert frame.shape[0] % 16 == 0 and frame.shape[1] % 16 == 0
    changed = sum(not np.array_equal(a, b) for a, b in itertools.pairwise(frames))
    assert changed == len(frames) - 1, "every step must change the picture"


def test_ansi_and_none_render_modes():
    assert CrawlEnv().render() is None
    env = CrawlEnv(render_mode="ansi")
    env.reset(seed=0)
    env.step(0)
    assert isinstance(env.render(), str)


def test_record_video_writes_a_video(tmp_path):
    pytest.importorskip("moviepy")
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(
        gym.make(CRAWL_ENV_ID, render_mode="rgb_array"),
        str(tmp_path / "videos"),
        episode_trigger=lambda episode: True,
        disable_logger=True,
    )
    for seed in range(2):
        env.reset(seed=seed)
        done = False
        while not done:
            _, _, terminated, truncated, _ = env.step(env.unwrapped.heuristic_action())
            done = terminated or truncated
    env.close()
    videos = sorted((tmp_path / "videos").glob("*.mp4"))
    assert len(videos) == 2 and all(video.stat().st_size > 0 for video in videos)
