"""Sub-models: the offline reader's rules, callables, and what is refused."""

from __future__ import annotations

import json

import pytest

from rlm_gym.envs.rlm.submodels import (
    NOT_FOUND,
    CallableSubModel,
    OfflineReader,
    make_submodel,
)
from rlm_gym.envs.rlm.tasks import generate_task


def test_reader_finds_the_needle_only_where_it_is():
    task = generate_task("needle", 2**14, seed=3)
    key = task.metadata["key"]
    question = f"\n\nQuestion: What is the secret code for {key}?"
    where = task.context.index(key)
    reader = OfflineReader()
    assert reader.answer(task.context[where - 100 : where + 100] + question) == task.answer
    assert reader.answer(task.context[:50] + question) == NOT_FOUND


def test_reader_labels_every_record_of_its_chunk():
    task = generate_task("aggregation", 2**13, seed=1)
    rows = json.loads(OfflineReader().answer(task.context + "\n\nQuestion: the topic of each"))
    assert len(rows) == task.context.count("User: ")
    assert all(label is not None for _, label in rows)


def test_reader_returns_the_facts_about_a_subject():
    task = generate_task("multihop", 2**13, seed=2)
    person = task.metadata["person"]
    answer = OfflineReader().answer(task.context + f"\n\nQuestion: facts about {person}")
    assert answer.startswith(person) and "was born in" in answer


def test_reader_refuses_other_questions():
    assert "cannot answer" in OfflineReader().answer("text\n\nQuestion: what is love?")


def test_callable_is_called_once_per_prompt():
    assert CallableSubModel(len).complete(["ab", "abc"]) == ["2", "3"]


def test_make_submodel_refuses_what_is_not_a_model():
    with pytest.raises(TypeError, match="Expected `sub_model`"):
        make_submodel(42)
    assert isinstance(make_submodel("offline"), OfflineReader)
