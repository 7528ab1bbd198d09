"""Policy base classes: configuration handling and the RewardPolicy interface."""

from __future__ import annotations

import inspect
import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from copy import deepcopy
from types import MappingProxyType
from typing import Any, ClassVar

from rlm_gym._validation import check_config_value, unknown_name_error
from rlm_gym.policies.types import ActionResult, PolicyContext, RewardSignal

__all__ = [
    "Policy",
    "RewardPolicy",
    "AdditiveRewardPolicy",
    "ConfiguredAdditivePolicy",
    "is_final",
]


def is_final(action: Mapping[str, Any], result: ActionResult) -> bool:
    """Whether an action is the episode's final one (``action["action"]``, else the result type)."""
    return action.get("action", result.action_type) == "final"


class Policy:
    """Base of all policies: a name, a description and a validated configuration.

    A policy states its settings and their defaults once, as the class table
    ``DEFAULT_CONFIG`` (frozen when the class is created, so no instance can change another's
    defaults); :meth:`get_default_config` returns a fresh copy of it (rlm-code's policies
    override the classmethod instead, which works as well). ``config`` is merged over
    :meth:`get_default_config` once, at construction, and kept as ``self.config``. Unknown keys
    raise ``ValueError`` (with the closest valid key and the valid keys); values of the wrong
    kind raise ``TypeError`` (or ``ValueError`` for NaN / inf). A policy whose
    ``get_default_config()`` is empty declares no keys and accepts any config, which it reads
    with ``self.config.get(key, default)`` (rlm-code's custom policies).

    Then :meth:`validate_config` checks the merged config. Override it the rlm-code way,
    ``validate_config(self) -> list[str]`` returning the problems of ``self.config`` (the
    constructor raises ``ValueError`` listing them), or the rlm_gym 0.1 way,
    ``validate_config(self, config) -> None`` raising on a problem.

    Args:
        config: Overrides of the default configuration.

    Raises:
        TypeError: ``config`` is not a mapping, or a value has the wrong kind.
        ValueError: An unknown key, a non-finite number, or problems ``validate_config`` found.

    Example:
        >>> class Scaled(Policy):
        ...     name = "scaled"
        ...     DEFAULT_CONFIG = {"scale": 1.0}
        ...     def validate_config(self):
        ...         return [] if self.config["scale"] > 0 else ["`scale` must be > 0"]
        >>> Scaled({"scale": 2.0}).config
        {'scale': 2.0}
        >>> Scaled({"scal": 2.0})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: Unknown config key 'scal' for policy 'scaled'. Did you mean 'scale'? ...
        >>> Scaled({"scale": -1.0})
        Traceback (most recent call last):
        ...
        ValueError: Invalid config for policy 'scaled': `scale` must be > 0
    """

    name: ClassVar[str] = "base"
    description: ClassVar[str] = "Base policy"
    #: The settings and their defaults (empty: any config is accepted, see above).
    DEFAULT_CONFIG: ClassVar[Mapping[str, Any]] = MappingProxyType({})
    #: Whether ``validate_config`` takes the config as an argument (the 0.1 form); set per
    #: class from the signature, so construction does not inspect it every time.
    _validate_takes_config: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._validate_takes_config = _takes_an_argument(cls.validate_config)
        if "DEFAULT_CONFIG" in vars(cls):
            cls.DEFAULT_CONFIG = MappingProxyType(dict(cls.DEFAULT_CONFIG))

    @classmethod
    def get_default_config(cls) -> dict[str, Any]:
        """The policy's default configuration: a fresh copy of ``DEFAULT_CONFIG`` on each call.

        Nested tables are copied too, so a caller may change the result freely.
        """
        return {key: deepcopy(value) for key, value in cls.DEFAULT_CONFIG.items()}

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        defaults = self.get_default_config()
        if config is None:
            config = {}
        elif not isinstance(config, Mapping):
            raise TypeError(
                f"Expected `config` to be a mapping of policy settings, "
                f"got {type(config).__name__} {config!r}"
            )
        if defaults:
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
        if self._validate_takes_config:
            problems = self.validate_config(self.config)  # type: ignore[call-arg]
        else:
            problems = self.validate_config()
        if problems:
            if isinstance(problems, str):
                problems = [problems]
            listed = "; ".join(str(problem) for problem in problems)
            raise ValueError(f"Invalid config for policy '{self.name}': {listed}")

    def validate_config(self) -> list[str]:
        """The problems of ``self.config`` (cross-key rules); empty when it is valid.

        Override to add policy rules. The 0.1 form ``validate_config(self, config) -> None``,
        raising on a problem, is still honoured.
        """
        return []

    def __repr__(self) -> str:
        return f"{type(self).__name__}(config={self.config!r})"


def _takes_an_argument(method: Any) -> bool:
    """Whether ``method`` (a function taking ``self``) accepts a positional argument more."""
    try:
        parameters = list(inspect.signature(method).parameters.values())[1:]
    except (TypeError, ValueError):
        return False
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return any(
        parameter.kind in positional or parameter.kind is inspect.Parameter.VAR_POSITIONAL
        for parameter in parameters
    )


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
    #: Declares that ``calculate`` returns ``RewardSignal(0.0, {})`` (value 0, no component)
    #: for every action that is not the episode's final one (:func:`is_final`), as the
    #: ``crawl`` policy does; ``value_range`` must hold 0. The wrapper then skips
    #: ``calculate`` on those steps. Honoured only while ``calculate`` is the one of the class
    #: that sets it: an override in a subclass, or a function set on the instance, is called
    #: on every step.
    final_only: ClassVar[bool] = False

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

    def component_bounds(self) -> dict[str, tuple[float, float]]:
        """Each component's ``(low, high)`` at weight 1 (a vector reward's ``reward_space``).

        The default is ``(-inf, inf)`` for every declared name; policies that know better
        override it (the built-ins do, from their config).
        """
        return dict.fromkeys(self.component_names, (-math.inf, math.inf))

    def clamp(self, total: float) -> float:
        """Limit ``total`` to this policy's ``value_range``."""
        low, high = self.value_range
        return low if total < low else high if total > high else total


