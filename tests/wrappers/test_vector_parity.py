"""``VectorRewardPolicyWrapper`` gives the numbers of ``RewardPolicyWrapper`` on each sub-env.

Property tests: random policies (the five built-ins and a custom one), weights, disabled
components, reward modes, action sequences, result reporting and the three autoreset modes;
the reference is a ``SyncVectorEnv`` of per-env wrapped envs.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym.policies import (
    ActionResult,
    BinaryRewardPolicy,
    DefaultRewardPolicy,
    LenientRewardPolicy,
    ResearchRewardPolicy,
    RewardPolicy,
    RewardSignal,
    StrictRewardPolicy,
)
from rlm_gym.wrappers import RewardPolicyWrapper, VectorRewardPolicyWrapper, WeightSchedule

TOLERANCE = 1e-9


class TinyEnv(gym.Env):
    """Four actions: 0 fails with an error, 1 succeeds, 2 times out slowly, 3 ends the episode.

    The episode is truncated after ``length`` steps. ``report`` chooses what ``info`` holds:
    ``"none"`` (generic results), ``"all"`` (an ``ActionResult`` and an action dict every
    step) or ``"mixed"`` (every other step).
    """

    metadata = {"render_modes": []}

    def __init__(self, length: int = 4, report: str = "all") -> None:
        self.observation_space = gym.spaces.Discrete(100)
        self.action_space = gym.spaces.Discrete(4)
        self.length, self.report = length, report
        self._t = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self._t = 0
        return 0, {}

    def step(self, action):
        action = int(action)
        self._t += 1
        terminated = action == 3
        truncated = self._t >= self.length
        reward = (0.0, 1.0, -0.5, 2.0)[action]
        info: dict[str, Any] = {}
        if self.report == "all" or (self.report == "mixed" and self._t % 2):
            kind = "final" if terminated else "code"
            info["action_result"] = ActionResult(
                kind,
                success=action in (1, 3),
                output=("ok " * 10 * self._t) if action == 1 else "Traceback: error",
                error={0: "NameError", 2: "Execution timed out"}.get(action),
                duration_ms=(0.0, 50.0, 20000.0, 500.0)[action],
                metadata={"partial": 0.5} if action == 0 else {},
            )
            depth = 8 + self._t
            info["action"] = {"action": kind, "code": "f(" * depth + ")" * depth}
        return self._t, reward, terminated, truncated, info


class Logging:
    """A mixin recording every hook call in a shared list."""

    def __init__(self, log: list, config=None) -> None:
        super().__init__(config)
        self.log = log

    def on_episode_start(self, context) -> None:
        super().on_episode_start(context)
        self.log.append(("start", context.step, context.max_steps, context.task))

    def on_episode_end(self, context, total_reward: float) -> None:
        self.log.append(("end", context.step, total_reward))


class Custom(RewardPolicy):
    """Not additive: reads the context's step and history, so it is scored per sub-env."""

    name = "custom_parity"
    component_names = ("good", "bad")

    def calculate(self, action, result, context) -> RewardSignal:
        if result.success:
            components = {"good": 0.5 + 0.01 * len(context.history)}
        else:
            components = {"bad": -0.25 - 0.01 * context.step}
        return RewardSignal(self.clamp(sum(components.values())), components)


POLICIES = {
    cls.name: type(f"Logging{cls.__name__}", (Logging, cls), {})
    for cls in (
        DefaultRewardPolicy,
        StrictRewardPolicy,
        LenientRewardPolicy,
        ResearchRewardPolicy,
        BinaryRewardPolicy,
        Custom,
    )
}
# The same policies without hooks of their own: the vector wrapper's fast path (episode starts
# by masks, lazy contexts; generic results of default/strict/lenient/binary from a table).
PLAIN = {name: cls.__mro__[2] for name, cls in POLICIES.items()}
MODES = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED)


def _own_info(infos: dict, index: int, done: bool, mode: AutoresetMode) -> dict:
    """A per-env wrapped sub-env's keys: in SAME_STEP a finished one's are in final_info."""
    if done and mode is AutoresetMode.SAME_STEP:
        return infos["final_info"]
    return infos


def _value(batched: dict, key: str, index: int, default: Any = None) -> Any:
    mask = batched.get(f"_{key}")
    if key not in batched or (mask is not None and not mask[index]):
        return default
    return batched[key]


