"""``RewardPolicyWrapper``: score every step of a Gymnasium env with a named reward policy."""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping
from time import perf_counter
from typing import Any, SupportsFloat

import gymnasium as gym
from gymnasium.core import ActType, ObsType

from rlm_gym._validation import unknown_name_error
from rlm_gym.policies import (
    DEFAULT_HISTORY_LIMIT,
    ActionResult,
    History,
    PolicyContext,
    RewardPolicy,
)
from rlm_gym.policies.base import is_final
from rlm_gym.policies.info_keys import (
    ACTION_KEY,
    ACTION_RESULT_KEY,
    ENV_REWARD_KEY,
    EPISODE_REWARD_COMPONENTS_KEY,
    EPISODE_REWARD_KEY,
    REWARD_COMPONENTS_KEY,
    REWARD_POLICY_KEY,
    REWARD_WEIGHTS_KEY,
)
from rlm_gym.policies.registry import DEFAULT_REWARD_POLICY, resolve_reward_policy
from rlm_gym.wrappers.ablation import (
    check_component_names,
    check_schedule,
    checked_weights,
    multipliers,
    name_set,
    undeclared_error,
    weighted_components,
)
from rlm_gym.wrappers.schedule import WeightSchedule
from rlm_gym.wrappers.scoring_route import (
    SUM_IS_COMPENSATED,
    calculate_is_additive,
    final_only_calculate,
    route_is_stale,
    scoring_route,
)
from rlm_gym.wrappers.step_result import step_from_info
from rlm_gym.wrappers.step_table import LazyHistoryContext, build_step_table, generic_step
from rlm_gym.wrappers.vector_reward import (
    check_reward_output,
    declare_on_base,
    reward_box,
    vector_reward,
)
from rlm_gym.wrappers.vector_table import settings_reader

__all__ = ["RewardPolicyWrapper", "REWARD_MODES", "DEFAULT_REWARD_MODE"]

