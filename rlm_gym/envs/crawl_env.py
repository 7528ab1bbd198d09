"""``CrawlEnv``: one simulated crawl job per episode (``rlm_gym/Crawl-v1``).

The agent crawls a site whose profile is hidden (``rlm_gym.envs.profiles``): it fetches pages
(plain HTTP or a headless browser), extracts items (CSS selectors, heuristics or an LLM),
paginates (URL navigation, a JavaScript click or infinite scroll), backs off, and stops. The
transition function is ``rlm_gym.envs.transitions.transitions``, sampled one step at a time by
``sample_transition``; the episode's last step carries the crawl result
(``rlm_gym.envs.reports.crawl_result``) and the env's reward is that result's ``crawl_reward``
value. ``snapshot()`` shows the crawl to the frame renderer and the baselines.

Phases: *fetch* (valid: fetch_http, fetch_headless, backoff, stop) → *extract* (extract_*,
re-fetch with fetch_*, backoff, stop) → *paginate* (url_navigation, javascript_click,
infinite_scroll, backoff, stop) → fetch (after URL navigation) or extract (after a click or scroll,
which load the next items in the live browser). Any other action is a failed step with an error
text and a time cost. The episode ends on ``stop``, a ban (two 403s, or three 429s), the job's
time budget, or the step budget ``max_steps``; every one of them is ``terminated=True`` (Crawl-v1):
the crawl job is over and its result is scored on that step. (Crawl-v0 reported the step budget
as ``truncated``, so bootstrapping agents valued running the budget out.)

Example:
    >>> env = CrawlEnv(pattern_types=["product_list"])
    >>> obs, info = env.reset(seed=7)
    >>> obs.shape, env.action_masks().tolist()[:3]
    ((58,), [True, True, False])
    >>> obs, reward, terminated, truncated, info = env.step(env.ACTIONS.index("stop"))
    >>> terminated, info["action"]["action"], info["action_result"].action_type
    (True, 'final', 'final')
    >>> reward == info["action_result"].metadata["crawl_result"]["success"] * 0.25 + 0.15
    True
"""

from __future__ import annotations

import struct
from typing import Any

import gymnasium as gym
import numpy as np

from rlm_gym.envs import baselines
from rlm_gym.envs.arguments import (
    RENDER_MODES,
    as_action,
    check_keywords,
    check_max_steps,
    check_pattern_types,
    check_render_mode,
)
from rlm_gym.envs.dynamics import (
    ACTIONS,
    BACKOFF,
    BY_HEADLESS,
    COSTS,
    DONE,
    E_403,
    E_429,
    E_BANNED,
    E_INVALID,
    E_NONE,
    FETCH_HTTP,
    INFINITE_SCROLL,
    JAVASCRIPT_CLICK,
    K_EXTRACT,
    K_FETCH,
    KINDS,
    OVER_BUDGET,
    S_429,
    S_BLOCKS,
    S_END,
    S_FETCHED,
    S_PHASE,
    S_STEPS,
    S_TIME,
    STOP,
    VALID_PHASES,
    SiteModel,
    initial_state,
    item_counts,
    site_model,
)
from rlm_gym.envs.observation import (
    INDEX,
    MEMORY_METHODS,
    OBSERVATION_FIELDS,
    OBSERVATION_SIZE,
    PROBE_DRAWS,
    PROGRESS_START,
    probe_from_uniforms,
    text_ratio,
)
from rlm_gym.envs.profiles import PROFILE_DRAWS, SiteProfile, check_overrides, profile_from_uniforms
from rlm_gym.envs.render import draw_frame
from rlm_gym.envs.reports import (
    action_codes,
    crawl_result,
    error_text,
    final_step,
    status_line,
    step_output,
)
from rlm_gym.envs.scoring import pages_collected, scorer_for, state_score
from rlm_gym.envs.snapshot import CrawlSnapshot
from rlm_gym.envs.transitions import sample_transition
from rlm_gym.policies.info_keys import REPORTS_ACTION_RESULTS
from rlm_gym.policies.types import trusted_action_result

__all__ = ["CrawlEnv", "DEFAULT_MAX_STEPS"]

DEFAULT_MAX_STEPS = 30

