"""``numerics``: the float platform a run records, and what differs between two of them."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from rlm_gym.training.numerics import (
    NUMERICS_ENV_VARS,
    numerics,
    numerics_differences,
    segments_numerics,
)


def test_numerics_names_cpu_kernels_threads_and_library_versions():
    torch = pytest.importorskip("torch")
    record = numerics()
    assert record["cpu"] and record["machine"]
    assert record["torch_cpu_capability"] == torch.backends.cpu.get_cpu_capability()
    assert record["torch_threads"] == torch.get_num_threads()
    assert record["versions"]["torch"] == str(torch.__version__)
    assert record["versions"]["numpy"] == np.__version__
    assert json.loads(json.dumps(record)) == record  # goes into config.json as it is


def test_numerics_records_the_variables_that_choose_float_code_paths(monkeypatch):
    for name in NUMERICS_ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    assert numerics()["env"] == {}
    monkeypatch.setenv("MKL_CBWR", "AVX2")
    monkeypatch.setenv("ATEN_CPU_CAPABILITY", "default")
    monkeypatch.setenv("UNRELATED_VARIABLE", "1")
    assert numerics()["env"] == {"ATEN_CPU_CAPABILITY": "default", "MKL_CBWR": "AVX2"}


def test_numerics_draws_nothing_and_sets_no_threads():
    torch = pytest.importorskip("torch")
    torch_state, np_state, py_state = (
        torch.get_rng_state(),
        np.random.get_state(),
        random.getstate(),
    )
    threads = torch.get_num_threads()
    numerics()
    assert torch.equal(torch.get_rng_state(), torch_state)
    assert all(np.array_equal(a, b) for a, b in zip(np.random.get_state(), np_state, strict=True))
    assert random.getstate() == py_state
    assert torch.get_num_threads() == threads


def test_differences_name_each_changed_key_nested_keys_by_path():
    old = {"cpu": "A", "torch_cpu_capability": "AVX2", "versions": {"torch": "2.13.0"}, "env": {}}
    new = {"cpu": "B", "torch_cpu_capability": "AVX512", "versions": {"torch": "2.13.0"}, "env": {}}
    assert numerics_differences(old, new) == [
        "cpu: A -> B",
        "torch_cpu_capability: AVX2 -> AVX512",
    ]
    new_env = {**old, "env": {"MKL_CBWR": "AVX2"}}
    assert numerics_differences(old, new_env) == ["env.MKL_CBWR: None -> AVX2"]
    assert numerics_differences([old], old) == []


def test_differences_of_an_unrecorded_or_resumed_elsewhere_run():
    now = numerics()
    assert numerics_differences(None, now) == ["not recorded"]
    assert numerics_differences([], now) == ["not recorded"]
    assert numerics_differences([None, now], now) == ["not recorded"]
    other = {**now, "cpu": "another"}
    assert numerics_differences([other, now], now) == [
        "trained on 2 platforms (a run resumed elsewhere)"
    ]


def test_segments_numerics_keeps_each_platform_once_in_order():
    a, b = {"cpu": "A"}, {"cpu": "B"}
    segments = [{"numerics": a}, {"numerics": b}, {"numerics": a}, {"from_timesteps": 9}]
    assert segments_numerics(segments) == [a, b, None]
    assert segments_numerics([]) == []
