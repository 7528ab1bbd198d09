"""``RewardPolicyWrapper``: score every step of a Gymnasium env with a named reward policy."""

from __future__ import annotations

import math
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import fields
from time import perf_counter
from typing import Any, SupportsFloat

import gymnasium as gym
from gymnasium.core import ActType, ObsType

from rlm_gym._validation import check_finite_number, unknown_name_error
from rlm_gym.policies import (
    DEFAULT_HISTORY_LIMIT,
    ActionResult,
    AdditiveRewardPolicy,
    History,
    PolicyContext,
    PolicyRegistry,
    RewardPolicy,
)
from rlm_gym.policies.base import is_final

__all__ = ["RewardPolicyWrapper", "REWARD_MODES", "action_result_from_info"]

REWARD_MODES = ("replace", "add")
DEFAULT_MAX_STEPS = 10

_RESULT_FIELDS = frozenset(f.name for f in fields(ActionResult))
_new_result = object.__new__
_ADDITIVE_CALCULATE = AdditiveRewardPolicy.calculate
_REQUIRED_RESULT_FIELDS = frozenset({"action_type", "success"})
# From 3.12 on, `sum()` of floats is compensated (Neumaier), so the step's one-pass running
# total would differ from `sum(components.values())` - the policies' definition - in the last
# bit now and then. Before 3.12 `sum()` adds left to right exactly as the running total does.
_SUM_IS_COMPENSATED = sys.version_info >= (3, 12)


def _calculate_is_additive(policy: RewardPolicy) -> bool:
    """Whether ``policy.calculate`` is ``AdditiveRewardPolicy.calculate``, unpatched.

    Read through the bound method (an override or a function set on the instance has no
    ``__func__`` of that base's): ``vars(policy)`` would materialise the instance's
    ``__dict__``, which makes every attribute read in ``score_components`` slower.
    """
    return getattr(policy.calculate, "__func__", None) is _ADDITIVE_CALCULATE


def _final_only_calculate(policy: RewardPolicy) -> Any:
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


def action_result_from_info(value: Any) -> ActionResult:
    """Turn ``info["action_result"]`` (an ``ActionResult`` or a dict of its fields) into one.

    Raises:
        TypeError: If ``value`` is neither, or the dict misses or adds fields (named).

    Example:
        >>> action_result_from_info({"action_type": "code", "success": True}).success
        True
        >>> action_result_from_info({"action_type": "code", "ok": True})
        Traceback (most recent call last):
        ...
        TypeError: `info["action_result"]` is missing field(s) ['success'] and has unexpected field(s) ['ok']; ActionResult fields are ['action_type', 'duration_ms', 'error', 'metadata', 'output', 'success', 'tokens_used']
    """  # noqa: E501
    if isinstance(value, ActionResult):
        return value
    if not isinstance(value, Mapping):
        raise TypeError(
            f'Expected `info["action_result"]` to be an ActionResult or a dict of its fields, '
            f"got {type(value).__name__}"
        )
    missing = sorted(_REQUIRED_RESULT_FIELDS - value.keys())
    unexpected = sorted(set(value) - _RESULT_FIELDS)
    if missing or unexpected:
        problems = []
        if missing:
            problems.append(f"is missing field(s) {missing}")
        if unexpected:
            problems.append(f"has unexpected field(s) {unexpected}")
        raise TypeError(
            f'`info["action_result"]` {" and ".join(problems)}; '
            f"ActionResult fields are {sorted(_RESULT_FIELDS)}"
        )
    return ActionResult(**value)


