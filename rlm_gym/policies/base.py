"""Policy base classes: configuration handling and the RewardPolicy interface."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from rlm_gym._validation import check_config_value, unknown_name_error
from rlm_gym.policies.types import ActionResult, PolicyContext, RewardSignal

__all__ = ["Policy", "RewardPolicy", "is_final"]


def is_final(action: Mapping[str, Any], result: ActionResult) -> bool:
    """Whether an action is the episode's final one (``action["action"]``, else the result type)."""
    return action.get("action", result.action_type) == "final"


class Policy:
    """Base of all policies: a name, a description and a validated configuration.

    ``config`` is merged over :meth:`get_default_config` once, at construction, and kept as
    ``self.config``. Unknown keys raise ``ValueError`` (with the closest valid key and the valid
    keys); values of the wrong kind raise ``TypeError`` (or ``ValueError`` for NaN / inf).

    Args:
        config: Overrides of the default configuration.

    Example:
        >>> class Scaled(Policy):
        ...     name = "scaled"
        ...     @classmethod
        ...     def get_default_config(cls):
        ...         return {"scale": 1.0}
        >>> Scaled({"scale": 2.0}).config
        {'scale': 2.0}
        >>> Scaled({"scal": 2.0})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: Unknown config key 'scal' for policy 'scaled'. Did you mean 'scale'? ...
    """

    name: ClassVar[str] = "base"
    description: ClassVar[str] = "Base policy"

    @classmethod
    def get_default_config(cls) -> dict[str, Any]:
        """The policy's default configuration (a fresh dict on each call)."""
        return {}

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        defaults = self.get_default_config()
        if config is None:
            config = {}
        elif not isinstance(config, Mapping):
            raise TypeError(
                f"Expected `config` to be a mapping of policy settings, "
                f"got {type(config).__name__} {config!r}"
            )
        where = f" for policy '{self.name}'"
        for key, value in config.items():
            if key not in defaults:
                raise unknown_name_error("config key", key, defaults, where)
            check_config_value(key, defaults[key], value, where)
        merged = {**defaults, **config}
        for key, default in defaults.items():
            # An int given for a float setting is stored as a float, so components built from
            # the config are Python floats whatever the user typed.
            if type(default) is float and type(merged[key]) is not float:
                merged[key] = float(merged[key])
        self.config: dict[str, Any] = merged
        self.validate_config(self.config)

    def validate_config(self, config: dict[str, Any]) -> None:
        """Check cross-key constraints of the merged config; override to add policy rules."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(config={self.config!r})"


class RewardPolicy(Policy, ABC):
    """A policy that turns an action and its result into a :class:`RewardSignal`.

    Subclasses implement :meth:`calculate` and declare ``component_names`` (every key
    ``calculate`` may emit) and ``value_range`` (the interval the value is clamped to).
    Built-in policies keep ``value == clamp(sum(components.values()), *value_range)``.
    A policy with no ``component_names`` has its components passed through as emitted and
    cannot be ablated by name.

    Example:
        >>> class Constant(RewardPolicy):
        ...     name = "constant"
        ...     component_names = ("bonus",)
        ...     def calculate(self, action, result, context):
        ...         return RewardSignal(0.5, {"bonus": 0.5})
        >>> Constant().calculate({}, ActionResult("code", True), PolicyContext()).value
        0.5
    """

    name: ClassVar[str] = "reward_base"
    description: ClassVar[str] = "Base reward policy"
    component_names: ClassVar[tuple[str, ...]] = ()
    value_range: ClassVar[tuple[float, float]] = (-1.0, 1.0)
    formula: ClassVar[str] = ""
    #: Declares that ``calculate`` emits Python ``float`` components and a finite value (true
    #: for the built-ins, whose numeric config is stored as floats). The wrapper then merges the
    #: components without converting each one; leave it False for custom policies.
    float_components: ClassVar[bool] = False

    @abstractmethod
    def calculate(
        self,
        action: dict[str, Any],
        result: ActionResult,
        context: PolicyContext,
    ) -> RewardSignal:
        """Score one action.

        Args:
            action: The action as a dict (``{"action": type, "code": ...}``).
            result: What executing it produced.
            context: The episode so far.

        Returns:
            The reward with its components.
        """

    def on_episode_start(self, context: PolicyContext) -> None:
        """Called when an episode starts (no-op by default)."""

    def on_episode_end(self, context: PolicyContext, total_reward: float) -> None:
        """Called when an episode ends with the sum of its values (no-op by default)."""

    def clamp(self, total: float) -> float:
        """Limit ``total`` to this policy's ``value_range``."""
        low, high = self.value_range
        return low if total < low else high if total > high else total
