"""CrawlEnv's argument and action checks: errors that name what was wrong."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from rlm_gym.crawl import PATTERN_TYPES
from rlm_gym.envs import CRAWL_ENV_ID, SIMULATED_PATTERN_TYPES, CrawlEnv
from rlm_gym.envs import dynamics as dyn


@pytest.mark.parametrize("mode", ["human", "rgb", "RGB_ARRAY", 3])
def test_unknown_render_mode_raises(mode):
    with pytest.raises(ValueError, match="`render_mode`"):
        CrawlEnv(render_mode=mode)


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
    ("max_steps", "error"), [(0, ValueError), ("30", TypeError), (2.0, TypeError)]
)
def test_bad_max_steps(max_steps, error):
    with pytest.raises(error, match="`max_steps`"):
        CrawlEnv(max_steps=max_steps)


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


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"pattern_types": ["product_lst"]}, "Did you mean 'product_list'"),
        ({"rendering": "ssr"}, "Unknown rendering 'ssr'"),
        ({"rendering": "client_onyl"}, "Did you mean 'client_only'"),
        ({"max_steps": 0}, "`max_steps`"),
    ],
)
def test_bad_arguments_raise_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        CrawlEnv(**kwargs)


@pytest.mark.parametrize("name", ["job_listing", "event_listing", "business_listing"])
def test_a_crawl_reward_type_the_simulator_does_not_model_is_refused_with_the_reason(name):
    assert name in PATTERN_TYPES and name not in SIMULATED_PATTERN_TYPES
    with pytest.raises(ValueError, match="scored by the crawl reward but not simulated") as error:
        CrawlEnv(pattern_types=["product_list", name])
    assert all(repr(simulated) in str(error.value) for simulated in SIMULATED_PATTERN_TYPES)
