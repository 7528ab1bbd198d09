"""Hyper-parameters: checked kinds, rl-zoo3 schedules, rl-zoo3's YAML layout."""

from __future__ import annotations

import pytest

from rlm_gym.training.hyperparams import (
    check_hyperparams,
    load_zoo_hyperparams,
    parse_policy_kwargs,
    schedule_value,
)

pytest.importorskip("yaml")

# hyperparams/ppo.yml of DLR-RM/rl-baselines3-zoo (CartPole-v1 section, as published).
ZOO_FILE = """\
atari:
  env_wrapper:
    - stable_baselines3.common.atari_wrappers.AtariWrapper
  frame_stack: 4
  policy: 'CnnPolicy'

# Tuned
CartPole-v1:
  n_envs: 8
  n_timesteps: !!float 1e5
  policy: 'MlpPolicy'
  n_steps: 32
  batch_size: 256
  gae_lambda: 0.8
  gamma: 0.98
  n_epochs: 20
  ent_coef: 0.0
  learning_rate: lin_0.001
  clip_range: lin_0.2

default:
  n_timesteps: 5000
  policy_kwargs: "dict(net_arch=[32, 32], activation_fn=nn.ReLU)"
"""


@pytest.fixture
def zoo_file(tmp_path):
    path = tmp_path / "ppo.yml"
    path.write_text(ZOO_FILE)
    return path


def test_the_env_section_gives_budget_envs_and_kwargs(zoo_file):
    loaded = load_zoo_hyperparams(zoo_file, "CartPole-v1")
    assert loaded["total_timesteps"] == 100_000 and loaded["n_envs"] == 8
    assert loaded["hyperparams"]["n_steps"] == 32
    assert loaded["hyperparams"]["learning_rate"] == "lin_0.001"
    assert "policy" not in loaded["hyperparams"]


def test_an_env_without_a_section_reads_default(zoo_file):
    loaded = load_zoo_hyperparams(zoo_file, "rlm_gym/Crawl-v1")
    assert loaded["total_timesteps"] == 5000 and loaded["n_envs"] is None
    assert loaded["hyperparams"]["policy_kwargs"] == {
        "net_arch": [32, 32],
        "activation_fn": "nn.ReLU",
    }


def test_rl_zoo_linear_schedules_are_read():
    assert schedule_value("lin_0.001") == 0.001
    assert schedule_value("linear") is None


def test_policy_kwargs_strings_are_parsed_without_eval():
    with pytest.raises(ValueError, match=r"unsupported name os\.system"):
        parse_policy_kwargs("dict(activation_fn=os.system)")
    with pytest.raises(ValueError, match="Expected `policy_kwargs`"):
        parse_policy_kwargs("__import__('os')")


@pytest.mark.parametrize(
    ("params", "error", "message"),
    [
        ({"n_steps": 0}, ValueError, "positive integer, got int 0"),
        ({"n_steps": 2.5}, ValueError, "positive integer"),
        ({"n_steps": True}, TypeError, "positive integer, got bool True"),
        ({"learning_rate": "lin_x"}, TypeError, "schedule like 'lin_0.001'"),
        ({"gamma": 1.5}, ValueError, "in [0, 1]"),
        ({"normalize_advantage": 1}, TypeError, "true or false"),
        ({"use_sde": True}, ValueError, "Unknown hyper-parameter 'use_sde' of maskable_ppo"),
        ({"policy_kwargs": [64]}, TypeError, "mapping"),
    ],
)
def test_wrong_values_are_named(params, error, message):
    with pytest.raises(error, match=message.replace("[", r"\[").replace("(", r"\(")):
        check_hyperparams(params, "maskable_ppo" if "use_sde" in params else "ppo")


def test_a_refused_env_wrapper_says_what_to_do_instead(tmp_path):
    path = tmp_path / "ppo.yml"
    path.write_text("default:\n  env_wrapper:\n    - rlm_gym.wrappers.RewardPolicyWrapper\n")
    with pytest.raises(ValueError) as refused:
        load_zoo_hyperparams(path, "rlm_gym/Crawl-v1")
    message = str(refused.value)
    assert message.startswith("`env_wrapper` in ")
    assert (
        "an rl-zoo3 key rlm-gym does not support; rlm-gym wraps the env in the reward " in message
    )
    assert "remove `env_wrapper` from the file, or train with rl-zoo3 itself" in message
    assert "python -m rl_zoo3.train" in message


@pytest.mark.parametrize(
    ("value", "at_50"),
    [
        ("{interpolation: step, breakpoints: {success: [[0, 1.0], [100, 0.0]]}}", 1.0),
        ("'success=0:1,100:0'", 0.5),
    ],
)
def test_a_reward_schedule_key_is_read_as_a_dict_or_the_text_form(tmp_path, value, at_50):
    pytest.importorskip("yaml")
    path = tmp_path / "ppo.yml"
    path.write_text(f"CartPole-v1:\n  n_steps: 32\n  reward_schedule: {value}\n")
    loaded = load_zoo_hyperparams(path, "CartPole-v1")
    assert loaded["reward_schedule"].weights_at(50) == {"success": at_50}
    assert "reward_schedule" not in loaded["hyperparams"]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("[1, 2]", "Expected `reward_schedule` in "),
        ("'success=0:1,0:0'", "`reward_schedule` in "),
        ("{breakpoints: {success: [[0, -1]]}}", "finite and >= 0"),
    ],
)
def test_a_bad_reward_schedule_key_is_named(tmp_path, value, message):
    pytest.importorskip("yaml")
    path = tmp_path / "ppo.yml"
    path.write_text(f"CartPole-v1:\n  reward_schedule: {value}\n")
    with pytest.raises(ValueError, match="reward_schedule") as raised:
        load_zoo_hyperparams(path, "CartPole-v1")
    assert message in str(raised.value) and str(raised.value).count("`reward_schedule`") == 1
