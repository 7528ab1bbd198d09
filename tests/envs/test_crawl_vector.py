"""``CrawlVectorEnv`` (Crawl-v2's ``vector_entry_point``) against ``gym.make("rlm_gym/Crawl-v2")``.

In its exact mode (``exact=True``; the default fast mode is compared by distribution in
``test_crawl_vector_fast.py``), sub-env ``k`` of a batch reset with ``seed=s`` must follow,
step for step and across its automatic resets, the trajectory of one env made with
``gym.make`` and reset with ``seed=s + k``: observation bytes, reward, end flags, every
``ActionResult`` field, the task outcome, the true crawl score, the crawl result and (through
the reward wrappers) the ``crawl`` policy's components. The golden trajectories replay through
the batch too.
"""

from __future__ import annotations

import json
import random

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rlm_gym
from rlm_gym import RewardPolicyWrapper, VectorRewardPolicyWrapper
from rlm_gym.envs import CRAWL_V2_ENV_ID, SIMULATED_PATTERN_TYPES, CrawlEnv
from rlm_gym.envs.crawl_vector import CrawlVectorEnv
from rlm_gym.envs.dynamics import PHASES, S_PHASE

from .test_golden_trajectories import CONFIGS, GOLDEN_PATH, SEEDS, _observation_digest

# Env settings the property test draws from: every site, narrowed sites, a shorter budget,
# the graded efficiency rule.
SETTINGS = (
    {},
    {"pattern_types": ["product_list"], "protection": "rate_limit"},
    {"protection": "waf_http"},
    {"rendering": "client_only", "pagination": "infinite_scroll"},
    {"max_steps": 12, "max_episode_steps": 12},
    {"reward_config": {"efficiency_errors": "graded"}},
    {"pattern_types": ["contact_info", "article_extraction"]},
)


def _value(array, index):
    value = array[index]
    return value.item() if isinstance(value, np.generic) else value


def _choose(rng: random.Random, mask: np.ndarray) -> int:
    if rng.random() < 0.8:
        return rng.choice(np.flatnonzero(mask).tolist())
    return rng.randrange(10)


def compare_batch(n: int, seed: int, settings: dict, steps: int, action_seed: int) -> dict:
    """Step a wrapped batch and ``n`` wrapped single envs side by side; assert every number
    agrees and return what the run covered (phases, pattern types, finished episodes)."""
    batch = VectorRewardPolicyWrapper(
        gym.make_vec(CRAWL_V2_ENV_ID, num_envs=n, exact=True, **settings), "crawl"
    )
    singles = [
        RewardPolicyWrapper(gym.make(CRAWL_V2_ENV_ID, **settings), "crawl") for _ in range(n)
    ]
    obs, _ = batch.reset(seed=seed)
    for index, env in enumerate(singles):
        single_obs, _ = env.reset(seed=seed + index)
        assert obs[index].tobytes() == single_obs.tobytes()
    rng = random.Random(action_seed)
    done = np.zeros(n, dtype=bool)
    covered = {"phases": set(), "types": set(), "finished": 0}
    for step in range(steps):
        masks = batch.env.unwrapped.action_masks()
        actions = np.array([_choose(rng, mask) for mask in masks])
        covered["phases"].update(batch.env.unwrapped.states()[:, S_PHASE].tolist())
        obs, rewards, terminated, truncated, infos = batch.step(actions)
        for index, env in enumerate(singles):
            where = f"step {step}, sub-env {index}"
            if done[index]:
                single_obs, _ = env.reset()
                assert obs[index].tobytes() == single_obs.tobytes(), where
                assert rewards[index] == 0.0 and not terminated[index], where
                continue
            single_obs, reward, ended, cut, info = env.step(int(actions[index]))
            assert obs[index].tobytes() == single_obs.tobytes(), where
            assert (rewards[index], terminated[index], truncated[index]) == (reward, ended, cut)
            for name, value in info["reward_components"].items():
                assert infos["reward_components"][name][index] == value, (where, name)
            result = info["action_result"]
            assert infos["action_result"][index] == result, where
            if ended:
                covered["finished"] += 1
                covered["types"].add(result.metadata["crawl_result"]["pattern_type"])
                task = {key: _value(infos["task"][key], index) for key in info["task"]}
                assert task == info["task"], where
                assert infos["true_crawl_score"][index] == info["true_crawl_score"], where
                assert infos["crawl_result"][index] == result.metadata["crawl_result"], where
                assert infos["episode_reward"][index] == info["episode_reward"], where
        done = terminated | truncated
    return covered


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(1, 6),
    seed=st.integers(0, 2**31),
    settings_index=st.integers(0, len(SETTINGS) - 1),
    action_seed=st.integers(0, 2**16),
)
def test_sub_env_k_follows_the_single_env_seeded_s_plus_k(n, seed, settings_index, action_seed):
    compare_batch(n, seed, SETTINGS[settings_index], 40, action_seed)


def test_a_long_run_covers_every_phase_and_pattern_type():
    covered = compare_batch(16, 1234, {}, 150, 7)
    assert covered["phases"] >= {PHASES.index(name) for name in ("fetch", "extract", "paginate")}
    assert covered["types"] == set(SIMULATED_PATTERN_TYPES)
    assert covered["finished"] > 100


def test_same_step_autoreset_reports_the_finished_episode_in_final_info():
    batch = gym.make_vec(
        CRAWL_V2_ENV_ID, num_envs=3, autoreset_mode=AutoresetMode.SAME_STEP, exact=True
    )
    single = gym.make(CRAWL_V2_ENV_ID)
    batch.reset(seed=5)
    single.reset(seed=6)
    stop = CrawlEnv.ACTIONS.index("stop")
    obs, rewards, terminated, _, infos = batch.step(np.full(3, stop))
    _, reward, _, _, info = single.step(stop)
    assert terminated.all() and rewards[1] == reward
    assert infos["final_info"]["task"]["valid_items"][1] == info["task"]["valid_items"]
    assert infos["final_obs"][1].tobytes() == single.unwrapped._obs.tobytes()
    single_obs, _ = single.reset()
    assert obs[1].tobytes() == single_obs.tobytes()
    assert infos["_phase"].all()


