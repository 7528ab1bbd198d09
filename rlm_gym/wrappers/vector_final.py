"""The vector wrapper's path for a ``final_only`` policy: score only the sub-envs that end.

A policy that declares ``final_only`` (the ``crawl`` policy) gives ``RewardSignal(0.0, {})`` on
every action that is not final. On a vector env that reports its results (Crawl-v2's
``CrawlVectorEnv``) the per-sub-env path would still read and rebuild every sub-env's
``ActionResult`` on every step only to score it 0.0; here only the sub-envs whose action is
final - or whose episode ends - are read and scored through ``calculate``, the others get zeros,
and hooks run in sub-env order as on the per-sub-env path. Same rewards, components, episode
sums and hook calls as :func:`~rlm_gym.wrappers.vector_each.score_each`; the contexts' history
holds the scored (final) steps only, as the batched path's contexts hold none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from rlm_gym.policies.info_keys import ACTION_KEY, ACTION_RESULT_KEY
from rlm_gym.policies.types import ActionResult
from rlm_gym.wrappers.step_result import step_from_info
from rlm_gym.wrappers.vector_each import score_each
from rlm_gym.wrappers.vector_infos import masked_report
from rlm_gym.wrappers.vector_results import score_sub_env, sub_env_step

__all__ = ["final_candidates", "score_unbatched"]

_FINAL = "final"


def score_unbatched(
    wrapper: Any, actions, env_rewards, terminated, infos, final_infos, dones, resets, starts
):
    """``score_each``, or the final-only path when the policy's declaration holds now."""
    function = wrapper._final_only_function
    policy = wrapper._policy
    if (
        function is None
        or not wrapper._names
        or getattr(policy.calculate, "__func__", None) is not function
    ):
        return score_each(
            wrapper, actions, env_rewards, terminated, infos, final_infos, dones, resets, starts
        )
    return _score_finals(
        wrapper, actions, env_rewards, terminated, infos, final_infos, dones, resets, starts
    )


def final_candidates(infos: Mapping[str, Any], dones: np.ndarray) -> np.ndarray:
    """The sub-envs whose step may be final: their episode ends, or they report a final action.

    Reads ``infos["action_result"]`` (a dict of field arrays or an object array) and
    ``infos["action"]["action"]``; sub-envs without a reported result get the generic result
    (§6), which is final only when the episode terminates.

    Example:
        >>> infos = {"action_result": {"action_type": np.array(["fetch", "final", "final"]),
        ...                            "_action_type": np.array([True, True, False])}}
        >>> final_candidates(infos, np.array([True, False, False])).tolist()
        [True, True, False]
    """
    candidates = dones.copy()
    result = infos.get(ACTION_RESULT_KEY)
    if isinstance(result, Mapping):
        candidates |= _marked_final(result, "action_type")
    elif result is not None:
        mask = infos.get(f"_{ACTION_RESULT_KEY}")
        # One pass over plain lists: indexing numpy arrays element by element costs more
        # than the test itself, and the exact-type test skips an ABC isinstance per entry.
        marked = [True] * len(result) if mask is None else np.asarray(mask).tolist()
        entries = result.tolist() if isinstance(result, np.ndarray) else list(result)
        for index, entry in enumerate(entries):
            if not marked[index]:
                continue
            if type(entry) is ActionResult:
                kind = entry.action_type
            elif isinstance(entry, Mapping):
                kind = entry.get("action_type")
            else:
                kind = getattr(entry, "action_type", None)
            if kind == _FINAL:
                candidates[index] = True
    action = infos.get(ACTION_KEY)
    if isinstance(action, Mapping):
        candidates |= _marked_final(action, "action")
    elif action is not None:
        for index, entry in enumerate(action):
            if isinstance(entry, Mapping) and entry.get("action") == _FINAL:
                candidates[index] = True
    return candidates


