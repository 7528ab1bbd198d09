"""A step's ``(action, ActionResult)`` pair, read from what the env put in ``info``.

An env that knows more about a step than its reward hands the wrapper an ``ActionResult`` (or a
dict of its fields) and the action as a dict; both are checked here, so a malformed ``info``
raises a ``TypeError`` naming what is wrong instead of becoming a silent wrong reward. A step
whose ``info`` holds no result gets a generic one, built inside ``RewardPolicyWrapper.step``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from rlm_gym.policies import ActionResult
from rlm_gym.policies.info_keys import ACTION_KEY, ACTION_RESULT_KEY

__all__ = ["action_result_from_info", "step_from_info"]

_RESULT_FIELDS = frozenset(field.name for field in fields(ActionResult))
_REQUIRED_RESULT_FIELDS = frozenset({"action_type", "success"})


def action_result_from_info(value: Any) -> ActionResult:
    """Turn ``info["action_result"]`` (an ``ActionResult`` or a dict of its fields) into one.

    Raises:
        TypeError: If ``value`` is neither, or the dict misses or adds fields (named).

    Example:
        >>> action_result_from_info({"action_type": "code", "success": True}).success
        True
        >>> action_result_from_info({"action_type": "code", "ok": True})
        Traceback (most recent call last):
        ...
        TypeError: `info["action_result"]` is missing field(s) ['success'] and has unexpected field(s) ['ok']; ActionResult fields are ['action_type', 'duration_ms', 'error', 'metadata', 'output', 'success', 'tokens_used']
    """  # noqa: E501
    if isinstance(value, ActionResult):
        return value
    if not isinstance(value, Mapping):
        raise TypeError(
            f'Expected `info["{ACTION_RESULT_KEY}"]` to be an ActionResult or a dict of its '
            f"fields, got {type(value).__name__}"
        )
    missing = sorted(_REQUIRED_RESULT_FIELDS - value.keys())
    unexpected = sorted(set(value) - _RESULT_FIELDS)
    if missing or unexpected:
        problems = []
        if missing:
            problems.append(f"is missing field(s) {missing}")
        if unexpected:
            problems.append(f"has unexpected field(s) {unexpected}")
        raise TypeError(
            f'`info["{ACTION_RESULT_KEY}"]` {" and ".join(problems)}; '
            f"ActionResult fields are {sorted(_RESULT_FIELDS)}"
        )
    return ActionResult(**value)


def step_from_info(info: Mapping[str, Any], result: Any) -> tuple[Mapping[str, Any], ActionResult]:
    """The step's action dict and ``ActionResult``, given ``result = info["action_result"]``.

    The action is ``info["action"]``, or ``{"action": result.action_type}`` when absent.

    Raises:
        TypeError: A malformed result (see :func:`action_result_from_info`) or an action that
            is not a mapping.

    Example:
        >>> action, result = step_from_info({}, {"action_type": "fetch", "success": True})
        >>> action, result.success
        ({'action': 'fetch'}, True)
    """
    if type(result) is not ActionResult:
        result = action_result_from_info(result)
    action = info.get(ACTION_KEY)
    # The exact-type test first: an ABC isinstance costs ~0.3 µs on every step.
    if action is None:
        action = {"action": result.action_type}
    elif type(action) is not dict and not isinstance(action, Mapping):
        raise TypeError(
            f'Expected `info["{ACTION_KEY}"]` to be a dict, got {type(action).__name__}'
        )
    return action, result
