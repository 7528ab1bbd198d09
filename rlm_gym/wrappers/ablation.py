"""Ablation of a policy's components: which are switched off, which are scaled, and by how much.

A reward is a set of named components; an ablation study switches some off (``disable``) or
scales them (``weights``, where 0 also switches off). The wrapper keeps only the multipliers
that are not 1, so an empty table means "no ablation" and its step can skip the weighing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from rlm_gym._validation import check_finite_number, unknown_name_error
from rlm_gym.policies import RewardPolicy
from rlm_gym.wrappers.schedule import WeightSchedule

__all__ = [
    "check_component_names",
    "check_schedule",
    "checked_weights",
    "multipliers",
    "name_set",
    "undeclared_error",
    "weighted_components",
]


def name_set(names: Iterable[str]) -> frozenset[str]:
    """``names`` as a set; a single string is one name, not its characters.

    Example:
        >>> sorted(name_set("success")), sorted(name_set(["final", "success"]))
        (['success'], ['final', 'success'])
    """
    if isinstance(names, str):
        names = (names,)
    return frozenset(names)


def check_component_names(
    names: Iterable[str], declared: tuple[str, ...], policy_name: str, argument: str
) -> None:
    """Check that every name is one of the policy's ``declared`` component names.

    Raises:
        ValueError: The policy declares no names (so nothing can be ablated by name), or a
            name is not declared (with the closest declared name and all of them).
    """
    if not declared:
        raise ValueError(
            f"`{argument}` needs component names, but policy '{policy_name}' "
            "declares no `component_names`, so it cannot be ablated by name"
        )
    for name in names:
        if name not in declared:
            raise unknown_name_error(
                "component", name, declared, f"in `{argument}` for '{policy_name}'"
            )


def check_schedule(
    schedule: Any,
    declared: tuple[str, ...],
    policy_name: str,
    disable: Iterable[str],
    weights: Mapping[str, float] | None,
) -> None:
    """Check a wrapper's ``schedule`` (None passes) against its policy, ``disable`` and ``weights``.

    Raises:
        TypeError: ``schedule`` is not a ``WeightSchedule``.
        ValueError: See ``WeightSchedule.check_components``.
    """
    if schedule is None:
        return
    if not isinstance(schedule, WeightSchedule):
        raise TypeError(
            f"Expected `schedule` to be a WeightSchedule, got {type(schedule).__name__} "
            f"{schedule!r}"
        )
    if not declared:
        check_component_names(schedule.names, declared, policy_name, "schedule")
    schedule.check_components(declared, name_set(disable), weights, f" for policy '{policy_name}'")


def checked_weights(weights: Mapping[str, float]) -> dict[str, float]:
    """``weights`` as a dict of finite floats.

    Raises:
        TypeError: ``weights`` is not a mapping, or a weight is not a number.
        ValueError: A weight is NaN or infinite.
    """
    if not isinstance(weights, Mapping):
        raise TypeError(
            f"Expected `weights` to be a mapping of component name to number, "
            f"got {type(weights).__name__} {weights!r}"
        )
    return {
        name: check_finite_number(f"weights[{name!r}]", value, "")
        for name, value in weights.items()
    }


def multipliers(weights: Mapping[str, float], disabled: Iterable[str]) -> dict[str, float]:
    """The multipliers in force: the weights that are not 1, and 0 for each disabled name.

    Example:
        >>> multipliers({"final": 2.0, "success": 1.0}, ["error"])
        {'final': 2.0, 'error': 0.0}
    """
    kept = {name: weight for name, weight in weights.items() if weight != 1.0}
    kept.update(dict.fromkeys(disabled, 0.0))
    return kept


def weighted_components(
    emitted: Mapping[str, float],
    value: float,
    zeros: dict[str, float],
    weights: Mapping[str, float],
    policy: RewardPolicy,
    policy_name: str,
) -> tuple[dict[str, float], float]:
    """Every declared component as a float, scaled by the weights, and the value.

    With weights the value is re-clamped from the kept components; without, the policy's own
    value stands (custom policies need not equal the sum of their components).

    Args:
        emitted: The components the policy emitted.
        value: The policy's value.
        zeros: Every declared component name at 0.0 (copied, not changed).
        weights: The multipliers in force (see :func:`multipliers`).
        policy: The policy (its ``clamp``).
        policy_name: Its name, for the error.

    Raises:
        ValueError: The value is NaN or infinite.
    """
    components = zeros.copy()
    for name, part in emitted.items():
        components[name] = float(part) * weights.get(name, 1.0)
    value = policy.clamp(sum(components.values())) if weights else float(value)
    if not math.isfinite(value):
        raise ValueError(f"Policy '{policy_name}' returned a non-finite value {value}")
    return components, value


def undeclared_error(
    components: Mapping[str, float], names: tuple[str, ...], policy_name: str
) -> ValueError:
    """The error for a policy that emitted names not in its ``component_names``."""
    undeclared = sorted(set(components) - set(names), key=str)
    return ValueError(
        f"Policy '{policy_name}' emitted component(s) {undeclared} that are not "
        f"in its `component_names` {list(names)}"
    )