#: What ``step()`` returns: the policy's value ("replace") or the env's reward plus it ("add").
REWARD_MODES = ("replace", "add")
DEFAULT_REWARD_MODE = REWARD_MODES[0]
#: ``PolicyContext.max_steps`` of an env whose spec gives no step budget.
DEFAULT_MAX_STEPS = PolicyContext.max_steps


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
    the last ``history_limit`` are kept: memory stays bounded however long the episode (a
    built-in's generic step enters it on the next read: ``wrappers.step_table``).
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
        schedule: A :class:`~rlm_gym.wrappers.WeightSchedule` of component weights, read at
            each reset with the clock of this env's own steps, or as set by
            :meth:`set_schedule_step`; every episode's last step reports
            ``info["reward_weights"]``.
        reward_output: ``"scalar"``, or ``"vector"``: the weighted components as a float32
            array with a ``reward_space`` (``info["scalar_reward"]`` keeps the
            scalar).
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
        policy: str | RewardPolicy = DEFAULT_REWARD_POLICY,
        config: Mapping[str, Any] | None = None,
        disable: Iterable[str] = (),
        weights: Mapping[str, float] | None = None,
        reward_mode: str = DEFAULT_REWARD_MODE,
        schedule: WeightSchedule | None = None,
        reward_output: str = "scalar",
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
            schedule=schedule,
            reward_output=reward_output,
            task=task,
            max_steps=max_steps,
            measure_duration=measure_duration,
            history_limit=history_limit,
            _disable_deepcopy=isinstance(policy, RewardPolicy),
        )
        gym.Wrapper.__init__(self, env)

        self._policy = resolve_reward_policy(policy, config)
        self._policy_name = self._policy.name
        # Found once: the policy's class does not change.
        self._final_only_function = final_only_calculate(self._policy)
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
        self._schedule = schedule
        self._scheduled: dict[str, float] = {}
        self._clock = 0
        if schedule is not None:
            check_schedule(schedule, self._names, self._policy_name, disable, weights)
        self.set_disabled(disable)
        self.set_weights(weights or {})
        self._vector_output = check_reward_output(reward_output, self._policy)
        if self._vector_output:
            box = reward_box(self._policy, self._user_weights, self._disabled, schedule)
            self.reward_space = declare_on_base(env, box)

        self._context: PolicyContext | None = None
        self._episode_sums: dict[str, float] = {}
        self._episode_total = 0.0

    # -- configuration -------------------------------------------------------------------

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

    def set_disabled(self, names: Iterable[str]) -> None:
        """Switch off exactly these components (an empty iterable re-enables all)."""
        names = name_set(names)
        if names:
            check_component_names(names, self._names, self._policy_name, "disable")
            check_schedule(self._schedule, self._names, self._policy_name, names, None)
        self._disabled = names
        self._rebuild_weights()

    def set_weights(self, weights: Mapping[str, float]) -> None:
        """Scale components by these multipliers (replacing earlier weights; others stay 1)."""
        if isinstance(weights, Mapping) and weights:
            check_component_names(weights, self._names, self._policy_name, "weights")
            check_schedule(self._schedule, self._names, self._policy_name, (), weights)
        self._user_weights = checked_weights(weights)
        self._rebuild_weights()

    def _rebuild_weights(self) -> None:
        # Only non-unit multipliers are kept, so an empty dict means "no ablation" in step().
        self._weights = multipliers({**self._user_weights, **self._scheduled}, self._disabled)
        self._fast_merge = not self._weights and self._policy.float_components
        self._rebuild_step_constants()

    def set_schedule_step(self, step: int) -> None:
        """Set the schedule's clock (e.g. to the training step); this env's steps count on."""
        self._clock = int(step) - (self._context.step if self._context is not None else 0)

    @property
    def schedule_step(self) -> int:
        """The schedule's clock: this env's steps, counted from the last ``set_schedule_step``."""
        return self._clock + (self._context.step if self._context is not None else 0)

    def reward_weights(self) -> dict[str, float]:
        """Every component's weight in force (disabled ones 0.0): ``info["reward_weights"]``."""
        weights = self._weights
        return {name: weights.get(name, 1.0) for name in self._names}

    def _rebuild_step_constants(self) -> None:
        """Gather what ``step()`` reads on every call into one tuple (one attribute load).

        Built with the wrapper and rebuilt when the ablation changes (or at a reset that
        finds ``calculate`` patched since; see :mod:`rlm_gym.wrappers.scoring_route`).
        """
        policy = self._policy
        score_components, final_only = scoring_route(
            policy, self._fast_merge, self._final_only_function
        )
        low, high = policy.value_range
        table = build_step_table(
            policy, self._zeros, self._score_by_calculate, self._task, self._max_steps
        )
        if not isinstance(getattr(self, "_context", None), (LazyHistoryContext, type(None))):
            table = None  # mid-episode on a plain context: looked up from the next episode
        self._step_constants = (
            score_components,
            float(low),
            float(high),
            self._zeros,
            self._measure_duration,
            self._add_env_reward,
            self._policy_name,
            final_only,
            # The value of a step `calculate` is skipped on: RewardSignal(0.0, {}) weighed.
            policy.clamp(0.0) if self._weights else 0.0,
            # Generic steps looked up by success and finality (rlm_gym.wrappers.step_table).
            table,
        )
        # What a reset compares to see whether the table still holds: the settings it was
        # built with (None: no table).
        self._table_reader = settings_reader(policy) if self._step_constants[-1] else None
        self._table_key = self._table_reader(policy) if self._table_reader else None

    # -- episode loop --------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the env and start a fresh policy episode (``on_episode_start``)."""
        obs, info = self.env.reset(seed=seed, options=options)
        if self._schedule is not None:
            # The weights an episode is scored with are fixed here.
            self._clock = self.schedule_step
            self._scheduled = self._schedule.weights_at(self._clock)
            self._rebuild_weights()
        # Every field given (positionally: the dataclass __init__ then calls no factories).
        # A context whose history waits for a read only when generic steps are looked up.
        context_cls = PolicyContext if self._step_constants[-1] is None else LazyHistoryContext
        self._context = context_cls(
            self._task, 0, self._max_steps, History((), self._history_limit), {}, {}, {}
        )
        # A plain dict when every name is declared (pre-filled): the interpreter specialises
        # `sums[name] += part` for exact dicts only, and an undeclared name then raises
        # KeyError in step() at no cost per step. Free-form policies may emit any name.
        self._episode_sums = self._zeros.copy() if self._names else defaultdict(float)
        self._episode_total = 0.0
        constants = self._step_constants
        if route_is_stale(self._policy, constants[0], constants[7], self._final_only_function):
            self._rebuild_step_constants()
        self._policy.on_episode_start(self._context)
        reader = self._table_reader
        if reader is not None and (
            reader(self._policy) != self._table_key or not calculate_is_additive(self._policy)
        ):
            self._rebuild_step_constants()  # other settings read, or `calculate` patched
        return obs, info

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the env and score the step with the policy (see the class docstring).

        Raises:
            ValueError: The inner reward is NaN or infinite (naming the step and the value).
        """
        # This runs on every step of every wrapped env, so it is written for the interpreter:
        # one tuple of per-episode constants and locals. The usual path (a generic result
        # scored through `score_components`, or an env's own result of the usual types)
        # stays inline, calling no helper: on a bare env it is the wrapper's whole cost, and a
        # call there adds ~5 % of it. Helpers take the other paths (results to check or
        # convert, `calculate`, errors).
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
            table,
        ) = self._step_constants

        # 1. Step the inner env and check its reward.
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

        # 2. The step as an (action, ActionResult) pair: the env's, or a generic one.
        result = info.get(ACTION_RESULT_KEY)
        row = None
        if result is None and table is not None:
            # A generic step of a table policy: looked up; its history entry waits for a read.
            row = table[2 + (env_reward > 0.0) if terminated else env_reward > 0.0]
        elif result is None:
            action_dict, result = generic_step(action, env_reward, terminated, duration)
        else:
            action_dict = info.get(ACTION_KEY)
            # The usual exact types are taken as they are, inline: the helper that checks and
            # converts anything else costs ~50 ns a step, ~0.5 % of a crawl env's step.
            if type(result) is not ActionResult or type(action_dict) is not dict:
                action_dict, result = step_from_info(info, result)

        # 3. Score it: the components (every declared name) and the value.
        if row is not None:
            # The scoring of its kind, done once (rlm_gym.wrappers.step_table).
            components, value, parts = row
            components = components.copy()
            sums = self._episode_sums
            for name, part in parts:
                sums[name] += part
            context.pending.append((action, terminated, env_reward, duration, value))
        elif score_components is not None:
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
                raise undeclared_error(emitted, self._names, self._policy_name) from None
            if SUM_IS_COMPENSATED:
                value = sum(emitted.values(), 0.0)
            value = low if value < low else high if value > high else value
        elif final_only and not is_final(action_dict, result):
            # `calculate` is declared to give RewardSignal(0.0, {}) here (`final_only`).
            components, value = zeros.copy(), zero_value
        else:
            components, value = self._score_by_calculate(
                action_dict, result, context, self._episode_sums
            )

        # 4. Record it in the episode.
        if row is None:
            context.history.append({"action": action_dict, "result": result, "reward": value})
        context.step += 1
        self._episode_total = episode_total = self._episode_total + value

        # 5. Report it.
        info[REWARD_COMPONENTS_KEY] = components
        info[ENV_REWARD_KEY] = env_reward
        info[REWARD_POLICY_KEY] = policy_name
        if terminated or truncated:
            info[EPISODE_REWARD_COMPONENTS_KEY] = dict(self._episode_sums)
            info[EPISODE_REWARD_KEY] = episode_total
            info[REWARD_WEIGHTS_KEY] = self.reward_weights()
            self._policy.on_episode_end(context, episode_total)
        reward = env_reward + value if add_env_reward else value
        if self._vector_output:
            return obs, vector_reward(info, self._names, reward), terminated, truncated, info
        return obs, reward, terminated, truncated, info

    def _score_by_calculate(
        self,
        action: dict[str, Any],
        result: ActionResult,
        context: PolicyContext,
        sums: dict[str, float],
    ) -> tuple[dict[str, float], float]:
        """Score through ``calculate`` and add the step to ``sums`` (the episode's).

        Returns every component (after ablation) and the value.
        """
        signal = self._policy.calculate(action, result, context)
        emitted = signal.components
        if self._fast_merge:
            if not emitted:  # a terminal-only policy's usual step: every component is 0
                return self._zeros.copy(), signal.value
            components, value = {**self._zeros, **emitted}, signal.value
        else:
            components, value = weighted_components(
                emitted, signal.value, self._zeros, self._weights, self._policy, self._policy_name
            )
            emitted = components
        if len(components) > self._max_components:
            raise undeclared_error(components, self._names, self._policy_name)
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