def _marked_final(batched: Mapping[str, Any], key: str) -> np.ndarray | bool:
    values = batched.get(key)
    if values is None:
        return False
    final = np.asarray(values, dtype=object) == _FINAL
    mask = batched.get(f"_{key}")
    return final if mask is None else final & mask


def _plain(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def _fields_at(batched: Mapping[str, Any], index: int) -> dict[str, Any]:
    """Sub-env ``index``'s entries of a dict of field arrays (one level, as the crawl env
    reports its result and action), masks honoured."""
    entries = {}
    for name, values in batched.items():
        if name.startswith("_"):
            continue
        mask = batched.get(f"_{name}")
        if mask is None or mask[index]:
            entries[name] = _plain(values[index])
    return entries


def _field_arrays_step(source: Mapping[str, Any], index: int) -> Any:
    """The ``(action, ActionResult)`` of sub-env ``index`` when its action is reported as a
    dict of field arrays and its result as one (a dict of field arrays, or an entry of an
    object array), read directly without ``sub_env_step``'s generic walk; else None."""
    result = source.get(ACTION_RESULT_KEY)
    action = source.get(ACTION_KEY)
    if result is None or not isinstance(action, Mapping):
        return None
    for key in (ACTION_RESULT_KEY, ACTION_KEY):
        mask = source.get(f"_{key}")
        if mask is not None and not mask[index]:
            return None
    if isinstance(result, Mapping):
        result = _fields_at(result, index)
    elif isinstance(result, np.ndarray) and result.dtype == object:
        result = result[index]
    else:
        return None
    return step_from_info({ACTION_KEY: _fields_at(action, index)}, result)


def _score_finals(
    wrapper: Any, actions, env_rewards, terminated, infos, final_infos, dones, resets, starts
):
    n = wrapper._n
    components = np.zeros((n, len(wrapper._names)))
    values = np.zeros(n)
    episode_sums = wrapper._sums.copy()
    episode_totals = np.zeros(n)
    episode_weights = wrapper._weights.copy()
    scored = np.ones(n, dtype=bool) if resets is None else ~resets
    candidates = final_candidates(infos, dones) & scored
    if final_infos is not None:
        candidates |= dones & scored
    # Steps first: a hook at an episode's end reads the step count after its last step.
    steps_before = wrapper._steps.copy()
    wrapper._steps += scored
    events = candidates | dones
    if resets is not None:
        events |= resets
    if starts is not None:
        events |= starts
    # Plain lists for the loop: a numpy element read per flag costs more than the flag's test.
    reset_list = None if resets is None else resets.tolist()
    start_list = None if starts is None else starts.tolist()
    candidate_list = candidates.tolist()
    done_list = dones.tolist()
    names = wrapper._names
    for index in np.flatnonzero(events).tolist():
        if reset_list is not None and reset_list[index]:
            wrapper._start_episode(index)
            continue
        done = done_list[index]
        if candidate_list[index]:
            source = final_infos if final_infos is not None and done else infos
            step = _field_arrays_step(source, index) or sub_env_step(
                infos,
                final_infos if done else None,
                index,
                actions[index],
                float(env_rewards[index]),
                bool(terminated[index]),
            )
            context = wrapper._context(index)
            context.step = int(steps_before[index])
            row, value = score_sub_env(
                wrapper._policy,
                wrapper._zeros,
                wrapper._weights[index],
                wrapper._final_only_function,
                context,
                step,
                index,
            )
            components[index] = [row[name] for name in names]
            wrapper._sums[index] += components[index]
            values[index] = value
            wrapper._totals[index] += value
        if done:
            episode_sums[index] = wrapper._sums[index]
            episode_totals[index] = wrapper._totals[index]
            wrapper._end_episode(index)
            if start_list is not None and start_list[index]:
                wrapper._start_episode(index)
    report = masked_report(dones, episode_sums, episode_totals, episode_weights, {})
    return components, values, report
