"""``rlm_gym/RLM-v0`` as a ``verifiers`` multi-turn environment, a reward policy as its rubric.

Each rollout is one RLM episode: the model's responses are the env's actions (their
```` ```repl ```` code runs in the sandbox, the REPL output comes back as the next user
message) until a ``FINAL`` or the turn budget. The rubric's reward is the policy's episode
return through ``RewardPolicyWrapper``; every component's episode sum, the task score and
the sub-calls are metrics (weight 0), so they arrive in the rollout's metrics beside the reward.

Needs the ``verifiers`` extra (``verifiers`` 0.1.14 to 0.3.x, whose ``import verifiers as vf``
has the classic ``MultiTurnEnv`` and ``Rubric``; 0.4 removed them). The verifiers classes are
built on first use, so this module imports without it.

Usage::

    env = load_environment(policy="research", family="aggregation", length=2**16)
    results = env.evaluate_sync(client=ClientConfig(api_base_url=...), model="my-model")
"""

from __future__ import annotations

import itertools
from typing import Any

from rlm_gym.envs.rlm.env import RLMEnv
from rlm_gym.envs.rlm.tasks import generate_task
from rlm_gym.integrations.trl import rlm_prompts
from rlm_gym.policies.registry import resolve_reward_policy
from rlm_gym.wrappers import RewardPolicyWrapper

__all__ = ["load_environment", "policy_rubric"]

_CLASSES: dict[str, type] = {}


def _content(message: Any) -> str:
    if isinstance(message, dict):
        return str(message.get("content") or "")
    return str(getattr(message, "content", "") or "")


def _role(message: Any) -> str:
    if isinstance(message, dict):
        return str(message.get("role", ""))
    return str(getattr(message, "role", ""))


def policy_rubric(policy: str = "research"):
    """A ``verifiers.Rubric``: the policy's episode return (weight 1), and as metrics each
    component's episode sum, ``task_score`` and ``sub_calls``."""
    import verifiers as vf

    def episode_return(state, **kwargs) -> float:
        return float(state["rlm"]["return"])

    episode_return.__name__ = policy
    rubric = vf.Rubric(funcs=[episode_return], weights=[1.0])
    for name in resolve_reward_policy(policy).component_names:

        def component(state, _name=name, **kwargs) -> float:
            return float(state["rlm"]["components"].get(_name, 0.0))

        component.__name__ = f"{policy}/{name}"
        rubric.add_metric(component)

    def task_score(state, **kwargs) -> float:
        return float(state["rlm"]["task"].get("score", 0.0))

    def sub_calls(state, **kwargs) -> float:
        return float(state["rlm"]["task"].get("sub_calls", 0))

    rubric.add_metric(task_score)
    rubric.add_metric(sub_calls)
    return rubric


def _env_class() -> type:
    if "env" in _CLASSES:
        return _CLASSES["env"]
    import verifiers as vf

    class RLMVerifiersEnv(vf.MultiTurnEnv):
        """The RLM env behind verifiers' multi-turn protocol (one sandbox per rollout)."""

        def __init__(self, policy: str, env_kwargs: dict[str, Any], **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.policy = policy
            self.env_kwargs = env_kwargs
            self.episodes: dict[int, dict[str, Any]] = {}
            self._ids = itertools.count()

        async def setup_state(self, state) -> None:
            info = state["info"]
            env = RewardPolicyWrapper(RLMEnv(**self.env_kwargs), self.policy, task="rlm_gym/RLM-v0")
            task = generate_task(info["family"], int(info["length"]), int(info["task_seed"]))
            env.reset(options={"task": task})
            key = next(self._ids)
            self.episodes[key] = {"env": env, "stepped": 0}
            state["rlm_key"] = key
            state["rlm"] = {"return": 0.0, "components": {}, "task": {}, "done": False}

        def _step(self, state, text: str, episode: dict[str, Any] | None = None) -> str:
            episode = episode or self.episodes[state["rlm_key"]]
            observation, reward, terminated, truncated, info = episode["env"].step(text)
            episode["stepped"] += 1
            summary = state["rlm"]
            summary["task"] = info["task"]
            # Sums so far (what the wrapper reports as the episode's at its end).
            summary["return"] += float(reward)
            for name, value in info["reward_components"].items():
                summary["components"][name] = summary["components"].get(name, 0.0) + value
            summary["done"] = bool(terminated or truncated)
            return observation

        async def env_response(self, messages, state, **kwargs):
            observation = self._step(state, _content(messages[-1]))
            reply = [{"role": "user", "content": observation}]
            if state["rlm"]["done"]:
                state["final_env_response"] = reply
            return reply

        @vf.cleanup
        async def close_rlm_episode(self, state) -> None:
            episode = self.episodes.pop(state.get("rlm_key"), None)
            if episode is None:
                return
            try:
                # The turn budget stops the rollout before the last response reaches
                # env_response: run it here (the env's own budget equals the turns).
                responses = [
                    _content(m) for m in state.get("completion") or [] if _role(m) == "assistant"
                ]
                for text in responses[episode["stepped"] :]:
                    if state["rlm"]["done"]:
                        break
                    self._step(state, text, episode)
            finally:
                episode["env"].close()

    _CLASSES["env"] = RLMVerifiersEnv
    return RLMVerifiersEnv


def load_environment(
    policy: str = "research",
    family: str = "needle",
    length: int = 2**13,
    num_examples: int = 8,
    seed: int = 0,
    max_turns: int = 4,
    **env_kwargs: Any,
):
    """A verifiers ``MultiTurnEnv`` over ``num_examples`` RLM tasks, scored by ``policy``."""
    from datasets import Dataset

    rows = rlm_prompts(num_examples, family, length, seed)
    dataset = Dataset.from_list(
        [
            {
                "prompt": row["prompt"],
                "answer": row["answer"],
                "info": {"family": family, "length": length, "task_seed": row["task_seed"]},
            }
            for row in rows
        ]
    )
    env_kwargs = {"family": family, "length": length, "max_steps": max_turns, **env_kwargs}
    return _env_class()(
        policy=policy,
        env_kwargs=env_kwargs,
        dataset=dataset,
        rubric=policy_rubric(policy),
        max_turns=max_turns,
    )
