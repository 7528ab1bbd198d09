"""The oracle's clone: recorded from its play, fitted, scored."""

from __future__ import annotations

import pytest

from rlm_gym.training.studies.imitation import clone_oracle_report, oracle_demonstrations


def test_the_demonstrations_are_the_oracles_valid_actions_step_by_step():
    obs, masks, actions, episodes = oracle_demonstrations(n_episodes=3, seed=2)
    assert len(obs) == len(masks) == len(actions) == len(episodes) > 3
    assert masks[range(len(actions)), actions].all()
    assert sorted(set(episodes.tolist())) == [0, 1, 2]


@pytest.mark.slow
def test_the_clone_reports_its_accuracy_and_its_score():
    report = clone_oracle_report(n_train_episodes=20, n_eval_episodes=3, epochs=2)
    assert report["train_episodes"] == 18
    assert 0.0 <= report["heldout_accuracy"] <= 1.0
    assert report["evaluation"]["episodes"] == 3


def test_a_heldout_share_outside_the_unit_interval_is_refused():
    with pytest.raises(ValueError, match="`heldout_share`"):
        clone_oracle_report(heldout_share=1.0)
