"""The oracle gap: an agent's shortfall against the oracle, split over its steps."""

from __future__ import annotations

import pytest

from rlm_gym.training.studies.oracle_gap import oracle_gap


def test_the_step_losses_add_up_to_the_first_minus_the_last_states_value():
    gap = oracle_gap("heuristic", n_episodes=4, seed=0)
    assert gap["start_value"] - gap["end_value"] == pytest.approx(gap["loss"])
    assert sum(row["loss"] for row in gap["by_phase"].values()) == pytest.approx(gap["loss"])
    assert sum(row["loss"] for row in gap["by_action"].values()) == pytest.approx(gap["loss"])


def test_the_oracle_agrees_with_itself_on_every_step():
    gap = oracle_gap("oracle", n_episodes=3, seed=5)
    assert gap["agree"] == 1.0
    assert all(set(row["oracle"]) == {name} for name, row in gap["by_action"].items())


def test_the_agents_episodes_are_those_evaluate_plays():
    from rlm_gym.training.evaluation import evaluate

    gap = oracle_gap("heuristic", n_episodes=3, seed=11)
    assert gap["score"] == pytest.approx(
        evaluate("heuristic", gap["env_id"], 3, 11).summary()["score"]
    )


def test_a_non_positive_episode_count_is_refused_by_name():
    with pytest.raises(ValueError, match="`n_episodes`"):
        oracle_gap("heuristic", n_episodes=0)
