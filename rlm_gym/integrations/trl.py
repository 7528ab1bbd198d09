"""Reward policies as TRL reward functions, for ``GRPOTrainer(reward_funcs=...)`` on RLM tasks.

Each completion is the model's response to an ``rlm_gym/RLM-v0`` observation: it is run as
the first step of that task's episode (its code in the sandbox, its ``FINAL`` checked) and
scored by the policy through ``RewardPolicyWrapper``. :func:`reward_funcs` returns the policy's
value as the reward and, with weight 0, one function per component, so TRL logs every
component (``rewards/<policy>/<component>/mean``) beside the reward it trains on.

Needs the ``trl`` extra (``datasets`` for :func:`rlm_dataset`); nothing here is imported by
``import rlm_gym``.

Example:
    >>> funcs, weights = reward_funcs("strict", length=2**13)
    >>> [f.__name__ for f in funcs][:3], weights[:3]
    (['strict', 'strict/success', 'strict/failure'], [1.0, 0.0, 0.0])
    >>> funcs[0](completions=["FINAL(0)"], family=["needle"], length=[2**13], task_seed=[1])
    [-0.6]
    >>> close_reward_funcs(funcs)
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from rlm_gym.envs.rlm.agents import RLM_SYSTEM_PROMPT
from rlm_gym.envs.rlm.env import RLMEnv
from rlm_gym.envs.rlm.tasks import generate_task
from rlm_gym.policies.registry import resolve_reward_policy
from rlm_gym.wrappers import RewardPolicyWrapper

__all__ = ["PolicyScorer", "reward_funcs", "close_reward_funcs", "rlm_dataset", "rlm_prompts"]


def _text(completion: Any) -> str:
    """A completion's text: a string, or the last message of a conversational completion."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion and isinstance(completion[-1], dict):
        return str(completion[-1].get("content", ""))
    raise TypeError(
        "Expected a completion to be a str or a list of chat messages, got "
        f"{type(completion).__name__}"
    )


class PolicyScorer:
    """Scores completions on RLM tasks with one policy; keeps one warm env (and sandbox).

    Args:
        policy: A registered policy name.
        cache_size: Scored (task, completion) pairs remembered, so the value and the component
            functions of one batch run each completion once.
        **env_kwargs: For :class:`~rlm_gym.envs.rlm.env.RLMEnv` (``sub_model``, ``timeout_s``).
    """

    def __init__(self, policy: str = "research", cache_size: int = 4096, **env_kwargs: Any):
        self.policy = policy
        self.component_names = tuple(resolve_reward_policy(policy).component_names)
        self.env_kwargs = env_kwargs
        self.cache: OrderedDict[tuple, dict[str, Any]] = OrderedDict()
        self.cache_size = cache_size
        self._env: RewardPolicyWrapper | None = None

    def env(self) -> RewardPolicyWrapper:
        if self._env is None:
            self._env = RewardPolicyWrapper(
                RLMEnv(**self.env_kwargs), self.policy, task="rlm_gym/RLM-v0"
            )
        return self._env

    def score(self, completion: Any, family: str, length: int, task_seed: int) -> dict[str, Any]:
        """``{"value", "components", "task"}`` of one completion as its task's first step."""
        text = _text(completion)
        key = (family, int(length), int(task_seed), text)
        if key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key]
        env = self.env()
        env.reset(options={"task": generate_task(family, int(length), int(task_seed))})
        _, reward, _, _, info = env.step(text)
        scored = {
            "value": float(reward),
            "components": dict(info["reward_components"]),
            "task": info["task"],
        }
        self.cache[key] = scored
        if len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)
        return scored

    def close(self) -> None:
        """Stop the env's sandbox."""
        if self._env is not None:
            self._env.close()
            self._env = None


def reward_funcs(
    policy: str = "research", components: bool = True, **env_kwargs: Any
) -> tuple[list[Any], list[float]]:
    """``(funcs, weights)`` for ``GRPOTrainer(reward_funcs=funcs)`` and
    ``GRPOConfig(reward_weights=weights)``: the policy's value (weight 1) and, if
    ``components``, each component (weight 0: logged, not trained on).

    The dataset needs the columns ``family``, ``length`` and ``task_seed`` (as
    :func:`rlm_dataset` makes), which TRL passes to reward functions as lists.
    """
    scorer = PolicyScorer(policy, **env_kwargs)

    def make(component: str | None):
        def func(completions, family, length, task_seed, **kwargs) -> list[float]:
            rows = zip(completions, family, length, task_seed, strict=True)
            scored = [scorer.score(*row) for row in rows]
            if component is None:
                return [s["value"] for s in scored]
            return [float(s["components"][component]) for s in scored]

        func.__name__ = policy if component is None else f"{policy}/{component}"
        func.scorer = scorer  # type: ignore[attr-defined]
        return func

    funcs = [make(None)]
    if components:
        funcs += [make(name) for name in scorer.component_names]
    return funcs, [1.0] + [0.0] * (len(funcs) - 1)


def close_reward_funcs(funcs: list[Any]) -> None:
    """Stop the sandboxes behind ``funcs``."""
    for func in funcs:
        func.scorer.close()


def rlm_prompts(
    count: int, family: str = "needle", length: int = 2**13, seed: int = 0, **env_kwargs: Any
) -> list[dict[str, Any]]:
    """``count`` rows: a conversational ``prompt`` (the RLM system prompt and the env's first
    observation) and the task's ``family``, ``length``, ``task_seed`` and ``answer``."""
    env = RLMEnv(family=family, length=length, **env_kwargs)
    rows = []
    try:
        for index in range(count):
            task = generate_task(family, length, seed + index)
            observation, _ = env.reset(options={"task": task})
            rows.append(
                {
                    "prompt": [
                        {"role": "system", "content": RLM_SYSTEM_PROMPT},
                        {"role": "user", "content": observation},
                    ],
                    "family": family,
                    "length": length,
                    "task_seed": seed + index,
                    "answer": str(task.answer),
                }
            )
    finally:
        env.close()
    return rows


def rlm_dataset(count: int, family: str = "needle", length: int = 2**13, seed: int = 0):
    """:func:`rlm_prompts` as a ``datasets.Dataset`` (what ``GRPOTrainer`` takes)."""
    from datasets import Dataset

    return Dataset.from_list(rlm_prompts(count, family, length, seed))
