"""The scripted RLM programs: what each one solves, and how it behaves as code."""

from __future__ import annotations

import pytest

from rlm_gym.envs.rlm import RLMEnv
from rlm_gym.envs.rlm.agents import PROGRAMS, run_episode

PROGRAMS_FAMILIES = ("needle", "aggregation", "pairs", "multihop")


@pytest.fixture(scope="module")
def envs():
    made = {family: RLMEnv(family=family, length=2**17) for family in PROGRAMS_FAMILIES}
    yield made
    for env in made.values():
        env.close()


@pytest.mark.parametrize("family", PROGRAMS_FAMILIES)
@pytest.mark.parametrize("program", ["chunk_and_query", "batched_chunk_and_query"])
def test_chunk_and_query_solves_every_family(envs, family, program):
    outcome = run_episode(envs[family], PROGRAMS[program], seed=3)
    assert outcome["correct"] and outcome["steps"] == 2
    # Chunks of just under 2**15 characters, cut at line ends: five of them (two rounds of
    # them for the two hops).
    assert outcome["sub_calls"] == (10 if family == "multihop" else 5)
    assert outcome["sub_call_chars"] >= 2**17


@pytest.mark.parametrize("family", ["aggregation", "pairs", "multihop"])
def test_answer_from_preview_fails_where_the_answer_is_spread(envs, family):
    outcome = run_episode(envs[family], PROGRAMS["answer_from_preview"], seed=3)
    assert not outcome["correct"] and outcome["sub_calls"] == 0 and outcome["steps"] == 1


def test_grep_only_finds_a_needle_without_sub_calls(envs):
    outcome = run_episode(envs["needle"], PROGRAMS["grep_only"], seed=3)
    assert outcome["correct"] and outcome["sub_calls"] == 0


def test_buggy_program_fails_first_then_reads_half_the_chunks(envs):
    env = envs["aggregation"]
    observation, _ = env.reset(seed=3)
    _, _, _, _, info = env.step(PROGRAMS["buggy"](observation, 0))
    assert "NameError" in info["action_result"].error
    full = run_episode(env, PROGRAMS["chunk_and_query"], seed=3)["sub_calls"]
    assert run_episode(env, PROGRAMS["buggy"], seed=3)["sub_calls"] == (full + 1) // 2
