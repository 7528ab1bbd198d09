"""CrawlEnv: Gymnasium / SB3 conformance, registration, determinism, phases, episode ends."""

from __future__ import annotations

import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import rlm_gym.envs
from rlm_gym.crawl import crawl_reward
from rlm_gym.envs import CRAWL_ENV_ID, DEFAULT_MAX_STEPS, CrawlEnv
from rlm_gym.envs import dynamics as dyn
from rlm_gym.envs.transitions import transitions
from rlm_gym.policies import ActionResult
from tests.envs.episodes import play, run_episode

A = {name: index for index, name in enumerate(CrawlEnv.ACTIONS)}
STEP_TYPES = {"fetch", "extract", "paginate", "wait"}


def test_gymnasium_check_env_passes():
    check_env(gym.make(CRAWL_ENV_ID, render_mode="ansi").unwrapped, skip_render_check=True)
    check_env(gym.make(CRAWL_ENV_ID, render_mode="rgb_array").unwrapped)


def test_sb3_check_env_passes():
    sb3_check_env(CrawlEnv(), warn=True)


def test_make_sets_max_episode_steps_equal_to_env_budget():
    env = gym.make(CRAWL_ENV_ID)
    assert CRAWL_ENV_ID == "rlm_gym/Crawl-v1"
    assert env.spec.max_episode_steps == DEFAULT_MAX_STEPS == env.unwrapped.max_steps


def test_reimport_does_not_reregister():
    rlm_gym.envs.register_envs()
    assert CRAWL_ENV_ID in gym.registry
    assert "rlm_gym/Crawl-v0" not in gym.registry


def test_same_seed_gives_same_trajectory_and_infos():
    first = run_episode(CrawlEnv(), 11, lambda env: env.random_action())
    second = run_episode(CrawlEnv(), 11, lambda env: env.random_action())
    assert first == second


def test_every_action_in_every_phase_is_handled():
    env = CrawlEnv()
    for seed in range(60):
        env.reset(seed=seed)
        done = False
        while not done:
            mask = env.action_masks()
            for action in range(env.action_space.n):
                outcomes = transitions(env.model, env.state, action)
                assert abs(sum(p for p, _, _ in outcomes) - 1.0) < 1e-9
                if not mask[action]:
                    _, next_state, event = outcomes[0]
                    assert len(outcomes) == 1 and not event[1]
                    assert event[2] == dyn.E_INVALID and event[3] > 0
                    ends = next_state[dyn.S_PHASE] == dyn.DONE
                    assert not ends or next_state[dyn.S_END] != dyn.STOPPED
            _, _, terminated, truncated, _ = env.step(env.random_action())
            done = terminated or truncated


def test_invalid_action_is_a_failed_step_with_error_text():
    env = CrawlEnv()
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(CrawlEnv.ACTIONS.index("extract_css"))
    result = info["action_result"]
    assert not terminated and not truncated and reward == 0.0
    assert not result.success and result.duration_ms > 0
    assert result.error == "Invalid action 'extract_css' in phase 'fetch'"
    assert env.action_masks()[0]


def test_invalid_actions_only_end_the_episode_at_the_step_budget():
    env = CrawlEnv(max_steps=5, time_budget_ms=1_000_000)
    env.reset(seed=1)
    for _ in range(4):
        assert env.step(CrawlEnv.ACTIONS.index("infinite_scroll"))[2:4] == (False, False)
    _, reward, terminated, truncated, info = env.step(CrawlEnv.ACTIONS.index("infinite_scroll"))
    # Crawl-v1: the step budget ends the job like any other end: terminated, scored.
    assert terminated and not truncated
    assert info["action"]["action"] == "final"
    assert info["action_result"].metadata["end_reason"] == "step budget reached"
    assert reward == crawl_reward(info["action_result"].metadata["crawl_result"]).value


