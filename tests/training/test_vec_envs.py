"""The two reward wrappings of a training run: same seed, same rewards, same trained model.

(With a reward schedule the two differ by design, SPEC 9.2: the vector wrapper's clock is
``num_timesteps`` at every step, a per-env wrapper's is set at each rollout start and counts
its own steps in between; ``test_reward_schedule_runs`` covers schedules on both paths.)
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from rlm_gym.envs import CRAWL_ENV_ID, CRAWL_V2_ENV_ID
from rlm_gym.training.env_factory import reports_action_results, resolve_reward_wrapping
from rlm_gym.training.run_config import RunConfig
from rlm_gym.training.trainer import train
from rlm_gym.training.vec_envs import make_training_vec_env

# Tiny budgets on purpose (seconds per run): each cuts PPO's rollout to fit, which
# tests/training/test_short_budget.py asserts warns; here the warning is expected and silenced.
_SHORT_BUDGET = pytest.mark.filterwarnings("ignore::rlm_gym.training.run_config.ShortBudgetWarning")
# The CartPole case's cut rollout (3 envs x 200 steps) does not split into minibatches of 256:
# SB3 says so; both wrappings train on the same truncated minibatch, so the comparison holds.
_SB3_TRUNCATED_BATCH = pytest.mark.filterwarnings(
    "ignore:You have specified a mini-batch size:UserWarning"
)
pytestmark = [pytest.mark.slow, _SHORT_BUDGET, _SB3_TRUNCATED_BATCH]
TINY = {"n_envs": 3, "progress_bar": False, "tensorboard": False, "n_eval_episodes": 0}


def _parameters(model) -> np.ndarray:
    return np.concatenate([p.detach().numpy().ravel() for p in model.policy.parameters()])


def _episodes(result) -> list[tuple]:
    keys = ("timestep", "shaped_return", "true_score", "length")
    return [tuple(episode.get(key) for key in keys) for episode in result.episodes]


@pytest.mark.parametrize(
    ("env_id", "policy", "settings"),
    [
        ("CartPole-v1", "lenient", {"disable": ("success",)}),
        (CRAWL_V2_ENV_ID, "crawl", {"config": {"efficiency_errors": "graded"}}),
    ],
)
def test_vector_and_per_env_wrapping_train_the_same_agent(env_id, policy, settings):
    runs = {
        wrapping: train(
            env_id,
            policy,
            total_timesteps=600,
            reward_wrapping=wrapping,
            **{**TINY, **settings},
        )
        for wrapping in ("per_env", "vector")
    }
    per_env, vector = runs["per_env"], runs["vector"]
    assert per_env.config["reward_wrapping"] == "per_env"
    assert vector.config["reward_wrapping"] == "vector"
    assert len(per_env.episodes) > 3
    assert _episodes(vector) == _episodes(per_env)
    np.testing.assert_array_equal(_parameters(vector.model), _parameters(per_env.model))


def test_auto_picks_vector_for_one_process_unshaped_runs_of_16_envs_and_says_so():
    wide = {"n_envs": 16}
    assert RunConfig("CartPole-v1", "lenient", **wide).reward_wrapping == "vector"
    assert RunConfig("CartPole-v1", "lenient", n_envs=4).reward_wrapping == "per_env"
    subproc = RunConfig("CartPole-v1", "lenient", vec_env="subproc", **wide)
    assert subproc.reward_wrapping == "per_env"
    shaped = RunConfig(CRAWL_V2_ENV_ID, "crawl", shaping="potential", **wide)
    assert shaped.reward_wrapping == "per_env"
    assert RunConfig("CartPole-v1", "lenient", **wide).to_json()["reward_wrapping"] == "vector"


def test_auto_keeps_per_env_wrappers_for_envs_that_report_action_results():
    # The crawl envs declare it; their results would go through the vector wrapper sub-env by
    # sub-env (slower than per-env wrappers in benchmarks/training_wrapping.py).
    for env_id in (CRAWL_ENV_ID, CRAWL_V2_ENV_ID):
        assert reports_action_results(env_id)
        assert RunConfig(env_id, "lenient", n_envs=16).reward_wrapping == "per_env"
        assert RunConfig(env_id, "crawl", n_envs=16, reward_wrapping="vector").reward_wrapping == (
            "vector"
        )
    assert RunConfig(CRAWL_ENV_ID, "crawl", n_envs=16).reward_wrapping == "per_env"
    assert not reports_action_results("CartPole-v1")
    assert not reports_action_results("NoSuchEnv-v0")  # gym.make names it when the run starts


def test_auto_picks_the_batch_for_crawl_v2_with_the_crawl_policy_unscheduled():
    # The batched env hands the crawl policy its finished crawls' components as arrays
    # (rlm_gym.wrappers.vector_crawl): faster than per-env wrappers, the same agent.
    assert RunConfig(CRAWL_V2_ENV_ID, "crawl", n_envs=16).reward_wrapping == "vector"
    assert RunConfig(CRAWL_V2_ENV_ID, "crawl", n_envs=4).reward_wrapping == "per_env"
    schedule = {"interpolation": "linear", "breakpoints": {"efficiency": [[0, 0.0], [1_000, 1.0]]}}
    scheduled = RunConfig(CRAWL_V2_ENV_ID, "crawl", n_envs=16, reward_schedule=schedule)
    assert scheduled.reward_wrapping == "per_env"


@pytest.mark.parametrize(("resets", "exact"), [("exact", True), ("fast", False)])
def test_the_batched_training_env_resets_as_the_run_config_says(resets, exact):
    config = RunConfig(CRAWL_V2_ENV_ID, "crawl", n_envs=16, vector_resets=resets)
    venv = make_training_vec_env(config, seed=0)
    try:
        assert venv.unwrapped.env.unwrapped.exact is exact
    finally:
        venv.close()


def test_vector_wrapping_refuses_shaping_and_unknown_names_with_the_choices():
    with pytest.raises(ValueError, match=r"cannot shape.*'per_env'"):
        resolve_reward_wrapping("vector", "potential", "dummy", 16)
    with pytest.raises(ValueError, match=r"Did you mean 'per_env'.*'auto', 'vector', 'per_env'"):
        RunConfig("CartPole-v1", "lenient", reward_wrapping="per-env")


def test_a_run_without_a_recorded_wrapping_resumes_per_env_as_it_trained():
    record = RunConfig("CartPole-v1", "lenient", algo="ppo").to_json()
    del record["reward_wrapping"]
    assert RunConfig.from_json(record).reward_wrapping == "per_env"


def test_passing_infos_without_copies_trains_the_same_agent_as_dummy_vec_env(monkeypatch):
    from stable_baselines3.common.vec_env import DummyVecEnv

    from rlm_gym.training import vec_envs

    settings = {"config": {"efficiency_errors": "graded"}, "reward_wrapping": "per_env"}
    passing = train(CRAWL_V2_ENV_ID, "crawl", total_timesteps=600, **{**TINY, **settings})
    assert type(passing.model.env).__name__ == "InfoPassingDummyVecEnv"
    monkeypatch.setattr(vec_envs, "info_passing_dummy_vec_env", lambda: DummyVecEnv)
    copying = train(CRAWL_V2_ENV_ID, "crawl", total_timesteps=600, **{**TINY, **settings})
    assert type(copying.model.env) is DummyVecEnv
    assert len(passing.episodes) > 3
    assert passing.episodes == copying.episodes
    np.testing.assert_array_equal(_parameters(passing.model), _parameters(copying.model))


def test_training_without_torchs_distribution_checks_trains_the_same_agent(monkeypatch):
    import contextlib

    import torch

    from rlm_gym.training import lifecycle

    before = torch.distributions.Distribution._validate_args
    settings = {"config": {"efficiency_errors": "graded"}}
    unchecked = train(CRAWL_V2_ENV_ID, "crawl", total_timesteps=600, **{**TINY, **settings})
    assert torch.distributions.Distribution._validate_args is before  # restored
    monkeypatch.setattr(lifecycle, "unchecked_distributions", contextlib.nullcontext)
    checked = train(CRAWL_V2_ENV_ID, "crawl", total_timesteps=600, **{**TINY, **settings})
    assert unchecked.episodes == checked.episodes
    np.testing.assert_array_equal(_parameters(unchecked.model), _parameters(checked.model))
