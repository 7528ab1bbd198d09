"""``rlm_gym/RLM-v0``: a Recursive Language Model's code actions in a sandboxed REPL.

An RLM (Zhang, Kraska, Khattab; arXiv 2512.24601) keeps a long prompt as the variable
``context`` of a Python REPL, writes code to inspect and split it, asks sub-models about the
pieces (``llm_query``) and answers with ``FINAL(...)`` / ``FINAL_VAR(name)``. Here the agent's
action is its response text; the env runs the response's ```` ```repl ```` blocks in a
:class:`~rlm_gym.envs.rlm.sandbox.Sandbox` and reports each step as an ``ActionResult``, so
the reward policies score the code actions they were written for.

Example:
    >>> import gymnasium as gym
    >>> import rlm_gym
    >>> env = gym.make("rlm_gym/RLM-v0", family="needle", length=2**13)
    >>> obs, info = env.reset(seed=0)
    >>> key = info["task"]["query"].split("code for ")[1].split("?")[0]
    >>> code = f"import re\\nanswer = re.search(r'{key} is (\\\\d+)', context).group(1)"
    >>> obs, reward, terminated, truncated, info = env.step(
    ...     f"```repl\\n{code}\\n```\\nFINAL_VAR(answer)")
    >>> terminated, info["task"]["correct"], info["action_result"].action_type
    (True, True, 'final')
    >>> env.close()
"""

from __future__ import annotations

import string
from typing import Any

import gymnasium as gym
from gymnasium import spaces

from rlm_gym.envs.rlm.parsing import parse_response
from rlm_gym.envs.rlm.sandbox import Sandbox, make_sandbox
from rlm_gym.envs.rlm.submodels import make_submodel
from rlm_gym.envs.rlm.tasks import FAMILIES, Task, generate_task
from rlm_gym.policies import ActionResult

__all__ = ["RLMEnv", "CHARSET", "DEFAULT_MAX_STEPS"]

DEFAULT_MAX_STEPS = 12
# Observations and actions are text over printable ASCII plus newline and tab; anything else
# in an observation is shown as "?" so it always lies in the space.
CHARSET = frozenset(string.printable)
_MAX_OBS = 65_536
_MAX_ACTION = 65_536


# ASCII control characters outside the charset (everything but the whitespace ones).
_CONTROL = {code: "?" for code in [*range(32), 127] if chr(code) not in CHARSET}


def _clean(text: str) -> str:
    """``text`` with every character outside :data:`CHARSET` shown as ``?``."""
    if not text.isascii():
        text = "".join(char if char.isascii() else "?" for char in text)
    return text.translate(_CONTROL)


