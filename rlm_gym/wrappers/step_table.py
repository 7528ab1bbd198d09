"""The per-env wrapper's table of a policy whose generic steps score by success and finality.

A built-in policy that declares ``scores_by_success_and_finality`` (see
:mod:`rlm_gym.wrappers.vector_table`) gives, on a generic result, one of four scorings: success
or not, final or not. ``RewardPolicyWrapper`` scores those four once, through the policy's own
``calculate`` and the weights in force, and then looks each generic step up instead of scoring
it: same components, same value, same episode sums (each step adds the same parts, in the same
order). The table is rebuilt whenever the weights change, and at a reset that finds the
policy's settings changed (its ``on_episode_start`` re-reads its config) or its ``calculate``
patched.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from rlm_gym.policies import ActionResult, History, PolicyContext, RewardPolicy
from rlm_gym.wrappers.scoring_route import batch_scorer
from rlm_gym.wrappers.vector_table import table_policy

__all__ = ["LazyHistoryContext", "StepRow", "build_step_table", "generic_step"]

#: One scoring: the components dict (every declared name), the value, and the ``(name, part)``
#: pairs the step adds to the episode sums (the non-zero ones, in the policy's order).
StepRow = tuple[dict[str, float], float, tuple[tuple[str, float], ...]]
_new_result = object.__new__
Scorer = Callable[[dict[str, Any], ActionResult, PolicyContext, dict[str, float]], Any]


def generic_step(
    action: Any, env_reward: float, terminated: bool, duration_ms: float
) -> tuple[dict[str, Any], ActionResult]:
    """The ``(action, ActionResult)`` pair of a generic step (SPEC §6), as the wrapper makes it.

    Its fields are valid by construction, so the dataclass's ``__post_init__`` checks are
    skipped (this runs on every generic step); ``output``, ``error`` and ``tokens_used`` read
    their defaults, which the dataclass keeps as class attributes.

    Example:
        >>> action, result = generic_step(1, 0.5, True, 0.0)
        >>> action, result.action_type, result.success, result.metadata
        ({'action': 'final', 'value': 1}, 'final', True, {'env_reward': 0.5})
    """
    action_type = "final" if terminated else "step"
    result = _new_result(ActionResult)
    result.action_type = action_type
    result.success = env_reward > 0.0
    result.duration_ms = duration_ms
    result.metadata = {"env_reward": env_reward}
    return {"action": action_type, "value": action}, result


def build_step_table(
    policy: RewardPolicy,
    zeros: dict[str, float],
    score: Scorer,
    task: str,
    max_steps: int,
) -> tuple[StepRow, StepRow, StepRow, StepRow] | None:
    """Rows ``success + 2 * final`` of ``policy``'s generic steps, or None (no table).

    Args:
        policy: The policy.
        zeros: Every declared component at 0.0.
        score: The wrapper's scoring of one step into a sums dict (``calculate`` and weights).
        task: ``PolicyContext.task``.
        max_steps: ``PolicyContext.max_steps``.
    """
    if not zeros or not table_policy(policy, batch_scorer(policy)):
        return None
    rows = []
    for code in range(4):
        success, final = bool(code & 1), bool(code >> 1)
        action, result = generic_step(None, 1.0 if success else 0.0, final, 0.0)
        context = PolicyContext(task, 0, max_steps, History((), 0), {}, {}, {})
        sums = zeros.copy()
        components, value = score(action, result, context, sums)
        parts = tuple((name, part) for name, part in sums.items() if part != 0.0)
        rows.append((components, float(value), parts))
    return rows[0], rows[1], rows[2], rows[3]


class LazyHistoryContext(PolicyContext):
    """The wrapper's ``PolicyContext``: generic steps scored from the table enter ``history``
    when it is next read.

    Such a step needs no ``ActionResult`` to be scored, so the wrapper keeps its raw fields in
    ``pending`` (bounded as the history is) and makes its ``{"action", "result", "reward"}``
    entry, as it would have at the step, on the first read of ``history``: a policy's hook,
    a user's ``env.context.history``, ``==``, ``repr`` and ``dataclasses.replace`` all see every
    step, in order.
    """

    @property  # type: ignore[override]
    def history(self) -> Any:
        """Earlier steps of this episode, oldest first (see :class:`PolicyContext`)."""
        pending = self.pending
        if pending:
            append = self._history.append
            for action, terminated, env_reward, duration, value in pending:
                action_dict, result = generic_step(action, env_reward, terminated, duration)
                append({"action": action_dict, "result": result, "reward": value})
            pending.clear()
        return self._history

    @history.setter
    def history(self, entries: Any) -> None:
        self._history = entries
        self.pending: deque[tuple[Any, bool, float, float, float]] = deque(
            maxlen=getattr(entries, "maxlen", None)
        )
