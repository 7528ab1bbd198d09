"""``CrawlVectorEnv``'s fast mode (the ``vector_entry_point`` default) against its exact mode.

The fast mode draws every sub-env's sites and outcomes from one generator and maps the site
uniforms to profiles and probes in one numpy pass (``vector_sites``), so sub-env ``k`` no
longer replays ``gym.make("rlm_gym/Crawl-v2")`` seeded ``s + k``. The maps are the single env's
(the same uniforms give the same sites, probes and site arrays; the exact mode uses them too),
and the episodes' task measures follow the same distributions: two-sample tests over a few
thousand episodes of each mode.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from rlm_gym.envs import CRAWL_V2_ENV_ID
from rlm_gym.envs.dynamics import site_model
from rlm_gym.envs.observation import PROBE_DRAWS, probe_from_uniforms
from rlm_gym.envs.profiles import PROFILE_DRAWS, check_overrides, profile_from_uniforms
from rlm_gym.envs.scoring import scorer_for
from rlm_gym.envs.vector_dynamics import SiteArrays
from rlm_gym.envs.vector_sites import draw_sites, profile_of
from rlm_gym.training.episodes import episode_record

stats = pytest.importorskip("scipy.stats")

SITE_SETTINGS = (
    (None, {}),
    (("product_list", "contact_info"), {"protection": "rate_limit"}),
    (None, {"rendering": "client_only", "target_items": 7, "domain": "example.org"}),
)
CONTINUOUS = ("score", "length", "items", "valid_items", "pages", "time_ms", "requests")
CATEGORICAL = ("job_done", "banned", "tier", "pattern_type")


@pytest.mark.parametrize(("pattern_types", "overrides"), SITE_SETTINGS)
def test_draw_sites_gives_the_scalar_sites_and_probes(pattern_types, overrides):
    overrides = check_overrides(overrides)
    u = np.random.default_rng(3).random((1000, PROFILE_DRAWS + PROBE_DRAWS))
    sites = draw_sites(u, pattern_types, overrides)
    for row in range(len(u)):
        profile = profile_from_uniforms(u[row, :PROFILE_DRAWS].tolist(), pattern_types, overrides)
        assert profile_of(sites.columns[row], sites.domains[row]) == profile, row
        probe = probe_from_uniforms(profile, u[row, PROFILE_DRAWS:].tolist())
        np.testing.assert_allclose(sites.probes[row], probe, rtol=0, atol=1e-12)


def episode_measures(exact: bool, seed: int, num_envs: int = 128, steps: int = 60) -> list:
    """The per-episode records (``episode_record``) of a batch stepped with random actions
    (80 % among the valid ones), the same action rule in both modes."""
    envs = gym.make_vec(CRAWL_V2_ENV_ID, num_envs=num_envs, exact=exact)
    envs.reset(seed=seed)
    chooser = np.random.default_rng(seed + 10_000)
    lengths = np.zeros(num_envs, dtype=np.int64)
    done = np.zeros(num_envs, dtype=bool)
    records = []
    for _ in range(steps):
        masks = envs.unwrapped.action_masks()
        ranks = (chooser.random(num_envs) * masks.sum(axis=1)).astype(np.int64)
        valid = (masks.cumsum(axis=1) <= ranks[:, None]).sum(axis=1)
        anything = chooser.integers(0, 10, num_envs)
        actions = np.where(chooser.random(num_envs) < 0.8, valid, anything)
        _, _, terminated, truncated, infos = envs.step(actions)
        lengths = np.where(done, 0, lengths + 1)
        for index in np.flatnonzero(terminated).tolist():
            info = {
                "true_crawl_score": infos["true_crawl_score"][index],
                "task": {key: infos["task"][key][index] for key in infos["task"] if key[0] != "_"},
                "action_result": infos["action_result"][index],
            }
            records.append(episode_record(info, 0.0, int(lengths[index])))
        done = terminated | truncated
    return records


def _pooled(exact: bool) -> list:
    return [record for seed in (0, 1, 2) for record in episode_measures(exact, seed)]


def test_fast_mode_episodes_follow_the_exact_modes_distributions():
    exact, fast = _pooled(True), _pooled(False)
    assert min(len(exact), len(fast)) >= 2000
    for name in CONTINUOUS:
        result = stats.ks_2samp([r[name] for r in exact], [r[name] for r in fast])
        assert result.pvalue > 0.001, (name, result)
    for name in CATEGORICAL:
        values = sorted({str(r[name]) for r in exact + fast})
        table = [
            [sum(str(r[name]) == value for r in rows) for value in values] for rows in (exact, fast)
        ]
        result = stats.chi2_contingency(np.array(table))
        assert result.pvalue > 0.001, (name, table, result.pvalue)


def test_site_arrays_from_site_rows_equal_those_from_site_models():
    u = np.random.default_rng(5).random((400, PROFILE_DRAWS + PROBE_DRAWS))
    sites = draw_sites(u, None, {})
    scorer = scorer_for({"efficiency_errors": "graded"})
    models = [
        site_model(profile_of(row, domain), 30, scorer)
        for row, domain in zip(sites.columns, sites.domains, strict=True)
    ]
    rows = np.arange(len(u))
    from_models, from_columns = SiteArrays(len(u)), SiteArrays(len(u))
    from_models.set_rows(rows.tolist(), models)
    from_columns.set_columns(rows, sites.columns, 30, scorer.error_cap)
    for name, array in vars(from_models).items():
        np.testing.assert_array_equal(getattr(from_columns, name), array, err_msg=name)
