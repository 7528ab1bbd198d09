"""How ``CrawlVectorEnv`` draws the next sites of the sub-envs it resets, in its two modes.

* Exact (``reset_exactly``, ``draw_exactly``): sub-env ``k`` keeps its own generator and its
  own block of uniforms, drawn and used as ``CrawlEnv`` draws and uses them (one generator call
  per reset, a block of ``_UNIFORM_BLOCK`` draws refilled when it runs out): the single env's
  trajectory.
* At once (``reset_at_once``): one generator for the batch (``batch_generator``), and sites
  drawn ahead, hundreds per numpy pass (``SitePool``), taken as sub-envs reset.

Both map uniforms to sites with ``vector_sites.draw_sites``: ``profile_from_uniforms`` and
``probe_from_uniforms`` as array operations, giving the same sites for the same uniforms.

Example:
    >>> batch_generator(None, [3, None]).random() == batch_generator([3], [3]).random()
    True
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from gymnasium.utils import seeding

from rlm_gym.envs.observation import OBSERVATION_SIZE, PROBE_DRAWS, PROGRESS_START
from rlm_gym.envs.profiles import PROFILE_DRAWS, SIMULATED_PATTERN_TYPES
from rlm_gym.envs.vector_dynamics import SiteArrays
from rlm_gym.envs.vector_observation import INITIAL_PROGRESS
from rlm_gym.envs.vector_sites import columns_of, draw_sites, probes, shell_ratios

__all__ = [
    "RESET_DRAWS",
    "DrawnSites",
    "SitePool",
    "batch_generator",
    "draw_exactly",
    "drawn_sites",
    "reset_at_once",
    "reset_exactly",
]

# The single env draws uniforms in blocks of this size (``crawl_env._UNIFORM_BLOCK``).
_UNIFORM_BLOCK = 64
RESET_DRAWS = PROBE_DRAWS + _UNIFORM_BLOCK
_PATTERN_NAMES = np.array(SIMULATED_PATTERN_TYPES, dtype=object)


def batch_generator(seed: Any, seeds: list[int | None]) -> np.random.Generator:
    """The batch's one generator: seeded by an int ``seed`` as ``gym.Env`` seeds its
    ``np_random``, else by the sub-envs' given seeds together (at random if none is given)."""
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return seeding.np_random(int(seed))[0]
    given = [int(value) for value in seeds if value is not None]
    if not given:
        return seeding.np_random(None)[0]
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(given)))


class SitePool:
    """Sites drawn ahead from the batch's generator, ``size`` per ``draw_sites`` call, with
    everything a reset writes of them (site numbers, first observations, texts) derived in the
    same pass: a step that resets a few sub-envs copies their rows from the pool instead of
    paying a numpy pass's fixed cost for them (the sites are independent draws, so the order
    taken changes nothing).

    Example:
        >>> pool = SitePool(np.random.default_rng(0), None, {}, 30, 1, size=8)
        >>> pool.take(3).columns.shape, pool.take(3).obs.shape, pool.start
        ((8, 13), (8, 58), 3)
    """

    def __init__(
        self,
        generator: np.random.Generator,
        pattern_types: tuple[str, ...] | None,
        overrides: dict[str, Any],
        max_steps: int,
        error_cap: int,
        size: int = 512,
    ) -> None:
        self._generator = generator
        self._pattern_types = pattern_types
        self._overrides = overrides
        self._settings = (max_steps, error_cap)
        self._size = size
        self._block: DrawnSites | None = None
        self.start = 0
        self._next = 0

    def take(self, m: int) -> DrawnSites:
        """A block of drawn sites whose rows ``start:start + m`` are the next ``m`` sites."""
        if self._block is None or self._next + m > len(self._block.domains):
            # What is left is dropped: a new pool's first rows are as good as its last.
            u = self._generator.random((max(self._size, m), PROFILE_DRAWS + PROBE_DRAWS))
            sites = draw_sites(u, self._pattern_types, self._overrides)
            self._block = drawn_sites(*sites, *self._settings)
            self._next = 0
        self.start, self._next = self._next, self._next + m
        return self._block


class DrawnSites(NamedTuple):
    """m drawn sites and what a reset writes of each: attribute rows, domains (an object
    array), site numbers (``SiteArrays``), first observations, pattern type names and
    ``text_ratio`` of an empty page."""

    columns: np.ndarray
    domains: np.ndarray
    sites: SiteArrays
    obs: np.ndarray
    pattern_types: np.ndarray
    shell_ratios: np.ndarray


