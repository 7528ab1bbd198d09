"""The rlm-gym command line: policies and compare."""

from __future__ import annotations

import json

from rlm_gym.cli import compare_policies, main


def test_policies_lists_builtins_as_json(capsys):
    assert main(["policies", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    by_name = {row["name"]: row for row in rows}
    expected = ["attempt", "success", "failure", "progress", "final"]
    assert by_name["lenient"]["components"] == expected
    assert by_name["binary"]["value_range"] == [0.0, 1.0]
    assert by_name["default"]["default_config"]["success_bonus"] == 0.7


def test_compare_episode_reward_is_sum_of_mean_components_when_nothing_clamps():
    # On CartPole strict and research never leave [-1, 1], so no step value is clamped.
    rows = compare_policies("CartPole-v1", ["strict", "research"], episodes=2, seed=3)
    for row in rows:
        assert abs(row["episode_reward"] - sum(row["components"].values())) < 1e-9


def test_compare_episode_reward_counts_clamped_values():
    (row,) = compare_policies("CartPole-v1", ["default"], episodes=1, seed=3)
    # The final step's 0.1 + 0.7 + 0.5 = 1.3 is clamped to 1.0 in the episode reward.
    assert abs(sum(row["components"].values()) - row["episode_reward"] - 0.3) < 1e-9


def test_unknown_policy_exits_2_with_suggestion(capsys):
    assert main(["compare", "--policy", "lenint"]) == 2
    assert "Did you mean 'lenient'?" in capsys.readouterr().err
