"""Fault test: the policy registry used from 8 threads at once loses nothing and is never seen
half-registered (0.2: "the registry is safe to use from several threads")."""

from __future__ import annotations

import sys
import threading
import time
import warnings
from types import SimpleNamespace

import pytest

from rlm_gym.policies import PolicyRegistry, RewardPolicy, RewardSignal, registry

THREADS = 8
PER_THREAD = 60


def _policy_class(value: float) -> type[RewardPolicy]:
    """A fresh class that names itself only through the registry (set while registering)."""

    def calculate(self, action, result, context):
        return RewardSignal(value, {"constant": value})

    return type(f"Constant{value}", (RewardPolicy,), {"calculate": calculate})


@pytest.fixture
def fast_switching():
    """Switch threads as often as the interpreter allows, to expose races."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


def _run_threads(target) -> list[BaseException]:
    barrier = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def run(index: int) -> None:
        barrier.wait()
        try:
            target(index)
        except BaseException as error:  # reported by the test, whatever it is
            errors.append(error)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a thread hung"
    return errors


def test_concurrent_registrations_and_lookups_lose_nothing(fast_switching):
    names = [f"thread_{t}_policy_{i}" for t in range(THREADS) for i in range(PER_THREAD)]
    seen_half_registered: list[str] = []

    def work(index: int) -> None:
        for number in range(PER_THREAD):
            key = f"thread_{index}_policy_{number}"
            PolicyRegistry.register_reward(key)(_policy_class(float(number)))
            # Look up a name another thread may be registering right now.
            other = f"thread_{(index + 1) % THREADS}_policy_{number}"
            try:
                policy_cls = PolicyRegistry.get_reward_class(other)
            except ValueError:
                continue  # not registered yet: fine; a half-registered class is not
            if policy_cls.name != other:
                seen_half_registered.append(other)
            PolicyRegistry.list_reward_policies()

    try:
        assert _run_threads(work) == []
        assert seen_half_registered == []
        listed = [entry["name"] for entry in PolicyRegistry.list_reward_policies()]
        assert set(names) <= set(listed)
        for key in names:
            policy = PolicyRegistry.get_reward(key)
            assert policy.name == key
            assert policy.calculate({}, None, None).value == float(key.rsplit("_", 1)[1])
    finally:
        for key in names:
            PolicyRegistry.unregister_reward(key)


def test_concurrent_hot_swaps_of_one_name_always_leave_a_complete_class(fast_switching):
    classes = [_policy_class(float(index)) for index in range(THREADS)]
    incomplete: list[object] = []

    def work(index: int) -> None:
        for _ in range(200):
            PolicyRegistry.register_reward("swapped", override=True)(classes[index])
            policy = PolicyRegistry.get_reward("swapped")
            if type(policy) not in classes or policy.name != "swapped":
                incomplete.append(policy)

    try:
        assert _run_threads(work) == []
        assert incomplete == []
        assert PolicyRegistry.get_reward_class("swapped") in classes
    finally:
        PolicyRegistry.unregister_reward("swapped")


def test_concurrent_hot_swaps_without_override_warn_but_never_fail(fast_switching):
    classes = [_policy_class(float(index)) for index in range(THREADS)]

    def work(index: int) -> None:
        for _ in range(50):
            PolicyRegistry.register_reward("swapped_warned")(classes[index])
            assert type(PolicyRegistry.get_reward("swapped_warned")) in classes

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            assert _run_threads(work) == []
    finally:
        PolicyRegistry.unregister_reward("swapped_warned")


def test_entry_points_load_once_while_8_threads_miss_at_once(monkeypatch, fast_switching):
    plugin = _policy_class(0.5)
    loads: list[int] = []

    def slow_load():
        loads.append(1)
        time.sleep(0.05)  # a slow plugin import: the other threads must wait, not fail
        return plugin

    def fake_entry_points(group):
        return [SimpleNamespace(name="slow_plugin", load=slow_load)]

    monkeypatch.setattr(registry, "entry_points", fake_entry_points)
    monkeypatch.setattr(PolicyRegistry, "_entry_points_loaded", False)
    results: list[type] = []

    def work(index: int) -> None:
        results.append(PolicyRegistry.get_reward_class("slow_plugin"))

    try:
        assert _run_threads(work) == []
        assert results == [plugin] * THREADS
        assert loads == [1]
    finally:
        PolicyRegistry.unregister_reward("slow_plugin")
