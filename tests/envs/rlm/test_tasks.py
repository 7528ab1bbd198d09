"""Tasks: exact lengths, seeded determinism, answers that match the context, scoring."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rlm_gym.envs.rlm.submodels import OfflineReader
from rlm_gym.envs.rlm.tasks import (
    FAMILIES,
    LABELS,
    MAX_LENGTH,
    MIN_LENGTH,
    Task,
    generate_task,
    score_answer,
    topic_of,
)


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("length", [MIN_LENGTH, 2**15 + 7, 2**20])
def test_context_has_exactly_the_asked_length(family, length):
    assert len(generate_task(family, length, seed=5).context) == length


def test_the_largest_length_is_generated():
    assert len(generate_task("needle", MAX_LENGTH, seed=0).context) == MAX_LENGTH


@pytest.mark.parametrize("family", FAMILIES)
def test_same_seed_same_task_other_seed_other_task(family):
    a, b, c = (generate_task(family, 2**14, seed=s) for s in (7, 7, 8))
    assert (a.context, a.query, a.answer) == (b.context, b.query, b.answer)
    assert a.context != c.context


@pytest.mark.parametrize("family", FAMILIES)
def test_expected_answer_scores_one(family):
    task = generate_task(family, 2**14, seed=2)
    assert task.score(task.answer) == 1.0


def test_needle_answer_is_written_once_in_the_context():
    task = generate_task("needle", 2**16, seed=4)
    key = task.metadata["key"]
    assert task.context.count(f"secret code for {key} is {task.answer}.") == 1


@pytest.mark.parametrize("seed", range(4))
def test_aggregation_answer_is_the_count_over_every_record(seed):
    task = generate_task("aggregation", 2**15, seed=seed)
    rows = json.loads(OfflineReader().answer(task.context + "\n\nQuestion: label by topic"))
    counts = {label: 0 for label in LABELS}
    for _, label in rows:
        counts[label] += 1
    assert counts == task.metadata["counts"]
    # The label itself is never written in a record: a reader has to judge the question.
    assert "description" not in task.context.split("Instance:")[1]


@pytest.mark.parametrize("seed", range(3))
def test_pairs_answer_is_every_pair_of_users_with_the_rare_topic(seed):
    task = generate_task("pairs", 2**15, seed=seed)
    users = task.metadata["users"]
    assert len(task.answer) == len(users) * (len(users) - 1) // 2
    assert all(a < b for a, b in task.answer)


@pytest.mark.parametrize("length", [MIN_LENGTH, 2**16, 2**20])
def test_multihop_needs_two_facts_both_in_the_context(length):
    task = generate_task("multihop", length, seed=1)
    person = task.metadata["person"]
    city = task.context.split(f"{person} was born in ")[1].split(".")[0]
    assert f"{city} is a city in {task.answer}." in task.context


def test_unknown_family_names_the_closest():
    with pytest.raises(ValueError, match="Did you mean 'needle'"):
        generate_task("neddle", 2**13)


@pytest.mark.parametrize("length", [MIN_LENGTH - 1, MAX_LENGTH + 1])
def test_length_out_of_range_is_refused(length):
    with pytest.raises(ValueError, match=r"`length` in \[2\*\*13, 2\*\*23\]"):
        generate_task("needle", length)


def test_numeric_score_follows_oolong():
    assert score_answer("numeric", "There are 10 of them", 10) == 1.0
    assert score_answer("numeric", "8", 10) == pytest.approx(0.75**2)
    assert score_answer("numeric", "none", 10) == 0.0


def test_exact_score_ignores_case_and_punctuation():
    assert score_answer("exact", " More common than. ", "more common than") == 1.0
    assert score_answer("exact", "less common than", "more common than") == 0.0


def test_f1_over_pairs_reads_lists_and_text():
    expected = [[1, 2], [1, 3], [2, 3]]
    assert score_answer("f1", "[(1, 2), (1, 3), (2, 3)]", expected) == 1.0
    assert score_answer("f1", [(2, 1)], expected) == pytest.approx(0.5)
    assert score_answer("f1", "", expected) == 0.0


@given(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 50)), max_size=20), st.data())
def test_f1_is_in_unit_interval_and_one_only_on_the_same_set(pairs, data):
    truth = data.draw(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 50)), max_size=20))
    score = score_answer("f1", pairs, truth)
    assert 0.0 <= score <= 1.0
    same = {tuple(sorted(p)) for p in pairs} == {tuple(sorted(p)) for p in truth}
    assert (score == 1.0) == same


@given(st.integers(-1000, 1000), st.integers(-1000, 1000))
def test_numeric_score_decreases_with_the_error(answer, expected):
    score = score_answer("numeric", str(answer), expected)
    assert 0.0 <= score <= 1.0
    assert score >= score_answer(
        "numeric", str(answer + (1 if answer >= expected else -1)), expected
    )


def test_user_task_scores_with_its_checker():
    task = Task.custom("alpha beta", "Second word?", lambda answer: float(answer == "beta"))
    assert (task.score("beta"), task.score("alpha")) == (1.0, 0.0)


def test_user_task_checker_out_of_range_is_an_error():
    task = Task.custom("x", "q", lambda answer: 2.0)
    with pytest.raises(ValueError, match=r"return \[0, 1\]"):
        task.score("a")


def test_topics_come_from_the_question_templates():
    assert topic_of("where is Kalo located") == "location"
    assert topic_of("hello") is None