class RewardPolicyWrapper(
    gym.Wrapper[ObsType, ActType, ObsType, ActType], gym.utils.RecordConstructorArgs
):
    """Replace (or add to) an env's reward with a named, ablatable reward policy.

    Each step becomes an ``(action, ActionResult)`` pair: taken from ``info["action_result"]``
    (and ``info["action"]``) when the env provides them, otherwise built generically
    (``action_type`` ``"final"`` when terminated else ``"step"``, ``success = reward > 0``,
    ``metadata = {"env_reward": reward}``). The policy scores it and the wrapper writes:

    * ``info["reward_components"]``: every name in the policy's ``component_names`` as a Python
      float (0.0 when not emitted or disabled), after ablation weights;
    * ``info["env_reward"]`` (the inner reward) and ``info["reward_policy"]`` (the policy name);
    * on an episode's last step, ``info["episode_reward_components"]`` and
      ``info["episode_reward"]``: sums of the policy's components and values after ablation
      (whatever ``reward_mode``); the same total goes to ``policy.on_episode_end``.

    Each scored step is appended to ``context.history`` as
    ``{"action": dict, "result": ActionResult, "reward": float}`` (rlm-code's form), of which
    the last ``history_limit`` are kept: memory stays bounded however long the episode.
    A non-finite inner reward (NaN, ±inf) raises ``ValueError``: it is a bug in the inner env,
    and passing it on would poison training.

    ``set_disabled`` / ``set_weights`` take effect from the next step (the running episode's
    sums then mix both settings); call them between episodes, e.g. through a vector env's
    ``env_method``, for clean per-episode numbers.

    Args:
        env: The env to wrap.
        policy: A registered policy name (see ``PolicyRegistry.list_reward_policies()``) or a
            ``RewardPolicy`` instance (used as is, not copied).
        config: Config overrides for a policy given by name.
        disable: Component names to drop.
        weights: Component name -> multiplier (0 switches a component off).
        reward_mode: ``"replace"`` returns the policy's value; ``"add"`` the env's reward plus it.
        task: ``PolicyContext.task`` (default: the env's spec id).
        max_steps: ``PolicyContext.max_steps`` (default: the spec's ``max_episode_steps``, else 10).
        measure_duration: Put the wall time of the inner step in generic results'
            ``duration_ms`` (makes time-based rewards non-deterministic).
        history_limit: The most ``context.history`` entries kept (the latest; ``>= 0``).

    Raises:
        ValueError: Unknown policy, config key, component or reward mode (with suggestions);
            a negative ``history_limit``; from ``step()``, a non-finite inner reward (naming
            the step and the value).
        TypeError: Wrong kind of config value, weight, ``history_limit`` or
            ``info["action_result"]``.

    Example - wrap CartPole with the lenient policy:
        >>> import gymnasium as gym
        >>> from rlm_gym.wrappers import RewardPolicyWrapper
        >>> env = RewardPolicyWrapper(gym.make("CartPole-v1"), "lenient", disable=("success",))
        >>> _ = env.reset(seed=0)
        >>> _, reward, *_, info = env.step(0)
        >>> reward, info["reward_components"]["attempt"], info["reward_components"]["success"]
        (0.2, 0.2, 0.0)
    """

    def __init__(
        self,
        env: gym.Env[ObsType, ActType],
        policy: str | RewardPolicy = "default",
        config: Mapping[str, Any] | None = None,
        disable: Iterable[str] = (),
        weights: Mapping[str, float] | None = None,
        reward_mode: str = "replace",
        task: str | None = None,
        max_steps: int | None = None,
        measure_duration: bool = False,
        history_limit: int = DEFAULT_HISTORY_LIMIT,
    ) -> None:
        gym.utils.RecordConstructorArgs.__init__(
            self,
            policy=policy,
            config=config,
            disable=disable,
            weights=weights,
            reward_mode=reward_mode,
            task=task,
            max_steps=max_steps,
            measure_duration=measure_duration,
            history_limit=history_limit,
            _disable_deepcopy=isinstance(policy, RewardPolicy),
        )
        gym.Wrapper.__init__(self, env)

        self._policy = self._resolve_policy(policy, config)
        self._policy_name = self._policy.name
        # Checked once: an ABC isinstance is slow, and the policy's class does not change.
        self._additive_class = isinstance(self._policy, AdditiveRewardPolicy)
        self._final_only_function = _final_only_calculate(self._policy)
        self._names: tuple[str, ...] = tuple(self._policy.component_names)
        self._zeros: dict[str, float] = dict.fromkeys(self._names, 0.0)
        # Filled with every declared name, the components dict only grows past this when the
        # policy emitted an undeclared name; free-form policies have no limit.
        self._max_components = len(self._names) if self._names else sys.maxsize
        if reward_mode not in REWARD_MODES:
            raise unknown_name_error("reward_mode", reward_mode, REWARD_MODES)
        self._add_env_reward = reward_mode == "add"
        self._measure_duration = bool(measure_duration)
        self._history_limit = History(limit=history_limit).limit
        spec = env.spec
        self._task = task if task is not None else (spec.id if spec is not None else "")
        if max_steps is None:
            max_steps = spec.max_episode_steps if spec is not None else None
        self._max_steps = int(max_steps) if max_steps is not None else DEFAULT_MAX_STEPS

        self._disabled: frozenset[str] = frozenset()
        self._user_weights: dict[str, float] = {}
        self._weights: dict[str, float] = {}
        self.set_disabled(disable)
        self.set_weights(weights or {})

        self._context: PolicyContext | None = None
        self._episode_sums: dict[str, float] = {}
        self._episode_total = 0.0

    # -- configuration -------------------------------------------------------------------

    @staticmethod
    def _resolve_policy(policy: str | RewardPolicy, config: Mapping[str, Any] | None):
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

    @property
    def policy(self) -> RewardPolicy:
        """The reward policy scoring this env."""
        return self._policy

    @property
    def context(self) -> PolicyContext | None:
        """The running episode's ``PolicyContext`` (None before the first reset)."""
        return self._context

    @property
    def history_limit(self) -> int:
        """The most ``context.history`` entries kept per episode."""
        return self._history_limit

    @property
    def component_names(self) -> tuple[str, ...]:
        """The policy's component names, in its order (``info["reward_components"]`` keys)."""
        return self._names

    @property
    def disabled(self) -> frozenset[str]:
        """The components currently switched off."""
        return self._disabled

    @property
    def weights(self) -> dict[str, float]:
        """The component multipliers currently in force (disabled components at 0.0)."""
        return dict(self._weights)

    def _check_component_names(self, names: Iterable[str], argument: str) -> None:
        if not self._names:
            raise ValueError(
                f"`{argument}` needs component names, but policy '{self._policy_name}' "
                "declares no `component_names`, so it cannot be ablated by name"
            )
        for name in names:
            if name not in self._zeros:
                raise unknown_name_error(
                    "component", name, self._names, f"in `{argument}` for '{self._policy_name}'"
                )

    def set_disabled(self, names: Iterable[str]) -> None:
        """Switch off exactly these components (an empty iterable re-enables all)."""
        if isinstance(names, str):
            names = (names,)
        names = frozenset(names)
        if names:
            self._check_component_names(names, "disable")
        self._disabled = names
        self._rebuild_weights()

    def set_weights(self, weights: Mapping[str, float]) -> None:
        """Scale components by these multipliers (replacing earlier weights; others stay 1)."""
        if not isinstance(weights, Mapping):
            raise TypeError(
                f"Expected `weights` to be a mapping of component name to number, "
                f"got {type(weights).__name__} {weights!r}"
            )
        if weights:
            self._check_component_names(weights, "weights")
        self._user_weights = {
            name: check_finite_number(f"weights[{name!r}]", value, "")
            for name, value in weights.items()
        }
        self._rebuild_weights()

    def _rebuild_weights(self) -> None:
        # Only non-unit multipliers are kept, so an empty dict means "no ablation" in step().
        weights = {name: w for name, w in self._user_weights.items() if w != 1.0}
        weights.update(dict.fromkeys(self._disabled, 0.0))
        self._weights = weights
        self._fast_merge = not weights and self._policy.float_components
        self._rebuild_step_constants()

    def _rebuild_step_constants(self) -> None:
        """Gather what ``step()`` reads on every call into one tuple (one attribute load).

        Built with the wrapper and rebuilt when the ablation changes (or at a reset that
        finds ``calculate`` patched since). An additive policy whose
        ``calculate`` is its base class's (not overridden, not patched on the instance) and
        whose components are declared floats is scored through ``score_components``: its value
        is the clamped sum by definition, so no ``RewardSignal`` needs building.
        """
        policy = self._policy
        additive = self._additive_class and _calculate_is_additive(policy)
        low, high = policy.value_range
        # `final_only` holds while `calculate` is the declaring class's (not overridden and not
        # patched on the instance; reset() checks the latter again).
        function = self._final_only_function
        final_only = (
            not additive
            and function is not None
            and getattr(policy.calculate, "__func__", None) is function
        )
        self._step_constants = (
            policy.score_components if additive and self._fast_merge else None,
            float(low),
            float(high),
            self._zeros,
            self._measure_duration,
            self._add_env_reward,
            self._policy_name,
            final_only,
            # The value of a step `calculate` is skipped on: RewardSignal(0.0, {}) weighed.
            policy.clamp(0.0) if self._weights else 0.0,
        )

    # -- episode loop --------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the env and start a fresh policy episode (``on_episode_start``)."""
        obs, info = self.env.reset(seed=seed, options=options)
        # Every field given (positionally: the dataclass __init__ then calls no factories).
        self._context = PolicyContext(
            self._task, 0, self._max_steps, History((), self._history_limit), {}, {}, {}
        )
        # A plain dict when every name is declared (pre-filled): the interpreter specialises
        # `sums[name] += part` for exact dicts only, and an undeclared name then raises
        # KeyError in step() at no cost per step. Free-form policies may emit any name.
        self._episode_sums = self._zeros.copy() if self._names else defaultdict(float)
        self._episode_total = 0.0
        policy = self._policy
        constants = self._step_constants
        if (constants[0] is not None and not _calculate_is_additive(policy)) or (
            constants[7]
            and getattr(policy.calculate, "__func__", None) is not self._final_only_function
        ):
            # `calculate` was patched since: score through it from now on.
            self._rebuild_step_constants()
        policy.on_episode_start(self._context)
        return obs, info

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the env and score the step with the policy (see the class docstring).

        Raises:
            ValueError: The inner reward is NaN or infinite (naming the step and the value).
        """
        # This runs on every step of every wrapped env, so it is written for the interpreter:
        # one tuple of per-episode constants, locals only, no helper calls on the usual path.
        context = self._context
        if context is None:
            raise gym.error.ResetNeeded("Cannot call `step()` before `reset()`")
        (
            score_components,
            low,
            high,
            zeros,
            measure,
            add_env_reward,
            policy_name,
            final_only,
            zero_value,
        ) = self._step_constants
        if measure:
            started = perf_counter()
            obs, env_reward, terminated, truncated, info = self.env.step(action)
            duration = (perf_counter() - started) * 1000.0
        else:
            obs, env_reward, terminated, truncated, info = self.env.step(action)
            duration = 0.0
        env_reward = float(env_reward)
        # x - x is 0.0 for every finite float and NaN for NaN and ±inf: one test for both.
        if env_reward - env_reward != 0.0:
            self._raise_non_finite(env_reward, context.step)

        result = info.get("action_result")
        if result is None:
            action_type = "final" if terminated else "step"
            # Fields known valid by construction: no `__post_init__` checks on every step.
            # Inlined rather than `trusted_action_result(...)`: on a bare env this path is
            # the wrapper's whole cost, and the call adds ~5 % of it. `output`, `error` and
            # `tokens_used` read their defaults, which the dataclass keeps as class attributes.
            result = _new_result(ActionResult)
            result.action_type = action_type
            result.success = env_reward > 0.0
            result.duration_ms = duration
            result.metadata = {"env_reward": env_reward}
            action_dict = {"action": action_type, "value": action}
        else:
            if type(result) is not ActionResult:
                result = action_result_from_info(result)
            action_dict = info.get("action")
            # The exact-type test first: an ABC isinstance costs ~0.3 µs on every step.
            if action_dict is None:
                action_dict = {"action": result.action_type}
            elif type(action_dict) is not dict and not isinstance(action_dict, Mapping):
                raise TypeError(
                    f'Expected `info["action"]` to be a dict, got {type(action_dict).__name__}'
                )

        if score_components is not None:
            emitted = score_components(action_dict, result, context)
            # One pass fills the components, adds the step into the episode sums and totals
            # the value. The sums of a policy with declared names are pre-filled with exactly
            # those names, so an undeclared one is the KeyError (a `try` costs nothing when
            # nothing is raised).
            components = zeros.copy()
            sums = self._episode_sums
            value = 0.0
            try:
                # Iterating the dict itself: no items view and no pair per entry.
                for name in emitted:
                    part = emitted[name]
                    sums[name] += part
                    components[name] = part
                    value += part
            except KeyError:
                self._raise_undeclared(emitted)
            if _SUM_IS_COMPENSATED:
                value = sum(emitted.values(), 0.0)
            value = low if value < low else high if value > high else value
        elif final_only and not is_final(action_dict, result):
            # `calculate` is declared to give RewardSignal(0.0, {}) here (`final_only`).
            components, value = zeros.copy(), zero_value
        else:
            components, value = self._score_by_calculate(action_dict, result, context)

        context.history.append({"action": action_dict, "result": result, "reward": value})
        context.step += 1
        self._episode_total = episode_total = self._episode_total + value

        info["reward_components"] = components
        info["env_reward"] = env_reward
        info["reward_policy"] = policy_name
        if terminated or truncated:
            info["episode_reward_components"] = dict(self._episode_sums)
            info["episode_reward"] = episode_total
            self._policy.on_episode_end(context, episode_total)
        return obs, env_reward + value if add_env_reward else value, terminated, truncated, info

    def _score_by_calculate(
        self, action: dict[str, Any], result: ActionResult, context: PolicyContext
    ) -> tuple[dict[str, float], float]:
        """Score through ``calculate`` and add the step to the episode sums.

        Returns every component (after ablation) and the value.
        """
        signal = self._policy.calculate(action, result, context)
        emitted = signal.components
        if self._fast_merge:
            if not emitted:  # a terminal-only policy's usual step: every component is 0
                return self._zeros.copy(), signal.value
            components, value = {**self._zeros, **emitted}, signal.value
        else:
            components, value = self._weighted_components(emitted, signal.value)
            emitted = components
        if len(components) > self._max_components:
            self._raise_undeclared(components)
        sums = self._episode_sums
        for name, part in emitted.items():
            sums[name] += part
        return components, value

    def _raise_non_finite(self, env_reward: float, step: int) -> None:
        spec = self.env.spec
        source = spec.id if spec is not None else type(self.env.unwrapped).__name__
        raise ValueError(
            f"Expected a finite reward from the inner env, got {env_reward} at step {step} "
            f"of the episode (0-based); a NaN or infinite reward is a bug in {source} and "
            "passing it on would poison training"
        )

    def _weighted_components(
        self, emitted: Mapping[str, float], value: float
    ) -> tuple[dict[str, float], float]:
        """Every declared component as a float, scaled by the weights, and the value.

        With weights the value is re-clamped from the kept components; without, the policy's
        own value stands (custom policies need not equal the sum of their components).
        """
        weights = self._weights
        components = self._zeros.copy()
        for name, part in emitted.items():
            components[name] = float(part) * weights.get(name, 1.0)
        value = self._policy.clamp(sum(components.values())) if weights else float(value)
        if not math.isfinite(value):
            raise ValueError(f"Policy '{self._policy_name}' returned a non-finite value {value}")
        return components, value

    def _raise_undeclared(self, components: Mapping[str, float]) -> None:
        undeclared = sorted(set(components) - self._zeros.keys(), key=str)
        raise ValueError(
            f"Policy '{self._policy_name}' emitted component(s) {undeclared} that are not "
            f"in its `component_names` {list(self._names)}"
        )
