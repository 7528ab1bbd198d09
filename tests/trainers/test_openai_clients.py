"""The OpenAI-compatible clients against a real chat-completions server on 127.0.0.1:
``llm_query`` through ``OpenAISubModel``, and the ``LLMAgent`` as the root model."""

from __future__ import annotations

import pytest

pytest.importorskip("openai")

from rlm_gym.envs.rlm import OpenAISubModel, RLMEnv
from rlm_gym.envs.rlm.agents import PROGRAMS, RLM_SYSTEM_PROMPT, LLMAgent, run_episode
from rlm_gym.envs.rlm.submodels import OfflineReader
from tests.trainers.chat_server import ChatServer


def test_llm_query_goes_to_the_server_and_is_metered():
    reader = OfflineReader()
    with ChatServer(lambda messages: reader.answer(messages[-1]["content"])) as server:
        sub_model = OpenAISubModel("tiny", base_url=server.base_url)
        env = RLMEnv(family="aggregation", length=2**17, sub_model=sub_model)
        outcome = run_episode(env, PROGRAMS["batched_chunk_and_query"], seed=2)
        env.close()
    assert outcome["correct"]
    assert outcome["sub_calls"] == len(server.requests) == 5
    assert outcome["sub_call_chars"] == sum(
        len(r["messages"][-1]["content"]) for r in server.requests
    )
    assert all(r["model"] == "tiny" for r in server.requests)


def test_a_server_error_reaches_the_code_as_its_error():
    with ChatServer(lambda messages: "unused") as server:
        url = server.base_url.replace("/v1", "/nowhere")
    env = RLMEnv(family="needle", length=2**13, sub_model=OpenAISubModel("tiny", base_url=url))
    env.reset(seed=0)
    _, _, _, _, info = env.step("```repl\nllm_query('hi')\n```")
    env.close()
    assert "llm_query failed" in info["action_result"].error


def test_llm_agent_sends_the_rlm_system_prompt_and_keeps_the_conversation():
    program = PROGRAMS["chunk_and_query"]

    def respond(messages):
        turn = sum(1 for m in messages if m["role"] == "assistant")
        return program(messages[-1]["content"], turn)

    with ChatServer(respond) as server:
        agent = LLMAgent("root", base_url=server.base_url)
        env = RLMEnv(family="needle", length=2**16)
        outcome = run_episode(env, agent, seed=1)
        env.close()
        agent.close()
    assert outcome["correct"] and outcome["steps"] == 2
    first, second = server.requests
    assert first["messages"][0] == {"role": "system", "content": RLM_SYSTEM_PROMPT}
    assert [m["role"] for m in second["messages"]] == ["system", "user", "assistant", "user"]
    assert "REPL output" in second["messages"][-1]["content"]
