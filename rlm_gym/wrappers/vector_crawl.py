"""The vector wrapper's path for the ``crawl`` policy on an env that scores its own crawls.

The ``crawl`` policy scores a finished crawl with ``crawl_reward``: a pure function of the crawl
result under the policy's settings. An env that builds its crawl results from a few numbers
(Crawl-v2's ``CrawlVectorEnv``) scores them from those numbers, component by component, under
any settings (``Scorer.components``); the wrapper asks it for the finished sub-envs' components
under the policy's settings, as one ``(m, 6)`` array, instead of
reading each final ``ActionResult`` and calling ``calculate``. The numbers are those of the
per-sub-env path (``vector_final``): the same components, the same weighted and clamped
values, summed in the same order, the same episode sums.

The path applies while all of this holds (else the per-sub-env path runs, unchanged):

* the wrapper wraps the env directly (nothing between may change its results) and the env
  offers ``final_components(settings)``;
* the autoreset mode is ``NEXT_STEP`` or ``SAME_STEP`` (SB3's, which the studies train in)
  and no weight schedule is set;
* the policy is a plain ``CrawlRewardPolicy`` (no subclass, no replaced ``calculate``) without
  a knowledge store: its hooks then only clear what the store would read, so skipping them
  (and the per-sub-env contexts) changes no number.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

from rlm_gym.crawl import CrawlRewardPolicy
from rlm_gym.crawl.config import COMPONENT_NAMES
from rlm_gym.wrappers.vector_infos import EpisodeReport, masked_report

__all__ = ["crawl_route", "score_crawl_finals"]

_CALCULATE = CrawlRewardPolicy.calculate
_MODES = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)


def crawl_route(wrapper: Any) -> Any:
    """The env's ``final_components`` if the crawl path applies to ``wrapper`` now, else None."""
    env = wrapper.env
    policy = wrapper._policy
    if (
        type(policy) is not CrawlRewardPolicy
        or getattr(policy.calculate, "__func__", None) is not _CALCULATE
        or policy.config["knowledge_store"] is not None
        or wrapper._schedule is not None
        or wrapper._autoreset_mode not in _MODES
        or wrapper._names != COMPONENT_NAMES
        or env is not env.unwrapped
    ):
        return None
    return getattr(env, "final_components", None)


def score_crawl_finals(
    wrapper: Any,
    final_components: Any,
    dones: np.ndarray,
    resets: np.ndarray | None,
    starts: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray, EpisodeReport]:
    """Score the step from the env's components: ``(components, values, report)``.

    Args:
        wrapper: The ``VectorRewardPolicyWrapper``.
        final_components: The env's ``final_components``.
        dones: Terminated or truncated, without the sub-envs reset on this step.
        resets: The sub-envs reset on this step (``NEXT_STEP``), or None.
        starts: The sub-envs whose next episode starts on this step (``resets`` under
            ``NEXT_STEP``; under ``SAME_STEP`` the finished ones, after their report).
    """
    rows, raw = final_components(wrapper._policy.settings)
    n = wrapper._n
    components = np.zeros((n, len(wrapper._names)))
    values = np.zeros(n)
    episode_weights = wrapper._weights.copy()
    if resets is None:
        wrapper._steps += 1
    else:
        wrapper._steps += ~resets
        _start(wrapper, resets)
    if len(rows):
        # ``weighted_components``: each component times its weight, then the clamped sum in
        # component order (with all weights 1 that is the policy's own value: the same sum).
        weighted = raw * episode_weights[rows]
        total = weighted[:, 0].copy()
        for column in range(1, weighted.shape[1]):
            total += weighted[:, column]
        components[rows] = weighted
        values[rows] = np.where(total < 0.0, 0.0, np.where(total > 1.0, 1.0, total))
        wrapper._sums[rows] += weighted
        wrapper._totals[rows] += values[rows]
    # Sub-envs cut by the step limit alone end on a step that is not final: zeros.
    report = masked_report(dones, wrapper._sums, wrapper._totals, episode_weights, {})
    if resets is None and starts is not None:
        _start(wrapper, starts)
    return components, values, report


def _start(wrapper: Any, started: np.ndarray) -> None:
    """``_start_episode`` of the sub-envs of ``started`` without its hook (see the module
    docstring)."""
    wrapper._steps[started] = 0
    wrapper._sums_totals[started] = 0.0
    np.add(wrapper._episode_ids, started, out=wrapper._episode_ids)
