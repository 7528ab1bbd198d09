"""``ResultBatch``: the step results of every sub-env of a vector env, as arrays.

A vector wrapper scores all sub-envs of one step at once. Instead of one ``ActionResult`` and one
action dict per sub-env, a built-in policy's ``score_batch`` reads this struct of arrays, one
entry per sub-env, holding exactly what the built-in formulas read (lengths, flags, the partial
share), so a whole step is scored in a few numpy operations.

Two ways in:

* ``ResultBatch.from_results`` - the vector env reported an ``ActionResult`` (and an action dict)
  per sub-env; one Python pass extracts the fields.
* ``ResultBatch.generic`` - it reported none: every sub-env's result is the generic one of
  ``RewardPolicyWrapper`` (``"final"`` when terminated else ``"step"``, ``success = reward > 0``,
  nothing else), built from the reward and termination arrays without a Python loop.

Example:
    >>> import numpy as np
    >>> batch = ResultBatch.generic(
    ...     rewards=np.array([1.0, 0.0]), terminated=np.array([False, True]),
    ...     step=np.array([3, 7]), max_steps=np.array([10, 10]),
    ... )
    >>> batch.success.tolist(), batch.is_final.tolist(), batch.action_type.tolist()
    ([True, False], [False, True], ['step', 'final'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from numbers import Real
from typing import Any

import numpy as np

from rlm_gym.policies.types import ActionResult

__all__ = ["ERROR_WORDS", "ResultBatch", "bracket_depth", "partial_share"]

# Words whose presence in an action's output marks it as reporting an error (``research``).
ERROR_WORDS = ("error", "exception", "traceback", "failed")

_BRACKET_STEP = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}


def bracket_depth(code: str) -> int:
    """The maximum nesting depth of ``()[]{}`` brackets in ``code`` (unbalanced closers ignored).

    Example:
        >>> bracket_depth("f(g([1, {2: (3,)}]))")
        5
    """
    depth = deepest = 0
    for char in code:
        step = _BRACKET_STEP.get(char)
        if step:
            depth = max(0, depth + step)
            deepest = max(deepest, depth)
    return deepest


def partial_share(result: ActionResult) -> float:
    """The ``metadata["partial"]`` share in [0, 1] (0 when absent); other values raise.

    Raises:
        ValueError: The share is not a number in [0, 1].
    """
    share = result.metadata.get("partial", 0.0)
    if share is None:
        return 0.0
    if isinstance(share, bool) or not isinstance(share, Real) or not 0.0 <= share <= 1.0:
        raise ValueError(f"Expected `metadata['partial']` to be a number in [0, 1], got {share!r}")
    return float(share)


def _zeros(n: int, dtype: Any) -> np.ndarray:
    array = np.zeros(n, dtype=dtype)
    array.flags.writeable = False  # shared between batches of one size
    return array


@dataclass(frozen=True)
class ResultBatch:
    """One step of ``n`` sub-envs: arrays of shape ``(n,)``, one entry per sub-env.

    Attributes:
        action_type: The results' ``action_type`` (str, object array).
        is_final: The action dict's ``"action"`` (else ``action_type``) is ``"final"``.
        success: The results' ``success``.
        has_error: The result carries a non-empty ``error``.
        error_text: The ``error`` text (``""`` when none).
        duration_ms: The results' ``duration_ms``.
        tokens_used: The results' ``tokens_used``.
        output_length: ``len(output)`` (0 for ``None``).
        code_length: ``len(action["code"])`` (0 when absent or empty).
        code_depth: ``bracket_depth(action["code"])`` (0 when absent or empty).
        output_has_error_word: The lower-cased output contains one of ``ERROR_WORDS``.
        partial: ``metadata["partial"]`` of a failed result with metadata (else 0.0); NaN where
            that value is not a share in [0, 1] (``partial_errors`` says why).
        step: Steps already scored in the sub-env's episode (``PolicyContext.step``).
        max_steps: ``PolicyContext.max_steps`` of each sub-env.
        partial_errors: Sub-env index → the message for a bad ``metadata["partial"]``; the
            policies that read the share raise it, the others never look.
    """

    action_type: np.ndarray
    is_final: np.ndarray
    success: np.ndarray
    has_error: np.ndarray
    error_text: np.ndarray
    duration_ms: np.ndarray
    tokens_used: np.ndarray
    output_length: np.ndarray
    code_length: np.ndarray
    code_depth: np.ndarray
    output_has_error_word: np.ndarray
    partial: np.ndarray
    step: np.ndarray
    max_steps: np.ndarray
    partial_errors: Mapping[int, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.success)

    @classmethod
    def generic(
        cls,
        rewards: np.ndarray,
        terminated: np.ndarray,
        step: np.ndarray,
        max_steps: np.ndarray,
    ) -> ResultBatch:
        """The generic results of ``RewardPolicyWrapper`` for a whole step, from arrays."""
        n = len(rewards)
        constants = _GENERIC.get(n)
        if constants is None:
            constants = _GENERIC[n] = _generic_constants(n)
        final_names, zeros_bool, zeros_float, zeros_int, empty_text = constants
        terminated = np.asarray(terminated, dtype=bool)
        return cls(
            action_type=final_names[terminated.view(np.uint8)],
            is_final=terminated,
            success=np.asarray(rewards) > 0.0,
            has_error=zeros_bool,
            error_text=empty_text,
            duration_ms=zeros_float,
            tokens_used=zeros_int,
            output_length=zeros_int,
            code_length=zeros_int,
            code_depth=zeros_int,
            output_has_error_word=zeros_bool,
            partial=zeros_float,
            step=step,
            max_steps=max_steps,
        )

    @classmethod
    def from_results(
        cls,
        actions: Sequence[Mapping[str, Any]],
        results: Sequence[ActionResult],
        step: np.ndarray,
        max_steps: np.ndarray,
    ) -> ResultBatch:
        """Extract the fields from one action dict and ``ActionResult`` per sub-env."""
        n = len(results)
        columns: dict[str, list[Any]] = {name: [0] * n for name in _PER_RESULT}
        partial_errors: dict[int, str] = {}
        for index, (action, result) in enumerate(zip(actions, results, strict=True)):
            output = result.output or ""
            error = result.error or ""
            code = action.get("code")
            partial = 0.0
            if not result.success and result.metadata:
                try:
                    partial = partial_share(result)
                except ValueError as problem:
                    partial, partial_errors[index] = float("nan"), str(problem)
            lowered = output.lower() if output else ""
            row = (
                result.action_type,
                action.get("action", result.action_type) == "final",
                result.success,
                bool(error),
                error,
                result.duration_ms,
                result.tokens_used,
                len(output),
                len(code) if code else 0,
                bracket_depth(code) if code else 0,
                any(word in lowered for word in ERROR_WORDS),
                partial,
            )
            for name, value in zip(_PER_RESULT, row, strict=True):
                columns[name][index] = value
        return cls(
            **{name: np.array(columns[name], dtype=_DTYPES[name]) for name in _PER_RESULT},
            step=step,
            max_steps=max_steps,
            partial_errors=partial_errors,
        )


_DTYPES = {
    "action_type": object,
    "is_final": bool,
    "success": bool,
    "has_error": bool,
    "error_text": object,
    "duration_ms": np.float64,
    "tokens_used": np.int64,
    "output_length": np.int64,
    "code_length": np.int64,
    "code_depth": np.int64,
    "output_has_error_word": bool,
    "partial": np.float64,
}
_PER_RESULT = tuple(_DTYPES)
# Per batch size: the read-only arrays every generic batch of that size shares.
_GENERIC: dict[int, tuple[np.ndarray, ...]] = {}


def _generic_constants(n: int) -> tuple[np.ndarray, ...]:
    final_names = np.array(["step", "final"], dtype=object)
    empty_text = np.full(n, "", dtype=object)
    empty_text.flags.writeable = False
    return final_names, _zeros(n, bool), _zeros(n, np.float64), _zeros(n, np.int64), empty_text
