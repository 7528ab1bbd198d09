"""``rlm_gym/RLM-v0``: a Recursive Language Model's code actions in a sandboxed REPL over a
long context (:class:`RLMEnv`), its tasks, sandboxes, sub-models and scripted agents.

Nothing here is imported by ``import rlm_gym``: the env's module loads when the env is made.

Example:
    >>> from rlm_gym.envs.rlm import generate_task
    >>> generate_task("aggregation", length=2**13, seed=1).kind
    'numeric'
"""

from __future__ import annotations

from rlm_gym.envs.rlm.env import DEFAULT_MAX_STEPS, RLMEnv
from rlm_gym.envs.rlm.parsing import parse_response
from rlm_gym.envs.rlm.sandbox import (
    ALLOWED_MODULES,
    BwrapSandbox,
    NetnsSandbox,
    RunResult,
    Sandbox,
    SubprocessSandbox,
    make_sandbox,
)
from rlm_gym.envs.rlm.submodels import (
    CallableSubModel,
    OfflineReader,
    OpenAISubModel,
    SubModel,
    make_submodel,
)
from rlm_gym.envs.rlm.tasks import FAMILIES, LABELS, Task, generate_task, score_answer

__all__ = [
    "RLMEnv",
    "DEFAULT_MAX_STEPS",
    "parse_response",
    "ALLOWED_MODULES",
    "Sandbox",
    "RunResult",
    "SubprocessSandbox",
    "NetnsSandbox",
    "BwrapSandbox",
    "make_sandbox",
    "SubModel",
    "OfflineReader",
    "CallableSubModel",
    "OpenAISubModel",
    "make_submodel",
    "FAMILIES",
    "LABELS",
    "Task",
    "generate_task",
    "score_answer",
]
