"""The seed's four reward policies (default, strict, lenient, research) and ``binary``.

Each ``score_components`` emits only the components that apply, with their sign; ``calculate``
(from :class:`AdditiveRewardPolicy`) returns ``value = clamp(sum(components), *value_range)``.
Each policy states its settings as the table ``DEFAULT_CONFIG`` and its formula one line per
component, as the README's policy table does; a setting ``key`` is read as ``self._key`` (see
:class:`~rlm_gym.policies.base.ConfiguredAdditivePolicy`), and a penalty, stored positive,
is negated where it is used. ``result.output`` of ``None`` counts as ``""``.

"Final" is written out as ``action.get("action", result.action_type) == "final"`` (what
:func:`~rlm_gym.policies.base.is_final` does): a function call per step costs as much as a
component, and these run on every step of every wrapped env.

Each policy also scores a whole vector step at once: ``score_batch`` reads a
:class:`~rlm_gym.policies.batch.ResultBatch` (one entry per sub-env) and returns every declared
component as a float64 array, 0.0 where the component does not apply - the same numbers as
``score_components``, one numpy pass instead of one call per sub-env. A policy setting
``scores_by_success_and_finality`` promises that on generic results (only ``success`` and
``is_final`` set) its components depend on nothing else, so the vector wrapper scores them from
a four-row table built with its ``score_batch``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from rlm_gym.policies.base import AdditiveRewardPolicy, ConfiguredAdditivePolicy
from rlm_gym.policies.batch import ERROR_WORDS, ResultBatch, bracket_depth, partial_share
from rlm_gym.policies.registry import PolicyRegistry
from rlm_gym.policies.types import ActionResult, PolicyContext

__all__ = [
    "DefaultRewardPolicy",
    "StrictRewardPolicy",
    "LenientRewardPolicy",
    "ResearchRewardPolicy",
    "BinaryRewardPolicy",
    "max_bracket_depth",
]

Components = dict[str, np.ndarray]


def _where(applies: np.ndarray, value: Any) -> np.ndarray:
    """``value`` where the component applies, else 0.0 (float64)."""
    return np.where(applies, value, 0.0)


def _signed(value: float) -> tuple[float, float]:
    """The bounds of a component that is ``value`` or 0.0."""
    return (min(0.0, value), max(0.0, value))


def _raise_partial_errors(batch: ResultBatch) -> None:
    """The first bad ``metadata["partial"]`` as ``score_components`` raises it, with the sub-env."""
    for index, message in batch.partial_errors.items():
        raise ValueError(f"{message} (sub-env {index})")


@PolicyRegistry.register_reward("default")
class DefaultRewardPolicy(ConfiguredAdditivePolicy):
    """Balanced reward: a small base, a success bonus or failure penalty, a final bonus.

    Example:
        >>> policy = DefaultRewardPolicy()
        >>> signal = policy.calculate(
        ...     {"action": "code", "code": "1/0"},
        ...     ActionResult("code", success=False, error="ZeroDivisionError"),
        ...     PolicyContext(task="compute answer"),
        ... )
        >>> round(signal.value, 6), signal.components
        (-0.3, {'base': 0.1, 'failure': -0.3, 'error': -0.1})
    """

    name = "default"
    #: On generic results its components depend only on success and finality (a table).
    scores_by_success_and_finality = True
    description = "Balanced rewards: moderate success bonus and failure penalty, final bonus."
    formula = "default = base + (success | failure) + error + final + partial, clamped to [-1, 1]"
    component_names = ("base", "success", "failure", "error", "final", "partial")
    DEFAULT_CONFIG = {
        "base": 0.1,
        "success_bonus": 0.7,
        "failure_penalty": 0.3,
        "partial_success_base": 0.3,
        "stderr_penalty": 0.1,
        "final_bonus": 0.5,
    }

    def component_bounds(self) -> dict[str, tuple[float, float]]:
        """Each component is one setting (signed) or 0.0; ``partial`` at most its base."""
        return {
            "base": _signed(self._base),
            "success": _signed(self._success_bonus),
            "failure": _signed(-self._failure_penalty),
            "error": _signed(-self._stderr_penalty),
            "final": _signed(self._final_bonus),
            "partial": _signed(self._partial_success_base),
        }

    def score_components(
        self, action: dict[str, Any], result: ActionResult, context: PolicyContext
    ) -> dict[str, float]:
        if result.success:
            components = {"base": self._base, "success": self._success_bonus}
            if action.get("action", result.action_type) == "final":
                components["final"] = self._final_bonus
        else:
            components = {"base": self._base, "failure": -self._failure_penalty}
            if result.metadata:
                share = partial_share(result)
                if share > 0.0:
                    components["partial"] = self._partial_success_base * share
        if result.error:
            components["error"] = -self._stderr_penalty
        return components

    def score_batch(self, batch: ResultBatch) -> Components:
        """Every component for each sub-env of a vector step (see the module docstring)."""
        _raise_partial_errors(batch)
        success, failed = batch.success, ~batch.success
        return {
            "base": np.full(len(batch), self._base),
            "success": _where(success, self._success_bonus),
            "failure": _where(failed, -self._failure_penalty),
            "error": _where(batch.has_error, -self._stderr_penalty),
            "final": _where(success & batch.is_final, self._final_bonus),
            "partial": _where(
                failed & (batch.partial > 0.0), self._partial_success_base * batch.partial
            ),
        }


@PolicyRegistry.register_reward("strict")
class StrictRewardPolicy(ConfiguredAdditivePolicy):
    """Heavy penalties for failures, errors and timeouts; final bonus only when error-free.

    Example:
        >>> signal = StrictRewardPolicy().calculate(
        ...     {"action": "code", "code": "time.sleep(300)"},
        ...     ActionResult("code", success=False, error="Execution timeout after 60s"),
        ...     PolicyContext(),
        ... )
        >>> signal.value, signal.components
        (-1.0, {'failure': -0.6, 'error': -0.3, 'timeout': -0.4})
    """

    name = "strict"
    #: On generic results its components depend only on success and finality (a table).
    scores_by_success_and_finality = True
    description = "Heavy penalties for errors and timeouts; for correctness-critical work."
    formula = "strict = (success | failure) + error + timeout + final, clamped to [-1, 1]"
    component_names = ("success", "failure", "error", "timeout", "final")
    DEFAULT_CONFIG = {
        "success_bonus": 0.5,
        "failure_penalty": 0.6,
        "error_penalty": 0.3,
        "timeout_penalty": 0.4,
        "final_bonus": 0.3,
    }

    def component_bounds(self) -> dict[str, tuple[float, float]]:
        """Each component is one setting (signed) or 0.0."""
        return {
            "success": _signed(self._success_bonus),
            "failure": _signed(-self._failure_penalty),
            "error": _signed(-self._error_penalty),
            "timeout": _signed(-self._timeout_penalty),
            "final": _signed(self._final_bonus),
        }

    def score_components(
        self, action: dict[str, Any], result: ActionResult, context: PolicyContext
    ) -> dict[str, float]:
        error = result.error
        success = result.success
        if success:
            components = {"success": self._success_bonus}
        else:
            components = {"failure": -self._failure_penalty}
        if error:
            components["error"] = -self._error_penalty
            lowered = error.lower()
            if "timeout" in lowered or "timed out" in lowered:
                components["timeout"] = -self._timeout_penalty
        if success and not error and action.get("action", result.action_type) == "final":
            components["final"] = self._final_bonus
        return components

    def score_batch(self, batch: ResultBatch) -> Components:
        """Every component for each sub-env of a vector step (see the module docstring)."""
        success, error = batch.success, batch.has_error
        timeout = error.copy()
        if error.any():
            for index in np.flatnonzero(error):
                lowered = batch.error_text[index].lower()
                timeout[index] = "timeout" in lowered or "timed out" in lowered
        return {
            "success": _where(success, self._success_bonus),
            "failure": _where(~success, -self._failure_penalty),
            "error": _where(error, -self._error_penalty),
            "timeout": _where(timeout, -self._timeout_penalty),
            "final": _where(success & ~error & batch.is_final, self._final_bonus),
        }


@PolicyRegistry.register_reward("lenient")
class LenientRewardPolicy(ConfiguredAdditivePolicy):
    """Exploration-friendly: every attempt earns something, failures cost little.

    Example:
        >>> signal = LenientRewardPolicy().calculate(
        ...     {"action": "code", "code": "complex_analysis()"},
        ...     ActionResult("code", success=False, output="Partial results: 3 of 5..." * 3),
        ...     PolicyContext(task="analyze data"),
        ... )
        >>> round(signal.value, 6), signal.components
        (0.25, {'attempt': 0.2, 'failure': -0.1, 'progress': 0.15})
    """

    name = "lenient"
    #: On generic results its components depend only on success and finality (a table).
    scores_by_success_and_finality = True
    description = "Forgiving rewards that encourage exploration and attempting answers."
    formula = "lenient = attempt + (success | failure) + progress + final, clamped to [-1, 1]"
    component_names = ("attempt", "success", "failure", "progress", "final")
    DEFAULT_CONFIG = {
        "attempt_bonus": 0.2,
        "success_bonus": 0.5,
        "failure_penalty": 0.1,
        "progress_bonus": 0.15,
        "progress_min_chars": 50,
        "final_bonus": 0.4,
    }

    def component_bounds(self) -> dict[str, tuple[float, float]]:
        """Each component is one setting (signed) or 0.0."""
        return {
            "attempt": _signed(self._attempt_bonus),
            "success": _signed(self._success_bonus),
            "failure": _signed(-self._failure_penalty),
            "progress": _signed(self._progress_bonus),
            "final": _signed(self._final_bonus),
        }

    def score_components(
        self, action: dict[str, Any], result: ActionResult, context: PolicyContext
    ) -> dict[str, float]:
        if result.success:
            components = {"attempt": self._attempt_bonus, "success": self._success_bonus}
        else:
            components = {"attempt": self._attempt_bonus, "failure": -self._failure_penalty}
        if len(result.output or "") > self._progress_min_chars:
            components["progress"] = self._progress_bonus
        if action.get("action", result.action_type) == "final":
            components["final"] = self._final_bonus
        return components

    def score_batch(self, batch: ResultBatch) -> Components:
        """Every component for each sub-env of a vector step (see the module docstring)."""
        success, progress = batch.success, batch.output_length > self._progress_min_chars
        return {
            "attempt": np.full(len(batch), self._attempt_bonus),
            "success": _where(success, self._success_bonus),
            "failure": _where(~success, -self._failure_penalty),
            "progress": _where(progress, self._progress_bonus),
            "final": _where(batch.is_final, self._final_bonus),
        }


#: The name 0.2 exported; the function lives in :mod:`rlm_gym.policies.batch`.
max_bracket_depth = bracket_depth


@PolicyRegistry.register_reward("research")
class ResearchRewardPolicy(ConfiguredAdditivePolicy):
    """Granular multi-dimensional reward for reward-function research and ablations.

    Example:
        >>> signal = ResearchRewardPolicy().calculate(
        ...     {"action": "code", "code": "result = sum(range(100))"},
        ...     ActionResult("code", success=True, output="4950", duration_ms=50.0),
        ...     PolicyContext(task="compute sum", step=2, max_steps=10),
        ... )
        >>> for name, value in signal.components.items():
        ...     print(f"{name}: {value:.4f}")
        base_attempt: 0.0500
        base_success: 0.3000
        code_length: 0.0048
        output_length: 0.0004
        fast_execution: 0.0500
        step_penalty: -0.0200
    """

    name = "research"
    description = "Granular components (code, output, speed, steps) for reward research."
    formula = (
        "research = base + code + output + speed + step penalty + final terms, clamped to [-1, 1]"
    )
    component_names = (
        "base_attempt",
        "base_success",
        "base_failure",
        "code_length",
        "code_complexity",
        "output_length",
        "error_keyword",
        "fast_execution",
        "slow_execution",
        "step_penalty",
        "final_success",
        "early_termination",
        "final_failure",
    )
    DEFAULT_CONFIG = {
        "base_attempt": 0.05,
        "base_success": 0.3,
        "base_failure": 0.2,
        "code_length_bonus_per_100_chars": 0.02,
        "code_length_cap": 0.1,
        "code_complexity_penalty_per_nest": 0.01,
        "max_nesting_depth": 10,
        "output_length_bonus_per_100_chars": 0.01,
        "output_length_cap": 0.05,
        "error_keyword_penalty": 0.05,
        "fast_execution_bonus": 0.05,
        "fast_execution_ms": 1000.0,
        "slow_execution_penalty": 0.05,
        "slow_execution_ms": 10000.0,
        "step_penalty_per_step": 0.01,
        "early_termination_bonus": 0.1,
        "final_success_bonus": 0.3,
        "final_failure_penalty": 0.1,
    }

    def component_bounds(self) -> dict[str, tuple[float, float]]:
        """Settings or caps (signed); nesting and step penalties grow without a bound."""
        unbounded_penalty = (-math.inf, 0.0)
        return {
            "base_attempt": _signed(self._base_attempt),
            "base_success": _signed(self._base_success),
            "base_failure": _signed(-self._base_failure),
            "code_length": _signed(self._code_length_cap),
            "code_complexity": unbounded_penalty,
            "output_length": _signed(self._output_length_cap),
            "error_keyword": _signed(-self._error_keyword_penalty),
            "fast_execution": _signed(self._fast_execution_bonus),
            "slow_execution": _signed(-self._slow_execution_penalty),
            "step_penalty": unbounded_penalty,
            "final_success": _signed(self._final_success_bonus),
            "early_termination": _signed(self._early_termination_bonus),
            "final_failure": _signed(-self._final_failure_penalty),
        }

    def score_components(
        self, action: dict[str, Any], result: ActionResult, context: PolicyContext
    ) -> dict[str, float]:
        if result.success:
            components = {"base_attempt": self._base_attempt, "base_success": self._base_success}
        else:
            components = {"base_attempt": self._base_attempt, "base_failure": -self._base_failure}
        code = action.get("code")
        if code:
            per_char = self._code_length_bonus_per_100_chars / 100
            components["code_length"] = min(len(code) * per_char, self._code_length_cap)
            excess = bracket_depth(code) - self._max_nesting_depth
            if excess > 0:
                components["code_complexity"] = -self._code_complexity_penalty_per_nest * excess
        output = result.output
        if output:
            per_char = self._output_length_bonus_per_100_chars / 100
            components["output_length"] = min(len(output) * per_char, self._output_length_cap)
            lowered = output.lower()
            if any(keyword in lowered for keyword in ERROR_WORDS):
                components["error_keyword"] = -self._error_keyword_penalty
        duration = result.duration_ms
        if 0.0 < duration < self._fast_execution_ms:
            components["fast_execution"] = self._fast_execution_bonus
        elif duration > self._slow_execution_ms:
            components["slow_execution"] = -self._slow_execution_penalty
        step = context.step
        if step > 0:
            components["step_penalty"] = -self._step_penalty_per_step * step
        if action.get("action", result.action_type) == "final":
            if result.success:
                components["final_success"] = self._final_success_bonus
                if step < context.max_steps / 2:
                    components["early_termination"] = self._early_termination_bonus
            else:
                components["final_failure"] = -self._final_failure_penalty
        return components

    def score_batch(self, batch: ResultBatch) -> Components:
        """Every component for each sub-env of a vector step (see the module docstring)."""
        success, final, step = batch.success, batch.is_final, batch.step
        code_length, output_length = batch.code_length, batch.output_length
        code_per_char = self._code_length_bonus_per_100_chars / 100
        output_per_char = self._output_length_bonus_per_100_chars / 100
        excess = batch.code_depth - self._max_nesting_depth
        duration = batch.duration_ms
        fast = (duration > 0.0) & (duration < self._fast_execution_ms)
        return {
            "base_attempt": np.full(len(batch), self._base_attempt),
            "base_success": _where(success, self._base_success),
            "base_failure": _where(~success, -self._base_failure),
            "code_length": _where(
                code_length > 0, np.minimum(code_length * code_per_char, self._code_length_cap)
            ),
            "code_complexity": _where(
                (code_length > 0) & (excess > 0), -self._code_complexity_penalty_per_nest * excess
            ),
            "output_length": _where(
                output_length > 0,
                np.minimum(output_length * output_per_char, self._output_length_cap),
            ),
            "error_keyword": _where(batch.output_has_error_word, -self._error_keyword_penalty),
            "fast_execution": _where(fast, self._fast_execution_bonus),
            "slow_execution": _where(
                ~fast & (duration > self._slow_execution_ms), -self._slow_execution_penalty
            ),
            "step_penalty": _where(step > 0, -self._step_penalty_per_step * step),
            "final_success": _where(final & success, self._final_success_bonus),
            "early_termination": _where(
                final & success & (step < batch.max_steps / 2), self._early_termination_bonus
            ),
            "final_failure": _where(final & ~success, -self._final_failure_penalty),
        }


@PolicyRegistry.register_reward("binary")
class BinaryRewardPolicy(AdditiveRewardPolicy):
    """1.0 for a successful final action, 0.0 otherwise: the sparse "before" baseline.

    Example:
        >>> policy, context = BinaryRewardPolicy(), PolicyContext()
        >>> policy.calculate({"action": "final"}, ActionResult("final", True), context).value
        1.0
        >>> policy.calculate({"action": "code"}, ActionResult("code", True), context).value
        0.0
    """

    name = "binary"
    #: On generic results its components depend only on success and finality (a table).
    scores_by_success_and_finality = True
    description = "Sparse 1/0 success on the final action (the pre-multi-dimensional baseline)."
    formula = "binary = success on the final action (1 or 0)"
    float_components = True
    component_names = ("success",)
    value_range = (0.0, 1.0)

    def component_bounds(self) -> dict[str, tuple[float, float]]:
        """``success`` is 1.0 or 0.0."""
        return {"success": (0.0, 1.0)}

    def score_components(
        self, action: dict[str, Any], result: ActionResult, context: PolicyContext
    ) -> dict[str, float]:
        if action.get("action", result.action_type) != "final":
            return {}
        return {"success": 1.0 if result.success else 0.0}

    def score_batch(self, batch: ResultBatch) -> Components:
        """Every component for each sub-env of a vector step (see the module docstring)."""
        return {"success": _where(batch.is_final & batch.success, 1.0)}
