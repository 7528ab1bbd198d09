"""RunConfig: settings checked once, resolved once, written to and read from config.json."""

from __future__ import annotations

import dataclasses

import pytest

from rlm_gym.training.env_factory import crawl_potential
from rlm_gym.training.run_config import RunConfig, ShortBudgetWarning
from rlm_gym.training.trainer import train

# The settings part of a config.json written by rlm-gym 0.2 (`train("CartPole-v1", "lenient",
# total_timesteps=512, n_envs=2, hyperparams={"n_steps": 64}, checkpoint_freq=256, ...)`).
CONFIG_0_2 = {
    "env_id": "CartPole-v1",
    "policy": "lenient",
    "policy_is_instance": False,
    "config": {},
    "disable": [],
    "weights": {},
    "total_timesteps": 512,
    "n_envs": 2,
    "seed": 0,
    "algo": "ppo",
    "hyperparams": {
        "n_steps": 64,
        "batch_size": 128,
        "n_epochs": 10,
        "learning_rate": 0.001,
        "gamma": 0.99,
        "gae_lambda": 0.95,
        "ent_coef": 0.01,
        "clip_range": 0.2,
        "policy_kwargs": {"net_arch": [64, 64]},
    },
    "env_kwargs": {},
    "shaping": None,
    "vec_env": "dummy",
    "torch_threads": 1,
    "tensorboard": True,
    "checkpoint_freq": 256,
    "eval_freq": 256,
    "n_eval_episodes": 2,
    "eval_seed": 500000,
}
RUN_STATE_0_2 = {"python": "3.11.7", "status": "interrupted", "timesteps_done": 256}


BAD_SETTINGS = [
    ({"total_timesteps": 0}, ValueError, "`total_timesteps` to be a positive integer, got 0"),
    ({"n_envs": "4"}, TypeError, "Expected `n_envs` to be a positive integer, got '4'"),
    ({"eval_freq": -1}, ValueError, "Expected `eval_freq` to be an integer >= 0, got -1"),
    ({"vec_env": "subprocess"}, ValueError, "vec_env 'subprocess'. Did you mean 'subproc'?"),
    ({"algo": "ppo2"}, ValueError, "Unknown algo 'ppo2'. Did you mean 'ppo'?"),
    ({"hyperparams": {"n_steps": "abc"}}, TypeError, "`hyperparams n_steps` to be a positive"),
    ({"vector_resets": "exactly"}, ValueError, "vector_resets 'exactly'. Did you mean 'exact'?"),
]


@pytest.mark.parametrize(("settings", "error", "message"), BAD_SETTINGS)
def test_a_bad_setting_fails_at_construction_naming_it(settings, error, message):
    with pytest.raises(error, match=message.replace("?", r"\?")):
        RunConfig("CartPole-v1", "lenient", **settings)


def test_hyperparams_are_resolved_once_under_the_defaults_and_the_budget():
    with pytest.warns(ShortBudgetWarning, match="cut to 128 x 2"):  # the budget fits it
        config = RunConfig("CartPole-v1", total_timesteps=256, n_envs=2, hyperparams={"gamma": 0.9})
    assert config.hyperparams["n_steps"] == 128 and config.hyperparams["batch_size"] == 256
    assert config.hyperparams["gamma"] == config.shaping_gamma == 0.9
    assert config.hyperparams["policy_kwargs"] == {"net_arch": [64, 64]}
    assert dataclasses.replace(config, seed=1).hyperparams == config.hyperparams


def test_a_run_config_is_frozen():
    config = RunConfig("CartPole-v1")
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.seed = 1


def test_a_config_json_of_0_2_reads_back_and_writes_the_same_settings():
    config = RunConfig.from_json({**CONFIG_0_2, **RUN_STATE_0_2}, log_dir="runs/cp")
    # Plus the reward wrapping it trained with (0.2 had only per-env wrappers), after vec_env.
    expected = {}
    for key, value in CONFIG_0_2.items():
        expected[key] = value
        if key == "vec_env":
            expected["reward_wrapping"] = "per_env"
    assert config.to_json() == expected
    assert list(config.to_json()) == list(expected)
    assert (config.checkpoint_freq, config.log_dir, config.progress_bar) == (256, "runs/cp", True)


def test_a_setting_an_older_file_lacks_takes_the_value_training_gave_it():
    old = {key: CONFIG_0_2[key] for key in ("env_id", "policy", "algo", "total_timesteps")}
    # 0.2's record holds a budget below the default rollout: resolving it warns as training did.
    with pytest.warns(ShortBudgetWarning):
        config = RunConfig.from_json({**old, "n_envs": 2, "seed": 0})
    assert (config.checkpoint_freq, config.eval_freq, config.n_eval_episodes) == (0, 0, 0)
    assert config.torch_threads is None and config.tensorboard is True


def test_a_run_shaped_with_the_crawl_potential_before_0_3_still_resolves_it():
    record = {**CONFIG_0_2, "shaping": "rlm_gym.training.trainer:crawl_potential"}
    assert RunConfig.from_json(record).shaping is crawl_potential
    assert RunConfig("CartPole-v1", shaping=crawl_potential).to_json()["shaping"] == (
        "rlm_gym.training.env_factory:crawl_potential"
    )


def test_train_takes_a_run_config_or_its_settings_not_both():
    with pytest.raises(TypeError, match="not both"):
        train(RunConfig("CartPole-v1"), "lenient")
    with pytest.raises(TypeError, match="multiple values for argument 'env_id'"):
        train("CartPole-v1", env_id="CartPole-v0")


def test_fast_vector_resets_are_recorded_and_read_back_exact_ones_are_not_written():
    fast = RunConfig("CartPole-v1", "lenient", algo="ppo", vector_resets="fast").to_json()
    assert fast["vector_resets"] == "fast"
    assert RunConfig.from_json(fast).vector_resets == "fast"
    exact = RunConfig("CartPole-v1", "lenient", algo="ppo").to_json()
    assert "vector_resets" not in exact  # what runs before the setting wrote
    assert RunConfig.from_json(exact).vector_resets == "exact"