# A reset writes the whole observation in one ``struct.pack_into`` through a byte view of it;
# a step writes the entries it changes, one by one (``_update_observation``).
_PACK_OBSERVATION = struct.Struct(f"={OBSERVATION_SIZE}f").pack_into
_PHASE_START = INDEX["phase_fetch"]
_PAGES = INDEX["pages_collected"]
_ITEMS = INDEX["items_vs_target"]
_QUALITY = INDEX["item_quality"]
_DUPLICATES = INDEX["duplicate_rows"]
_ERRORS = INDEX["errors"]
_ELAPSED = INDEX["elapsed"]
_LAST_LATENCY = INDEX["last_latency"]
_POLITENESS = INDEX["politeness"]
_BROWSER_LIVE = INDEX["browser_live"]
_LAST_FAILED = INDEX["last_failed"]
_LAST_BLOCKED = INDEX["last_blocked"]
_PAGE_TEXT = INDEX["last_text_ratio"]
_STEPS = INDEX["steps"]
_LAST_ACTION_START = INDEX["last_action_fetch_http"]
_FAILED_START = INDEX["failed_fetch_http"]
_N_METHODS = len(MEMORY_METHODS)
_COUNT_403 = INDEX["count_403"]
_COUNT_429 = INDEX["count_429"]
_BLOCKS_TO_BAN = float(COSTS["blocks_to_ban"])
_RATE_LIMITS_TO_BAN = float(COSTS["rate_limits_to_ban"])
_N_ACTIONS = len(ACTIONS)
_BLOCK_ERRORS = frozenset({E_403, E_429, E_BANNED})
# The progress and memory entries at reset: everything 0 except ``phase_fetch``.
_INITIAL_PROGRESS = [
    1.0 if index == INDEX["phase_fetch"] else 0.0
    for index in range(PROGRESS_START, OBSERVATION_SIZE)
]
# Step outcomes are drawn from blocks of uniforms, one generator call per block.
_UNIFORM_BLOCK = 64
# The draws of a reset besides the profile's: the probe's and the first block of uniforms.
_RESET_DRAWS = PROBE_DRAWS + _UNIFORM_BLOCK


