"""A run trained once for the package: the train, evaluation and model tests all read it."""

from __future__ import annotations

import pytest

from rlm_gym.envs import CRAWL_ENV_ID


@pytest.fixture(scope="package")
def trained(tmp_path_factory):
    pytest.importorskip("stable_baselines3")
    from rlm_gym.training.trainer import train

    log_dir = tmp_path_factory.mktemp("run")
    return train(CRAWL_ENV_ID, "crawl", total_timesteps=512, n_envs=2, seed=3, log_dir=log_dir)
