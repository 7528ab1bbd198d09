"""Batched evaluation: the same episodes, the same records, as one episode at a time."""

from __future__ import annotations

import pytest

pytest.importorskip("stable_baselines3")

from rlm_gym.envs import CRAWL_V2_ENV_ID
from rlm_gym.training.episode_batch import play_batched
from rlm_gym.training.evaluation import evaluate
from rlm_gym.training.trainer import train

# Tiny budgets on purpose (seconds per run): each cuts PPO's rollout to fit, which
# tests/training/test_short_budget.py asserts warns; here the warning is expected and silenced.
_SHORT_BUDGET = pytest.mark.filterwarnings("ignore::rlm_gym.training.run_config.ShortBudgetWarning")
pytestmark = [pytest.mark.slow, _SHORT_BUDGET]
QUIET = {"progress_bar": False, "tensorboard": False, "n_eval_episodes": 0}


@pytest.fixture(scope="module")
def crawl_agent():
    """A MaskablePPO crawl agent after two rollouts: its greedy play varies by episode."""
    return train(
        CRAWL_V2_ENV_ID,
        "crawl",
        total_timesteps=2 * 8 * 128,
        n_envs=8,
        hyperparams={"n_steps": 128, "batch_size": 256},
        seed=1,
        **QUIET,
    ).model


@pytest.mark.parametrize("n_envs", [2, 7, 40])
def test_a_crawl_agent_plays_the_same_episodes_batched_as_one_at_a_time(crawl_agent, n_envs):
    one_by_one = evaluate(crawl_agent, CRAWL_V2_ENV_ID, 40, seed=500_000, n_envs=1)
    batched = evaluate(crawl_agent, CRAWL_V2_ENV_ID, 40, seed=500_000, n_envs=n_envs)
    assert batched.episodes == one_by_one.episodes
    lengths = {record["length"] for record in batched.episodes}
    assert len(lengths) > 1  # episodes of different lengths end at different steps


def test_evaluate_batches_a_greedy_model_by_default(crawl_agent, monkeypatch):
    calls = []
    original = crawl_agent.predict

    def counting(observation, *args, **kwargs):
        calls.append(len(observation) if observation.ndim == 2 else 1)
        return original(observation, *args, **kwargs)

    monkeypatch.setattr(crawl_agent, "predict", counting)
    result = evaluate(crawl_agent, CRAWL_V2_ENV_ID, 30, seed=0)
    steps = sum(record["length"] for record in result.episodes)
    assert sum(calls) == steps  # every step's action came from one of the batched calls
    assert len(calls) < steps / 5
    assert max(calls) == 30


def test_a_plain_ppo_model_on_cartpole_plays_the_same_episodes_batched():
    model = train("CartPole-v1", "lenient", total_timesteps=512, n_envs=2, seed=0, **QUIET)
    one_by_one = evaluate(model.model, "CartPole-v1", 6, seed=3, n_envs=1)
    batched = evaluate(model.model, "CartPole-v1", 6, seed=3, n_envs=4)
    assert batched.episodes == one_by_one.episodes


def test_sampled_actions_are_played_one_episode_at_a_time(crawl_agent, monkeypatch):
    played = []
    monkeypatch.setattr(
        "rlm_gym.training.evaluation.play_batched", lambda *a, **k: played.append(a)
    )
    evaluate(crawl_agent, CRAWL_V2_ENV_ID, 3, seed=0, deterministic=False)
    assert played == []


def test_play_batched_returns_episodes_in_seed_order_and_caps_their_length(crawl_agent):
    records = play_batched(crawl_agent, CRAWL_V2_ENV_ID, 5, 10, n_envs=3, max_episode_steps=2)
    assert [record["length"] <= 2 for record in records] == [True] * 5
    single = [evaluate(crawl_agent, CRAWL_V2_ENV_ID, 1, seed=10 + i, n_envs=1) for i in range(5)]
    full = play_batched(crawl_agent, CRAWL_V2_ENV_ID, 5, 10, n_envs=3)
    assert full == [result.episodes[0] for result in single]


@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_n_envs_must_be_a_positive_integer(bad):
    with pytest.raises(ValueError, match=r"`n_envs` to be a positive integer or None, got"):
        evaluate("random", CRAWL_V2_ENV_ID, 2, n_envs=bad)
