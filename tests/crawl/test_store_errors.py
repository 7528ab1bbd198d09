"""Knowledge store errors: a locked, missing, misplaced or full store file says what it is."""

from __future__ import annotations

import errno
import sqlite3

import pytest

from rlm_gym.crawl import KnowledgeStore
from rlm_gym.crawl.store_errors import KnowledgeStoreError


def test_a_store_locked_past_its_timeout_says_locked(tmp_path):
    path = tmp_path / "kb.sqlite"
    with KnowledgeStore(path) as store:
        store.record("a.vn", "product_list", "s", 0.9)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        waiting = KnowledgeStore(path, timeout_s=0.05)
        with pytest.raises(KnowledgeStoreError, match="stayed locked") as caught:
            waiting.record("b.vn", "product_list", "s", 0.5)
        assert caught.value.reason == "locked"
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert waiting.record("b.vn", "product_list", "s", 0.5) == 2  # usable once released
    waiting.close()


def test_a_store_in_a_missing_directory_names_the_directory(tmp_path):
    store = KnowledgeStore(tmp_path / "no" / "such" / "kb.sqlite")
    with pytest.raises(KnowledgeStoreError, match="does not exist") as caught:
        len(store)
    assert caught.value.reason == "cannot-open"
    assert str(tmp_path / "no" / "such") in str(caught.value)


def test_a_directory_given_as_the_store_path_is_an_error(tmp_path):
    with pytest.raises(KnowledgeStoreError, match="is a directory"):
        len(KnowledgeStore(tmp_path))


def test_store_errors_are_os_errors_with_an_errno(tmp_path):
    path = tmp_path / "kb.sqlite"
    store = KnowledgeStore(path, max_bytes=20_000)
    with pytest.raises(OSError) as caught:
        for index in range(10_000):
            store.record("a.vn", "product_list", f"s{index}" + "x" * 300, 0.5)
    assert caught.value.errno == errno.ENOSPC
    store.close()
