"""``CrawlLiveEnv``: ``rlm_gym/CrawlLive-v0``, Crawl-v2's crawl job on a real site of the farm.

Same action and observation spaces, phases, episode ends and reward as ``rlm_gym/Crawl-v2``
(``CrawlEnvV2``), so an agent trained there runs here unchanged. What differs is where the
outcomes come from: ``reset(seed=s)`` picks site ``s`` of the farm (on farm seed 0 the site
Crawl-v2 draws for seed ``s``) and probes it with real requests (robots.txt, then the first page);
every step makes the HTTP requests its action implies (``rlm_gym.live.session``) and extracts with
real parsing (``rlm_gym.live.extract``); the observation is built from what the responses were.
The last step's ``info["crawl_result"]`` is the real extracted data, scored by ``crawl_reward``;
``info["task"]`` and ``info["true_crawl_score"]`` are computed against the farm's ground truth.

The env keeps Crawl-v2's state tuple (``rlm_gym.envs.dynamics``) up to date from the real
outcomes, so ``snapshot()``, the baselines and the oracle (which plans with the simulator's
dynamics on the true profile) run unchanged.

Time is site time: a request's duration is its measured wall time divided by the farm's
``time_scale``; the extractors' and the browser's own costs are the simulator's (modelled).

Example:
    >>> import gymnasium as gym
    >>> import rlm_gym
    >>> env = gym.make("rlm_gym/CrawlLive-v0", protection="none")
    >>> obs, info = env.reset(seed=3)
    >>> env.observation_space.contains(obs), info["site_url"].endswith("/s/3/")
    (True, True)
    >>> *_, terminated, _, info = env.step(env.unwrapped.ACTIONS.index("stop"))
    >>> terminated, info["task"]["job_done"], info["crawl_result"]["data"]
    (True, False, [])
    >>> env.close()
"""

from __future__ import annotations

import struct
import weakref
from typing import Any

import numpy as np

from rlm_gym._extras import install_command
from rlm_gym.envs.crawl_env import DEFAULT_MAX_STEPS, CrawlEnv
from rlm_gym.envs.crawl_env_v2 import CrawlEnvV2
from rlm_gym.envs.dynamics import COSTS, DONE, S_PHASE, S_STEPS, S_TIME, site_model
from rlm_gym.envs.observation import INDEX, OBSERVATION_SIZE, PROGRESS_START
from rlm_gym.envs.profiles import SIMULATED_PATTERN_TYPES
from rlm_gym.envs.reports import action_codes

__all__ = ["CrawlLiveEnv", "LIVE_RENDER_MODES"]

# SB3's make_vec_env asks for "rgb_array" by default; the frame is drawn from the same
# snapshot as the simulator's (the live crawl keeps its state in the simulator's layout).
LIVE_RENDER_MODES: tuple[str, ...] = ("ansi", "rgb_array")
_PACK = struct.Struct(f"={OBSERVATION_SIZE}f").pack_into
_INITIAL_PROGRESS = [
    1.0 if index == INDEX["phase_fetch"] else 0.0
    for index in range(PROGRESS_START, OBSERVATION_SIZE)
]
_PROBE_ENTRIES = (
    "probe_framework",
    "probe_text_ratio",
    "probe_waf_header",
    "probe_bot_script",
    "probe_status_403",
    "probe_status_429",
    "hint_page_links",
    "hint_next_link",
    "hint_load_more",
    "hint_infinite_scroll",
    "dom_regularity",
    "json_ld",
)
_MAX_INDEX = 2**62


def _missing_extra(error: ImportError) -> ImportError:
    return ImportError(
        f"rlm_gym/CrawlLive-v0 needs the `live` extra ({error.name} is not installed): "
        f"{install_command('live')}"
    )


