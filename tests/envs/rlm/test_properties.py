"""Whatever the model writes, a step returns a well-formed result and the policies' values
add up: properties over arbitrary responses."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlm_gym import RewardPolicyWrapper
from rlm_gym.envs.rlm import RLMEnv
from rlm_gym.envs.rlm.env import CHARSET

# Responses: free text, code blocks of free text, and fragments of the REPL's vocabulary.
_FRAGMENTS = st.sampled_from(
    [
        "```repl\n",
        "\n```",
        "FINAL(",
        "FINAL_VAR(",
        ")",
        "print(",
        "context[",
        "]",
        "llm_query(",
        "'",
        "\n",
    ]
)
RESPONSES = st.lists(st.one_of(st.text(max_size=30), _FRAGMENTS), max_size=12).map("".join)


@pytest.fixture(scope="module")
def env():
    env = RewardPolicyWrapper(RLMEnv(family="needle", length=2**13, timeout_s=2.0), "research")
    yield env
    env.close()


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(response=RESPONSES)
def test_any_response_gives_a_well_formed_step(env, response):
    env.reset(seed=0)
    observation, reward, _, _, info = env.step(response)
    result = info["action_result"]
    assert isinstance(result.success, bool) and result.action_type in ("code", "final")
    assert result.success or result.error or result.action_type == "final"
    assert set(observation) <= CHARSET
    assert math.isfinite(reward) and -1.0 <= reward <= 1.0
    parts = sum(info["reward_components"].values())
    assert reward == pytest.approx(max(-1.0, min(1.0, parts)))
    assert info["action"]["action"] == result.action_type
