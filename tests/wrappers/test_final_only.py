"""``final_only`` policies: the wrapper skips ``calculate`` before the final action, and only
while ``calculate`` is the declaring class's own."""

from __future__ import annotations

import gymnasium as gym
import pytest

from rlm_gym import RewardPolicyWrapper
from rlm_gym.crawl import CrawlRewardPolicy
from rlm_gym.policies import RewardPolicy, RewardSignal
from rlm_gym.policies.base import is_final
from tests.helpers import ScriptedResultEnv


class FinalBonus(RewardPolicy):
    """0.0 with no components before the final action, 0.75 on it; counts its calls."""

    name = "final_bonus"
    component_names = ("bonus",)
    value_range = (-1.0, 1.0)
    final_only = True

    def __init__(self, config=None) -> None:
        super().__init__(config)
        self.calls = 0

    def calculate(self, action, result, context):
        self.calls += 1
        if not is_final(action, result):
            return RewardSignal(0.0, {})
        return RewardSignal(0.75, {"bonus": 0.75})


def _episode(env, length):
    env.reset(seed=0)
    return [env.step(1) for _ in range(length)]


def test_calculate_is_skipped_before_the_final_action():
    policy = FinalBonus()
    env = RewardPolicyWrapper(ScriptedResultEnv(episode_length=5), policy)
    steps = _episode(env, 5)
    assert policy.calls == 1
    assert [reward for _, reward, *_ in steps] == [0.0, 0.0, 0.0, 0.0, 0.75]
    assert [info["reward_components"] for *_, info in steps[:4]] == [{"bonus": 0.0}] * 4
    assert steps[-1][-1]["episode_reward_components"] == {"bonus": 0.75}


def test_a_subclass_overriding_calculate_is_called_on_every_step():
    class EveryStep(FinalBonus):  # inherits final_only, but its calculate is its own
        def calculate(self, action, result, context):
            self.calls += 1
            return RewardSignal(0.25, {"bonus": 0.25})

    policy = EveryStep()
    env = RewardPolicyWrapper(ScriptedResultEnv(episode_length=5), policy)
    assert [reward for _, reward, *_ in _episode(env, 5)] == [0.25] * 5
    assert policy.calls == 5


def test_a_subclass_that_only_declares_final_only_is_not_trusted():
    class Declares(RewardPolicy):
        name = "declares"
        component_names = ("bonus",)

        def calculate(self, action, result, context):
            return RewardSignal(0.5, {"bonus": 0.5})

    class Inherits(Declares):  # says final_only, but `calculate` is not its own
        final_only = True

    env = RewardPolicyWrapper(ScriptedResultEnv(episode_length=3), Inherits())
    assert [reward for _, reward, *_ in _episode(env, 3)] == [0.5] * 3


def test_calculate_patched_after_wrapping_is_called_from_the_next_reset():
    policy = FinalBonus()
    env = RewardPolicyWrapper(ScriptedResultEnv(episode_length=3), policy)
    assert [reward for _, reward, *_ in _episode(env, 3)] == [0.0, 0.0, 0.75]
    policy.calculate = lambda action, result, context: RewardSignal(0.125, {"bonus": 0.125})
    assert [reward for _, reward, *_ in _episode(env, 3)] == [0.125] * 3


@pytest.mark.parametrize(
    "options",
    [{}, {"disable": ("efficiency",)}, {"weights": {"validation": 2.0, "success": 0.5}}],
)
def test_crawl_wrapper_equals_calling_the_policy_on_every_step(options):
    # The skipped calls are exactly the ones that would have given RewardSignal(0.0, {}).
    env = RewardPolicyWrapper(gym.make("rlm_gym/Crawl-v1"), "crawl", **options)
    reference = RewardPolicyWrapper(gym.make("rlm_gym/Crawl-v1"), "crawl", **options)
    policy = reference.policy
    # The same function, but set on the instance: the reference calls it on every step.
    policy.calculate = lambda action, result, context: CrawlRewardPolicy.calculate(
        policy, action, result, context
    )
    for seed in range(20):
        env.reset(seed=seed)
        reference.reset(seed=seed)
        done = False
        while not done:
            action = env.unwrapped.heuristic_action()
            got = env.step(action)
            want = reference.step(action)
            assert got[1] == want[1] and got[4]["reward_components"] == want[4]["reward_components"]
            done = got[2] or got[3]
        assert got[4]["episode_reward_components"] == want[4]["episode_reward_components"]
