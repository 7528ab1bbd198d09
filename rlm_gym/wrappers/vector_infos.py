"""The reward keys a vector wrapper writes into a vector step's batched ``infos``.

Gymnasium's vector convention: a key holds one entry per sub-env and ``"_key"`` marks the
sub-envs it describes. Every step gets ``reward_components[name]`` and ``env_reward`` (float64
arrays of shape ``(num_envs,)``); the step a sub-env's episode ends gets its totals at its
index: ``episode_reward``, ``episode_reward_components[name]`` and ``reward_weights[name]``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from rlm_gym.policies.info_keys import (
    ENV_REWARD_KEY,
    EPISODE_REWARD_COMPONENTS_KEY,
    EPISODE_REWARD_KEY,
    REWARD_COMPONENTS_KEY,
    REWARD_WEIGHTS_KEY,
)

__all__ = ["EpisodeReport", "columns", "free_columns", "masked_report", "write_vector_infos"]


class EpisodeReport(NamedTuple):
    """What the step's finished episodes report, read before their next episode starts.

    When any episode ended, ``sums``, ``totals`` and ``weights`` are new arrays that are 0.0
    where ``dones`` is False (see :func:`masked_report`).
    """

    dones: np.ndarray
    sums: np.ndarray
    totals: np.ndarray
    weights: np.ndarray
    #: Per-sub-env sums of a policy that declares no component names (else empty).
    free_sums: dict[int, dict[str, float]]


def masked_report(
    dones: np.ndarray,
    sums: np.ndarray,
    totals: np.ndarray,
    weights: np.ndarray,
    free_sums: dict[int, dict[str, float]],
) -> EpisodeReport:
    """The report of the sub-envs in ``dones``: new arrays, 0.0 at the other sub-envs."""
    ended = dones[:, None]
    return EpisodeReport(
        dones,
        np.where(ended, sums, 0.0),
        np.where(dones, totals, 0.0),
        np.where(ended, weights, 0.0),
        free_sums,
    )


def columns(names: tuple[str, ...], table: np.ndarray) -> dict[str, np.ndarray]:
    """Name -> column of a ``(num_envs, k)`` table."""
    return dict(zip(names, table.T, strict=True))


def free_columns(rows: list[dict[str, float]], n: int) -> dict[str, np.ndarray]:
    """Name -> float64 array from per-sub-env dicts of a policy that declares no names.

    Example:
        >>> free_columns([{"a": 1.0}, {"b": 2.0}], 2)
        {'a': array([1., 0.]), 'b': array([0., 2.])}
    """
    found: dict[str, np.ndarray] = {}
    for index, row in enumerate(rows):
        for name, part in row.items():
            if name not in found:
                found[name] = np.zeros(n)
            found[name][index] = part
    return found


def write_vector_infos(
    infos: dict[str, Any],
    names: tuple[str, ...],
    components: np.ndarray | list[dict[str, float]],
    env_rewards: np.ndarray,
    episode: EpisodeReport,
    every: np.ndarray,
) -> None:
    """Write the step's reward keys (see the module docstring).

    Args:
        infos: The vector step's infos, changed in place.
        names: The policy's component names (empty: free-form components).
        components: The step's components, ``(num_envs, k)``, or per-sub-env dicts.
        env_rewards: The inner rewards.
        episode: The finished episodes' report (masked, see :func:`masked_report`).
        every: An all-True mask of shape ``(num_envs,)``.
    """
    n = len(env_rewards)
    if names:
        infos[REWARD_COMPONENTS_KEY] = columns(names, components)
    else:
        infos[REWARD_COMPONENTS_KEY] = free_columns(components, n)
    infos[f"_{REWARD_COMPONENTS_KEY}"] = every
    infos[ENV_REWARD_KEY] = env_rewards
    infos[f"_{ENV_REWARD_KEY}"] = every
    dones = episode.dones
    if not np.count_nonzero(dones):
        return
    infos[EPISODE_REWARD_KEY] = episode.totals
    infos[f"_{EPISODE_REWARD_KEY}"] = dones
    if names:
        infos[EPISODE_REWARD_COMPONENTS_KEY] = columns(names, episode.sums)
        infos[REWARD_WEIGHTS_KEY] = columns(names, episode.weights)
        infos[f"_{REWARD_WEIGHTS_KEY}"] = dones
    else:
        rows = [episode.free_sums.get(index, {}) for index in range(n)]
        infos[EPISODE_REWARD_COMPONENTS_KEY] = free_columns(rows, n)
    infos[f"_{EPISODE_REWARD_COMPONENTS_KEY}"] = dones
