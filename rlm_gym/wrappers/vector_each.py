"""The vector wrapper's per-sub-env path, for a policy without a trusted ``score_batch``.

Each sub-env is scored through the policy's ``calculate`` with its own ``PolicyContext`` and
history, and its hooks run in sub-env order, exactly as
:class:`~rlm_gym.wrappers.RewardPolicyWrapper` scores one env: slower than the batched path,
same numbers.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from rlm_gym.wrappers.vector_infos import masked_report
from rlm_gym.wrappers.vector_results import score_sub_env, sub_env_step

__all__ = ["raise_non_finite", "score_each", "spec_value"]


def score_each(
    wrapper: Any, actions, env_rewards, terminated, infos, final_infos, dones, resets, starts
):
    """Sub-env by sub-env through ``calculate``, hooks in sub-env order (as per-env)."""
    n = wrapper._n
    components = np.zeros((n, len(wrapper._names)))
    free: list[dict[str, float]] | None = None if wrapper._names else [{} for _ in range(n)]
    values = np.zeros(n)
    episode_sums = wrapper._sums.copy()
    episode_totals = np.zeros(n)
    episode_weights = wrapper._weights.copy()
    episode_free: dict[int, dict[str, float]] = {}
    action_list = list(gym.vector.utils.iterate(wrapper.action_space, actions))
    for index in range(n):
        if resets is not None and resets[index]:
            wrapper._start_episode(index)
            continue
        action, result = sub_env_step(
            infos,
            final_infos if dones[index] else None,
            index,
            action_list[index],
            float(env_rewards[index]),
            bool(terminated[index]),
        )
        context = wrapper._context(index)
        context.step = int(wrapper._steps[index])
        row, value = score_sub_env(
            wrapper._policy,
            wrapper._zeros,
            wrapper._weights[index],
            wrapper._final_only_function,
            context,
            (action, result),
            index,
        )
        if free is None:
            components[index] = [row[name] for name in wrapper._names]
            wrapper._sums[index] += components[index]
        else:
            free[index] = row
            sums = wrapper._free_sums[index]
            for name, part in row.items():
                sums[name] = sums.get(name, 0.0) + part
        values[index] = value
        wrapper._totals[index] += value
        wrapper._steps[index] += 1
        if dones[index]:
            episode_sums[index] = wrapper._sums[index]
            episode_totals[index] = wrapper._totals[index]
            if free is not None:
                episode_free[index] = dict(wrapper._free_sums[index])
            wrapper._end_episode(index)
            if starts is not None and starts[index]:
                wrapper._start_episode(index)
    report = masked_report(dones, episode_sums, episode_totals, episode_weights, episode_free)
    return components if free is None else free, values, report


def spec_value(env: Any, name: str) -> Any:
    """``env.spec.<name>`` or None: a vector env not built by Gymnasium may lack either.

    EnvPool's spec keeps its settings (``max_episode_steps`` among them) under
    ``spec.config``: read there when the spec itself has no such attribute.
    """
    spec = getattr(env, "spec", None)
    value = getattr(spec, name, None)
    if value is None:
        value = getattr(getattr(spec, "config", None), name, None)
    return value


def raise_non_finite(
    env: Any, env_rewards: np.ndarray, scored: np.ndarray | None, steps: np.ndarray
) -> None:
    """Raise for the first scored sub-env with a NaN or infinite inner reward (if any)."""
    bad = ~np.isfinite(env_rewards)
    if scored is not None:
        bad &= scored
    if not bad.any():
        return  # only reset steps, which are not scored
    index = int(np.flatnonzero(bad)[0])
    source = spec_value(env, "id") or type(env.unwrapped).__name__
    raise ValueError(
        f"Expected a finite reward from the inner env, got {env_rewards[index]} from "
        f"sub-env {index} at step {int(steps[index])} of its episode (0-based); a NaN "
        f"or infinite reward is a bug in {source} and passing it on would poison training"
    )