class CrawlEnv(gym.Env):
    """A simulated crawl job: choose fetcher, extractor, paginator, backoff and when to stop.

    Args:
        render_mode: ``None``, ``"ansi"`` (``render()`` returns a one-line status) or
            ``"rgb_array"`` (``render()`` returns an ``H x W x 3`` ``uint8`` picture of the
            crawl, see ``rlm_gym.envs.render``; ``RecordVideo`` records it).
        pattern_types: Pattern types to draw sites from (all of ``SIMULATED_PATTERN_TYPES``
            when None).
        max_steps: The step budget; the step that reaches it ends the episode
            (``terminated``) and carries the crawl result. Equal to the registered
            ``max_episode_steps``: with ``gym.make(CRAWL_ENV_ID, max_steps=n)`` pass
            ``max_episode_steps=n`` too, or the ``TimeLimit`` cuts the episode first.
        reward_config: Overrides of the crawl reward's config, passed to ``crawl_reward``
            (e.g. ``{"efficiency_errors": "graded"}``); validated here.
        **profile_overrides: Fixed values for profile attributes (``SiteProfile`` fields), e.g.
            ``rendering="client_only"``, ``protection="none"``, ``items_per_page=12``; names or
            indices for rendering, pagination and protection (``profiles.check_overrides``).

    Raises:
        TypeError: For an unknown keyword (with the closest valid name), as Python raises
            for an unexpected keyword argument, or a ``reward_config`` that is not a dict.
        ValueError: For an unknown render mode or pattern type (or one the crawl reward scores
            but the simulator does not model), a ``max_steps`` below 1, an override value of the
            wrong kind or out of range, or a config ``crawl_reward`` rejects.

    Observation: a ``Box`` of ``float32`` (see ``OBSERVATION_FIELDS`` and the README table).
    Reward: ``crawl_reward(crawl_result, config=reward_config).value`` on the episode's last
    step, 0.0 before. That step's ``info["task"]`` holds the task outcome (``job_done``,
    ``valid_items``, ``items``, ``pages``, ``requests``, ``time_ms``, ``banned``), never part of
    the reward, and ``info["true_crawl_score"]`` the crawl score of the ground truth.

    Example:
        >>> env = CrawlEnv(render_mode="rgb_array", protection="none")
        >>> _ = env.reset(seed=0)
        >>> frame = env.render()
        >>> frame.shape, frame.dtype.name
        ((192, 256, 3), 'uint8')
        >>> CrawlEnv(renderng="static")
        Traceback (most recent call last):
        ...
        TypeError: CrawlEnv() got an unexpected keyword argument 'renderng'. Did you mean ...
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4, REPORTS_ACTION_RESULTS: True}
    ACTIONS: tuple[str, ...] = ACTIONS
    OBSERVATION_FIELDS = OBSERVATION_FIELDS
    # The crawl result's `success`: the ground truth here, the crawler's record in Crawl-v2.
    recorded_success: bool = False

    def __init__(
        self,
        render_mode: str | None = None,
        pattern_types: list[str] | tuple[str, ...] | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        reward_config: dict[str, Any] | None = None,
        **profile_overrides: Any,
    ) -> None:
        check_keywords(profile_overrides)
        check_render_mode(render_mode)
        self.max_steps = check_max_steps(max_steps)
        self.render_mode = render_mode
        self.pattern_types = check_pattern_types(pattern_types)
        self.profile_overrides = check_overrides(profile_overrides)
        self._scorer = scorer_for(reward_config)
        self.reward_config = self._scorer.config
        self.action_space = gym.spaces.Discrete(len(self.ACTIONS))
        high = np.array([upper for _, _, upper in OBSERVATION_FIELDS], dtype=np.float32)
        self.observation_space = gym.spaces.Box(np.zeros_like(high), high, dtype=np.float32)
        self._obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        self._bind_observation_views()
        self._oracle: Any = None
        self.profile: SiteProfile | None = None
        self.model: SiteModel | None = None
        self.state: tuple[int, ...] = initial_state()
        self._status = ""
        self._last_action = -1
        self._last_failed = False
        self._last_error = E_NONE
        self._errors: list[str] = []

    # ------------------------------------------------------------------ episode
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Draw a new site and start its crawl job.

        Args:
            seed: Seeds ``np_random`` (same seed → same site, trajectory and infos).
            options: ``{"profile": SiteProfile}`` replays a given site (probe signals are
                still drawn from ``np_random``).

        Returns:
            The first observation and ``info`` (``{"phase": "fetch"}``).
        """
        super().reset(seed=seed)
        # One generator call per reset (each costs ~2 µs): the profile's draws, the probe's,
        # then a block of uniforms for the step outcomes (the block's first is never used).
        if options and options.get("profile") is not None:
            profile = options["profile"]
            u = self.np_random.random(_RESET_DRAWS).tolist()
        else:
            u = self.np_random.random(PROFILE_DRAWS + _RESET_DRAWS).tolist()
            profile = profile_from_uniforms(
                u[:PROFILE_DRAWS], self.pattern_types, self.profile_overrides
            )
            del u[:PROFILE_DRAWS]
        self.profile = profile
        self.model = site_model(profile, self.max_steps, self._scorer, self.recorded_success)
        self.state = initial_state()
        probe = probe_from_uniforms(profile, u[:PROBE_DRAWS])
        _PACK_OBSERVATION(self._obs_bytes, 0, *probe, *_INITIAL_PROGRESS)
        self._uniforms = u
        self._next_uniform = PROBE_DRAWS + 1
        self._errors = []
        self._requests = 0
        self._requests_sent = 0
        self._used = [0] * len(self.ACTIONS)
        self._last_action = -1
        self._last_failed = False
        self._last_error = E_NONE
        self._shell_ratio = text_ratio(profile, 0.0)
        self._status = f"reset | {profile.pattern_type} on {profile.domain}"
        self._codes = action_codes(profile)
        return self._obs.copy(), {"phase": "fetch"}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Take one crawl action; see the module docstring for phases and outcomes.

        Args:
            action: An index into ``ACTIONS``: an int, a numpy integer or a 0-d integer array.

        Raises:
            TypeError: ``action`` is not an integer (a float, string, bool, or an array with
                more than one element).
            ValueError: ``action`` is outside ``[0, 9]``.
            RuntimeError: Before ``reset()`` or after the episode ended.
        """
        if type(action) is not int:
            action = as_action(action)
        if not 0 <= action < _N_ACTIONS:
            raise ValueError(
                f"Expected `action` to be an int in [0, {_N_ACTIONS - 1}] (an index into "
                f"CrawlEnv.ACTIONS), got {action}"
            )
        if self.model is None:
            raise RuntimeError("Call `reset()` before `step()`")
        state = self.state
        if state[S_PHASE] == DONE:
            raise RuntimeError("The episode has ended: call `reset()`")
        next_state, event = sample_transition(self.model, state, action, self._uniform)
        self.state = next_state
        kind, success, error_code, duration, tokens, _ = event
        name = self.ACTIONS[action]
        self._used[action] += 1
        error = error_text(error_code, name, state[S_PHASE]) if error_code else None
        if error is not None:
            self._errors.append(error)
        if kind == K_FETCH or action in (JAVASCRIPT_CLICK, INFINITE_SCROLL):
            self._requests += 1
            self._requests_sent += 1
        elif action == BACKOFF:
            self._requests = 0
        self._last_failed = not success
        self._last_error = error_code
        self._update_observation(action, event, state[S_PHASE])
        code = self._codes[action]
        if next_state[S_PHASE] == DONE:
            return self._finish(name, code, event, error)
        output = step_output(action, event, next_state, self.profile.domain) if success else ""
        # Every field is valid by construction (the dynamics' events hold bools and ints).
        result = trusted_action_result(KINDS[kind], success, output, error, float(duration), tokens)
        info = {"action": {"action": name, "code": code}, "action_result": result}
        if self.render_mode == "ansi":
            self._status = status_line(self.model, next_state, name, success, error)
        return self._obs.copy(), 0.0, False, False, info

    def _finish(
        self, name: str, code: str, event: tuple, error: str | None
    ) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The episode's last step: the crawl result, scored and reported as ``final``."""
        state = self.state
        if state[S_END] == OVER_BUDGET:
            budget = self.profile.time_budget_ms
            self._errors.append(f"Job time budget of {budget} ms exceeded")
        score, info = final_step(
            self.model,
            state,
            event,
            name,
            code,
            error,
            self._errors,
            self._used,
            self._requests_sent,
        )
        if self.render_mode == "ansi":
            line = status_line(self.model, state, name, event[1], error)
            self._status = f"{line} | {info['action_result'].output} → {score:.3f}"
        # Every end is terminal (Crawl-v1), the step budget included: the job is over and
        # scored now, and ``steps / max_steps`` in the observation makes the end part of the task.
        return self._obs.copy(), score, True, False, info

    def crawl_result(self) -> tuple[dict[str, Any], float]:
        """The crawl result of the current state and its crawl score (``reports.crawl_result``:
        the shape ``crawl_reward`` scores)."""
        return crawl_result(self.model, self.state, self._errors, self._used)

    def potential(self) -> float:
        """The crawl score the result would get if the crawl stopped now (a shaping potential).

        Equal to ``crawl_result()[1]`` without building the item dicts, so it is cheap enough
        to call every step (``PotentialShapingWrapper(env, "potential", gamma)``).
        """
        return state_score(self.model, self.state)

    def snapshot(self) -> CrawlSnapshot:
        """The crawl now, for the frame renderer and the baselines (a ``CrawlSnapshot``: the site
        model, state, observation, errors and last step; later steps do not change it)."""
        return CrawlSnapshot(
            self.model,
            self.state,
            self.max_steps,
            self._obs.copy(),
            tuple(self._errors),
            self._last_action,
            self._last_failed,
            self._last_error,
        )

    # ------------------------------------------------------------------ baselines
    def action_masks(self) -> np.ndarray:
        """Bool mask of the actions valid in the current phase (only ``stop`` once done)."""
        phase = self.state[S_PHASE]
        if phase == DONE:
            mask = np.zeros(len(self.ACTIONS), dtype=bool)
            mask[STOP] = True
            return mask
        return np.array([phase in v for v in VALID_PHASES], dtype=bool)

    def random_action(self) -> int:
        """A uniformly random valid action (drawn from ``np_random``)."""
        return baselines.random_action(self)

    def heuristic_action(self) -> int:
        """The documented observation-only rule (``rlm_gym.envs.baselines.heuristic_action``)."""
        return baselines.heuristic_action(self._obs)

    def fixed_strategy_action(self, strategy: tuple[str, str, str]) -> int:
        """The action of a fixed (fetcher, extractor, paginator) pipeline in the current state."""
        return baselines.fixed_strategy_action(self, strategy)

    def oracle_action(self) -> int:
        """The best action knowing the hidden profile (exact expectimax, cached per site)."""
        if self._oracle is None:
            self._oracle = baselines.Oracle()
        return self._oracle.action(self.model, self.state)

    # ------------------------------------------------------------------ rendering
    def render(self) -> str | np.ndarray | None:
        """The crawl as the render mode asks: ``"ansi"`` the one-line status of the last step,
        ``"rgb_array"`` a picture of the crawl (``rlm_gym.envs.render.draw_frame``), else None.
        """
        if self.render_mode == "ansi":
            return self._status
        if self.render_mode == "rgb_array":
            return draw_frame(self.snapshot())
        return None

    # ------------------------------------------------------------------ helpers
    def _bind_observation_views(self) -> None:
        """Views of ``_obs`` for the per-step writes: bytes (``pack_into``) and float32 items
        (a memoryview item write costs a third of a numpy one)."""
        self._obs_bytes = memoryview(self._obs).cast("B")
        self._obs_floats = self._obs_bytes.cast("f")

    def __getstate__(self) -> dict[str, Any]:
        # Memoryviews do not pickle; they are views of `_obs`, rebuilt on unpickling.
        state = self.__dict__.copy()
        state.pop("_obs_bytes", None)
        state.pop("_obs_floats", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._bind_observation_views()

    def _uniform(self) -> float:
        if self._next_uniform == len(self._uniforms):
            self._uniforms = self.np_random.random(_UNIFORM_BLOCK).tolist()
            self._next_uniform = 0
        u = self._uniforms[self._next_uniform]
        self._next_uniform += 1
        return u

    def _update_observation(self, action: int, event: tuple, previous_phase: int) -> None:
        """Write the observation entries this step changes (the probe block never changes).

        Entry by entry, only where they can change: the phase one-hot when the phase changes,
        the item entries after an extraction, the page's text ratio after a fetch, the error
        entries after a failure; the clock, request and last-step entries on every step.
        """
        state = self.state
        profile = self.profile
        kind, success, error_code, duration, _, _ = event
        obs = self._obs_floats
        phase = state[S_PHASE]
        if phase != previous_phase:
            obs[_PHASE_START + previous_phase] = 0.0  # a step starts in fetch, extract or paginate
            if phase != DONE:  # done has no entry: the block is all 0
                obs[_PHASE_START + phase] = 1.0
        if success:
            if kind == K_EXTRACT:
                items, valid, duplicates = item_counts(self.model, state)
                obs[_PAGES] = min(3.0, pages_collected(state) / 10.0)
                obs[_ITEMS] = min(2.0, valid / profile.target_items)
                obs[_QUALITY] = valid / items if items else 0.0
                obs[_DUPLICATES] = duplicates / (items + duplicates)
            elif kind == K_FETCH:
                obs[_PAGE_TEXT] = self._shell_ratio if action == FETCH_HTTP else 0.3
        else:
            obs[_ERRORS] = min(1.0, len(self._errors) / 5.0)
            # A method fails "on this site" only where it is valid: a step in the wrong phase
            # is the agent's mistake, not news about the site (``last_failed`` still shows it).
            if error_code != E_INVALID and action < _N_METHODS:
                obs[_FAILED_START + action] = 1.0
            if error_code in _BLOCK_ERRORS:
                obs[_COUNT_403] = state[S_BLOCKS] / _BLOCKS_TO_BAN
                obs[_COUNT_429] = state[S_429] / _RATE_LIMITS_TO_BAN
        obs[_ELAPSED] = min(2.0, state[S_TIME] / profile.time_budget_ms)
        obs[_LAST_LATENCY] = min(4.0, duration / 10_000.0)
        obs[_POLITENESS] = min(1.0, self._requests / 3.0)
        obs[_BROWSER_LIVE] = 1.0 if state[S_FETCHED] == BY_HEADLESS else 0.0
        obs[_LAST_FAILED] = 0.0 if success else 1.0
        obs[_LAST_BLOCKED] = 1.0 if error_code in _BLOCK_ERRORS else 0.0
        obs[_STEPS] = state[S_STEPS] / self.max_steps
        if self._last_action >= 0:
            obs[_LAST_ACTION_START + self._last_action] = 0.0
        obs[_LAST_ACTION_START + action] = 1.0
        self._last_action = action