@st.composite
def scenarios(draw):
    name = draw(st.sampled_from(sorted(POLICIES)))
    names = POLICIES[name].component_names
    n = draw(st.integers(1, 3))
    disable = draw(st.lists(st.sampled_from(names), unique=True, max_size=2))
    weighted = draw(st.lists(st.sampled_from(names), unique=True, max_size=2))
    weights = {key: draw(st.sampled_from([0.0, 0.5, 2.0, 1.0])) for key in weighted}
    free = [key for key in names if key not in disable and key not in weights]
    schedule = None
    if free and draw(st.booleans()):
        at = sorted(draw(st.sets(st.integers(1, 30), min_size=1, max_size=2)))
        points = [(0, draw(st.sampled_from([0.0, 0.5, 2.0])))]
        points += [(step, draw(st.sampled_from([0.0, 0.5, 2.0]))) for step in at]
        interpolation = draw(st.sampled_from(["linear", "step"]))
        schedule = WeightSchedule({draw(st.sampled_from(free)): points}, interpolation)
    return {
        "name": name,
        "n": n,
        "mode": draw(st.sampled_from(MODES)),
        "report": draw(st.sampled_from(["none", "all", "mixed"])),
        "lengths": draw(st.lists(st.integers(1, 5), min_size=n, max_size=n)),
        "kwargs": {
            "disable": tuple(disable),
            "weights": weights,
            "reward_mode": draw(st.sampled_from(["replace", "add"])),
            "schedule": schedule,
        },
        "actions": draw(st.lists(st.lists(st.integers(0, 3), min_size=n, max_size=n), max_size=14)),
    }


def _build(scenario: dict, plain: bool = False):
    mode, report = scenario["mode"], scenario["report"]
    reference_log: list = []
    vector_log: list = []
    if plain:

        def policy_class(log):
            return PLAIN[scenario["name"]]()
    else:
        policy_class = POLICIES[scenario["name"]]
    reference = SyncVectorEnv(
        [
            lambda length=length: RewardPolicyWrapper(
                TinyEnv(length, report),
                policy_class(reference_log),
                task="tiny",
                max_steps=7,
                **scenario["kwargs"],
            )
            for length in scenario["lengths"]
        ],
        autoreset_mode=mode,
    )
    inner = SyncVectorEnv(
        [lambda length=length: TinyEnv(length, report) for length in scenario["lengths"]],
        autoreset_mode=mode,
    )
    vector = VectorRewardPolicyWrapper(
        inner, policy_class(vector_log), task="tiny", max_steps=7, **scenario["kwargs"]
    )
    return reference, vector, reference_log, vector_log


def _compare_step(scenario, vector_out, reference_out):
    mode = scenario["mode"]
    _, rewards, terminated, truncated, infos = vector_out
    _, ref_rewards, ref_terminated, ref_truncated, ref_infos = reference_out
    assert (terminated == ref_terminated).all() and (truncated == ref_truncated).all()
    np.testing.assert_allclose(rewards, ref_rewards, atol=TOLERANCE, rtol=0)
    names = POLICIES[scenario["name"]].component_names
    for index in range(scenario["n"]):
        done = bool(terminated[index] or truncated[index])
        own = _own_info(ref_infos, index, done, mode)
        ref_components = _value(own, "reward_components", index, {})
        for name in names:
            expected = ref_components[name][index] if name in ref_components else 0.0
            got = infos["reward_components"][name][index]
            assert got == pytest.approx(expected, abs=TOLERANCE), (index, name)
        ref_total = _value(own, "episode_reward", index)
        if ref_total is None:
            assert (
                not infos.get("_episode_reward", np.zeros(1, bool)).any()
                or not infos["_episode_reward"][index]
            )
            continue
        assert infos["_episode_reward"][index]
        assert infos["episode_reward"][index] == pytest.approx(ref_total[index], abs=TOLERANCE)
        ref_sums = own["episode_reward_components"]
        ref_weights = own["reward_weights"]
        for name in names:
            got = infos["episode_reward_components"][name][index]
            assert got == pytest.approx(ref_sums[name][index], abs=TOLERANCE), (index, name)
            assert infos["reward_weights"][name][index] == ref_weights[name][index], name


def _compare_logs(vector_log, reference_log):
    assert len(vector_log) == len(reference_log)
    for got, expected in zip(vector_log, reference_log, strict=True):
        assert got[:2] == expected[:2]
        assert got[2:] == pytest.approx(expected[2:], abs=TOLERANCE)


@settings(max_examples=150, deadline=None)
@given(scenario=scenarios())
def test_vector_wrapper_equals_per_env_wrapping(scenario):
    _check_parity(scenario, plain=False)


@settings(max_examples=150, deadline=None)
@given(scenario=scenarios())
def test_vector_wrapper_fast_path_equals_per_env_wrapping(scenario):
    _check_parity(scenario, plain=True)


def _check_parity(scenario: dict, plain: bool) -> None:
    reference, vector, reference_log, vector_log = _build(scenario, plain)
    reference.reset(seed=0)
    vector.reset(seed=0)
    for actions in scenario["actions"]:
        actions = np.array(actions)
        # The per-env clocks are told the vector clock after this step; in
        # SAME_STEP a sub-env resets after its own step, which counts one more.
        same_step = scenario["mode"] is AutoresetMode.SAME_STEP
        reference.call("set_schedule_step", vector.schedule_step + scenario["n"] - same_step)
        reference_out = reference.step(actions)
        vector_out = vector.step(actions)
        _compare_step(scenario, vector_out, reference_out)
        dones = vector_out[2] | vector_out[3]
        if scenario["mode"] is AutoresetMode.DISABLED and dones.any():
            reference.call("set_schedule_step", vector.schedule_step)
            reference.reset(options={"reset_mask": dones.copy()})
            vector.reset(options={"reset_mask": dones.copy()})
    _compare_logs(vector_log, reference_log)
