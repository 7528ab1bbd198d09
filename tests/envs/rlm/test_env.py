"""RLMEnv: Gymnasium conformance, seeded resets, the step contract, policies through the wrapper."""

from __future__ import annotations

import subprocess
import sys

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import rlm_gym  # noqa: F401 - registers the envs
from rlm_gym import RewardPolicyWrapper
from rlm_gym.envs import RLM_ENV_ID
from rlm_gym.envs.rlm import RLMEnv, Task
from rlm_gym.policies import PolicyRegistry, RewardPolicy, RewardSignal


def _key(info):
    return info["task"]["query"].split("code for ")[1].split("?")[0]


def _solve(info):
    return (
        f"```repl\nimport re\nanswer = re.search(r'{_key(info)} is (\\d+)', context).group(1)\n```"
        "\nFINAL_VAR(answer)"
    )


@pytest.fixture
def env():
    env = gym.make(RLM_ENV_ID, family="needle", length=2**13)
    yield env
    env.close()


def test_gymnasium_check_env_passes():
    env = gym.make(RLM_ENV_ID, family="aggregation", length=2**13).unwrapped
    check_env(env)
    env.close()


def test_registered_with_the_step_budget(env):
    assert env.spec.max_episode_steps == env.unwrapped.max_steps == 12


def test_import_rlm_gym_does_not_load_the_env_module():
    code = "import sys, rlm_gym; print('rlm_gym.envs.rlm' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("family", ["needle", "aggregation", "pairs", "multihop", "mixed"])
def test_seeded_resets_give_identical_tasks(family):
    env = RLMEnv(family=family, length=2**13)
    first, info_first = env.reset(seed=11)
    env.step("```repl\nx = 1\n```")
    second, info_second = env.reset(seed=11)
    assert first == second and env.task.context == env.task.context
    assert info_first["task"] == info_second["task"]
    third, _ = env.reset(seed=12)
    assert third != first
    env.close()


def test_observation_holds_query_length_and_preview(env):
    obs, _ = env.reset(seed=0)
    task = env.unwrapped.task
    assert task.query in obs and "8,192 characters" in obs and task.context[:200] in obs
    assert env.observation_space.contains(obs)


def test_code_step_reports_action_and_result(env):
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(
        "Look first.\n```repl\nprint(context[:20])\n```"
    )
    result = info["action_result"]
    assert (result.action_type, result.success, result.error) == ("code", True, None)
    assert result.output == env.unwrapped.task.context[:20] + "\n"
    assert info["action"] == {"action": "code", "code": "print(context[:20])"}
    assert result.duration_ms > 0 and (reward, terminated, truncated) == (0.0, False, False)
    assert env.unwrapped.task.context[:20] in obs.split("REPL output:")[1]


def test_state_is_kept_across_steps(env):
    env.reset(seed=0)
    env.step("```repl\ntotal = len(context) * 2\n```")
    _, _, _, _, info = env.step("```repl\nprint(total)\nSHOW_VARS()\n```")
    assert info["action_result"].output == "16384\ncontext: str\ntotal: int\n"


def test_final_var_ends_the_episode_with_the_task_outcome(env):
    _, info = env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(_solve(info))
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["action_result"].action_type == "final" and info["action_result"].success
    outcome = info["task"]
    assert outcome["correct"] and outcome["score"] == 1.0
    assert outcome["answer"] == env.unwrapped.task.answer


def test_wrong_final_is_a_failed_final(env):
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step("FINAL(12)")
    assert terminated and reward == 0.0
    assert info["action_result"].action_type == "final" and not info["action_result"].success
    assert info["task"]["correct"] is False


def test_partial_credit_reaches_the_result_metadata():
    task = Task(context="x" * 10, query="how many x?", answer=10, kind="numeric")
    env = RLMEnv(tasks=task)
    env.reset(seed=0)
    _, _, _, _, info = env.step("FINAL(9)")
    assert info["action_result"].metadata["partial"] == pytest.approx(0.75)
    env.close()


def test_final_inside_code_ends_the_episode(env):
    env.reset(seed=0)
    _, _, terminated, _, info = env.step("```repl\nFINAL(env_answer := 'nope')\n```")
    assert terminated and info["task"]["answer"] == "nope"


def test_final_var_of_a_missing_variable_is_an_error(env):
    env.reset(seed=0)
    _, _, terminated, _, info = env.step("FINAL_VAR(nothing_here)")
    assert not terminated
    assert "no variable named 'nothing_here'" in info["action_result"].error


