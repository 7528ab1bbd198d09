"""``GymVectorToSB3``: the batched Crawl-v2 as SB3 sees it, against ``DummyVecEnv`` of per-env
wrappers (the ``per_env`` path), step by step."""

from __future__ import annotations

import random

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

from rlm_gym.envs import CRAWL_V2_ENV_ID
from rlm_gym.training.batched_vec_env import GymVectorToSB3
from rlm_gym.training.episodes import episode_record
from rlm_gym.training.run_config import RunConfig
from rlm_gym.training.vec_envs import make_training_vec_env

EPISODE_KEYS = ("task", "true_crawl_score", "episode_reward", "episode_reward_components")


def _pair(n: int, seed: int = 11):
    settings = {"n_envs": n, "config": {"efficiency_errors": "graded"}}
    per_env = make_training_vec_env(RunConfig(CRAWL_V2_ENV_ID, "crawl", **settings), seed=seed)
    batched = make_training_vec_env(
        RunConfig(CRAWL_V2_ENV_ID, "crawl", reward_wrapping="vector", **settings), seed=seed
    )
    return per_env, batched


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_the_batched_path_steps_as_per_env_wrappers_do(seed):
    """Step for step the same; a finished episode's record, from the env's numbers
    (``final_crawl``), is the per-env path's, built from its crawl result."""
    per_env, batched = _pair(5, seed)
    assert type(batched.venv).__name__ == "GymVectorToSB3"
    np.testing.assert_array_equal(batched.reset(), per_env.reset())
    rng = random.Random(seed)
    lengths = np.zeros(5, dtype=np.int64)
    finished = 0
    for _ in range(120):
        masks = get_action_masks(batched)
        np.testing.assert_array_equal(masks, get_action_masks(per_env))
        actions = np.array([rng.choice(np.flatnonzero(row).tolist()) for row in masks])
        obs, rewards, dones, infos = batched.step(actions)
        want_obs, want_rewards, want_dones, want_infos = per_env.step(actions)
        np.testing.assert_array_equal(obs, want_obs)
        np.testing.assert_array_equal(rewards, want_rewards)
        np.testing.assert_array_equal(dones, want_dones)
        lengths += 1
        for index, (info, want) in enumerate(zip(infos, want_infos, strict=True)):
            assert info["reward_components"] == want["reward_components"]
            assert info["env_reward"] == want["env_reward"]
            if want.get("terminal_observation") is None:
                continue
            finished += 1
            np.testing.assert_array_equal(
                info["terminal_observation"], want["terminal_observation"]
            )
            for key in (*EPISODE_KEYS, "TimeLimit.truncated"):
                assert info[key] == want[key], key
            # VecMonitor's episode return (float32; Monitor's is rounded to 6 places) and
            # length ("t" is wall time).
            assert info["episode"]["r"] == pytest.approx(want["episode"]["r"], abs=1e-6)
            assert info["episode"]["l"] == want["episode"]["l"]
            for key in ("task", "true_crawl_score"):
                assert info[key] == want[key], key
                assert type(info[key]) is type(want[key]), key
            # The action codes, ``action_result`` and ``crawl_result`` are built on demand.
            assert "action_result" not in info and "crawl_result" not in info
            want_action = {k: v for k, v in want["action"].items() if k != "code"}
            assert info["action"] == want_action
            if "task" in want:
                record = episode_record(info, info["episode"]["r"], lengths[index])
                want_record = episode_record(want, info["episode"]["r"], lengths[index])
                assert record == want_record
                assert "tier" in record
                crawl = info["final_crawl"]
                assert crawl.action_result == want["action_result"]
                assert crawl.crawl_result == want["action_result"].metadata["crawl_result"]
            lengths[index] = 0
            task_types = {name: type(value) for name, value in want["task"].items()}
            assert {name: type(value) for name, value in info["task"].items()} == task_types
    assert finished > 20


def test_maskable_ppo_finds_the_masks():
    _, batched = _pair(3)
    batched.reset()
    assert is_masking_supported(batched)
    assert get_action_masks(batched).shape == (3, 10)


def test_a_next_step_vector_env_is_refused_with_the_way_out():
    with pytest.raises(ValueError, match="SameStep"):
        GymVectorToSB3(gym.make_vec(CRAWL_V2_ENV_ID, num_envs=2))