class CrawlLiveEnv(CrawlEnvV2):
    """Crawl-v2's crawl job on a live site of a local farm (real HTTP, HTML and extraction).

    Args:
        render_mode: ``None``, ``"ansi"`` (a one-line status of the last step) or
            ``"rgb_array"`` (the simulator's picture of the crawl, drawn from the live state).
        pattern_types: Pattern types of the sites (as ``CrawlEnv``); a farm given by
            ``farm_url`` must serve the same.
        max_steps: The step budget (as ``CrawlEnv``).
        reward_config: Overrides of the crawl reward's config (as ``CrawlEnv``).
        farm_url: The base URL of a running farm (``rlm-gym farm serve``); None starts one on a
            free port of 127.0.0.1, stopped by ``close()``.
        time_scale: Real seconds per site second of the farm the env starts (default
            ``DEFAULT_TIME_SCALE``); with ``farm_url`` it must match the farm's if given.
        farm_seed: The seed of the farm the env starts (0: Crawl-v2's sites).
        timeout_s: The client's connect and read timeout per request, in real seconds
            (default: the simulator's 30 s crawl timeout in site time, at least 0.05 s).
        retries: Retries of connection errors and 5xx answers per request.
        **profile_overrides: Profile overrides for every site (as ``CrawlEnv``'s).

    Raises:
        ImportError: The ``live`` extra is not installed.
        ValueError, TypeError: As ``CrawlEnv``, or a bad ``time_scale``, ``timeout_s`` or
            ``retries``.
        ConnectionError: At ``reset``, when the farm cannot be reached (naming its URL).

    Example:
        >>> env = CrawlLiveEnv(pattern_types=["product_list"], protection="none")
        >>> _ = env.reset(seed=0)
        >>> env.site.profile.pattern_type, env.url.startswith("http://127.0.0.1:")
        ('product_list', True)
        >>> env.close()
    """

    metadata = {**CrawlEnv.metadata, "render_modes": list(LIVE_RENDER_MODES)}

    def __init__(
        self,
        render_mode: str | None = None,
        pattern_types: list[str] | tuple[str, ...] | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        reward_config: dict[str, Any] | None = None,
        farm_url: str | None = None,
        time_scale: float | None = None,
        farm_seed: int = 0,
        timeout_s: float | None = None,
        retries: int = 2,
        **profile_overrides: Any,
    ) -> None:
        if render_mode not in (None, *LIVE_RENDER_MODES):
            raise ValueError(
                f"Expected `render_mode` None, 'ansi' or 'rgb_array' for the live env, got "
                f"{render_mode!r}"
            )
        super().__init__(None, pattern_types, max_steps, reward_config, **profile_overrides)
        self.render_mode = render_mode
        try:
            from rlm_gym.live import connect, session
        except ImportError as error:
            raise _missing_extra(error) from None
        self._session_module = session
        self._connect_module = connect
        self._options = connect.check_options(time_scale, timeout_s, retries, farm_url)
        self.farm_url = farm_url
        self.farm_seed = farm_seed
        self.farm = None
        self._settings: dict[str, Any] | None = None
        self._finalizer = None
        self.crawl = None
        self.site = None

    # ------------------------------------------------------------------ farm
    @property
    def url(self) -> str:
        """The base URL of the farm the env crawls (after the first ``reset``)."""
        if self.farm is not None:
            return self.farm.url
        if self.farm_url is None:
            raise RuntimeError("The env has not started its farm yet: call `reset()` first")
        return self.farm_url.rstrip("/")

    def _connect(self) -> dict[str, Any]:
        """Start the env's own farm, or check the one at ``farm_url``; the farm's settings."""
        session = self._session_module
        if self.farm_url is None:
            if self.farm is None:
                try:
                    from rlm_gym.live.farm import SiteFarm
                except ImportError as error:
                    raise _missing_extra(error) from None
                farm = SiteFarm(
                    seed=self.farm_seed,
                    time_scale=self._options["time_scale"] or session.DEFAULT_TIME_SCALE,
                    pattern_types=self.pattern_types,
                    **self.profile_overrides,
                ).start()
                self.farm = farm
                self._finalizer = weakref.finalize(self, farm.stop)
            return self.farm.info()
        # A farm given by URL is checked once; later resets find it gone through the probe.
        if self._settings is None:
            self._settings = self._connect_module.farm_settings(
                self.url, self._options, self.pattern_types, self.profile_overrides
            )
        return self._settings

    # ------------------------------------------------------------------ episode
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Pick site ``seed`` of the farm (a random one without a seed) and probe it.

        Returns:
            The first observation and ``info`` (``phase``, ``site_url``).

        Raises:
            ConnectionError: The farm cannot be reached (the message names its URL).
            ValueError: ``options`` asks to replay a profile (Crawl-v2's ``{"profile": ...}``).
        """
        if options and options.get("profile") is not None:
            raise ValueError(
                "The live env crawls the farm's sites: `options['profile']` cannot replay a "
                "profile here; pick the site with `seed` (on farm seed 0, Crawl-v2's site of "
                "that seed)"
            )
        gym_reset = super(CrawlEnv, self).reset
        gym_reset(seed=seed)
        settings = self._connect()
        index = seed if seed is not None else int(self.np_random.integers(_MAX_INDEX))
        if self.crawl is not None:
            self.crawl.close()
            self.crawl = None
        crawl = self._session_module.LiveCrawl(
            self.url, settings, index, self._options, self.max_steps, self._scorer
        )
        self.crawl = crawl
        self.site = crawl.site
        self.profile = crawl.site.profile
        self.model = site_model(self.profile, self.max_steps, self._scorer, True)
        probe = crawl.probe()
        obs = self._probe_observation(probe)
        _PACK(self._obs_bytes, 0, *obs, *_INITIAL_PROGRESS)
        self.state = crawl.state
        self._errors = crawl.errors
        self._requests = 0
        self._used = crawl.used
        self._last_action = -1
        self._last_failed = False
        self._last_error = 0
        self._codes = action_codes(self.profile)
        self._status = f"reset | {self.profile.pattern_type} on {crawl.site_url}"
        return self._obs.copy(), {"phase": "fetch", "site_url": crawl.site_url}

    def _probe_observation(self, probe: dict[str, float]) -> list[float]:
        profile = self.profile
        obs = [0.0] * PROGRESS_START
        obs[SIMULATED_PATTERN_TYPES.index(profile.pattern_type)] = 1.0
        for name in _PROBE_ENTRIES:
            obs[INDEX[name]] = probe[name]
        obs[INDEX["items_per_page_estimate"]] = min(2.0, probe["blocks"] / 48.0)
        obs[INDEX["probe_latency"]] = min(4.0, probe["latency_ms"] / 5000.0)
        obs[INDEX["time_budget"]] = min(2.0, profile.time_budget_ms / 120_000.0)
        return obs

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Take one crawl action with real requests; phases and ends as ``CrawlEnv``.

        Raises:
            TypeError, ValueError: ``action`` is not an action index (as ``CrawlEnv``).
            RuntimeError: Before ``reset()`` or after the episode ended.
        """
        from rlm_gym.envs.arguments import as_action

        if type(action) is not int:
            action = as_action(action)
        if not 0 <= action < len(self.ACTIONS):
            raise ValueError(
                f"Expected `action` to be an int in [0, {len(self.ACTIONS) - 1}] (an index into "
                f"CrawlEnv.ACTIONS), got {action}"
            )
        crawl = self.crawl
        if crawl is None:
            raise RuntimeError("Call `reset()` before `step()`")
        if crawl.state[S_PHASE] == DONE:
            raise RuntimeError("The episode has ended: call `reset()`")
        previous_phase = crawl.state[S_PHASE]
        event = crawl.step(action)
        self.state = crawl.state
        _, success, error_code, _, _, _ = event
        name = self.ACTIONS[action]
        if action in (0, 1, 6, 7):
            self._requests += 1
        elif action == 8:
            self._requests = 0
        self._last_failed = not success
        self._last_error = error_code
        self._update_live_observation(action, event, previous_phase)
        code = self._codes[action]
        error = crawl.last_error_text
        if self.state[S_PHASE] == DONE:
            score, info = crawl.final_info(name, code, event, error)
            self._status = f"{crawl.status_line(name, success, error)} → {score:.3f}"
            return self._obs.copy(), score, True, False, info
        self._status = crawl.status_line(name, success, error)
        info = {"action": {"action": name, "code": code}, "action_result": crawl.step_result}
        return self._obs.copy(), 0.0, False, False, info

    def _update_live_observation(self, action: int, event: tuple, previous_phase: int) -> None:
        crawl = self.crawl
        state = crawl.state
        kind, success, _, duration, _, _ = event
        obs = self._obs_floats
        phase = state[S_PHASE]
        if phase != previous_phase:
            obs[INDEX["phase_fetch"] + previous_phase] = 0.0
            if phase != DONE:
                obs[INDEX["phase_fetch"] + phase] = 1.0
        if success and kind == 1:
            items, valid, duplicates = crawl.item_counts()
            obs[INDEX["pages_collected"]] = min(3.0, crawl.pages / 10.0)
            obs[INDEX["items_vs_target"]] = min(2.0, valid / self.profile.target_items)
            obs[INDEX["item_quality"]] = valid / items if items else 0.0
            obs[INDEX["duplicate_rows"]] = duplicates / (items + duplicates) if items else 0.0
        elif success and kind == 0:
            obs[INDEX["last_text_ratio"]] = crawl.text_ratio
        if not success:
            obs[INDEX["errors"]] = min(1.0, len(crawl.errors) / 5.0)
            if not crawl.invalid and action < 8:
                obs[INDEX["failed_fetch_http"] + action] = 1.0
            if crawl.blocked:
                obs[INDEX["count_403"]] = crawl.count_403 / COSTS["blocks_to_ban"]
                obs[INDEX["count_429"]] = crawl.count_429 / COSTS["rate_limits_to_ban"]
        obs[INDEX["elapsed"]] = min(2.0, state[S_TIME] / self.profile.time_budget_ms)
        obs[INDEX["last_latency"]] = min(4.0, duration / 10_000.0)
        obs[INDEX["politeness"]] = min(1.0, self._requests / 3.0)
        obs[INDEX["browser_live"]] = 1.0 if crawl.browser_live else 0.0
        obs[INDEX["last_failed"]] = 0.0 if success else 1.0
        obs[INDEX["last_blocked"]] = 1.0 if crawl.blocked else 0.0
        obs[INDEX["steps"]] = state[S_STEPS] / self.max_steps
        if self._last_action >= 0:
            obs[INDEX["last_action_fetch_http"] + self._last_action] = 0.0
        obs[INDEX["last_action_fetch_http"] + action] = 1.0
        self._last_action = action

    # ------------------------------------------------------------------ results
    def crawl_result(self) -> tuple[dict[str, Any], float]:
        """The crawl result if the crawl stopped now (the real rows) and its crawl score."""
        if self.crawl is None:
            raise RuntimeError("Call `reset()` first")
        return self.crawl.result()

    def potential(self) -> float:
        """The crawl score the result would get if the crawl stopped now."""
        return self.crawl_result()[1]

    def render(self) -> str | np.ndarray | None:
        """The one-line status of the last step in ``"ansi"`` mode, the simulator's picture of
        the crawl in ``"rgb_array"`` mode, else None."""
        return super().render()

    def close(self) -> None:
        """Close the client's connections and stop the farm the env started (if any)."""
        if self.crawl is not None:
            self.crawl.close()
            self.crawl = None
        if self.farm is not None:
            self.farm.stop()
            self.farm = None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        super().close()

    def __getstate__(self) -> dict[str, Any]:
        raise TypeError("CrawlLiveEnv holds a server and connections; it cannot be pickled")