def test_response_without_code_or_final_is_a_clear_failure(env):
    env.reset(seed=0)
    _, _, _, _, info = env.step("I think the answer is somewhere.")
    assert info["action_result"].success is False
    assert "No ```repl``` code block" in info["action_result"].error


def test_step_budget_truncates():
    env = RLMEnv(family="needle", length=2**13, max_steps=2)
    env.reset(seed=0)
    assert env.step("```repl\nx = 1\n```")[3] is False
    _, _, terminated, truncated, _ = env.step("```repl\nx = 2\n```")
    assert (terminated, truncated) == (False, True)
    env.close()


def test_sub_calls_are_metered_into_info():
    prompts = []
    env = RLMEnv(family="needle", length=2**13, sub_model=lambda p: prompts.append(p) or "ok")
    env.reset(seed=0)
    _, _, _, _, info = env.step(
        "```repl\nanswers = llm_query_batched([context[:100], context[100:300]])\n"
        "print(llm_query('hi'), answers)\n```"
    )
    assert info["action_result"].output == "ok ['ok', 'ok']\n"
    assert info["task"]["sub_calls"] == 3 == len(prompts)
    assert info["task"]["sub_call_chars"] == 302
    assert info["task"]["chars_read"] == 302 + len("ok ['ok', 'ok']\n")
    env.close()


def test_a_failing_sub_model_is_the_codes_error():
    def broken(prompt):
        raise ConnectionError("server down")

    env = RLMEnv(family="needle", length=2**13, sub_model=broken)
    env.reset(seed=0)
    _, _, _, _, info = env.step("```repl\nllm_query('hi')\n```")
    assert "llm_query failed: ConnectionError: server down" in info["action_result"].error
    env.close()


def test_user_tasks_are_drawn_and_scored_by_their_checker():
    task = Task.custom("alpha beta gamma", "Second word?", lambda a: float(a == "beta"))
    env = RLMEnv(tasks=[task])
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(
        "```repl\nword = context.split()[1]\n```\nFINAL_VAR(word)"
    )
    assert terminated and reward == 1.0 and info["task"]["family"] == "custom"
    env.close()


def test_unknown_family_names_the_closest():
    with pytest.raises(ValueError, match="Did you mean 'pairs'"):
        RLMEnv(family="pears")


def test_research_policy_scores_every_component_it_was_written_for():
    env = RewardPolicyWrapper(gym.make(RLM_ENV_ID, family="needle", length=2**13), "research")
    _, info = env.reset(seed=0)
    _, _, _, _, first = env.step("```repl\nprint(context[:300])\n```")
    parts = first["reward_components"]
    assert parts["code_length"] > 0 and parts["output_length"] > 0
    assert parts["fast_execution"] == 0.05 and parts["base_success"] == 0.3
    _, _, _, _, failed = env.step("```repl\nprint('Traceback: error')\n1/0\n```")
    assert failed["reward_components"]["error_keyword"] == -0.05
    assert failed["reward_components"]["base_failure"] == -0.2
    _, _, terminated, _, last = env.step(_solve(info))
    assert terminated
    assert last["reward_components"]["final_success"] == 0.3
    assert last["reward_components"]["early_termination"] == 0.1
    assert set(last["episode_reward_components"]) == set(parts)
    env.close()


def test_episode_hooks_run_through_the_wrapper():
    calls = []

    class Hooked(RewardPolicy):
        name = "hooked-rlm-test"
        component_names = ("one",)

        def calculate(self, action, result, context):
            return RewardSignal(1.0, {"one": 1.0})

        def on_episode_start(self, context):
            calls.append(("start", context.max_steps))

        def on_episode_end(self, context, total_reward):
            calls.append(("end", total_reward))

    env = RewardPolicyWrapper(
        gym.make(RLM_ENV_ID, family="needle", length=2**13, max_steps=2), Hooked()
    )
    env.reset(seed=0)
    env.step("```repl\nx = 1\n```")
    env.step("```repl\nx = 2\n```")
    assert calls == [("start", 12), ("end", 2.0)]
    env.close()
    assert PolicyRegistry.list_reward_policies()  # the registry is untouched by instances


def test_output_outside_the_charset_shows_as_question_marks(env):
    env.reset(seed=0)
    obs, _, _, _, info = env.step("```repl\nprint(chr(31) + 'é' + chr(127) + '\\tok')\n```")
    assert info["action_result"].output == "\x1fé\x7f\tok\n"
    assert "???\tok" in obs and env.observation_space.contains(obs)