def test_disabled_autoreset_refuses_a_step_of_a_finished_sub_env():
    batch = CrawlVectorEnv(2, autoreset_mode="Disabled")
    batch.reset(seed=0)
    batch.step(np.array([9, 0]))
    with pytest.raises(RuntimeError, match=r"Sub-env\(s\) \[0\] finished"):
        batch.step(np.array([0, 0]))
    batch.reset(options={"reset_mask": np.array([True, False])})
    batch.step(np.array([0, 0]))


def test_make_vec_builds_the_batched_env_by_default():
    envs = gym.make_vec(CRAWL_V2_ENV_ID, num_envs=2)
    assert isinstance(envs.unwrapped, CrawlVectorEnv)
    assert envs.unwrapped.max_episode_steps == 30


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (np.array([0.5, 1.0]), "integers"),
        (np.array([0, 10]), r"in \[0, 9\]"),
        (np.zeros(3, int), "shape"),
    ],
)
def test_bad_actions_raise_a_clear_error(actions, message):
    batch = CrawlVectorEnv(2)
    batch.reset(seed=0)
    with pytest.raises(ValueError, match=message):
        batch.step(actions)


def test_step_before_reset_raises():
    with pytest.raises(RuntimeError, match="reset"):
        CrawlVectorEnv(1).step(np.zeros(1, dtype=int))


def test_unknown_keyword_names_the_closest():
    with pytest.raises(TypeError, match="renderng"):
        CrawlVectorEnv(2, renderng="static")


class _CrawlVectorEnvV1(CrawlVectorEnv):
    """The batch with Crawl-v1's crawl result (ground-truth success), for the golden file."""

    recorded_success = False


@pytest.mark.parametrize("config", list(CONFIGS))
def test_golden_trajectories_replay_through_the_batch(config):
    golden = json.loads(GOLDEN_PATH.read_text())
    keys = [key for key in golden if key.startswith(f"{config}/")]
    episodes = [golden[key] for key in keys]
    seeds = [int(key.rsplit("/", 1)[1]) for key in keys]
    # The golden file's env is ``CrawlEnv()`` itself: no ``TimeLimit``, never truncated.
    batch = _CrawlVectorEnvV1(
        len(keys),
        autoreset_mode="Disabled",
        max_episode_steps=10**6,
        exact=True,
        **CONFIGS[config],
    )
    obs, _ = batch.reset(seed=seeds)
    for index, rows in enumerate(episodes):
        assert _observation_digest(obs[index]) == rows[0][0], keys[index]
    finished = np.zeros(len(keys), dtype=bool)
    for step in range(1, max(len(rows) for rows in episodes)):
        actions = np.array([rows[step][0] if step < len(rows) else 9 for rows in episodes])
        if finished.any():
            batch.reset(options={"reset_mask": finished.copy()})
        obs, rewards, terminated, truncated, infos = batch.step(actions)
        for index, rows in enumerate(episodes):
            if step >= len(rows):
                continue
            want = rows[step]
            result = infos["action_result"][index]
            got = [
                _observation_digest(obs[index]),
                repr(float(rewards[index])),
                bool(terminated[index]),
                bool(truncated[index]),
                result.action_type,
                result.success,
                result.error,
                repr(result.duration_ms),
                repr(result.tokens_used),
            ]
            assert got == [want[1], *want[2:10]], f"{keys[index]} row {step}"
        finished = terminated | truncated


def test_rlm_gym_registers_the_vector_entry_point():
    assert gym.spec(CRAWL_V2_ENV_ID).vector_entry_point.endswith(":CrawlVectorEnv")
    assert rlm_gym.CrawlEnv is CrawlEnv
    assert len(SEEDS) == 30


def test_same_step_autoreset_follows_single_envs_through_truncations_and_ends():
    settings = {"max_episode_steps": 4}  # the TimeLimit cuts episodes the env has not ended
    n = 4
    batch = gym.make_vec(
        CRAWL_V2_ENV_ID, num_envs=n, autoreset_mode="SameStep", exact=True, **settings
    )
    singles = [gym.make(CRAWL_V2_ENV_ID, **settings) for _ in range(n)]
    batch.reset(seed=40)
    for index, env in enumerate(singles):
        env.reset(seed=40 + index)
    rng = random.Random(2)
    cut = 0
    for _ in range(60):
        actions = np.array([_choose(rng, mask) for mask in batch.unwrapped.action_masks()])
        obs, rewards, terminated, truncated, infos = batch.step(actions)
        for index, env in enumerate(singles):
            single_obs, reward, ended, limited, info = env.step(int(actions[index]))
            assert (rewards[index], terminated[index], truncated[index]) == (reward, ended, limited)
            if not (ended or limited):
                assert obs[index].tobytes() == single_obs.tobytes()
                continue
            cut += limited and not ended
            assert infos["final_obs"][index].tobytes() == single_obs.tobytes()
            final = infos["final_info"]
            assert final["action_result"][index] == info["action_result"]
            assert final["action"]["action"][index] == info["action"]["action"]
            if ended:
                assert final["true_crawl_score"][index] == info["true_crawl_score"]
                for name, value in info["task"].items():
                    assert final["task"][name][index] == value, name
            single_obs, _ = env.reset()
            assert obs[index].tobytes() == single_obs.tobytes()
    assert cut > 5