class AdditiveRewardPolicy(RewardPolicy):
    """A reward policy whose value is the clamped sum of its components.

    Subclasses implement :meth:`score_components`; :meth:`calculate` adds them up and clamps
    the total to ``value_range``. Declaring the value this way lets
    ``RewardPolicyWrapper`` take the components straight from :meth:`score_components` and
    skip building a :class:`RewardSignal` per step, when the class also sets
    ``float_components = True`` (the built-ins do; otherwise each component is converted
    with ``float()``). A subclass that overrides ``calculate`` is always called through it.

    Example:
        >>> class Attempt(AdditiveRewardPolicy):
        ...     name = "attempt"
        ...     component_names = ("attempt", "success")
        ...     def score_components(self, action, result, context):
        ...         return {"attempt": 0.2, "success": 1.0 if result.success else 0.0}
        >>> Attempt().calculate({}, ActionResult("code", True), PolicyContext()).value
        1.0
    """

    name: ClassVar[str] = "additive_base"
    description: ClassVar[str] = "Base additive reward policy"

    @abstractmethod
    def score_components(
        self, action: dict[str, Any], result: ActionResult, context: PolicyContext
    ) -> dict[str, float]:
        """The components that apply to this action (Python floats, by name)."""

    def calculate(
        self, action: dict[str, Any], result: ActionResult, context: PolicyContext
    ) -> RewardSignal:
        """The clamped sum of :meth:`score_components`, with the policy's formula."""
        components = self.score_components(action, result, context)
        total = sum(components.values(), 0.0)
        low, high = self.value_range
        value = low if total < low else high if total > high else total
        return RewardSignal(value, components, self.formula)


class ConfiguredAdditivePolicy(AdditiveRewardPolicy):
    """An additive policy that reads its config into attributes once per episode.

    A subclass states its ``DEFAULT_CONFIG`` table and its ``score_components`` formula, which
    reads each setting ``key`` as the attribute ``self._key``: an attribute read costs less
    than a key look-up on every step of every wrapped env. The config is validated at
    construction and is not meant to change while an episode runs: :meth:`read_config` runs
    at construction and again at each episode start (``on_episode_start``, which
    ``RewardPolicyWrapper.reset`` calls), so a change to ``policy.config`` takes effect from
    the next reset (or at once after calling ``read_config()``), not in the middle of an
    episode. Subclasses that override ``on_episode_start`` call
    ``super().on_episode_start(context)`` to keep this; a subclass that defines
    ``read_config`` itself binds its settings itself.

    Raises:
        TypeError: When the class is defined, if a setting is not named as a Python
            identifier, or its attribute ``_key`` would hide an attribute the class has.

    Example:
        >>> class Attempt(ConfiguredAdditivePolicy):
        ...     name = "attempt"
        ...     component_names = ("attempt",)
        ...     DEFAULT_CONFIG = {"attempt_bonus": 0.1}
        ...     def score_components(self, action, result, context):
        ...         return {"attempt": self._attempt_bonus}
        >>> policy = Attempt()
        >>> policy.config["attempt_bonus"] = 0.2
        >>> policy.on_episode_start(PolicyContext())  # what a reset does
        >>> policy.calculate({}, ActionResult("code", success=True), PolicyContext()).components
        {'attempt': 0.2}
    """

    name = "configured_additive_base"
    description = "Base of additive policies that read their config once per episode"
    float_components = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        keys = list(cls.DEFAULT_CONFIG)
        unreadable = [key for key in keys if not (isinstance(key, str) and key.isidentifier())]
        if unreadable:
            raise TypeError(
                f"`DEFAULT_CONFIG` of {cls.__name__} has setting(s) {unreadable} that cannot "
                "be read as attributes; name each setting as a Python identifier"
            )
        hidden = [f"_{key}" for key in keys if hasattr(cls, f"_{key}")]
        if hidden:
            raise TypeError(
                f"`DEFAULT_CONFIG` of {cls.__name__} would hide the class attribute(s) "
                f"{hidden}; rename the setting(s)"
            )
        if "read_config" not in vars(cls):
            cls.read_config = _config_reader(cls, keys)  # type: ignore[method-assign]

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__(config)
        self.read_config()

    def read_config(self) -> None:
        """Bind every setting ``key`` of ``self.config`` as the attribute ``self._key``."""

    def on_episode_start(self, context: PolicyContext) -> None:
        """Re-read the config: a change made between episodes applies from this one."""
        self.read_config()


def _config_reader(cls: type, keys: list[str]) -> Any:
    """A ``read_config`` method binding each setting ``key`` of ``self.config`` as ``self._key``.

    Generated as straight-line code, the way :mod:`dataclasses` generates ``__init__``: every
    reset of every wrapped env runs it, and a loop of ``setattr`` calls costs three to four
    times as much (about 1 µs more per reset for the research policy's 18 settings). The keys
    are checked identifiers, so the generated source is exactly one assignment per setting.
    """
    lines = ["def read_config(self):", "    config = self.config"]
    lines += [f"    self._{key} = config[{key!r}]" for key in keys]
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)
    reader = namespace["read_config"]
    reader.__doc__ = ConfiguredAdditivePolicy.read_config.__doc__
    reader.__module__ = cls.__module__
    reader.__qualname__ = f"{cls.__qualname__}.read_config"
    return reader
