"""``VectorRewardPolicyWrapper``: score every sub-env of a Gymnasium vector env with one policy.

Per-sub-env state lives in arrays of shape ``(num_envs,)`` / ``(num_envs, k)`` (steps, episode
sums, totals, weights), as Gymnasium's vector wrappers keep theirs; the autoreset mode is read
once from ``env.metadata``. A built-in policy scores a whole step in one numpy pass
(``score_batch`` over a :class:`~rlm_gym.policies.batch.ResultBatch`); any other policy is
scored per sub-env with its own ``PolicyContext``. Both give the numbers of
:class:`~rlm_gym.wrappers.RewardPolicyWrapper` applied to each sub-env.

Example - shape a vector CartPole with the lenient policy:
    >>> import gymnasium as gym
    >>> envs = gym.make_vec("CartPole-v1", num_envs=4, vectorization_mode="sync")
    >>> envs = VectorRewardPolicyWrapper(envs, "lenient", disable=("success",))
    >>> _ = envs.reset(seed=0)
    >>> _, rewards, *_, infos = envs.step(envs.action_space.sample())
    >>> rewards.tolist(), infos["reward_components"]["attempt"].tolist()
    ([0.2, 0.2, 0.2, 0.2], [0.2, 0.2, 0.2, 0.2])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv, VectorWrapper
from numpy import count_nonzero

from rlm_gym._validation import unknown_name_error
from rlm_gym.policies import DEFAULT_HISTORY_LIMIT, History, PolicyContext, RewardPolicy
from rlm_gym.policies.batch import ResultBatch
from rlm_gym.policies.info_keys import ACTION_RESULT_KEY, SCALAR_REWARD_KEY
from rlm_gym.policies.registry import DEFAULT_REWARD_POLICY, resolve_reward_policy
from rlm_gym.wrappers.ablation import (
    check_component_names,
    check_schedule,
    checked_weights,
    name_set,
)
from rlm_gym.wrappers.reward_policy import DEFAULT_MAX_STEPS, DEFAULT_REWARD_MODE, REWARD_MODES
from rlm_gym.wrappers.schedule import WeightSchedule
from rlm_gym.wrappers.scoring_route import batch_scorer, final_only_calculate
from rlm_gym.wrappers.vector_crawl import crawl_route, score_crawl_finals
from rlm_gym.wrappers.vector_each import raise_non_finite, spec_value
from rlm_gym.wrappers.vector_fast import table_step
from rlm_gym.wrappers.vector_final import score_unbatched
from rlm_gym.wrappers.vector_infos import EpisodeReport, write_vector_infos
from rlm_gym.wrappers.vector_results import FINAL_INFO_KEY, reports_results, sub_env_step
from rlm_gym.wrappers.vector_reward import check_reward_output, reward_box
from rlm_gym.wrappers.vector_table import GenericTable, hooks_are_cheap, table_policy

__all__ = ["VectorRewardPolicyWrapper"]


class VectorRewardPolicyWrapper(VectorWrapper, gym.utils.RecordConstructorArgs):
    """Replace (or add to) a vector env's rewards with a named, ablatable reward policy.

    Every sub-env is scored as :class:`~rlm_gym.wrappers.RewardPolicyWrapper` scores one env
    (same rewards, components, episode sums and hook calls), under each autoreset mode:

    * ``NEXT_STEP``: the step that resets a sub-env is no policy step; its reward and
      components are 0.0 and the policy's ``on_episode_start`` runs for that sub-env;
    * ``SAME_STEP``: a finished sub-env's result is read from ``infos["final_info"]`` and its
      next episode starts on the same step;
    * ``DISABLED``: episodes start at ``reset`` (``options["reset_mask"]`` names the sub-envs).

    ``infos`` gain ``reward_components[name]`` (float64, ``(num_envs,)``) and ``env_reward``;
    on the step a sub-env's episode ends, ``episode_reward``, ``episode_reward_components``
    and ``reward_weights`` hold its totals and weights at its index, with the boolean masks
    ``_episode_reward`` / ``_episode_reward_components`` / ``_reward_weights`` set there.
    Hook contexts on the batched path carry ``task``, ``step`` and ``max_steps`` (their
    history stays empty); per-sub-env scoring keeps a full context per sub-env.

    Args:
        env: The vector env (any Gymnasium 1.x ``VectorEnv``).
        policy: A registered policy name or a ``RewardPolicy`` instance (shared by the
            sub-envs, not copied).
        config: Config overrides for a policy given by name.
        disable: Component names to drop.
        weights: Component name -> multiplier (0 switches a component off).
        reward_mode: ``"replace"`` returns the policy's values; ``"add"`` the env's rewards
            plus them.
        schedule: A :class:`~rlm_gym.wrappers.WeightSchedule`, read at each sub-env's episode
            start with the clock ``num_envs`` x ``step()`` calls.
        reward_output: ``"scalar"``, or ``"vector"``: the weighted components as a float32
            ``(num_envs, k)`` array, with ``reward_space`` / ``single_reward_space``
            (``infos["scalar_reward"]`` keeps the scalars).
        task: ``PolicyContext.task`` (default: the env's spec id, else the first sub-env's).
        max_steps: ``PolicyContext.max_steps`` (default: the vector env's spec, else the
            first sub-env's, else 10).
        history_limit: The most ``context.history`` entries kept per sub-env (per-sub-env
            scoring only).

    Raises:
        ValueError: Unknown policy, config key, component or reward mode; a schedule naming a
            component it cannot; from ``step()``, a non-finite inner reward (naming the
            sub-env, its step and the value).
        TypeError: Wrong kind of config value or weight; a malformed ``action_result``.
    """

    def __init__(
        self,
        env: VectorEnv,
        policy: str | RewardPolicy = DEFAULT_REWARD_POLICY,
        config: Mapping[str, Any] | None = None,
        disable: Iterable[str] = (),
        weights: Mapping[str, float] | None = None,
        reward_mode: str = DEFAULT_REWARD_MODE,
        schedule: WeightSchedule | None = None,
        reward_output: str = "scalar",
        task: str | None = None,
        max_steps: int | None = None,
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
            history_limit=history_limit,
            _disable_deepcopy=isinstance(policy, RewardPolicy),
        )
        if isinstance(env, gym.Env) and getattr(env, "num_envs", None) is None:
            # A single env (EnvPool's batch envs subclass gym.Env but have num_envs). Gymnasium's
            # own check would only say "Expected ... VectorEnv"; say the way out.
            raise TypeError(
                "Expected `env` to be a vector env (gymnasium.vector.VectorEnv), got the single "
                f"env {type(env).__name__} ({spec_value(env, 'id') or 'no id'}): build one "
                "with `gym.make_vec(id, num_envs=N)`, or wrap a single env with "
                "`RewardPolicyWrapper`"
            )
        VectorWrapper.__init__(self, env)
        self._policy = resolve_reward_policy(policy, config)
        self._policy_name = self._policy.name
        self._names: tuple[str, ...] = tuple(self._policy.component_names)
        self._zeros = dict.fromkeys(self._names, 0.0)
        if reward_mode not in REWARD_MODES:
            raise unknown_name_error("reward_mode", reward_mode, REWARD_MODES)
        self._add_env_reward = reward_mode == "add"
        self._history_limit = History(limit=history_limit).limit
        # Read once, as Gymnasium's vector wrappers do: an env without the tag is NEXT_STEP.
        mode = self.env.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP)
        self._autoreset_mode = AutoresetMode(mode)
        first = (getattr(self.env.unwrapped, "envs", None) or [None])[0]
        if task is None:
            task = spec_value(self.env, "id") or spec_value(first, "id") or ""
        if max_steps is None:
            max_steps = spec_value(self.env, "max_episode_steps")
            if max_steps is None:
                max_steps = spec_value(first, "max_episode_steps")
        self._task = task
        self._max_steps = int(max_steps) if max_steps is not None else DEFAULT_MAX_STEPS
        self._final_only_function = final_only_calculate(self._policy)
        self._score_batch = batch_scorer(self._policy)
        self._table: GenericTable | None = None
        self._fast = self._reads_config = False
        self._table_stale = True
        self._weights_report: dict[str, np.ndarray] | None = None

        self._n = n = self.num_envs
        k = len(self._names)
        self._max_steps_array = np.full(n, self._max_steps, dtype=np.int64)
        # One block per sub-env row: [episode sums (k) | episode total | step | episode count
        # (0: not started) | weights (k)], so a step updates, resets and reports them in one
        # numpy call each; the names are views. Stored transposed, one contiguous row per
        # column, for the short path's whole-block numpy calls (rlm_gym.wrappers.vector_fast);
        # `_state` is its (n, 2k + 3) view. Step and count are whole numbers in float64.
        self._state_t = np.zeros((2 * k + 3, n))
        self._state = self._state_t.T
        self._state[:, k + 3 :] = 1.0
        self._sums = self._state[:, :k]
        self._totals = self._state[:, k]
        self._steps = self._state_t[k + 1]
        self._episode_ids = self._state_t[k + 2]
        # The short path's rows: reported at an episode's end, zeroed at its start, counted.
        self._heads_t = tuple(self._state_t[: k + rows] for rows in (1, 2, 3))
        self._sums_totals = self._state[:, : k + 1]
        self._prev_dones = np.zeros(n, dtype=bool)
        self._all = np.ones(n, dtype=bool)
        self._contexts: list[PolicyContext | None] = [None] * n
        # The episode each context belongs to: on the fast path contexts are built only when
        # asked for (see `vector_table`).
        self._context_ids = np.zeros(n, dtype=np.int64)
        # Per-sub-env sums of a policy that declares no names (it may emit any).
        self._free_sums: list[dict[str, float]] = [{} for _ in range(n)]
        self._clock = 0
        self._schedule = schedule
        self._schedule_cache: tuple[int, np.ndarray] | None = None
        self._disabled: frozenset[str] = frozenset()
        self._user_weights: dict[str, float] = {}
        self._fixed = np.ones(k)
        self._scheduled = np.ones((n, k))
        self._weights = self._state[:, k + 3 :]
        self._uniform: np.ndarray | None = np.ones(k)
        self._uniform_key: bytes | None = self._uniform.tobytes()
        check_schedule(schedule, self._names, self._policy_name, disable, weights)
        self.set_disabled(disable)
        self.set_weights(weights or {})
        self._vector_output = check_reward_output(reward_output, self._policy)
        if self._vector_output:
            box = (self._policy, self._user_weights, self._disabled, schedule)
            self.single_reward_space = reward_box(*box)
            self.reward_space = reward_box(*box, shape_prefix=(n,))

    # -- configuration -------------------------------------------------------------------

    @property
    def policy(self) -> RewardPolicy:
        """The reward policy scoring every sub-env."""
        return self._policy

    @property
    def component_names(self) -> tuple[str, ...]:
        """The policy's component names (``infos["reward_components"]`` keys)."""
        return self._names

    @property
    def contexts(self) -> list[PolicyContext | None]:
        """Each sub-env's running ``PolicyContext`` (None before its first episode)."""
        contexts: list[PolicyContext | None] = []
        for index in range(self.num_envs):
            if not self._episode_ids[index]:
                contexts.append(None)
                continue
            context = self._context(index)
            if self._score_batch is not None:
                context.step = int(self._steps[index])
            contexts.append(context)
        return contexts

    @property
    def weights(self) -> np.ndarray:
        """The weights in force, ``(num_envs, k)`` in ``component_names`` order (a copy)."""
        return self._weights.copy()

    @property
    def schedule_step(self) -> int:
        """The schedule's clock: ``num_envs`` x ``step()`` calls, or as set."""
        return self._clock

    def set_disabled(self, names: Iterable[str]) -> None:
        """Switch off exactly these components in every sub-env, from the next step."""
        names = name_set(names)
        if names:
            check_component_names(names, self._names, self._policy_name, "disable")
            check_schedule(self._schedule, self._names, self._policy_name, names, None)
        self._disabled = names
        self._rebuild_weights()

    def set_weights(self, weights: Mapping[str, float]) -> None:
        """Scale components by these multipliers in every sub-env, from the next step."""
        if isinstance(weights, Mapping) and weights:
            check_component_names(weights, self._names, self._policy_name, "weights")
            check_schedule(self._schedule, self._names, self._policy_name, (), weights)
        self._user_weights = checked_weights(weights)
        self._rebuild_weights()

    def set_schedule_step(self, step: int) -> None:
        """Set the schedule's clock (e.g. to SB3's ``num_timesteps``); steps count on from it."""
        self._clock = int(step)

    def _rebuild_weights(self) -> None:
        fixed = np.array([self._user_weights.get(name, 1.0) for name in self._names])
        fixed[[name in self._disabled for name in self._names]] = 0.0
        self._fixed = fixed
        np.multiply(self._scheduled, fixed, out=self._weights)
        self._weights_changed()

    def _weights_changed(self) -> None:
        """Note whether any weight is not 1 and whether every sub-env has the same row."""
        weights = self._weights
        self._weighted = bool((weights != 1.0).any())
        uniform = len(weights) > 0 and bool((weights == weights[0]).all())
        self._uniform = weights[0].copy() if uniform else None
        self._uniform_key = self._uniform.tobytes() if uniform else None
        self._table_stale = True

    def _scheduled_row(self) -> np.ndarray:
        """The schedule's weights at the clock, in ``component_names`` order (cached)."""
        cached = self._schedule_cache
        if cached is not None and cached[0] == self._clock:
            return cached[1]
        scheduled = self._schedule.weights_at(self._clock)
        row = np.array([scheduled.get(name, 1.0) for name in self._names])
        self._schedule_cache = (self._clock, row)
        return row

    # -- episode loop --------------------------------------------------------------------

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset the sub-envs (all, or ``options["reset_mask"]``) and start their episodes."""
        # Read before the inner reset: Gymnasium's vector envs pop it from the options.
        mask = options.get("reset_mask") if options else None
        obs, infos = self.env.reset(seed=seed, options=options)
        started = self._all if mask is None else np.asarray(mask, dtype=bool)
        self._prev_dones[started] = False
        self._score_batch = batch_scorer(self._policy)
        table = table_policy(self._policy, self._score_batch)
        self._table = GenericTable(self._policy, self._score_batch, self._names) if table else None
        cheap, self._reads_config = hooks_are_cheap(self._policy)
        # The short path (rlm_gym.wrappers.vector_fast) while its conditions hold.
        next_step = self._autoreset_mode is AutoresetMode.NEXT_STEP
        self._fast = table and cheap and self._schedule is None and next_step
        self._table_stale = True
        self._start_episodes(started)
        return obs, infos

    def _start_episodes(self, started: np.ndarray, hooks: tuple[bool, bool] | None = None) -> None:
        """Start the episodes of the sub-envs in the mask (hooks in sub-env order)."""
        cheap, reads_config = hooks or hooks_are_cheap(self._policy)
        if cheap and self._names:
            # No hook to call per sub-env: reset the arrays with the mask, contexts lazily.
            self._steps[started] = 0
            self._sums_totals[started] = 0.0
            np.add(self._episode_ids, started, out=self._episode_ids)
            if self._schedule is not None:
                self._scheduled[started] = self._scheduled_row()
                self._weights[started] = self._scheduled[started] * self._fixed
            if reads_config:
                self._policy.read_config()
        else:
            for index in np.flatnonzero(started):
                self._start_episode(int(index))
        if self._schedule is not None:
            self._weights_changed()

    def _context(self, index: int) -> PolicyContext:
        """Sub-env ``index``'s context for its current episode (built on first use)."""
        context = self._contexts[index]
        episode = self._episode_ids[index]
        if context is None or self._context_ids[index] != episode:
            context = PolicyContext(
                self._task, 0, self._max_steps, History((), self._history_limit), {}, {}, {}
            )
            self._contexts[index] = context
            self._context_ids[index] = episode
        return context

    def _start_episode(self, index: int) -> None:
        """One sub-env's start; the caller updates the weights' summary after a schedule."""
        self._steps[index] = 0
        self._sums[index] = 0.0
        self._totals[index] = 0.0
        if not self._names:
            self._free_sums[index] = {}
        if self._schedule is not None:
            self._scheduled[index] = self._scheduled_row()
            self._weights[index] = self._scheduled[index] * self._fixed
        self._episode_ids[index] += 1
        self._policy.on_episode_start(self._context(index))

    def _end_episode(self, index: int) -> None:
        context = self._context(index)
        context.step = int(self._steps[index])
        self._policy.on_episode_end(context, float(self._totals[index]))

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Step every sub-env and score it with the policy (see the class docstring).

        Raises:
            ValueError: A scored sub-env's inner reward is NaN or infinite (naming the
                sub-env, its step and the value).
        """
        obs, env_rewards, terminated, truncated, infos = self.env.step(actions)
        self._clock += self._n
        if self._fast and ACTION_RESULT_KEY not in infos:
            scored = table_step(self, env_rewards, terminated, truncated, infos)
            if scored is not None:
                values, rows, terminated = scored
                if self._vector_output:
                    values = self._output(values, rows[: len(self._names)].T, infos)
                return obs, values, terminated, truncated, infos
        env_rewards = np.asarray(env_rewards, dtype=np.float64)
        terminated = np.asarray(terminated, dtype=bool)
        dones = terminated | np.asarray(truncated, dtype=bool)
        mode = self._autoreset_mode
        # NEXT_STEP: a sub-env done on the previous step is reset now, no policy step.
        resets = scored = None
        if mode is AutoresetMode.NEXT_STEP and count_nonzero(self._prev_dones):
            resets = self._prev_dones
            scored = ~resets
            dones &= scored
        if count_nonzero(np.isfinite(env_rewards)) != len(env_rewards):
            raise_non_finite(self.env, env_rewards, scored, self._steps)
        any_done = bool(count_nonzero(dones))

        final_infos = None
        if mode is AutoresetMode.SAME_STEP:
            starts = dones if any_done else None
            if any_done:
                final_infos = infos.get(FINAL_INFO_KEY)
        else:
            starts = resets
        if self._score_batch is not None:
            components, values = self._score_batched(
                actions, env_rewards, terminated, infos, final_infos, dones, resets
            )
            self._steps += 1 if scored is None else scored
            episode = self._episode_report(dones, any_done)
            if any_done or starts is not None:
                self._episode_events(dones, starts)
        else:
            route = crawl_route(self)
            if route is not None:
                components, values, episode = score_crawl_finals(self, route, dones, resets, starts)
            else:
                components, values, episode = score_unbatched(
                    self,
                    actions,
                    env_rewards,
                    terminated,
                    infos,
                    final_infos,
                    dones,
                    resets,
                    starts,
                )
            if self._schedule is not None and starts is not None:
                self._weights_changed()
        if mode is AutoresetMode.NEXT_STEP:
            self._prev_dones = dones

        if self._add_env_reward:
            rewards = values + (env_rewards if scored is None else env_rewards * scored)
        else:
            rewards = values
        write_vector_infos(infos, self._names, components, env_rewards, episode, self._all)
        return obs, self._output(rewards, components, infos), terminated, truncated, infos

    def _output(self, rewards: np.ndarray, components: np.ndarray, infos: dict) -> np.ndarray:
        """The step's reward: scalar, or the components (the scalar then goes to ``infos``)."""
        if not self._vector_output:
            return rewards
        infos[SCALAR_REWARD_KEY] = rewards
        infos[f"_{SCALAR_REWARD_KEY}"] = self._all
        return components.astype(np.float32)

    def _episode_events(self, dones: np.ndarray, starts: np.ndarray | None) -> None:
        """End and start the step's episodes: hooks per sub-env, or masks when they are cheap."""
        cheap, reads_config = hooks_are_cheap(self._policy)
        if cheap and self._names:
            if starts is not None:
                self._start_episodes(starts, (cheap, reads_config))
            return
        events = dones if starts is None else dones | starts
        for index in np.flatnonzero(events):
            if dones[index]:
                self._end_episode(int(index))
            if starts is not None and starts[index]:
                self._start_episode(int(index))
        if self._schedule is not None:
            self._weights_changed()

    # -- scoring -------------------------------------------------------------------------

    def _score_batched(self, actions, env_rewards, terminated, infos, final_infos, dones, resets):
        """Every sub-env in one numpy pass: ``(components (n, k), values (n,))``."""
        if reports_results(infos, final_infos):
            pairs = [
                sub_env_step(
                    infos,
                    final_infos if dones[index] else None,
                    index,
                    None,
                    float(env_rewards[index]),
                    bool(terminated[index]),
                )
                for index in range(self._n)
            ]
            batch = ResultBatch.from_results(
                [action for action, _ in pairs],
                [result for _, result in pairs],
                self._steps.astype(np.int64),
                self._max_steps_array,
            )
        elif self._table is not None:
            table, weights = self._table, (self._uniform_key, self._uniform, self._weights)
            block = table.score(env_rewards, terminated, resets, self._max_steps, *weights)
            self._sums_totals += block
            k = len(self._names)
            return block[:, :k], block[:, k].copy()
        else:
            steps = self._steps.astype(np.int64)
            batch = ResultBatch.generic(env_rewards, terminated, steps, self._max_steps_array)
        scored = self._score_batch(batch)
        components = np.stack([scored[name] for name in self._names], axis=1)
        if self._weighted:
            components *= self._weights
        low, high = self._policy.value_range
        values = np.clip(components.sum(axis=1), low, high)
        if resets is not None:
            components[resets] = 0.0
            values[resets] = 0.0
        self._sums += components
        self._totals += values
        return components, values

    def _episode_report(self, dones: np.ndarray, any_done: bool) -> EpisodeReport:
        """The finished sub-envs' sums, totals and weights, read before their next episode."""
        if not any_done:
            return EpisodeReport(dones, None, None, None, {})
        k = len(self._names)
        state = np.where(dones[:, None], self._state, 0.0)
        return EpisodeReport(dones, state[:, :k], state[:, k], state[:, k + 3 :], {})