def test_action_masks_match_the_valid_actions_of_the_phase():
    env = CrawlEnv()
    for seed in range(30):
        env.reset(seed=seed)
        done = False
        while not done:
            mask = env.action_masks()
            assert mask.tolist() == [a in dyn.valid_actions(env.state) for a in range(10)]
            _, _, terminated, truncated, _ = env.step(env.random_action())
            done = terminated or truncated


def test_step_infos_carry_action_results():
    env = CrawlEnv()
    for seed in range(20):
        for entry in run_episode(env, seed, lambda e: e.heuristic_action())[1:-1]:
            info = entry[-1]
            result = info["action_result"]
            assert isinstance(result, ActionResult)
            assert result.action_type in STEP_TYPES
            assert set(info["action"]) == {"action", "code"}
            assert info["action"]["action"] in CrawlEnv.ACTIONS
            assert entry[2] == 0.0
            assert (result.error is None) == result.success


def test_final_step_carries_a_scored_crawl_result():
    env = CrawlEnv()
    policies = [lambda e: e.random_action(), lambda e: e.heuristic_action()]
    for seed in range(80):
        last = run_episode(env, seed, policies[seed % 2])[-1]
        _, _, reward, _, _, info = last
        result = info["action_result"]
        assert result.action_type == "final"
        assert info["action"]["action"] == "final"
        assert info["action"]["name"] in CrawlEnv.ACTIONS
        crawl = result.metadata["crawl_result"]
        assert result.success == crawl["success"]
        assert reward == crawl_reward(crawl).value
        assert crawl["extraction_schema"]["required"]
        assert crawl["pattern_type"] == env.profile.pattern_type


def test_ansi_render_is_one_line():
    env = CrawlEnv(render_mode="ansi")
    env.reset(seed=2)
    env.step(0)
    line = env.render()
    assert isinstance(line, str) and "\n" not in line and "fetch_http" in line


def test_potential_equals_the_score_of_stopping_now():
    env = gym.make(CRAWL_ENV_ID).unwrapped
    for seed in range(20):
        env.reset(seed=seed)
        done = False
        while not done:
            assert env.potential() == env.crawl_result()[1]
            _, _, terminated, truncated, _ = env.step(env.heuristic_action())
            done = terminated or truncated


def test_step_results_are_valid_action_results():
    # The env sets ActionResult fields directly (no __post_init__ checks per step): every
    # result must still be one the checked constructor accepts, field for field.
    env = gym.make(CRAWL_ENV_ID)
    for seed in range(30):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            _, _, terminated, truncated, info = env.step(int(rng.integers(0, 10)))
            result = info["action_result"]
            assert type(result) is ActionResult
            assert ActionResult(**vars(result)) == result
            assert type(result.success) is bool and type(result.tokens_used) is int
            assert type(result.duration_ms) is float
            done = terminated or truncated


@pytest.mark.parametrize("clone", ["pickle", "deepcopy"])
def test_a_copied_env_mid_episode_continues_exactly_like_the_original(clone):
    import copy
    import pickle

    env = CrawlEnv()
    env.reset(seed=3)
    for action in (0, 2, 5):
        env.step(action)
    twin = pickle.loads(pickle.dumps(env)) if clone == "pickle" else copy.deepcopy(env)
    for action in (2, 5, 3, 9):
        obs, reward, terminated, truncated, _ = env.step(action)
        twin_obs, twin_reward, twin_terminated, twin_truncated, _ = twin.step(action)
        np.testing.assert_array_equal(obs, twin_obs)
        assert (reward, terminated, truncated) == (twin_reward, twin_terminated, twin_truncated)
        if terminated:
            break
    # The copy writes its own observation, not the original's: stepping only the copy leaves
    # the original where an untouched env with the same history is.
    reference, original = CrawlEnv(), CrawlEnv()
    for one in (reference, original):
        one.reset(seed=5)
        one.step(0)
    copied = pickle.loads(pickle.dumps(original)) if clone == "pickle" else copy.deepcopy(original)
    copied.reset(seed=6)
    copied.step(1)
    np.testing.assert_array_equal(original.step(2)[0], reference.step(2)[0])


