"""Which way ``RewardPolicyWrapper`` scores a step: ``score_components``, a skip or ``calculate``.

``calculate`` is the policy's contract, but building a ``RewardSignal`` on every step of every
env costs time. Two declarations let the wrapper do less while giving the same numbers:

* an :class:`~rlm_gym.policies.AdditiveRewardPolicy` whose ``calculate`` is its base class's
  has, by definition, the clamped sum of ``score_components`` as its value, so the wrapper can
  call ``score_components`` itself (when the components are declared floats and no ablation
  weighs them);
* a built-in's ``score_batch`` gives, for a whole vector step, the numbers of its
  ``score_components`` (used by the vector wrappers while that pair is the class's own);
* a policy class that sets ``final_only = True`` promises ``RewardSignal(0.0, {})`` for every
  action that is not the episode's final one, so those calls can be skipped.

Each is trusted only while the ``calculate`` in force is the one the declaration is about: an
override in a subclass, or a function set on the instance, is called on every step.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from rlm_gym.policies import AdditiveRewardPolicy, RewardPolicy

__all__ = [
    "SUM_IS_COMPENSATED",
    "batch_scorer",
    "calculate_is_additive",
    "final_only_calculate",
    "route_is_stale",
    "scoring_route",
]

# From 3.12 on, `sum()` of floats is compensated (Neumaier), so the step's one-pass running
# total would differ from `sum(components.values())` - the policies' definition - in the last
# bit now and then. Before 3.12 `sum()` adds left to right exactly as the running total does.
SUM_IS_COMPENSATED = sys.version_info >= (3, 12)

_ADDITIVE_CALCULATE = AdditiveRewardPolicy.calculate


def calculate_is_additive(policy: RewardPolicy) -> bool:
    """Whether ``policy.calculate`` is ``AdditiveRewardPolicy.calculate``, unpatched.

    Read through the bound method (an override or a function set on the instance has no
    ``__func__`` of that base's): ``vars(policy)`` would materialise the instance's
    ``__dict__``, which makes every attribute read in ``score_components`` slower.
    """
    return getattr(policy.calculate, "__func__", None) is _ADDITIVE_CALCULATE


def final_only_calculate(policy: RewardPolicy) -> Any:
    """The ``calculate`` function of the class that declares ``final_only`` (or None).

    None when no class in the policy's MRO sets ``final_only = True`` or when the nearest one
    that sets it does not define ``calculate`` itself (its ``calculate`` is inherited, so the
    declaration cannot be about it).
    """
    for klass in type(policy).__mro__:
        declared = vars(klass)
        if "final_only" in declared:
            return declared.get("calculate") if declared["final_only"] is True else None
    return None


def scoring_route(
    policy: RewardPolicy, fast_merge: bool, final_only_function: Any
) -> tuple[Callable[..., dict[str, float]] | None, bool]:
    """How to score ``policy``'s steps now: ``(score_components or None, final_only)``.

    Args:
        policy: The policy.
        fast_merge: Whether its components are declared floats and no ablation weighs them.
        final_only_function: :func:`final_only_calculate` of the policy (found once: the
            policy's class does not change).

    Returns:
        ``policy.score_components`` when the wrapper may call it instead of ``calculate``
        (else None), and whether ``calculate`` may be skipped before the final action.
    """
    additive = isinstance(policy, AdditiveRewardPolicy) and calculate_is_additive(policy)
    final_only = (
        not additive
        and final_only_function is not None
        and getattr(policy.calculate, "__func__", None) is final_only_function
    )
    return (policy.score_components if additive and fast_merge else None), final_only


def route_is_stale(
    policy: RewardPolicy,
    score_components: Callable[..., dict[str, float]] | None,
    final_only: bool,
    final_only_function: Any,
) -> bool:
    """Whether a route from :func:`scoring_route` no longer holds: ``calculate`` was patched
    on the instance since, so every step must go through it.

    Example:
        >>> from rlm_gym.policies import PolicyRegistry, RewardSignal
        >>> policy = PolicyRegistry.get_reward("default")
        >>> route = scoring_route(policy, True, None)
        >>> route_is_stale(policy, *route, None)
        False
        >>> policy.calculate = lambda action, result, context: RewardSignal(0.0)
        >>> route_is_stale(policy, *route, None)
        True
    """
    return (score_components is not None and not calculate_is_additive(policy)) or (
        final_only and getattr(policy.calculate, "__func__", None) is not final_only_function
    )


def batch_scorer(policy: RewardPolicy) -> Any:
    """``policy.score_batch`` when it gives the numbers of the policy's ``calculate``, else None.

    Trusted only while ``calculate`` is :class:`AdditiveRewardPolicy`'s, unpatched, and the
    class that defines ``score_components`` also defines ``score_batch``: a subclass that
    changes ``score_components`` alone is scored per sub-env.
    """
    if not (isinstance(policy, AdditiveRewardPolicy) and calculate_is_additive(policy)):
        return None
    if not policy.component_names:
        return None
    for klass in type(policy).__mro__:
        defined = vars(klass)
        if "score_components" in defined:
            if "score_batch" not in defined:
                return None
            method = getattr(policy, "score_batch", None)
            bound = getattr(method, "__func__", None)
            patched = getattr(policy.score_components, "__func__", None)
            same = bound is defined["score_batch"] and patched is defined["score_components"]
            return method if same else None
    return None