class RLMEnv(gym.Env):
    """The RLM env: one task per episode, the agent's responses run in a sandbox.

    Args:
        family: A task family of :data:`~rlm_gym.envs.rlm.tasks.FAMILIES`, or ``"mixed"``
            (one drawn per episode from the seed).
        length: Characters of context per generated task (2**13 to 2**23).
        tasks: User tasks instead of generated ones: one :class:`Task`, or a list (drawn
            per episode from the seed).
        sub_model: What ``llm_query`` asks: ``"offline"`` (the rule-based stand-in), a
            callable ``prompt -> str``, or an object with ``complete(prompts)``.
        sandbox: ``"subprocess"`` (default), ``"netns"`` or a :class:`Sandbox` instance.
        max_steps: Responses per episode before ``truncated``.
        timeout_s: Per-step time-out of the code (sub-model calls excluded).
        memory_mb: The sandbox's address-space limit.
        preview_chars: Characters of the context shown in the observation.
        max_output_chars: Characters of REPL output shown per step (the rest is cut, as the
            reference RLM cuts it, so the model must use variables and sub-calls).
    """

    metadata = {"render_modes": []}

    def __init__(
        self,
        family: str = "aggregation",
        length: int = 2**16,
        tasks: Task | list[Task] | None = None,
        sub_model: Any = "offline",
        sandbox: str | Sandbox = "subprocess",
        max_steps: int = DEFAULT_MAX_STEPS,
        timeout_s: float = 10.0,
        memory_mb: int = 1024,
        preview_chars: int = 500,
        max_output_chars: int = 20_000,
    ) -> None:
        if family != "mixed" and family not in FAMILIES:
            generate_task(family, length)  # raises the error with the closest name
        if isinstance(tasks, Task):
            tasks = [tasks]
        if tasks is not None and (not tasks or not all(isinstance(t, Task) for t in tasks)):
            raise TypeError("Expected `tasks` to be a Task or a non-empty list of Task")
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
            raise ValueError(f"Expected `max_steps` to be an int >= 1, got {max_steps!r}")
        self.family, self.length, self.tasks = family, int(length), tasks
        self.max_steps = max_steps
        self.preview_chars, self.max_output_chars = int(preview_chars), int(max_output_chars)
        self.sub_model = make_submodel(sub_model)
        self.sandbox = make_sandbox(
            sandbox, timeout_s=timeout_s, memory_mb=memory_mb, on_llm=self._on_llm
        )
        if not isinstance(sandbox, str) and hasattr(sandbox, "on_llm"):
            sandbox.on_llm = self._on_llm
        self.observation_space = spaces.Text(max_length=_MAX_OBS, min_length=0, charset=CHARSET)
        self.action_space = spaces.Text(max_length=_MAX_ACTION, min_length=0, charset=CHARSET)
        self.task: Task | None = None
        self._steps = 0
        self._meter = {"sub_calls": 0, "sub_call_chars": 0, "output_chars": 0}

    # -- sub-calls ----------------------------------------------------------------------------
    def _on_llm(self, prompts: list[str]) -> list[str]:
        answers = self.sub_model.complete(list(prompts))
        if len(answers) != len(prompts):
            raise RuntimeError(f"the sub-model gave {len(answers)} answers to {len(prompts)}")
        self._meter["sub_calls"] += len(prompts)
        self._meter["sub_call_chars"] += sum(len(p) for p in prompts)
        return answers

    # -- episode ------------------------------------------------------------------------------
    def _draw_task(self) -> Task:
        rng = self.np_random
        if self.tasks is not None:
            return self.tasks[int(rng.integers(0, len(self.tasks)))]
        family = self.family
        if family == "mixed":
            family = FAMILIES[int(rng.integers(0, len(FAMILIES)))]
        return generate_task(family, self.length, seed=int(rng.integers(0, 2**31 - 1)))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        task = (options or {}).get("task")
        self.task = task if isinstance(task, Task) else self._draw_task()
        self._steps = 0
        self._meter = {"sub_calls": 0, "sub_call_chars": 0, "output_chars": 0}
        self.sandbox.load(self.task.context)
        return self._observation(""), {"task": self._task_info()}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self.task is None:
            raise RuntimeError("Call reset() before step()")
        if not isinstance(action, str):
            raise TypeError(f"Expected the action to be the response text (str), got {action!r}")
        step = self._steps
        self._steps += 1
        blocks, final = parse_response(action)
        code = "\n".join(blocks)
        outputs, errors, duration, answer = [], [], 0.0, None
        for block in blocks:
            result = self.sandbox.run(block)
            duration += result.duration_ms
            outputs.append(result.output)
            if result.error:
                errors.append(result.error)
                break
            if result.final is not None:
                answer = result.final["answer"]
                break
        if answer is None and final is not None and not errors:
            answer, error = self._resolve_final(final)
            if error:
                errors.append(error)
        if not blocks and final is None:
            errors.append(
                "No ```repl``` code block and no FINAL(...) / FINAL_VAR(name) in the response"
            )
        output = "".join(outputs)
        shown = output[: self.max_output_chars]
        self._meter["output_chars"] += len(shown)
        error = "\n".join(errors) or None
        terminated = answer is not None
        truncated = not terminated and self._steps >= self.max_steps
        info: dict[str, Any] = {}
        if terminated:
            score = self.task.score(answer)
            correct = score >= 1.0 - 1e-9
            metadata = {"score": score, "answer": answer}
            if not correct and score > 0:
                metadata["partial"] = score
            result = ActionResult(
                "final", correct, output, error, duration_ms=duration, metadata=metadata
            )
            action_dict = {"action": "final", "code": code, "answer": answer}
            info["task"] = self._task_info(answer=answer, score=score, correct=correct)
        else:
            result = ActionResult("code", error is None, output, error, duration_ms=duration)
            action_dict = {"action": "code", "code": code}
            info["task"] = self._task_info()
        info["action"] = action_dict
        info["action_result"] = result
        info["step"] = step
        observation = self._observation(shown, error, cut=len(output) > len(shown))
        return observation, float(result.success and terminated), terminated, truncated, info

    def _resolve_final(self, final: tuple[str, str]) -> tuple[str | None, str | None]:
        kind, value = final
        if kind == "answer":
            return value.strip().strip("'\""), None
        found, text = self.sandbox.get(value)
        if not found:
            return None, f"FINAL_VAR: no variable named {value!r} in the REPL (see SHOW_VARS())"
        return text, None

    def _task_info(self, **outcome: Any) -> dict[str, Any]:
        task = self.task
        assert task is not None
        meter = self._meter
        return {
            "family": task.family,
            "length": len(task.context),
            "query": task.query,
            "seed": task.seed,
            "sub_calls": meter["sub_calls"],
            "sub_call_chars": meter["sub_call_chars"],
            "chars_read": meter["sub_call_chars"] + meter["output_chars"],
            **outcome,
        }

    def _observation(self, output: str, error: str | None = None, cut: bool = False) -> str:
        task = self.task
        assert task is not None
        context = task.context
        parts = [
            f"Query: {task.query}",
            f"Context: a str of {len(context):,} characters in the variable `context`. "
            f"First {min(self.preview_chars, len(context))} characters:",
            context[: self.preview_chars],
            f"Step {self._steps} of {self.max_steps}.",
        ]
        if self._steps:
            parts.append("REPL output" + (" (cut)" if cut else "") + ":\n" + output)
            if error:
                parts.append("Error:\n" + error[:2000])
        return _clean("\n".join(parts))[:_MAX_OBS]

    def close(self) -> None:
        """Stop the sandbox (its process and folder) and the sub-model's connections."""
        self.sandbox.stop()
        close = getattr(self.sub_model, "close", None)
        if callable(close):
            close()
        super().close()
