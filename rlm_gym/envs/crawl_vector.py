"""``CrawlVectorEnv``: ``rlm_gym/Crawl-v2`` over N sites, stepped as one batch.

Crawl-v2's ``vector_entry_point``: ``gym.make_vec("rlm_gym/Crawl-v2", num_envs=N)`` (or
``vectorization_mode="vector_entry_point"``) builds it. States, site numbers, observations,
action masks, clocks and counters are arrays with one row per sub-env, and a step is one pass of
``rlm_gym.envs.vector_dynamics.batch_transition``. Gymnasium's three autoreset modes are
supported; ``truncated`` is the ``TimeLimit``'s of ``gym.make`` (``max_episode_steps``).

**Two modes.** Both map a reset's uniforms to sites and probes in one numpy pass
(``vector_sites.draw_sites``: the single env's maps, the same site for the same uniforms).
``exact=True``: sub-env ``k`` keeps its own generator and draws what the single env draws, in
the same order, so after ``reset(seed=s)`` it gives exactly the trajectory of
``gym.make("rlm_gym/Crawl-v2")`` reset with ``seed=s + k`` (observations, rewards, end flags,
``ActionResult`` s, task outcome, crawl result: ``tests/envs/test_crawl_vector.py``); the
studies train in this mode (``training.vec_envs``), so a run trains the same agent as on
per-env wrappers and the studies' records stay comparable. ``exact=False``, the default: one
generator for the batch, sites drawn ahead in pools of hundreds (``vector_resets.SitePool``).
A sub-env then no longer replays a seeded single env - exactness costs a generator call per
reset sub-env and per outcome draw - but its episodes follow the same distributions
(``tests/envs/test_crawl_vector_fast.py``: two-sample tests on the task measures of thousands
of episodes).

**Built when read.** The numbers of the crawls a step ended (score, task outcome, the crawl
reward's components) come from their states in one numpy pass (``vector_finals``);
``final_components(settings)`` gives the components under any crawl settings, which is how
``VectorRewardPolicyWrapper`` scores the ``crawl`` policy (``rlm_gym.wrappers.vector_crawl``).
Their crawl results and every step's ``ActionResult`` s and action codes are built, by the
single env's own functions, only when someone reads them.

``infos`` follow Gymnasium's vector convention (a key holds one entry per sub-env, ``"_key"``
marks the sub-envs that reported it; dict values are batched key by key): ``action`` (a dict:
``action`` names, ``code``) and ``action_result`` for every stepped sub-env; a finished sub-env
adds ``task`` (arrays), ``true_crawl_score`` and ``crawl_result`` (the crawl result its final
``ActionResult`` also carries in ``metadata``). ``code``, ``action_result`` and
``crawl_result`` are ``batched_infos.LazyColumn`` s: ``column[i]`` builds entry ``i`` on first
read, ``np.asarray(column)`` gives the object array.

Example:
    >>> import gymnasium as gym
    >>> import rlm_gym
    >>> envs = gym.make_vec("rlm_gym/Crawl-v2", num_envs=4)
    >>> obs, infos = envs.reset(seed=0)
    >>> obs.shape, envs.action_masks().shape
    ((4, 58), (4, 10))
    >>> obs, rewards, terminated, truncated, infos = envs.step(np.full(4, 9))
    >>> terminated.tolist(), sorted(infos["task"])[:3]
    ([True, True, True, True], ['_banned', '_items', '_job_done'])
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from rlm_gym.envs.arguments import check_keywords, check_max_steps, check_pattern_types
from rlm_gym.envs.crawl_env import DEFAULT_MAX_STEPS
from rlm_gym.envs.dynamics import (
    ACTIONS,
    BACKOFF,
    DONE,
    INFINITE_SCROLL,
    JAVASCRIPT_CLICK,
    S_PHASE,
    S_STEPS,
    STOP,
    initial_state,
)
from rlm_gym.envs.observation import (
    OBSERVATION_FIELDS,
    OBSERVATION_SIZE,
)
from rlm_gym.envs.profiles import (
    check_overrides,
)
from rlm_gym.envs.scoring import Scorer, scorer_for
from rlm_gym.envs.vector_dynamics import VALID, SiteArrays, batch_transition
from rlm_gym.envs.vector_finals import FinishedCrawls
from rlm_gym.envs.vector_observation import (
    StepTexts,
    update_observations,
)
from rlm_gym.envs.vector_resets import (
    RESET_DRAWS,
    SitePool,
    batch_generator,
    draw_exactly,
    reset_at_once,
    reset_exactly,
)
from rlm_gym.envs.vector_sites import (
    SITE_COLUMNS,
    model_of,
)
from rlm_gym.policies.info_keys import REPORTS_ACTION_RESULTS

__all__ = ["CrawlVectorEnv"]

_N_ACTIONS = len(ACTIONS)
# Action masks by phase (the done phase allows only ``stop``, as ``CrawlEnv.action_masks``).
_INITIAL_STATE = np.array(initial_state(), dtype=np.int64)
_NO_COMPONENTS = np.zeros((0, 6))
_MASKS = np.concatenate([VALID.T[:3], np.eye(_N_ACTIONS, dtype=bool)[None, STOP]])
# By action: whether it sends a request (fetches, valid or not, and browser loads), and its
# one-hot count.
_REQUESTS = np.isin(np.arange(_N_ACTIONS), (0, 1, JAVASCRIPT_CLICK, INFINITE_SCROLL))
_USES = np.eye(_N_ACTIONS, dtype=np.int64)


class CrawlVectorEnv(VectorEnv):
    """N Crawl-v2 jobs stepped as one batch (Crawl-v2's ``vector_entry_point``).

    Args:
        num_envs: The number of sub-envs (at least 1).
        pattern_types: As ``CrawlEnv``.
        max_steps: As ``CrawlEnv``.
        reward_config: As ``CrawlEnv``.
        max_episode_steps: The ``TimeLimit`` of ``gym.make``: ``truncated`` is set on the
            step that reaches it (``max_steps`` when None).
        autoreset_mode: Gymnasium's ``AutoresetMode`` (or its name); ``NEXT_STEP`` by default.
        render_mode: Only None: render one site with ``gym.make("rlm_gym/Crawl-v2")``.
        exact: Replay the single env seeded ``seed + k`` in sub-env ``k`` (one generator
            per sub-env); False (the default) draws from one generator in one numpy pass per
            step (see the module docstring).
        **profile_overrides: As ``CrawlEnv``.

    Raises:
        TypeError: An unknown keyword (with the closest valid name).
        ValueError: A ``num_envs`` below 1, a render mode, or any argument ``CrawlEnv``
            rejects.

    Example:
        >>> envs = CrawlVectorEnv(2, pattern_types=["product_list"])
        >>> _ = envs.reset(seed=3)
        >>> envs.single_action_space, envs.action_space
        (Discrete(10), MultiDiscrete([10 10]))
    """

    recorded_success = True
    ACTIONS: tuple[str, ...] = ACTIONS
    OBSERVATION_FIELDS = OBSERVATION_FIELDS

    def __init__(
        self,
        num_envs: int = 1,
        pattern_types: list[str] | tuple[str, ...] | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        reward_config: dict[str, Any] | None = None,
        max_episode_steps: int | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        render_mode: str | None = None,
        exact: bool = False,
        **profile_overrides: Any,
    ) -> None:
        check_keywords(profile_overrides)
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise TypeError(f"Expected `num_envs` to be an int, got {type(num_envs).__name__}")
        if num_envs < 1:
            raise ValueError(f"Expected `num_envs` >= 1, got {num_envs}")
        if render_mode is not None:
            raise ValueError(
                f"Expected `render_mode` None for the batched Crawl-v2, got {render_mode!r}; "
                "render one site with gym.make('rlm_gym/Crawl-v2', render_mode=...)"
            )
        self.num_envs = n = int(num_envs)
        self.max_steps = check_max_steps(max_steps)
        self.max_episode_steps = self.max_steps if max_episode_steps is None else max_episode_steps
        self.pattern_types = check_pattern_types(pattern_types)
        self.profile_overrides = check_overrides(profile_overrides)
        self._scorer = scorer_for(reward_config)
        self.reward_config = self._scorer.config
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.render_mode = None
        self.metadata = {
            "autoreset_mode": self.autoreset_mode,
            "render_modes": [],
            REPORTS_ACTION_RESULTS: True,
        }
        self.single_action_space = gym.spaces.Discrete(_N_ACTIONS)
        self.action_space = gym.spaces.MultiDiscrete(np.full(n, _N_ACTIONS))
        high = np.array([upper for _, _, upper in OBSERVATION_FIELDS], dtype=np.float32)
        self.single_observation_space = gym.spaces.Box(np.zeros_like(high), high, dtype=np.float32)
        self.observation_space = batch_space(self.single_observation_space, n)

        if not isinstance(exact, (bool, np.bool_)):
            raise TypeError(f"Expected `exact` to be a bool, got {type(exact).__name__} {exact!r}")
        self.exact = bool(exact)
        self._rng: np.random.Generator | None = None
        self._pool: SitePool | None = None
        self._site_columns = np.zeros((n, len(SITE_COLUMNS)), dtype=np.int64)
        self._generators: list[np.random.Generator | None] = [None] * n
        self._uniforms = np.zeros((n, RESET_DRAWS))
        self._next_uniform = np.zeros(n, dtype=np.int64)
        self._uniform_count = np.zeros(n, dtype=np.int64)
        self._sites = SiteArrays(n)
        # Column-major: a step reads and writes whole columns (one per state entry).
        self._states = np.zeros((n, 16), dtype=np.int64, order="F")
        self._obs = np.zeros((n, OBSERVATION_SIZE), dtype=np.float32)
        self._texts = StepTexts(n, self.max_steps)
        self._requests = np.zeros(n, dtype=np.int64)
        self._requests_sent = np.zeros(n, dtype=np.int64)
        self._used = np.zeros((n, _N_ACTIONS), dtype=np.int64)
        self._last_action = np.full(n, -1, dtype=np.int64)
        self._autoreset = np.zeros(n, dtype=bool)
        self._fetch_phases = np.full(n, "fetch", dtype=object)
        self._started = False
        # The crawls the last step ended (``final_components``), and the scorer of the last
        # settings asked for that are not the env's.
        self._finals: FinishedCrawls | None = None
        # The last step's item counts of every sub-env (``update_observations`` writes them,
        # ``FinishedCrawls`` reads them).
        self._item_counts: Any = None
        self._other_scorer: Scorer | None = None

    # ------------------------------------------------------------------ episodes
    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset the sub-envs (all, or ``options["reset_mask"]``'s).

        Args:
            seed: An int seeds sub-env ``i`` with ``seed + i``; a list gives one seed per
                sub-env; None keeps each sub-env's generator running (seeded at random first).
            options: ``{"reset_mask": bool array}`` resets only the marked sub-envs;
                ``{"profile": SiteProfile}`` replays one site on every reset sub-env.

        Returns:
            The observations and infos (``phase`` per reset sub-env).
        """
        n = self.num_envs
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        profile = options.pop("profile", None)
        if options:
            raise ValueError(
                f"Unknown reset option(s) {sorted(options)}; accepted: ['profile', 'reset_mask']"
            )
        seeds = _seeds(seed, n)
        rows = range(n) if mask is None else np.flatnonzero(_reset_mask(mask, n)).tolist()
        if not self.exact and (seed is not None or self._rng is None):
            self._rng = batch_generator(seed, seeds)
            self._pool = SitePool(
                self._rng,
                self.pattern_types,
                self.profile_overrides,
                self.max_steps,
                self._scorer.error_cap,
            )
        self._reset_rows(list(rows), [seeds[index] for index in rows], profile)
        reset = np.zeros(n, dtype=bool)
        reset[list(rows)] = True
        self._autoreset &= ~reset
        self._started = True
        self._finals = None
        return self._obs.copy(), {"phase": np.full(n, "fetch", dtype=object), "_phase": reset}

    def _reset_rows(
        self, rows: list[int] | np.ndarray, seeds: list[int | None], profile: Any = None
    ) -> None:
        """Draw the sites of the sub-envs of ``rows`` (``vector_resets``) and start them."""
        if not len(rows):
            return
        rows = np.asarray(rows, dtype=np.intp)
        if self.exact:
            reset_exactly(self, rows, seeds, profile)
        else:
            reset_at_once(self, rows, profile)
        self._states[rows] = _INITIAL_STATE
        self._requests[rows] = 0
        self._requests_sent[rows] = 0
        self._used[rows] = 0
        self._last_action[rows] = -1

    def _draw(self, rows: np.ndarray) -> np.ndarray:
        """One uniform per sub-env of ``rows``: from its own stream, or the batch's."""
        return draw_exactly(self, rows) if self.exact else self._rng.random(len(rows))

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every sub-env (see the module docstring for infos and autoreset).

        Raises:
            ValueError: ``actions`` is not ``num_envs`` integers in ``[0, 10)``.
            RuntimeError: Before ``reset()``, or (``DISABLED`` autoreset) a finished sub-env
                stepped without a reset.
        """
        actions = self._check_actions(actions)
        n = self.num_envs
        mode = self.autoreset_mode
        resets = self._autoreset
        if mode is AutoresetMode.DISABLED and np.count_nonzero(resets):
            raise RuntimeError(
                f"Sub-env(s) {np.flatnonzero(resets).tolist()} finished: reset them with "
                "`reset(options={'reset_mask': ...})` before stepping (autoreset DISABLED)"
            )
        active = ~resets if mode is AutoresetMode.NEXT_STEP else np.ones(n, dtype=bool)
        previous_phase = self._states[:, S_PHASE].copy()
        events = batch_transition(self._sites, self._states, actions, self._draw, active)
        states = self._states
        failed = (active & ~events.success).nonzero()[0]
        self._texts.record_errors(
            failed, events.error_code[failed], actions[failed], previous_phase
        )
        # Requests: fetches (valid or not) and browser loads; a backoff clears the pressure.
        requested = active & _REQUESTS[actions]
        self._requests += requested
        self._requests_sent += requested
        np.copyto(self._requests, 0, where=active & (actions == BACKOFF))
        # (A sub-env that did not step is reset at the end of the step: its counts too.)
        self._used += _USES[actions]
        update_observations(self, actions, events)

        rewards = np.zeros(n)
        terminated = active & (states[:, S_PHASE] == DONE)
        truncated = active & (states[:, S_STEPS] >= self.max_episode_steps)
        finished = terminated.nonzero()[0]
        finals = None
        if len(finished):
            finals = FinishedCrawls(self, finished, actions, events, self._model_source(finished))
            rewards[finished] = finals.scores
        self._finals = finals
        infos = self._texts.step_infos(self, active, actions, events, previous_phase, finals)
        ended = terminated | truncated
        if mode is AutoresetMode.SAME_STEP:
            if np.count_nonzero(ended):
                self._same_step_finals(infos, finals, ended)
        elif finals is not None:
            self._texts.add_finals(self, infos, finals)
        if mode is AutoresetMode.NEXT_STEP and np.count_nonzero(resets):
            rows_to_reset = resets.nonzero()[0]
            self._reset_rows(rows_to_reset, [None] * len(rows_to_reset))
            infos["phase"] = self._fetch_phases.copy()
            infos["_phase"] = resets.copy()
        self._autoreset = ended
        return self._obs.copy(), rewards, terminated, truncated, infos

    def _model_source(self, rows: np.ndarray) -> Any:
        """``models(j)``: the site model of ``rows[j]`` as it is now (kept past its reset)."""
        columns = self._site_columns[rows]
        domains = self._texts.domains[rows]
        settings = (self.max_steps, self._scorer, self.recorded_success)
        return lambda j: model_of(columns[j], domains[j], *settings)

    def _same_step_finals(self, infos: dict[str, Any], finals: Any, ended: np.ndarray) -> None:
        """``SAME_STEP``: the ended sub-envs' own infos go to ``final_info`` (with their last
        observations) and they start their next episode on this step."""
        n = self.num_envs
        final_info: dict[str, Any] = {}
        action = infos["action"]
        final_action = {"action": action["action"].copy(), "_action": ended.copy()}
        final_info["action"], final_info["_action"] = final_action, ended.copy()
        final_info["action_result"] = infos["action_result"]
        final_info["_action_result"] = ended.copy()
        if finals is not None:
            self._texts.add_finals(self, final_info, finals)
        final_action["code"], final_action["_code"] = action["code"], ended.copy()
        final_obs = np.full(n, None, dtype=object)
        for index in np.flatnonzero(ended).tolist():
            final_obs[index] = self._obs[index].copy()
        self._texts.drop(infos, ended)
        rows_to_reset = np.flatnonzero(ended).tolist()
        self._reset_rows(rows_to_reset, [None] * len(rows_to_reset))
        infos["phase"] = np.full(n, "fetch", dtype=object)
        infos["_phase"] = ended.copy()
        infos["final_info"], infos["_final_info"] = final_info, ended.copy()
        infos["final_obs"], infos["_final_obs"] = final_obs, ended.copy()

    def final_components(self, settings: Any) -> tuple[list[int], np.ndarray]:
        """The crawl reward's components, under ``settings``, of the crawls the last step ended.

        ``crawl_reward`` under ``settings`` of each such sub-env's crawl result, from a
        ``Scorer`` (``Scorer.components``: the env's own when the settings are its reward
        config's): what the ``crawl`` policy with these settings computes from
        ``infos["crawl_result"]``, without building and judging the result again
        (``VectorRewardPolicyWrapper`` reads it, ``rlm_gym.wrappers.vector_crawl``).

        Args:
            settings: The ``CrawlSettings`` of the policy that asks.

        Returns:
            The sub-envs that terminated on the last step (ascending) and their components,
            an ``(m, 6)`` float64 array in ``COMPONENT_NAMES`` order.

        Example:
            >>> envs = CrawlVectorEnv(3)
            >>> _ = envs.reset(seed=0)
            >>> _ = envs.step(np.array([9, 0, 9]))
            >>> rows, parts = envs.final_components(envs.reward_settings)
            >>> rows, parts.shape
            ([0, 2], (2, 6))
        """
        finals = self._finals
        if finals is None:
            return [], _NO_COMPONENTS
        scorer = self._other_scorer
        if scorer is None or settings is not scorer.settings:
            scorer = self._scorer
            if settings is not scorer.settings and settings != scorer.settings:
                # The policy's own settings: a scorer of them (kept while they are asked for).
                scorer = self._other_scorer = Scorer(settings=settings)
        parts = finals.parts if scorer is self._scorer else finals.components(scorer)
        return finals.rows, parts

    def final_crawls(self) -> dict[int, Any]:
        """The crawls the last step ended, a ``vector_finals.FinalCrawl`` per sub-env (by row):
        their numbers read from the batch, their crawl results built only when read (the
        training vec env hands them to the episode records, ``batched_vec_env``)."""
        return {} if self._finals is None else self._finals.final_crawls()

    @property
    def reward_settings(self) -> Any:
        """The ``CrawlSettings`` of the env's reward config (``final_components`` reads them)."""
        return self._scorer.settings

    def _check_actions(self, actions: Any) -> np.ndarray:
        if not self._started:
            raise RuntimeError("Call `reset()` before `step()`")
        array = np.asarray(actions)
        if array.shape != (self.num_envs,) or array.dtype.kind not in "iu":
            raise ValueError(
                f"Expected `actions` to be {self.num_envs} integers (shape ({self.num_envs},)), "
                f"got {array.dtype} array of shape {array.shape}"
            )
        if array.min() < 0 or array.max() >= _N_ACTIONS:
            raise ValueError(
                f"Expected every action in [0, {_N_ACTIONS - 1}] (indices into ACTIONS), "
                f"got {array.tolist()}"
            )
        return array.astype(np.int64, copy=False)

    # ------------------------------------------------------------------ masks
    def action_masks(self) -> np.ndarray:
        """``(num_envs, 10)`` bool masks of the actions valid in each sub-env's phase (only
        ``stop`` once a sub-env is done), as ``CrawlEnv.action_masks``."""
        return _MASKS[self._states[:, S_PHASE]]

    def states(self) -> np.ndarray:
        """A copy of the ``(num_envs, 16)`` simulator states (``dynamics.S_*`` columns)."""
        return self._states.copy()


def _seeds(seed: Any, n: int) -> list[int | None]:
    if seed is None:
        return [None] * n
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return [int(seed) + index for index in range(n)]
    seeds = list(seed)
    if len(seeds) != n:
        raise ValueError(f"Expected {n} seeds (one per sub-env), got {len(seeds)}")
    return seeds


def _reset_mask(mask: Any, n: int) -> np.ndarray:
    mask = np.asarray(mask)
    if mask.shape != (n,) or mask.dtype != np.bool_ or not mask.any():
        raise ValueError(
            f"Expected `reset_mask` to be a bool array of shape ({n},) with at least one True, "
            f"got {mask.dtype} array of shape {mask.shape}"
        )
    return mask
