"""A sub-env's step on the vector wrappers' per-sub-env path: its result, read and scored.

Each sub-env's ``(action, ActionResult)`` pair is read from a vector env's batched ``infos``.

A vector env batches its sub-envs' info dicts (Gymnasium's convention): a key holds an array
with one entry per sub-env and ``"_key"`` marks the sub-envs that reported it; a dict value is
batched key by key. An ``ActionResult`` therefore arrives as an object array, and a dict of its
fields as a dict of field arrays. In ``SAME_STEP`` autoreset mode a finished sub-env's own info
is under ``infos["final_info"]`` (its top-level entry is the new episode's reset info).

A sub-env that reported no result is scored on the generic result of
:class:`~rlm_gym.wrappers.RewardPolicyWrapper` (§6), built here element-wise. A policy without
a batch scorer is scored here one sub-env at a time, as ``RewardPolicyWrapper`` scores a step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from rlm_gym.policies import ActionResult, PolicyContext, RewardPolicy
from rlm_gym.policies.base import is_final
from rlm_gym.policies.info_keys import ACTION_KEY, ACTION_RESULT_KEY
from rlm_gym.wrappers.ablation import weighted_components
from rlm_gym.wrappers.step_result import step_from_info

__all__ = ["FINAL_INFO_KEY", "generic_step", "reports_results", "score_sub_env", "sub_env_step"]

#: Where ``SAME_STEP`` autoreset puts a finished sub-env's own info.
FINAL_INFO_KEY = "final_info"
_MISSING = object()


def reports_results(infos: Mapping[str, Any], final_infos: Mapping[str, Any] | None) -> bool:
    """Whether any sub-env reported an ``action_result`` this step."""
    return ACTION_RESULT_KEY in infos or (
        final_infos is not None and ACTION_RESULT_KEY in final_infos
    )


def _entry(batched: Mapping[str, Any], key: str, index: int) -> Any:
    """Sub-env ``index``'s value of ``key`` in batched infos (``_MISSING`` when unreported)."""
    value = batched.get(key, _MISSING)
    if value is _MISSING:
        return _MISSING
    mask = batched.get(f"_{key}")
    if mask is not None and not mask[index]:
        return _MISSING
    if isinstance(value, Mapping):
        # A dict info batched key by key: the sub-env's dict is its reported keys.
        fields = {
            name: _entry(value, name, index) for name in value if not str(name).startswith("_")
        }
        return {name: field for name, field in fields.items() if field is not _MISSING}
    if isinstance(value, (np.ndarray, Sequence)) and not isinstance(value, str):
        field = value[index]
        return field.item() if isinstance(field, np.generic) else field
    return value


def generic_step(action: Any, env_reward: float, terminated: bool) -> tuple[dict, ActionResult]:
    """The generic ``(action, ActionResult)`` of §6 for one sub-env."""
    action_type = "final" if terminated else "step"
    result = ActionResult(action_type, env_reward > 0.0, metadata={"env_reward": env_reward})
    return {"action": action_type, "value": action}, result


def sub_env_step(
    infos: Mapping[str, Any],
    final_infos: Mapping[str, Any] | None,
    index: int,
    action: Any,
    env_reward: float,
    terminated: bool,
) -> tuple[Mapping[str, Any], ActionResult]:
    """Sub-env ``index``'s step as an ``(action, ActionResult)`` pair.

    Args:
        infos: The vector step's batched infos.
        final_infos: ``infos["final_info"]`` when this sub-env's episode ended in ``SAME_STEP``
            mode (its own info is there), else None.
        index: The sub-env.
        action: Its action (for a generic result's action dict).
        env_reward: Its inner reward.
        terminated: Whether its episode terminated.

    Raises:
        TypeError: A malformed ``action_result`` or ``action`` (naming the sub-env).

    Example:
        >>> infos = {"action_result": np.array([None, ActionResult("fetch", True)]),
        ...          "_action_result": np.array([False, True])}
        >>> sub_env_step(infos, None, 1, 0, 0.0, False)[1].action_type
        'fetch'
        >>> sub_env_step(infos, None, 0, 0, 1.0, True)[0]
        {'action': 'final', 'value': 0}
    """
    source = final_infos if final_infos is not None else infos
    result = _entry(source, ACTION_RESULT_KEY, index)
    if result is _MISSING or result is None:
        return generic_step(action, env_reward, terminated)
    info = {}
    action_dict = _entry(source, ACTION_KEY, index)
    if action_dict is not _MISSING:
        info[ACTION_KEY] = action_dict
    try:
        return step_from_info(info, result)
    except TypeError as problem:
        raise TypeError(f"{problem} (sub-env {index})") from problem


def score_sub_env(
    policy: RewardPolicy,
    zeros: dict[str, float],
    weight_row: np.ndarray,
    final_only_function: Any,
    context: PolicyContext,
    step: tuple[Mapping[str, Any], ActionResult],
    index: int,
) -> tuple[dict[str, float], float]:
    """One sub-env's step scored as ``RewardPolicyWrapper`` scores it, added to its history.

    Args:
        policy: The policy.
        zeros: Every declared component at 0.0.
        weight_row: The sub-env's weights in ``component_names`` order.
        final_only_function: ``final_only_calculate(policy)`` (see ``scoring_route``).
        context: The sub-env's context (``step`` already set).
        step: The ``(action, ActionResult)`` pair.
        index: The sub-env, for errors.

    Returns:
        Every component (after weights) and the value.
    """
    action, result = step
    weights = {name: w for name, w in zip(zeros, weight_row, strict=True) if w != 1.0}
    final_only = (
        final_only_function is not None
        and getattr(policy.calculate, "__func__", None) is final_only_function
    )
    if final_only and not is_final(action, result):
        # `calculate` is declared to give RewardSignal(0.0, {}) here (`final_only`).
        components, value = dict(zeros), policy.clamp(0.0) if weights else 0.0
    else:
        signal = policy.calculate(action, result, context)
        components, value = weighted_components(
            signal.components, signal.value, zeros, weights, policy, policy.name
        )
        if zeros and len(components) > len(zeros):
            undeclared = sorted(set(components) - zeros.keys(), key=str)
            raise ValueError(
                f"Policy '{policy.name}' emitted component(s) {undeclared} that are not in "
                f"its `component_names` {list(zeros)} (sub-env {index})"
            )
    context.history.append({"action": action, "result": result, "reward": value})
    return components, value
