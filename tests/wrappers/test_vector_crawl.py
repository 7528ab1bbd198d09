"""The ``crawl`` policy's path on Crawl-v2's batched env (``rlm_gym.wrappers.vector_crawl``).

The path must give the numbers of the per-sub-env path (forced here by a pass-through wrapper
between the env and the reward wrapper), weights and disabled components included, and must
stand aside whenever skipping ``calculate`` or the hooks could change something.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import VectorWrapper

import rlm_gym
from rlm_gym import VectorRewardPolicyWrapper, WeightSchedule
from rlm_gym.crawl import CrawlRewardPolicy
from rlm_gym.envs import CRAWL_V2_ENV_ID
from rlm_gym.wrappers.vector_crawl import crawl_route

N = 8


def _batch(**settings) -> gym.vector.VectorEnv:
    assert rlm_gym.CrawlEnv  # importing rlm_gym registers the envs
    return gym.make_vec(CRAWL_V2_ENV_ID, num_envs=N, **settings)


def _run(wrapper, steps: int) -> list:
    wrapper.reset(seed=11)
    unwrapped = wrapper.env.unwrapped
    rng = np.random.default_rng(5)
    out = []
    for _ in range(steps):
        masks = unwrapped.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        _, rewards, *_, infos = wrapper.step(actions)
        episode = infos.get("episode_reward_components", {})
        out.append(
            (
                rewards.tobytes(),
                {name: array.tobytes() for name, array in infos["reward_components"].items()},
                infos.get("episode_reward", np.zeros(0)).tobytes(),
                {name: array.tobytes() for name, array in episode.items()},
            )
        )
    return out


@pytest.mark.parametrize("mode", ["NextStep", "SameStep"])
@pytest.mark.parametrize(
    "options",
    [{}, {"weights": {"efficiency": 0.5, "success": 3.0}}, {"disable": ("defects", "quantity")}],
)
def test_the_crawl_path_gives_the_per_sub_env_numbers(options, mode):
    settings = {"max_steps": 12, "autoreset_mode": mode}
    fast = VectorRewardPolicyWrapper(_batch(**settings), "crawl", **options)
    slow = VectorRewardPolicyWrapper(VectorWrapper(_batch(**settings)), "crawl", **options)
    assert crawl_route(fast) is not None and crawl_route(slow) is None
    assert _run(fast, 120) == _run(slow, 120)


def test_the_env_reports_the_components_of_the_crawls_it_ended():
    envs = _batch()
    envs.reset(seed=0)
    envs.step(np.array([9, 0] * (N // 2)))
    rows, parts = envs.unwrapped.final_components(envs.unwrapped.reward_settings)
    assert rows == list(range(0, N, 2)) and parts.shape == (N // 2, 6)


def test_a_policy_with_other_settings_than_the_env_gets_its_own_numbers():
    config = {"efficiency_errors": "graded", "weights": {"efficiency": 0.3}}
    fast = VectorRewardPolicyWrapper(_batch(max_steps=12), "crawl", config=config)
    slow = VectorRewardPolicyWrapper(VectorWrapper(_batch(max_steps=12)), "crawl", config=config)
    assert _run(fast, 120) == _run(slow, 120)


class _Subclass(CrawlRewardPolicy):
    pass


@pytest.mark.parametrize(
    "make",
    [
        lambda: VectorRewardPolicyWrapper(_batch(), _Subclass()),
        lambda: VectorRewardPolicyWrapper(
            _batch(), "crawl", config={"knowledge_store": ":memory:"}
        ),
        lambda: VectorRewardPolicyWrapper(
            _batch(), "crawl", schedule=WeightSchedule({"efficiency": [(0, 0.0), (100, 1.0)]})
        ),
        lambda: VectorRewardPolicyWrapper(_batch(autoreset_mode="Disabled"), "crawl"),
        lambda: VectorRewardPolicyWrapper(VectorWrapper(_batch()), "crawl"),
    ],
    ids=["subclass", "knowledge-store", "schedule", "disabled", "wrapper-between"],
)
def test_the_path_stands_aside_when_skipping_calculate_could_matter(make):
    assert crawl_route(make()) is None
