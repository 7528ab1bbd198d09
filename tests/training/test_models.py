"""Model files: a saved run loads back into the same agent."""

from __future__ import annotations

import pytest

pytest.importorskip("stable_baselines3")

from rlm_gym.envs import CRAWL_ENV_ID
from rlm_gym.training.evaluation import evaluate
from rlm_gym.training.models import load_model

pytestmark = pytest.mark.slow
CRAWL = CRAWL_ENV_ID


def test_reloaded_model_evaluates_identically(trained):
    first = evaluate(trained.model, CRAWL, n_episodes=8, seed=11)
    again = evaluate(load_model(trained.log_dir), CRAWL, n_episodes=8, seed=11)
    assert first.episodes == again.episodes
