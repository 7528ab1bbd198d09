"""Run directories: unique names, atomic writes, models found (or clearly missing)."""

from __future__ import annotations

import errno
import json
import os

import pytest

from rlm_gym.training import runs
from rlm_gym.training.runs import (
    RunWriteError,
    atomic_write,
    default_run_name,
    find_model,
    read_run_config,
    unique_run_dir,
    write_json_atomic,
)


def test_a_new_run_never_reuses_a_directory_holding_files(tmp_path):
    first = unique_run_dir(tmp_path / "run")
    (first / "model.zip").write_bytes(b"old")
    second = unique_run_dir(tmp_path / "run")
    (second / "model.zip").write_bytes(b"new")
    third = unique_run_dir(tmp_path / "run")
    assert [first.name, second.name, third.name] == ["run", "run-2", "run-3"]
    assert (first / "model.zip").read_bytes() == b"old"


def test_an_existing_empty_directory_is_used_as_is(tmp_path):
    (tmp_path / "run").mkdir()
    assert unique_run_dir(tmp_path / "run") == tmp_path / "run"


def test_a_file_in_the_way_counts_as_taken(tmp_path):
    (tmp_path / "run").write_text("not a directory")
    assert unique_run_dir(tmp_path / "run").name == "run-2"


def test_ablation_variants_get_different_default_names():
    names = {
        default_run_name("crawl", 0, [], None, "rlm_gym/Crawl-v1"),
        default_run_name("crawl", 0, ["efficiency"], None, "rlm_gym/Crawl-v1"),
        default_run_name("crawl", 0, ["quantity"], None, "rlm_gym/Crawl-v1"),
        default_run_name("crawl", 0, ["quantity", "efficiency"], None, "rlm_gym/Crawl-v1"),
        default_run_name("crawl", 0, [], {"quantity": 2}, "rlm_gym/Crawl-v1"),
        default_run_name("crawl", 1, [], None, "rlm_gym/Crawl-v1"),
    }
    assert len(names) == 6


def test_atomic_write_replaces_the_file_in_one_step(tmp_path):
    target = tmp_path / "config.json"
    write_json_atomic(target, {"a": 1})
    write_json_atomic(target, {"a": 2})
    assert json.loads(target.read_text()) == {"a": 2}
    assert [p.name for p in tmp_path.iterdir()] == ["config.json"]


def test_an_error_inside_the_block_keeps_the_old_file_and_no_temp(tmp_path):
    target = tmp_path / "metrics.json"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_write(target) as handle:
        handle.write("half of the new")
        raise RuntimeError("crash while writing")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["metrics.json"]


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_a_full_disk_keeps_the_old_file_and_says_so(failing, tmp_path, monkeypatch):
    target = tmp_path / "model.zip"
    target.write_bytes(b"previous model")

    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(runs.os, failing, no_space)
    with pytest.raises(RunWriteError) as raised, atomic_write(target, "wb") as handle:
        handle.write(b"new model")
    assert raised.value.errno == errno.ENOSPC
    assert str(raised.value) == (
        f"Could not write {target}: No space left on device; "
        "its previous version (if any) is intact"
    )
    assert target.read_bytes() == b"previous model"
    assert [p.name for p in tmp_path.iterdir()] == ["model.zip"]


def test_find_model_prefers_the_final_model_then_the_checkpoint(tmp_path):
    (tmp_path / "checkpoint.zip").write_bytes(b"c")
    assert find_model(tmp_path).name == "checkpoint.zip"
    (tmp_path / "model.zip").write_bytes(b"m")
    assert find_model(tmp_path).name == "model.zip"
    assert find_model(tmp_path / "checkpoint.zip").name == "checkpoint.zip"


def test_find_model_names_the_directory_without_a_model(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"No model in .*expected model\.zip") as raised:
        find_model(tmp_path)
    assert "model.zip.zip" not in str(raised.value)


def test_read_run_config_rejects_a_broken_file(tmp_path):
    (tmp_path / "config.json").write_text("{not json")
    with pytest.raises(ValueError, match="is not valid JSON"):
        read_run_config(tmp_path)


def test_a_scheduled_component_names_the_run():
    plain = default_run_name("crawl", 0, (), None, "rlm_gym/Crawl-v2")
    scheduled = default_run_name(
        "crawl", 0, (), None, "rlm_gym/Crawl-v2", scheduled=["efficiency", "defects"]
    )
    assert plain == "Crawl-v2-crawl-seed0"
    assert scheduled == "Crawl-v2-crawl-sched_defects-sched_efficiency-seed0"
