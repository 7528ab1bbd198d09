"""Finding and reading the labelled corpora (``rlm_gym.quality.corpora``), on made-up folders."""

from __future__ import annotations

import json

import pytest

from rlm_gym.quality import corpora
from rlm_gym.quality.corpora import (
    CORPORA_ENV,
    CorporaUnavailable,
    corpora_root,
    corpus_dir,
    is_sealed,
    load_corpus,
    read_crawls,
)


def _folder(root, name="world_a", crawls=({"data": []},), labels=({"line": 1},)):
    folder = root / name
    folder.mkdir(parents=True)
    text = "".join(json.dumps(crawl, ensure_ascii=False) + "\n" for crawl in crawls)
    (folder / "crawls.jsonl").write_text(text, encoding="utf-8")
    (folder / "labels.json").write_text(json.dumps(list(labels)), encoding="utf-8")
    return folder


def test_the_environment_variable_wins(tmp_path, monkeypatch):
    folder = _folder(tmp_path)
    monkeypatch.setenv(CORPORA_ENV, str(tmp_path))
    assert corpora_root() == tmp_path
    assert corpus_dir("world_a") == folder


def test_without_the_variable_the_shared_folder_beside_the_checkout_is_used(tmp_path, monkeypatch):
    monkeypatch.delenv(CORPORA_ENV, raising=False)
    monkeypatch.setattr(corpora, "_REPO_ROOT", tmp_path / "repo")
    assert corpora_root() is None
    shared = tmp_path / "shared" / "corpora"
    shared.mkdir(parents=True)
    assert corpora_root() == shared


def test_missing_corpora_say_where_they_were_looked_for(tmp_path, monkeypatch):
    monkeypatch.delenv(CORPORA_ENV, raising=False)
    monkeypatch.setattr(corpora, "_REPO_ROOT", tmp_path / "repo")
    with pytest.raises(CorporaUnavailable, match=f"set \\${CORPORA_ENV}"):
        corpus_dir("realdata")
    monkeypatch.setenv(CORPORA_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(CorporaUnavailable, match=r"no corpus 'realdata' at .*nowhere"):
        corpus_dir("realdata")


def test_an_unknown_corpus_name_gets_the_closest_one():
    with pytest.raises(ValueError, match="Did you mean 'devcorpus'"):
        corpus_dir("devcorpsu")


def test_crawls_are_split_on_newlines_only(tmp_path):
    values = ["a\u2028b", "c\u0085d", "e\x1cf", "g\rh"]
    folder = _folder(tmp_path, crawls=[{"data": [{"name": v}]} for v in values], labels=[{}] * 4)
    assert [crawl["data"][0]["name"] for crawl in read_crawls(folder)] == values


def test_a_corpus_with_more_crawls_than_labels_is_refused(tmp_path):
    folder = _folder(tmp_path, crawls=[{"data": []}, {"data": []}], labels=[{"line": 1}])
    with pytest.raises(ValueError, match="2 crawls but 1 labels"):
        load_corpus(folder)


def test_sealed_folders_are_sealed_and_world_b_no_longer_is():
    # world_b's first scoring is kept (results.json); it is a development corpus since.
    assert is_sealed("x/sealed7") and not is_sealed("x/world_b")
    assert "world_b" in corpora.OPEN_CORPORA and "world_b" in corpora.FIRST_SCORED_CORPORA
    assert not any(is_sealed(f"x/{name}") for name in corpora.OPEN_CORPORA)
