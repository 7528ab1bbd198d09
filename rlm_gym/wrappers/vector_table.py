"""The vector wrapper's fast path: generic results scored from a small table, cheap hooks.

On generic results (the vector env reports no ``action_result``) a sub-env's result is
``success = reward > 0`` and ``is_final = terminated``, nothing else. A built-in policy whose
components depend only on those two flags says so (``scores_by_success_and_finality = True`` on
the class that defines its ``score_batch``); its four possible rows are then scored once, by its
own ``score_batch``, and a vector step is one table lookup - the same numbers, no per-step
formula. The table is rebuilt when the policy's settings (its ``_key`` attributes) or the
wrapper's weights change.

Hooks: the built-ins' ``on_episode_start`` only re-reads the config and their
``on_episode_end`` does nothing, so episode ends and starts need no per-sub-env Python calls;
the wrapper then resets its arrays with masks and builds each sub-env's ``PolicyContext`` only
when asked for it.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import numpy as np

from rlm_gym.policies import RewardPolicy
from rlm_gym.policies.base import ConfiguredAdditivePolicy
from rlm_gym.policies.batch import ResultBatch

__all__ = ["GenericTable", "TABLE_FLAG", "hooks_are_cheap", "settings_reader", "table_policy"]

#: The class attribute by which a policy says its scores depend only on success and finality.
TABLE_FLAG = "scores_by_success_and_finality"

_NO_OP_START = RewardPolicy.on_episode_start
_READ_CONFIG_START = ConfiguredAdditivePolicy.on_episode_start
_NO_OP_END = RewardPolicy.on_episode_end
# Row r of the table is success = r & 1, is_final = r >> 1.
_SUCCESS_REWARDS = np.array([0.0, 1.0, 0.0, 1.0])
_FINAL = np.array([False, False, True, True])
_COUNTS = np.array([[1.0, 1.0, 1.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0]])


def hooks_are_cheap(policy: RewardPolicy) -> tuple[bool, bool]:
    """``(cheap, reads_config)``: whether the hooks are the base no-ops (or the config re-read)."""
    start = getattr(policy.on_episode_start, "__func__", None)
    end = getattr(policy.on_episode_end, "__func__", None)
    if end is not _NO_OP_END or start not in (_NO_OP_START, _READ_CONFIG_START):
        return False, False
    return True, start is _READ_CONFIG_START


def table_policy(policy: RewardPolicy, score_batch: Any) -> bool:
    """Whether ``policy`` (with a trusted ``score_batch``) may be scored from a table.

    The flag counts only on the class that defines the ``score_batch`` in force, so a subclass
    with a new formula does not inherit its parent's promise.
    """
    if score_batch is None:
        return False
    for klass in type(policy).__mro__:
        defined = vars(klass)
        if "score_batch" in defined:
            return defined.get(TABLE_FLAG, False) is True
    return False


def settings_reader(policy: RewardPolicy) -> Any:
    """A function giving the policy's settings as a tuple (what its formulas read)."""
    keys = [f"_{key}" for key in getattr(policy, "DEFAULT_CONFIG", {})]
    if not keys:
        return lambda _policy: ()
    getter = attrgetter(*keys)
    return (lambda target: (getter(target),)) if len(keys) == 1 else getter


class GenericTable:
    """A policy's four generic rows and, for uniform weights, their weighted rows and values."""

    def __init__(self, policy: RewardPolicy, score_batch: Any, names: tuple[str, ...]) -> None:
        self._policy = policy
        self._score_batch = score_batch
        self._names = names
        #: The policy's settings as a tuple (``settings(policy)``) and those of the last build.
        self.settings = settings_reader(policy)
        self.built_settings: Any = None
        self._key: Any = None
        #: Rows 0-3: the unweighted components; row 4: zeros (a reset step).
        self.rows = np.zeros((5, len(names)))
        #: For uniform weights: ``[weighted components | value]`` per row, else None.
        self.block: np.ndarray | None = None
        #: ``block`` transposed, C-contiguous (one row per component and the value), then a
        #: row counting the step (1, 0 on a reset step) and one counting the episodes started
        #: (1 on a reset step). Added to the wrapper's state rows ``[sums | total | step |
        #: episode count]`` it updates them all in one numpy call.
        self.block_t: np.ndarray | None = None

    def refresh(self, max_steps: int, weights_version: int, uniform: np.ndarray | None) -> None:
        """Rebuild when the settings or the weights changed since the last build."""
        settings = self.settings(self._policy)
        key = (settings, weights_version)
        if key == self._key:
            return
        self._key = key
        self.built_settings = settings
        step = np.zeros(4, dtype=np.int64)
        batch = ResultBatch.generic(
            _SUCCESS_REWARDS, _FINAL, step, np.full(4, max_steps, dtype=np.int64)
        )
        scored = self._score_batch(batch)
        rows = np.zeros((5, len(self._names)))
        rows[:4] = np.stack([scored[name] for name in self._names], axis=1)
        self.rows = rows
        if uniform is None:
            self.block = self.block_t = None
            return
        weighted = rows * uniform
        low, high = self._policy.value_range
        values = np.clip(weighted.sum(axis=1), low, high)
        values[4] = 0.0
        self.block = np.concatenate([weighted, values[:, None]], axis=1)
        self.block_t = np.concatenate([self.block.T, _COUNTS])

    def score(
        self,
        env_rewards: np.ndarray,
        terminated: np.ndarray,
        resets: np.ndarray | None,
        max_steps: int,
        weights_version: Any,
        uniform: np.ndarray | None,
        weights: np.ndarray,
    ) -> np.ndarray:
        """Generic results of a table policy: row ``success + 2 * final`` of the table (row 4,
        all zeros, for the reset steps), weighted components and value in one ``(n, k + 1)``
        block. ``uniform`` is the weights row every sub-env shares (else None: ``weights``
        per sub-env); ``weights_version`` changes with it (see :meth:`refresh`)."""
        self.refresh(max_steps, weights_version, uniform)
        code = np.add(terminated, terminated, dtype=np.uint8)
        code += env_rewards > 0.0
        if resets is not None:
            code[resets] = 4
        if self.block is not None:
            return self.block.take(code, axis=0)
        k = len(self._names)
        block = np.empty((len(code), k + 1))
        components = block[:, :k]
        np.multiply(self.rows.take(code, axis=0), weights, out=components)
        low, high = self._policy.value_range
        np.clip(components.sum(axis=1), low, high, out=block[:, k])
        if resets is not None:
            block[resets, k] = 0.0
        return block
