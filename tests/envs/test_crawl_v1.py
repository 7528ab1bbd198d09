"""Crawl-v1: registration, terminal budget end, observation memory, rendering, input checks."""

from __future__ import annotations

import itertools
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest

from rlm_gym.crawl import crawl_reward
from rlm_gym.envs import CRAWL_ENV_ID, OBSERVATION_FIELDS, CrawlEnv
from rlm_gym.envs import dynamics as dyn
from rlm_gym.envs.observation import INDEX, MEMORY_METHODS
from rlm_gym.envs.render import FRAME_SHAPE

A = {name: index for index, name in enumerate(CrawlEnv.ACTIONS)}


def play(env, policy, seed):
    """Yield ``(obs, reward, terminated, truncated, info)`` of every step of one episode."""
    env.reset(seed=seed)
    while True:
        step = env.step(policy(env))
        yield step
        if step[2] or step[3]:
            return


# ---------------------------------------------------------------- registration
def test_v0_is_gone_and_gymnasium_names_v1():
    with pytest.raises(gym.error.DeprecatedEnv, match="Please use `rlm_gym/Crawl-v1` instead"):
        gym.make("rlm_gym/Crawl-v0")


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
def test_observation_fields_are_documented_and_bound_the_space():
    env = CrawlEnv()
    names = [name for name, _, _ in OBSERVATION_FIELDS]
    assert len(names) == len(set(names)) == env.observation_space.shape[0] == 58
    for name, meaning, upper in OBSERVATION_FIELDS:
        assert meaning and upper > 0, name
    assert env.observation_space.high.tolist() == [upper for _, _, upper in OBSERVATION_FIELDS]
    for name in CrawlEnv.ACTIONS:
        assert f"last_action_{name}" in INDEX
    for name in MEMORY_METHODS:
        assert f"failed_{name}" in INDEX
    assert {"count_403", "count_429"} <= set(INDEX)


def _last_action(obs):
    return obs[INDEX["last_action_fetch_http"] : INDEX["last_action_stop"] + 1]


def test_last_action_is_a_one_hot_of_the_action_taken():
    env = CrawlEnv()
    obs, _ = env.reset(seed=0)
    assert not _last_action(obs).any()
    for action in (A["fetch_headless"], A["extract_css"], A["extract_css"], A["backoff"]):
        obs, *_ = env.step(action)
        assert _last_action(obs).tolist() == [1.0 if a == action else 0.0 for a in range(10)]


def test_failed_methods_are_remembered_after_later_successes():
    # A client-only site: plain HTTP serves an empty shell, so extraction after it fails.
    env = CrawlEnv(rendering="client_only", protection="none", pagination="single")
    obs, _ = env.reset(seed=2)
    obs, *_ = env.step(A["fetch_http"])
    assert obs[INDEX["failed_fetch_http"]] == 0.0
    obs, *_ = env.step(A["extract_css"])
    assert obs[INDEX["failed_extract_css"]] == 1.0
    obs, *_ = env.step(A["fetch_headless"])
    obs, *_ = env.step(A["extract_css"])
    assert obs[INDEX["last_failed"]] == 0.0  # it worked on the rendered page ...
    assert obs[INDEX["failed_extract_css"]] == 1.0  # ... and the earlier failure is kept
    obs, *_ = env.step(A["url_navigation"])  # single-page site: no next page
    assert obs[INDEX["failed_url_navigation"]] == 1.0
    failed = [name for name in MEMORY_METHODS if obs[INDEX[f"failed_{name}"]]]
    assert failed == ["extract_css", "url_navigation"]


def test_an_action_in_the_wrong_phase_is_not_a_method_failure():
    env = CrawlEnv()
    env.reset(seed=0)
    obs, *_ = env.step(A["infinite_scroll"])  # fetch phase: invalid here
    assert obs[INDEX["last_failed"]] == 1.0
    assert obs[INDEX["failed_infinite_scroll"]] == 0.0
    assert obs[INDEX["last_action_infinite_scroll"]] == 1.0


def test_403_and_429_counts_follow_the_ban_limits():
    env = CrawlEnv(protection="rate_limit", pattern_types=["product_list"])
    obs, _ = env.reset(seed=5)
    counts = []
    done = False
    while not done:
        obs, _, done, _, info = env.step(A["fetch_http"])  # never backs off: 429s follow
        counts.append(obs[INDEX["count_429"]])
        assert obs[INDEX["count_429"]] == env.state[dyn.S_429] / 3
    assert counts[-1] == 1.0 and info["action_result"].metadata["end_reason"] == "banned"
    assert sorted(set(counts)) == pytest.approx([0.0, 1 / 3, 2 / 3, 1.0])

    env = CrawlEnv(protection="waf_http", pattern_types=["contact_info"])
    for seed in range(20):
        for obs, _, _, _, _ in play(env, lambda e: A["fetch_http"], seed):
            assert obs[INDEX["count_403"]] == env.state[dyn.S_BLOCKS] / 2
    assert obs[INDEX["count_403"]] in (0.5, 1.0)


