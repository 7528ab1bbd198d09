"""Run directories: unique names, atomic writes, models found (or clearly missing)."""

from __future__ import annotations

import errno
import json
import os

import pytest

from rlm_gym.training import runs
from rlm_gym.training.runs import (
    RunWriteError,
    append_episodes,
    atomic_write,
    default_run_name,
    find_model,
    read_episodes,
    read_run_config,
    unique_run_dir,
    write_episodes,
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


def test_appending_episodes_gives_the_file_a_whole_rewrite_gives(tmp_path):
    records = [{"timestep": 8 * i, "score": i / 10, "tier": "good"} for i in range(1, 7)]
    appended, rewritten = tmp_path / "appended.csv", tmp_path / "rewritten.csv"
    write_episodes(records[:2], appended)
    assert append_episodes(records[2:5], appended, ["timestep", "score", "tier"])
    assert append_episodes(records[5:], appended, ["timestep", "score", "tier"])
    write_episodes(records, rewritten)
    assert appended.read_bytes() == rewritten.read_bytes()
    assert read_episodes(appended) == records


def test_a_record_with_a_new_column_is_not_appended(tmp_path):
    path = tmp_path / "episodes.csv"
    write_episodes([{"timestep": 8, "score": 0.5}], path)
    before = path.read_bytes()
    assert not append_episodes([{"timestep": 16, "banned": 1}], path, ["timestep", "score"])
    assert path.read_bytes() == before


def test_a_line_cut_short_by_a_kill_is_not_read_as_an_episode(tmp_path):
    path = tmp_path / "episodes.csv"
    write_episodes([{"timestep": 8, "score": 0.5}, {"timestep": 16, "score": 0.75}], path)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("2")  # the kill came after one character of "24,1.0"
    assert [record["timestep"] for record in read_episodes(path)] == [8, 16]


def test_a_failed_append_says_the_earlier_episodes_are_intact(tmp_path, monkeypatch):
    path = tmp_path / "episodes.csv"
    write_episodes([{"timestep": 8, "score": 0.5}], path)

    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(runs.os, "fsync", no_space)
    with pytest.raises(RunWriteError) as raised:
        append_episodes([{"timestep": 16, "score": 1.0}], path, ["timestep", "score"])
    assert raised.value.errno == errno.ENOSPC
    assert str(raised.value) == (
        f"Could not append to {path}: No space left on device; "
        "the episodes it held before are intact"
    )
    assert read_episodes(path)[0] == {"timestep": 8, "score": 0.5}