def drawn_sites(
    columns: np.ndarray, domains: list[str], probe: np.ndarray, max_steps: int, error_cap: int
) -> DrawnSites:
    """Everything a reset writes of the sites ``columns`` / ``domains`` with probes ``probe``."""
    m = len(columns)
    sites = SiteArrays(m)
    sites.set_columns(np.arange(m), columns, max_steps, error_cap)
    obs = np.empty((m, OBSERVATION_SIZE), dtype=np.float32)
    obs[:, :PROGRESS_START] = probe
    obs[:, PROGRESS_START:] = INITIAL_PROGRESS
    names = _PATTERN_NAMES[columns[:, 0]]
    domain_array = np.empty(m, dtype=object)
    domain_array[:] = domains
    return DrawnSites(columns, domain_array, sites, obs, names, shell_ratios(columns))


def reset_at_once(env: Any, rows: np.ndarray, profile: Any = None) -> None:
    """The sites of the sub-envs of ``rows`` from the batch's pool of drawn sites (``profile``:
    replay this site, with probes drawn now), written."""
    if profile is None:
        pool = env._pool
        block = pool.take(len(rows))
        _write_drawn(env, rows, block, pool.start)
    else:
        _write_sites(env, rows, *_replayed(profile, env._rng.random((len(rows), PROBE_DRAWS))))


def reset_exactly(env: Any, rows: np.ndarray, seeds: list[int | None], profile: Any = None) -> None:
    """Draw the uniforms of the sub-envs of ``rows`` as ``CrawlEnv.reset`` draws them (one
    generator call each, in its own stream), map them to sites as ``reset_at_once`` does (the
    single env's maps: ``tests/envs/test_crawl_vector_fast.py``) and keep the rest as each
    sub-env's block of uniforms."""
    draws = RESET_DRAWS if profile is not None else PROFILE_DRAWS + RESET_DRAWS
    uniforms = []
    for index, seed in zip(rows.tolist(), seeds, strict=True):
        generator = env._generators[index]
        if seed is not None or generator is None:
            generator, _ = seeding.np_random(seed)
            env._generators[index] = generator
        uniforms.append(generator.random(draws))
    u = np.array(uniforms)
    if profile is None:
        sites = draw_sites(
            u[:, : PROFILE_DRAWS + PROBE_DRAWS], env.pattern_types, env.profile_overrides
        )
    else:
        sites = _replayed(profile, u[:, :PROBE_DRAWS])
    _write_sites(env, rows, *sites)
    env._uniforms[rows] = u[:, draws - RESET_DRAWS :]
    # The block's first uniform is never used (as ``CrawlEnv.reset``).
    env._next_uniform[rows] = PROBE_DRAWS + 1
    env._uniform_count[rows] = RESET_DRAWS


def _replayed(profile: Any, u: np.ndarray) -> tuple[np.ndarray, list[str], np.ndarray]:
    """``profile`` for every row of ``u``, with the probes of ``u`` (``PROBE_DRAWS`` each)."""
    columns = np.array([columns_of(profile)] * len(u), dtype=np.int64)
    return columns, [profile.domain] * len(u), probes(columns, u)


def _write_sites(
    env: Any, rows: np.ndarray, columns: np.ndarray, domains: list[str], probe: np.ndarray
) -> None:
    """Write the sites (attribute rows, domains, probes) of the sub-envs of ``rows``."""
    _write_drawn(env, rows, drawn_sites(columns, domains, probe, *_settings(env)), 0)


def _settings(env: Any) -> tuple[int, int]:
    return env.max_steps, env._scorer.error_cap


def _write_drawn(env: Any, rows: np.ndarray, block: DrawnSites, start: int) -> None:
    """Write rows ``start:start + len(rows)`` of ``block`` as the sites of the sub-envs of
    ``rows``."""
    stop = start + len(rows)
    env._site_columns[rows] = block.columns[start:stop]
    env._sites.copy_rows(rows, block.sites, start, stop)
    texts = env._texts
    texts.pattern_types[rows] = block.pattern_types[start:stop]
    texts.domains[rows] = block.domains[start:stop]
    texts.shell_ratio[rows] = block.shell_ratios[start:stop]
    texts.count[rows] = 0
    env._obs[rows] = block.obs[start:stop]


def draw_exactly(env: Any, rows: np.ndarray) -> np.ndarray:
    """One uniform per sub-env of ``rows`` from its own block (refilled as the single env
    refills it: ``_UNIFORM_BLOCK`` draws in one generator call when it runs out)."""
    position = env._next_uniform[rows]
    for index in rows[position == env._uniform_count[rows]].tolist():
        env._uniforms[index, :_UNIFORM_BLOCK] = env._generators[index].random(_UNIFORM_BLOCK)
        env._next_uniform[index] = 0
        env._uniform_count[index] = _UNIFORM_BLOCK
    position = env._next_uniform[rows]
    env._next_uniform[rows] = position + 1
    return env._uniforms[rows, position]
