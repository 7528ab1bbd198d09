"""The RLM env as a verifiers MultiTurnEnv with a policy as its rubric, rolled out for real
against a tiny model served over the chat-completions protocol on 127.0.0.1."""

from __future__ import annotations

import pytest

pytest.importorskip("verifiers")

import os

import verifiers as vf

from rlm_gym.envs.rlm.agents import PROGRAMS
from rlm_gym.integrations.verifiers import load_environment
from rlm_gym.policies.registry import resolve_reward_policy
from tests.trainers.chat_server import ChatServer
from tests.trainers.tiny_model import char_tokenizer, tiny_model


def _tiny_model_responder():
    import torch

    tokenizer = char_tokenizer()
    model = tiny_model(tokenizer)

    def respond(messages):
        text = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        ids = tokenizer(text[-2000:], return_tensors="pt")
        with torch.no_grad():
            out = model.generate(**ids, max_new_tokens=8, do_sample=True)
        return tokenizer.decode(out[0, ids["input_ids"].shape[1] :], skip_special_tokens=True)

    return respond


def _scripted_responder(program):
    def respond(messages):
        turn = sum(1 for m in messages if m["role"] == "assistant")
        return program(messages[-1]["content"], turn)

    return respond


def _evaluate(respond, policy, examples=2, max_turns=3):
    env = load_environment(
        policy=policy, family="needle", length=2**13, num_examples=examples, max_turns=max_turns
    )
    os.environ["RLM_GYM_TEST_KEY"] = "EMPTY"
    with ChatServer(respond) as server:
        client = vf.ClientConfig(
            api_base_url=server.base_url, api_key_var="RLM_GYM_TEST_KEY", max_retries=0
        )
        results = env.evaluate_sync(client=client, model="tiny", num_examples=examples)
    return env, results, server


def _outputs(results):
    outputs = results["outputs"] if isinstance(results, dict) else results.outputs
    return [dict(o) if not isinstance(o, dict) else o for o in outputs]


def test_tiny_model_rollouts_are_scored_by_the_policy_with_components():
    env, results, server = _evaluate(_tiny_model_responder(), "research")
    outputs = _outputs(results)
    assert len(outputs) == 2 and len(server.requests) == 2 * 3
    names = resolve_reward_policy("research").component_names
    for output in outputs:
        metrics = output["metrics"]
        assert set(f"research/{n}" for n in names) <= set(metrics)
        # Random characters: three failed responses, the last one truncating the episode.
        assert metrics["research/base_failure"] == pytest.approx(-0.6)
        assert output["reward"] == pytest.approx(sum(metrics[f"research/{n}"] for n in names))
    assert env.episodes == {}  # every rollout's sandbox was closed


def test_a_solving_program_gets_the_final_bonus_through_the_rubric():
    _, results, _ = _evaluate(_scripted_responder(PROGRAMS["grep_only"]), "strict")
    for output in _outputs(results):
        assert output["metrics"]["task_score"] == 1.0
        assert output["metrics"]["strict/final"] == pytest.approx(0.3)
        assert output["reward"] == pytest.approx(0.8)
