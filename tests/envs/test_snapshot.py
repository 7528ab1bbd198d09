"""CrawlEnv.snapshot(): what the renderer and the baselines read, a copy between steps."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import rlm_gym.envs
from rlm_gym.envs import CrawlEnv, CrawlSnapshot
from rlm_gym.envs import dynamics as dyn


def test_snapshot_before_reset_has_no_site():
    snapshot = CrawlEnv().snapshot()
    assert snapshot.model is None and snapshot.profile is None
    assert snapshot.phase == "fetch" and snapshot.last_action == -1


def test_snapshot_shows_the_crawl_and_later_steps_do_not_change_it():
    env = CrawlEnv(max_steps=12)
    obs, _ = env.reset(seed=4)
    before = env.snapshot()
    assert isinstance(before, CrawlSnapshot)
    np.testing.assert_array_equal(before.observation, obs)
    obs, *_ = env.step(dyn.EXTRACT_CSS)  # the fetch phase: an invalid action, an error
    after = env.snapshot()
    assert before.state == dyn.initial_state() and before.errors == ()
    assert before.last_action == -1 and not before.last_failed
    assert after.last_action == dyn.EXTRACT_CSS and after.last_failed
    assert after.last_error == dyn.E_INVALID and len(after.errors) == 1
    assert after.profile is env.profile and after.state is env.state
    assert after.max_steps == 12 and after.phase == "fetch"
    np.testing.assert_array_equal(after.observation, obs)
    assert not np.array_equal(before.observation, after.observation)


@pytest.mark.parametrize("module", ["render", "baselines"])
def test_renderer_and_baselines_do_not_import_the_env(module):
    path = Path(rlm_gym.envs.__file__).parent / f"{module}.py"
    imported = {
        node.module
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom)
    }
    assert "rlm_gym.envs.crawl_env" not in imported