# ---------------------------------------------------------------- registration
def test_v0_is_gone_and_gymnasium_names_the_newest_version():
    # Gymnasium points at the newest registered version: v2 since 0.3 (v1 stays registered).
    assert "rlm_gym/Crawl-v1" in gym.registry
    with (
        pytest.raises(gym.error.DeprecatedEnv, match="Please use `rlm_gym/Crawl-v2` instead"),
        pytest.warns(DeprecationWarning, match="Crawl-v0 is out of date"),
    ):
        gym.make("rlm_gym/Crawl-v0")


def test_making_v1_says_it_is_out_of_date():
    # pyproject's filterwarnings silences this notice in the tests that make v1 on purpose.
    with pytest.warns(DeprecationWarning, match="rlm_gym/Crawl-v1 is out of date"):
        gym.make("rlm_gym/Crawl-v1").close()


def test_make_with_module_prefix_works_without_importing_rlm_gym():
    code = (
        "import sys, gymnasium as gym\n"
        "assert 'rlm_gym' not in sys.modules\n"
        "env = gym.make('rlm_gym:rlm_gym/Crawl-v1')\n"
        "print(env.spec.id, env.spec.max_episode_steps, type(env.unwrapped).__name__)"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert output.split() == ["rlm_gym/Crawl-v1", "30", "CrawlEnv"]


# ---------------------------------------------------------------- episode end
def test_step_budget_end_is_terminated_under_the_registered_time_limit():
    env = gym.make(CRAWL_ENV_ID, time_budget_ms=86_400_000)
    env.reset(seed=4)
    steps = 0
    while True:
        # backoff never ends the crawl by itself: only the step budget does.
        _, reward, terminated, truncated, info = env.step(A["backoff"])
        steps += 1
        if terminated or truncated:
            break
    assert steps == env.unwrapped.max_steps == env.spec.max_episode_steps
    assert terminated, "the step budget must end the episode as terminated"
    assert info["action_result"].action_type == "final"
    assert reward == crawl_reward(info["action_result"].metadata["crawl_result"]).value


@pytest.mark.parametrize("policy", ["random_action", "heuristic_action", "oracle_action"])
def test_every_episode_end_is_terminated_and_never_truncated(policy):
    env = CrawlEnv(max_steps=8)
    reasons = set()
    for seed in range(40):
        *_, last = play(env, lambda e: getattr(e, policy)(), seed)
        _, _, terminated, truncated, info = last
        assert terminated and not truncated
        reasons.add(info["action_result"].metadata["end_reason"])
    assert reasons - {"stopped"}, "expected some episodes to end other than by stop"


# ---------------------------------------------------------------- observation memory


# ---------------------------------------------------------------- rendering


# ---------------------------------------------------------------- constructor checks


# ---------------------------------------------------------------- step() checks


# ---------------------------------------------------------------- reward_config
def test_reward_config_is_passed_to_crawl_reward():
    config = {"weights": {"validation": 0.5, "efficiency": 0.05}}
    env = CrawlEnv(reward_config=config)
    default = CrawlEnv()
    differs = 0
    for seed in range(30):
        policy = [lambda e: e.heuristic_action(), lambda e: e.random_action()][seed % 2]
        *_, (_, reward, _, _, info) = play(env, policy, seed)
        crawl_result = info["action_result"].metadata["crawl_result"]
        assert reward == crawl_reward(crawl_result, config=config).value
        *_, (_, default_reward, _, _, _) = play(default, policy, seed)
        differs += default_reward != reward
    assert differs > 10


def test_bad_reward_config_fails_at_construction():
    with pytest.raises(ValueError, match="valdation"):
        CrawlEnv(reward_config={"weights": {"valdation": 1.0}})
    with pytest.raises(TypeError, match="`reward_config`"):
        CrawlEnv(reward_config=[("weights", {})])
