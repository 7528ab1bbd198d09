"""The registry of reward policies, by name, with third-party entry points."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

from rlm_gym._validation import did_you_mean, unknown_name_error
from rlm_gym.policies.base import RewardPolicy

__all__ = [
    "PolicyRegistry",
    "ENTRY_POINT_GROUP",
    "DEFAULT_REWARD_POLICY",
    "resolve_reward_policy",
]

ENTRY_POINT_GROUP = "rlm_gym.reward_policies"
DEFAULT_REWARD_POLICY = "default"

# rlm-code's other policy kinds, named so `create_from_config` can say they do not exist here.
_RLM_CODE_ONLY_KINDS = ("action", "compaction", "termination")
_ENTRY_KEYS = ("name", "config")

PolicyT = TypeVar("PolicyT", bound=type[RewardPolicy])


def entry_points(group: str) -> Any:
    """The installed entry points of ``group`` (``importlib.metadata.entry_points``).

    ``importlib.metadata`` is imported here, on the first unknown policy name: it costs
    ~40 ms, a tenth of ``import rlm_gym``, for a look-up most programs never make.
    """
    from importlib.metadata import entry_points as _entry_points

    return _entry_points(group=group)


class PolicyRegistry:
    """Reward policies by name.

    Built-ins are registered when ``rlm_gym`` is imported. Packages can add policies with the
    decorator, or expose them under the entry-point group ``rlm_gym.reward_policies``
    (``name = "package.module:PolicyClass"``); those load on the first lookup that misses.
    Registering a different class under a taken name replaces it (rlm-code's hot swap), with
    a ``UserWarning`` unless ``override=True`` says it is meant. The registry is safe to use
    from several threads: changes and the entry-point loading happen under a lock, and a
    class is complete before its name points to it.

    Example:
        >>> from rlm_gym.policies import PolicyRegistry
        >>> PolicyRegistry.get_reward("lenient").name
        'lenient'
        >>> PolicyRegistry.get_reward().name  # the default policy
        'default'
        >>> PolicyRegistry.get_reward("lenint")
        Traceback (most recent call last):
        ...
        ValueError: Unknown reward policy 'lenint'. Did you mean 'lenient'? Available: ...
    """

    _reward_policies: dict[str, type[RewardPolicy]] = {}
    _entry_points_loaded: bool = False
    _default_reward: str = DEFAULT_REWARD_POLICY
    # Re-entrant: loading an entry point registers it, which takes the lock again.
    _lock: ClassVar[threading.RLock] = threading.RLock()

    @classmethod
    def register_reward(
        cls, name: str | None = None, *, override: bool = False
    ) -> Callable[[PolicyT], PolicyT]:
        """Class decorator registering a reward policy.

        Re-registering the same class is a no-op. Registering a *different* class under a
        taken name replaces the old one (how rlm-code hot-swaps a policy) and emits a
        ``UserWarning`` naming both classes, unless ``override=True`` says it is intended.

        Args:
            name: The registry name (defaults to the class's ``name``); a class that does not
                define ``name`` itself gets this one.
            override: Replace a different class registered under ``name`` without a warning.

        Raises:
            TypeError: If the decorated object is not a ``RewardPolicy`` subclass, or ``name``
                is not a string.

        Example:
            >>> import warnings
            >>> from rlm_gym.policies import RewardPolicy, RewardSignal
            >>> @PolicyRegistry.register_reward("constant_doc")
            ... class Constant(RewardPolicy):
            ...     def calculate(self, action, result, context):
            ...         return RewardSignal(0.5)
            >>> with warnings.catch_warnings(record=True) as caught:
            ...     warnings.simplefilter("always")
            ...     @PolicyRegistry.register_reward("constant_doc")
            ...     class Better(Constant):
            ...         pass
            >>> PolicyRegistry.get_reward_class("constant_doc").__name__, len(caught)
            ('Better', 1)
            >>> PolicyRegistry.unregister_reward("constant_doc")
        """
        if name is not None and not isinstance(name, str):
            raise TypeError(
                f"Expected `name` to be a string or None, got {type(name).__name__} {name!r}"
            )

        def decorator(policy_cls: PolicyT) -> PolicyT:
            if not (isinstance(policy_cls, type) and issubclass(policy_cls, RewardPolicy)):
                raise TypeError(f"Expected a RewardPolicy subclass to register, got {policy_cls!r}")
            key = name if name is not None else policy_cls.name
            with cls._lock:
                existing = cls._reward_policies.get(key)
                if existing is policy_cls:
                    return policy_cls
                if existing is not None and not override:
                    warnings.warn(
                        f"Reward policy '{key}' re-registered: {_qualified(policy_cls)} "
                        f"replaces {_qualified(existing)} (pass `override=True` to replace "
                        "without this warning)",
                        UserWarning,
                        stacklevel=2,
                    )
                if "name" not in vars(policy_cls):
                    # A class that names itself only through the decorator reports that name
                    # (in `info["reward_policy"]`, logs) rather than its base class's.
                    policy_cls.name = key
                # One dict store, after the class is ready: a reader on another thread sees
                # the old class or the new one, never a half-registered state.
                cls._reward_policies[key] = policy_cls
            return policy_cls

        return decorator

    @classmethod
    def get_reward(
        cls, name: str | None = None, config: Mapping[str, Any] | None = None
    ) -> RewardPolicy:
        """A new instance of the policy registered as ``name``.

        Args:
            name: A registered name; ``None`` means the default policy (``"default"`` unless
                :meth:`set_default_reward` changed it).
            config: Overrides of the policy's default config.

        Raises:
            ValueError: Unknown name (with a suggestion and the available names), or bad config.
            TypeError: ``name`` is not a string, or a config value has the wrong kind.
        """
        if name is None:
            name = cls._default_reward
        return cls.get_reward_class(name)(config)

    @classmethod
    def get_reward_class(cls, name: str) -> type[RewardPolicy]:
        """The class registered as ``name`` (loading entry points on a miss).

        Raises:
            ValueError: Unknown name (with a suggestion and the available names).
            TypeError: ``name`` is not a string.
        """
        if not isinstance(name, str):
            raise TypeError(
                f"Expected a reward policy name (a string), got {type(name).__name__} {name!r}"
            )
        policy_cls = cls._reward_policies.get(name)
        if policy_cls is not None:
            return policy_cls
        with cls._lock:
            if not cls._entry_points_loaded:
                cls._load_entry_points()
            policy_cls = cls._reward_policies.get(name)
            if policy_cls is None:
                raise unknown_name_error("reward policy", name, list(cls._reward_policies))
        return policy_cls

    @classmethod
    def set_default_reward(cls, name: str) -> None:
        """Make ``name`` the policy that ``get_reward(None)`` returns.

        Raises:
            ValueError: Unknown name (with a suggestion and the available names).

        Example:
            >>> PolicyRegistry.set_default_reward("strict")
            >>> PolicyRegistry.get_reward().name
            'strict'
            >>> PolicyRegistry.set_default_reward("default")
        """
        cls.get_reward_class(name)
        with cls._lock:
            cls._default_reward = name

    @classmethod
    def list_reward_policies(cls) -> list[dict[str, str]]:
        """``[{"name", "description"}, ...]`` in registration order."""
        with cls._lock:
            registered = list(cls._reward_policies.items())
        return [
            {"name": key, "description": policy_cls.description} for key, policy_cls in registered
        ]

    @classmethod
    def list_all(cls) -> dict[str, list[dict[str, str]]]:
        """Every registered policy by kind, rlm-code's form: ``{"reward": [...]}``.

        Example:
            >>> PolicyRegistry.list_all()["reward"][0]["name"]
            'default'
        """
        return {"reward": cls.list_reward_policies()}

    @classmethod
    def create_from_config(cls, config: Mapping[str, Any]) -> dict[str, RewardPolicy]:
        """Policies from rlm-code's config layout: ``{"reward": {"name": ..., "config": {...}}}``.

        A missing ``name`` means the default policy, a missing ``config`` the policy's defaults.

        Returns:
            ``{"reward": policy}`` (empty when ``config`` has no ``"reward"`` entry).

        Raises:
            TypeError: ``config`` or its ``"reward"`` entry is not a mapping.
            ValueError: A key other than ``"reward"`` (rlm_gym has reward policies only), an
                unknown key in the entry, an unknown policy name or bad policy config.

        Example:
            >>> policies = PolicyRegistry.create_from_config(
            ...     {"reward": {"name": "strict", "config": {"final_bonus": 0.2}}}
            ... )
            >>> policies["reward"].name, policies["reward"].config["final_bonus"]
            ('strict', 0.2)
        """
        if not isinstance(config, Mapping):
            raise TypeError(
                f"Expected `config` to be a mapping like "
                f'{{"reward": {{"name": ..., "config": {{...}}}}}}, '
                f"got {type(config).__name__} {config!r}"
            )
        for kind in config:
            if kind == "reward":
                continue
            if kind in _RLM_CODE_ONLY_KINDS:
                raise ValueError(
                    f"rlm-code's {kind!r} policies are not part of rlm_gym, which has reward "
                    "policies only: pass `config` with just its 'reward' entry"
                )
            raise ValueError(
                f"Unknown policy kind {kind!r} in `config`.{did_you_mean(str(kind), ('reward',))} "
                "Available: 'reward'"
            )
        policies: dict[str, RewardPolicy] = {}
        if "reward" in config:
            entry = config["reward"]
            if not isinstance(entry, Mapping):
                raise TypeError(
                    f'Expected `config["reward"]` to be a mapping with "name" and "config", '
                    f"got {type(entry).__name__} {entry!r}"
                )
            for key in entry:
                if key not in _ENTRY_KEYS:
                    raise unknown_name_error("key", key, _ENTRY_KEYS, 'in `config["reward"]`')
            policies["reward"] = cls.get_reward(entry.get("name"), entry.get("config"))
        return policies

    @classmethod
    def unregister_reward(cls, name: str) -> None:
        """Remove ``name`` from the registry (for tests and plugin reloads)."""
        with cls._lock:
            cls._reward_policies.pop(name, None)

    @classmethod
    def _load_entry_points(cls) -> None:
        # Called with the lock held. The flag is set only once every entry point is in, so a
        # thread that misses meanwhile waits for the lock and then finds the loaded names.
        for entry_point in entry_points(group=ENTRY_POINT_GROUP):
            if entry_point.name in cls._reward_policies:
                continue
            cls.register_reward(entry_point.name)(entry_point.load())
        cls._entry_points_loaded = True


def resolve_reward_policy(
    policy: str | RewardPolicy, config: Mapping[str, Any] | None = None
) -> RewardPolicy:
    """A wrapper's ``policy`` argument as an instance: a registered name (with ``config``)
    built by :meth:`PolicyRegistry.get_reward`, or a ``RewardPolicy`` used as is.

    Raises:
        ValueError: An unknown name, or ``config`` with an instance.
        TypeError: Neither a name nor a ``RewardPolicy``.
    """
    if isinstance(policy, RewardPolicy):
        if config is not None:
            raise ValueError(
                "`config` only applies to a policy given by name; configure the "
                f"{type(policy).__name__} instance directly"
            )
        return policy
    if isinstance(policy, str):
        return PolicyRegistry.get_reward(policy, config)
    raise TypeError(
        f"Expected `policy` to be a registered policy name or a RewardPolicy instance, "
        f"got {type(policy).__name__} {policy!r}"
    )


def _qualified(policy_cls: type) -> str:
    return f"{policy_cls.__module__}.{policy_cls.__qualname__}"