# ---------------------------------------------------------------- rendering
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


@pytest.mark.parametrize("mode", ["human", "rgb", "RGB_ARRAY", 3])
def test_unknown_render_mode_raises(mode):
    with pytest.raises(ValueError, match="`render_mode`"):
        CrawlEnv(render_mode=mode)


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


# ---------------------------------------------------------------- constructor checks
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"renderng": "static"},
            "unexpected keyword argument 'renderng'. Did you mean 'rendering'",
        ),
        ({"max_step": 10}, "Did you mean 'max_steps'"),
        ({"reward_cfg": {}}, "Did you mean 'reward_config'"),
        ({"pattern_type": "product_list"}, "Did you mean 'pattern_types'"),
    ],
)
def test_unknown_keyword_raises_type_error(kwargs, message):
    with pytest.raises(TypeError, match=message):
        CrawlEnv(**kwargs)
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        gym.make(CRAWL_ENV_ID, **kwargs)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("target_items", 0),
        ("target_items", 2.5),
        ("items_per_page", -1),
        ("items_per_page", "12"),
        ("total_pages", True),
        ("total_pages", 0),
        ("time_budget_ms", 0),
        ("ttfb_ms", 10**9),
        ("rendering", 5),
        ("rendering", 1.0),
        ("pagination", -1),
        ("protection", None),
        ("json_ld", "yes"),
        ("click_overlay", 1),
        ("domain", ""),
    ],
)
def test_bad_profile_override_raises_value_error_naming_it(key, value):
    with pytest.raises(ValueError, match=f"`{key}`"):
        CrawlEnv(**{key: value})


def test_valid_profile_overrides_are_normalised():
    env = CrawlEnv(rendering=np.int64(2), json_ld=np.bool_(True), items_per_page=np.int32(12))
    assert env.profile_overrides == {"rendering": 2, "json_ld": True, "items_per_page": 12}
    env.reset(seed=0)
    assert type(env.profile.items_per_page) is int


def test_extreme_valid_overrides_keep_observations_in_the_space():
    env = CrawlEnv(
        target_items=1, time_budget_ms=86_400_000, ttfb_ms=600_000, items_per_page=1000,
        total_pages=1000,
    )  # fmt: skip
    for seed in range(10):
        for obs, *_ in play(env, lambda e: e.random_action(), seed):
            assert env.observation_space.contains(obs)


@pytest.mark.parametrize(
    ("max_steps", "error"), [(0, ValueError), ("30", TypeError), (2.0, TypeError)]
)
def test_bad_max_steps(max_steps, error):
    with pytest.raises(error, match="`max_steps`"):
        CrawlEnv(max_steps=max_steps)


# ---------------------------------------------------------------- step() checks
@pytest.mark.parametrize(
    ("action", "error"),
    [
        (2.5, TypeError),
        ("3", TypeError),
        (True, TypeError),
        (np.bool_(False), TypeError),
        (np.float64(3.0), TypeError),
        (np.array([1, 2]), TypeError),
        (np.array([3]), TypeError),
        (np.array(2.0), TypeError),
        (None, TypeError),
        (10, ValueError),
        (-1, ValueError),
        (np.int64(10), ValueError),
    ],
)
def test_action_outside_the_space_raises_naming_it(action, error):
    env = CrawlEnv()
    env.reset(seed=0)
    with pytest.raises(error, match="`action`"):
        env.step(action)
    assert env.state[dyn.S_STEPS] == 0, "a rejected action must not change the state"


@pytest.mark.parametrize("kind", [np.int64, np.int32, np.uint8, np.array])
def test_numpy_integer_actions_act_like_ints(kind):
    trajectories = []
    for convert in (int, kind):
        env = CrawlEnv()
        env.reset(seed=3)
        rows = []
        for action in (0, 2, 5, 1, 9):
            obs, reward, terminated, *_ = env.step(convert(action))
            rows.append((obs.tolist(), reward, terminated))
            if terminated:
                break
        trajectories.append(rows)
    assert trajectories[0] == trajectories[1]


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
