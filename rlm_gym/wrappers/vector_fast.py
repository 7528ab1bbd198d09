"""The vector wrapper's shortest step: a table policy on generic results, ``NEXT_STEP`` autoreset.

The case every built-in policy meets on a plain vector env (CartPole under ``SyncVectorEnv``,
EnvPool): no sub-env reports an ``action_result``, the policy scores by success and finality
(:mod:`rlm_gym.wrappers.vector_table`), its hooks are the base no-ops (or the config re-read),
every sub-env has the same weights and no schedule moves them. Then a step is a handful of
numpy calls over the whole vector - each sub-env's row of the weighted table, the episode sums,
the report of the finished episodes - on the wrapper's state stored one contiguous row per
column, and no Python per sub-env. The numbers are the general path's
(``VectorRewardPolicyWrapper.step``, which takes every other case); the parity tests run both
against per-env wrapping. ``infos["reward_weights"]`` holds read-only arrays of the weights in
force, shared by the steps until the weights change (its mask marks the finished sub-envs).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy import count_nonzero

from rlm_gym.policies.info_keys import (
    ENV_REWARD_KEY,
    EPISODE_REWARD_COMPONENTS_KEY,
    EPISODE_REWARD_KEY,
    REWARD_COMPONENTS_KEY,
    REWARD_WEIGHTS_KEY,
)
from rlm_gym.wrappers.vector_each import raise_non_finite

__all__ = ["table_step", "weights_report"]

_COMPONENTS_MASK = f"_{REWARD_COMPONENTS_KEY}"
_ENV_REWARD_MASK = f"_{ENV_REWARD_KEY}"
_EPISODE_MASKS = tuple(
    f"_{key}" for key in (EPISODE_REWARD_KEY, EPISODE_REWARD_COMPONENTS_KEY, REWARD_WEIGHTS_KEY)
)


def weights_report(names: tuple[str, ...], uniform: np.ndarray, n: int) -> dict[str, np.ndarray]:
    """``infos["reward_weights"]`` for uniform weights: name -> read-only ``(n,)`` array.

    Example:
        >>> report = weights_report(("a", "b"), np.array([1.0, 0.5]), 2)
        >>> report["b"], report["b"].flags.writeable
        (array([0.5, 0.5]), False)
    """
    columns = np.repeat(uniform[:, None], n, axis=1)
    columns.flags.writeable = False
    return dict(zip(names, columns, strict=True))


def table_step(
    wrapper: Any, env_rewards: Any, terminated: Any, truncated: Any, infos: dict[str, Any]
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Score one vector step on the short path: ``(rewards, rows, terminated)`` (``rows[:k]``
    the components, one row per name), or None (nothing changed) when the table has no uniform
    weighted block: the general path takes it.

    Writes the step's reward keys into ``infos`` and updates the wrapper's episode state, as
    the general path does.
    """
    if wrapper._table_stale:
        wrapper._table.refresh(wrapper._max_steps, wrapper._uniform_key, wrapper._uniform)
        wrapper._weights_report = None
        wrapper._table_stale = False
    block_t = wrapper._table.block_t
    if block_t is None:
        return None
    # Rows [sums (k) | total | step | episode count] of the state: the table's rows add to
    # them all (`head`); a new episode zeroes all but the count; an episode's end reports
    # [sums | total].
    names, every = wrapper._names, wrapper._all
    reported, zeroed, head = wrapper._heads_t
    k = len(names)
    resets = wrapper._prev_dones
    env_rewards = np.asarray(env_rewards, dtype=np.float64)
    terminated = np.asarray(terminated, dtype=bool)
    dones = np.logical_or(terminated, truncated)
    # A NaN or infinite reward makes the dot product NaN or infinite (so do finite rewards
    # beyond ~1e154, which `raise_non_finite` then finds fine): one BLAS call checks the whole
    # vector (`ndarray.dot` skips `np.dot`'s dispatch: 0.3 µs a call against 0.5).
    if not math.isfinite(env_rewards.dot(env_rewards)):
        scored = ~resets if count_nonzero(resets) else None
        raise_non_finite(wrapper.env, env_rewards, scored, wrapper._steps)

    # Each sub-env's row: success + 2 * final, 4 for a reset step (a zero row). On uint8
    # views of the flags: no cast.
    flags = terminated.view(np.uint8)
    code = np.add(flags, flags)
    np.add(code, np.greater(env_rewards, 0.0).view(np.uint8), out=code)
    any_reset = bool(count_nonzero(resets))
    if any_reset:
        np.greater(dones, resets, out=dones)  # a reset step ends no episode
        np.putmask(code, resets, 4)
        np.copyto(zeroed, 0.0, where=resets)  # the new episodes start from zero
        if wrapper._reads_config:
            # The episode starts re-read the config (after this step's scoring, as the
            # general path); a changed setting rebuilds the table on the next step.
            policy = wrapper._policy
            policy.read_config()
            if wrapper._table.settings(policy) != wrapper._table.built_settings:
                wrapper._table_stale = True
    rows = block_t.take(code, axis=1)
    head += rows

    # zip's `strict=False` keyword alone costs 0.2 µs a call here.
    infos[REWARD_COMPONENTS_KEY] = dict(zip(names, rows))  # noqa: B905 - stops at k names
    infos[_COMPONENTS_MASK] = every
    infos[ENV_REWARD_KEY] = env_rewards
    infos[_ENV_REWARD_MASK] = every
    if count_nonzero(dones):
        report = np.where(dones, reported, 0.0)
        infos[EPISODE_REWARD_KEY] = report[k]
        infos[EPISODE_REWARD_COMPONENTS_KEY] = dict(zip(names, report))  # noqa: B905
        weights = wrapper._weights_report
        if weights is None:
            weights = weights_report(names, wrapper._uniform, len(dones))
            wrapper._weights_report = weights
        infos[REWARD_WEIGHTS_KEY] = weights
        for mask in _EPISODE_MASKS:
            infos[mask] = dones
    wrapper._prev_dones = dones
    values = rows[k]
    if wrapper._add_env_reward:
        values = values + (env_rewards * ~resets if any_reset else env_rewards)
    return values, rows, terminated
