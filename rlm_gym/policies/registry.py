"""The registry of reward policies, by name, with third-party entry points."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from typing import Any, TypeVar

from rlm_gym._validation import unknown_name_error
from rlm_gym.policies.base import RewardPolicy

__all__ = ["PolicyRegistry", "ENTRY_POINT_GROUP"]

ENTRY_POINT_GROUP = "rlm_gym.reward_policies"

PolicyT = TypeVar("PolicyT", bound=type[RewardPolicy])


class PolicyRegistry:
    """Reward policies by name.

    Built-ins are registered when ``rlm_gym`` is imported. Packages can add policies with the
    decorator, or expose them under the entry-point group ``rlm_gym.reward_policies``
    (``name = "package.module:PolicyClass"``); those load on the first lookup that misses.

    Example:
        >>> from rlm_gym.policies import PolicyRegistry
        >>> PolicyRegistry.get_reward("lenient").name
        'lenient'
        >>> PolicyRegistry.get_reward("lenint")
        Traceback (most recent call last):
        ...
        ValueError: Unknown reward policy 'lenint'. Did you mean 'lenient'? Available: ...
    """

    _reward_policies: dict[str, type[RewardPolicy]] = {}
    _entry_points_loaded: bool = False

    @classmethod
    def register_reward(
        cls, name: str | None = None, *, override: bool = False
    ) -> Callable[[PolicyT], PolicyT]:
        """Class decorator registering a reward policy.

        Args:
            name: The registry name (defaults to the class's ``name``); a class that does not
                define ``name`` itself gets this one.
            override: Allow replacing a *different* class already registered under ``name``.

        Raises:
            ValueError: If ``name`` is taken by another class and ``override`` is False.
        """

        def decorator(policy_cls: PolicyT) -> PolicyT:
            if not (isinstance(policy_cls, type) and issubclass(policy_cls, RewardPolicy)):
                raise TypeError(f"Expected a RewardPolicy subclass to register, got {policy_cls!r}")
            key = name if name is not None else policy_cls.name
            existing = cls._reward_policies.get(key)
            if existing is not None and existing is not policy_cls and not override:
                raise ValueError(
                    f"Reward policy name '{key}' is already registered to "
                    f"{existing.__module__}.{existing.__qualname__}; pass "
                    f"`override=True` to replace it with {policy_cls.__qualname__}"
                )
            if "name" not in vars(policy_cls):
                # A class that names itself only through the decorator reports that name
                # (in `info["reward_policy"]`, logs) rather than its base class's.
                policy_cls.name = key
            cls._reward_policies[key] = policy_cls
            return policy_cls

        return decorator

    @classmethod
    def get_reward(
        cls, name: str = "default", config: Mapping[str, Any] | None = None
    ) -> RewardPolicy:
        """A new instance of the policy registered as ``name``.

        Raises:
            ValueError: Unknown name (with a suggestion and the available names), or bad config.
        """
        return cls.get_reward_class(name)(config)

    @classmethod
    def get_reward_class(cls, name: str) -> type[RewardPolicy]:
        """The class registered as ``name`` (loading entry points on a miss)."""
        policy_cls = cls._reward_policies.get(name)
        if policy_cls is None and not cls._entry_points_loaded:
            cls._load_entry_points()
            policy_cls = cls._reward_policies.get(name)
        if policy_cls is None:
            raise unknown_name_error("reward policy", name, cls._reward_policies)
        return policy_cls

    @classmethod
    def list_reward_policies(cls) -> list[dict[str, str]]:
        """``[{"name", "description"}, ...]`` in registration order."""
        return [
            {"name": key, "description": policy_cls.description}
            for key, policy_cls in cls._reward_policies.items()
        ]

    @classmethod
    def unregister_reward(cls, name: str) -> None:
        """Remove ``name`` from the registry (for tests and plugin reloads)."""
        cls._reward_policies.pop(name, None)

    @classmethod
    def _load_entry_points(cls) -> None:
        cls._entry_points_loaded = True
        for entry_point in entry_points(group=ENTRY_POINT_GROUP):
            if entry_point.name in cls._reward_policies:
                continue
            cls.register_reward(entry_point.name)(entry_point.load())
