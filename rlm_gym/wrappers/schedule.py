"""``WeightSchedule``: reward-component weights that change with the training step.

A schedule maps component names to breakpoints ``(step, weight)``. The step is the *training*
step (SB3's ``num_timesteps``: every sub-env step counts), so a curriculum written for one run
means the same thing whatever the number of envs. Before the first breakpoint the first weight
holds, after the last the last; ``"linear"`` interpolates between breakpoints, ``"step"`` holds
each weight until the next breakpoint.

The wrappers read a schedule only when an episode starts: the weights an episode is scored with
are fixed for the whole episode, so its component sums stay comparable. A schedule is plain data:
it pickles, compares equal by value and round-trips through ``to_dict`` / ``from_dict`` (the form
written to a run directory and read from a YAML file).

Example:
    >>> schedule = WeightSchedule({"efficiency": [(0, 0.0), (200_000, 1.0)]})
    >>> schedule.weights_at(50_000)
    {'efficiency': 0.25}
    >>> WeightSchedule.from_text("efficiency=0:0,200000:1") == schedule
    True
    >>> schedule.to_dict()
    {'interpolation': 'linear', 'breakpoints': {'efficiency': [[0, 0.0], [200000, 1.0]]}}
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from numbers import Integral, Real
from typing import Any

from rlm_gym._validation import did_you_mean, unknown_name_error

__all__ = ["INTERPOLATIONS", "WeightSchedule"]

INTERPOLATIONS = ("linear", "step")

Breakpoint = tuple[int, float]


def _breakpoint(name: str, index: int, point: Any) -> Breakpoint:
    """One ``(step, weight)`` pair, checked; errors name the component and the breakpoint."""
    where = f"breakpoint {index} of `{name}`"
    if isinstance(point, (str, bytes)) or not isinstance(point, Sequence) or len(point) != 2:
        raise ValueError(f"Expected {where} to be a (step, weight) pair, got {point!r}")
    step, weight = point
    # bool is an Integral; a True step is a typo, never a training step.
    if isinstance(step, bool) or not isinstance(step, Integral):
        raise ValueError(
            f"Expected the step of {where} to be an integer training step, "
            f"got {type(step).__name__} {step!r}"
        )
    if step < 0:
        raise ValueError(f"Expected the step of {where} to be >= 0, got {step}")
    if isinstance(weight, bool) or not isinstance(weight, Real):
        raise ValueError(
            f"Expected the weight of {where} to be a number, got {type(weight).__name__} {weight!r}"
        )
    # A negative weight would turn a reward into a penalty (and flip its bounds) silently.
    if not math.isfinite(weight) or weight < 0:
        raise ValueError(f"Expected the weight of {where} to be finite and >= 0, got {weight!r}")
    return int(step), float(weight)


def _component_breakpoints(name: Any, points: Any) -> tuple[Breakpoint, ...]:
    if not isinstance(name, str) or not name:
        raise ValueError(f"Expected component names to be non-empty strings, got {name!r}")
    if isinstance(points, (str, bytes)) or not isinstance(points, Iterable):
        raise ValueError(
            f"Expected the breakpoints of `{name}` to be a list of (step, weight) pairs, "
            f"got {points!r}"
        )
    checked = tuple(_breakpoint(name, index, point) for index, point in enumerate(points))
    if not checked:
        raise ValueError(f"Expected `{name}` to have at least one (step, weight) breakpoint")
    for index in range(1, len(checked)):
        if checked[index][0] <= checked[index - 1][0]:
            raise ValueError(
                f"Expected the steps of `{name}` to be strictly increasing: breakpoint {index} "
                f"{checked[index]} follows {checked[index - 1]}"
            )
    return checked


class WeightSchedule:
    """Component weights as a function of the training step.

    Args:
        breakpoints: Component name → ``(step, weight)`` pairs: integer steps >= 0, strictly
            increasing; finite weights >= 0.
        interpolation: ``"linear"`` (between breakpoints) or ``"step"`` (hold the previous
            breakpoint's weight).

    Raises:
        TypeError: ``breakpoints`` is not a mapping.
        ValueError: no component, a bad breakpoint (the error names the component, the
            breakpoint and the rule it breaks) or an unknown interpolation.

    Example:
        >>> schedule = WeightSchedule(
        ...     {"efficiency": [(0, 0.0), (100, 1.0)], "success": [(0, 2.0), (50, 1.0)]},
        ...     interpolation="step",
        ... )
        >>> schedule.weights_at(75)
        {'efficiency': 0.0, 'success': 1.0}
        >>> schedule.weights_at(10**9)
        {'efficiency': 1.0, 'success': 1.0}
    """

    def __init__(
        self,
        breakpoints: Mapping[str, Iterable[Sequence[float]]],
        interpolation: str = "linear",
    ) -> None:
        if not isinstance(breakpoints, Mapping):
            raise TypeError(
                "Expected `breakpoints` to be a mapping of component name to (step, weight) "
                f"pairs, got {type(breakpoints).__name__} {breakpoints!r}"
            )
        if not breakpoints:
            raise ValueError("Expected `breakpoints` to name at least one component, got {}")
        if interpolation not in INTERPOLATIONS:
            raise unknown_name_error("interpolation", interpolation, INTERPOLATIONS)
        self._interpolation = interpolation
        self._breakpoints = {
            name: _component_breakpoints(name, points) for name, points in breakpoints.items()
        }
        self._steps = {name: [s for s, _ in points] for name, points in self._breakpoints.items()}

    @property
    def interpolation(self) -> str:
        """``"linear"`` or ``"step"``."""
        return self._interpolation

    @property
    def names(self) -> tuple[str, ...]:
        """The scheduled components, in the order given."""
        return tuple(self._breakpoints)

    @property
    def breakpoints(self) -> dict[str, tuple[Breakpoint, ...]]:
        """Component name → its checked ``(step, weight)`` breakpoints."""
        return dict(self._breakpoints)

    def weight_at(self, name: str, step: int) -> float:
        """The weight of one scheduled component at a training step."""
        if name not in self._breakpoints:
            raise unknown_name_error("scheduled component", name, self._breakpoints)
        points = self._breakpoints[name]
        after = bisect_right(self._steps[name], step)
        if after == 0:
            return points[0][1]
        if after == len(points) or self._interpolation == "step":
            return points[after - 1][1]
        (low_step, low), (high_step, high) = points[after - 1], points[after]
        return low + (high - low) * (step - low_step) / (high_step - low_step)

    def weights_at(self, step: int) -> dict[str, float]:
        """Every scheduled component's weight at a training step (>= 0)."""
        if isinstance(step, bool) or not isinstance(step, Integral) or step < 0:
            raise ValueError(f"Expected `step` to be an integer >= 0, got {step!r}")
        return {name: self.weight_at(name, step) for name in self._breakpoints}

    def max_weights(self) -> dict[str, float]:
        """The largest weight each scheduled component reaches (bounds of a vector reward)."""
        return {name: max(w for _, w in points) for name, points in self._breakpoints.items()}

    def check_components(
        self,
        valid: Sequence[str],
        disable: Iterable[str] = (),
        weights: Mapping[str, float] | None = None,
        where: str = "",
    ) -> None:
        """Check the schedule against a policy: known names, none also disabled or fixed.

        Args:
            valid: The policy's component names.
            disable: Components the wrapper switches off.
            weights: The wrapper's fixed weights.
            where: Context for the error, e.g. ``" for policy 'crawl'"``.

        Raises:
            ValueError: A scheduled name the policy does not have (with the closest name and
                the valid ones), or one that is also disabled or given a fixed weight.
        """
        for name in self._breakpoints:
            if name not in valid:
                raise unknown_name_error("scheduled component", name, valid, where)
        clashes = {
            "disable": [name for name in disable if name in self._breakpoints],
            "weights": [name for name in (weights or {}) if name in self._breakpoints],
        }
        for argument, names in clashes.items():
            if names:
                raise ValueError(
                    f"Component {names[0]!r} is both scheduled and in `{argument}`{where}: "
                    "a component's weight comes from one place; remove it from one of them"
                )

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON/YAML): ``{"interpolation": ..., "breakpoints": {name: [[s, w]]}}``."""
        return {
            "interpolation": self._interpolation,
            "breakpoints": {
                name: [[step, weight] for step, weight in points]
                for name, points in self._breakpoints.items()
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> WeightSchedule:
        """The inverse of ``to_dict`` (``interpolation`` may be left out: linear)."""
        if not isinstance(data, Mapping) or "breakpoints" not in data:
            raise ValueError(
                "Expected a schedule as {'interpolation': 'linear' | 'step', 'breakpoints': "
                f"{{name: [[step, weight], ...]}}}}, got {data!r}"
            )
        unknown = sorted(set(data) - {"interpolation", "breakpoints"})
        if unknown:
            hint = did_you_mean(unknown[0], ("interpolation", "breakpoints"))
            raise ValueError(
                f"Unknown schedule key {unknown[0]!r}.{hint} Available: 'interpolation', "
                "'breakpoints'"
            )
        return cls(data["breakpoints"], data.get("interpolation", "linear"))

    @classmethod
    def from_text(cls, text: str, interpolation: str = "linear") -> WeightSchedule:
        """Parse the command-line form ``"name=step:weight,step:weight[;name=...]"``.

        Example:
            >>> WeightSchedule.from_text("efficiency=0:0,200000:1; success=0:2").names
            ('efficiency', 'success')
        """
        breakpoints: dict[str, list[tuple[int, float]]] = {}
        for part in filter(None, (piece.strip() for piece in str(text).split(";"))):
            name, sep, points = part.partition("=")
            name = name.strip()
            if not sep or not name or not points.strip():
                raise ValueError(
                    f"Expected a schedule as 'name=step:weight,step:weight', got {part!r}"
                )
            if name in breakpoints:
                raise ValueError(f"Component {name!r} is scheduled twice in {text!r}")
            breakpoints[name] = [_parse_point(name, point) for point in points.split(",")]
        if not breakpoints:
            raise ValueError(f"Expected a schedule as 'name=step:weight,step:weight', got {text!r}")
        return cls(breakpoints, interpolation)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WeightSchedule):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(repr(self.to_dict()))

    def __repr__(self) -> str:
        points = {name: list(points) for name, points in self._breakpoints.items()}
        return f"WeightSchedule({points!r}, interpolation={self._interpolation!r})"


def _parse_point(name: str, text: str) -> tuple[int, float]:
    if "=" in text:
        # "a=0:0,1000:1,b=0:2": the second component was joined with ',' instead of ';'.
        raise ValueError(
            f"{text.strip()!r} after the breakpoints of `{name}` names another component: "
            "separate components with ';' (breakpoints with ','), e.g. "
            f"'{name}=0:0,200000:1;{text.strip()}'"
        )
    step, sep, weight = text.strip().partition(":")
    try:
        if not sep:
            raise ValueError
        return int(step.replace("_", "")), float(weight)
    except ValueError:
        raise ValueError(
            f"Expected the breakpoints of `{name}` as 'step:weight' (an integer step, a number), "
            f"got {text.strip()!r}"
        ) from None
