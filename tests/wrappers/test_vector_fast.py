"""The vector wrapper's short path gives the general path's numbers, step for step."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import rlm_gym.wrappers.vector as vector_module
from rlm_gym import RewardPolicyWrapper, VectorRewardPolicyWrapper
from rlm_gym.policies import PolicyRegistry

KEYS = ("reward_components", "episode_reward_components")


def _cartpoles(n: int = 6) -> gym.vector.VectorEnv:
    return gym.make_vec("CartPole-v1", num_envs=n, vectorization_mode="sync")


def _run(policy: str, general: bool, monkeypatch: pytest.MonkeyPatch, change_at: int = 60):
    """Rewards and infos of 120 seeded random steps; the config changes at ``change_at``."""
    if general:
        monkeypatch.setattr(vector_module, "table_step", lambda *args: None)
    names = PolicyRegistry.get_reward(policy).component_names
    weights = {"final": 0.5} if "final" in names else {"success": 0.5}
    envs = VectorRewardPolicyWrapper(_cartpoles(), policy, weights=weights)
    envs.reset(seed=3)
    envs.action_space.seed(3)
    seen = []
    for step in range(120):
        if step == change_at and "final_bonus" in envs.policy.config:
            envs.policy.config["final_bonus"] = 0.125
        _, rewards, terminated, _, infos = envs.step(envs.action_space.sample())
        done = infos.get("_episode_reward", np.zeros(6, dtype=bool))
        record = [rewards.tolist(), terminated.tolist(), done.tolist()]
        for key in KEYS:
            for name, column in sorted(infos.get(key, {}).items()):
                mask = done if key.startswith("episode") else np.ones(6, dtype=bool)
                record.append((key, name, column[mask].tolist()))
        if done.any():
            record.append(infos["episode_reward"][done].tolist())
            record.append({n: c[done].tolist() for n, c in infos["reward_weights"].items()})
        seen.append(record)
    return envs, seen


@pytest.mark.parametrize("policy", ["default", "strict", "lenient", "binary"])
def test_the_short_path_equals_the_general_one_with_a_config_change(policy, monkeypatch):
    fast, fast_seen = _run(policy, general=False, monkeypatch=monkeypatch)
    assert fast._fast
    with monkeypatch.context() as patch:
        _, general_seen = _run(policy, general=True, monkeypatch=patch)
    assert fast_seen == general_seen


def test_contexts_on_the_short_path_count_steps_and_episodes_as_per_env_wrappers_do():
    # The short path keeps each sub-env's step and episode count in its state block (the
    # table's rows add them); the contexts it builds on demand must read them as per-env does.
    n = 4
    envs = VectorRewardPolicyWrapper(_cartpoles(n), "default")
    singles = [RewardPolicyWrapper(gym.make("CartPole-v1"), "default") for _ in range(n)]
    envs.reset(seed=[10 + i for i in range(n)])
    for index, single in enumerate(singles):
        single.reset(seed=10 + index)
    rng = np.random.default_rng(0)
    pending = [False] * n  # NEXT_STEP: a finished sub-env resets on its next step
    episodes = [1] * n
    seen_contexts = {}
    for _ in range(150):
        actions = rng.integers(0, 2, n)
        *_, terminated, truncated, _ = envs.step(actions)
        assert envs._fast
        for index, single in enumerate(singles):
            if pending[index]:
                single.reset()
                episodes[index] += 1
                pending[index] = False
            else:
                *_, done_now, cut_now, _ = single.step(int(actions[index]))
                assert (done_now, cut_now) == (terminated[index], truncated[index])
                pending[index] = done_now or cut_now
        contexts = envs.contexts
        for index, single in enumerate(singles):
            assert contexts[index].step == single.context.step
            # One context object per episode, a new one when the sub-env's episode changes.
            key = (index, episodes[index])
            assert seen_contexts.setdefault(key, contexts[index]) is contexts[index]
            assert seen_contexts.get((index, episodes[index] - 1)) is not contexts[index]
    assert max(episodes) > 3


def test_reward_weights_on_the_short_path_are_shared_read_only_arrays():
    envs = VectorRewardPolicyWrapper(_cartpoles(), "lenient", weights={"success": 0.5})
    envs.reset(seed=0)
    reports = []
    for _ in range(80):
        infos = envs.step(np.zeros(6, dtype=np.int64))[4]
        if "reward_weights" in infos:
            reports.append(infos["reward_weights"])
    assert len(reports) >= 2 and reports[0] is reports[-1]
    assert reports[0]["success"].tolist() == [0.5] * 6
    with pytest.raises(ValueError, match="read-only"):
        reports[0]["success"][0] = 1.0


class _Rewarding(gym.Wrapper):
    """CartPole whose reward is set from outside (NaN, huge...)."""

    reward = 1.0

    def step(self, action):
        obs, _, terminated, truncated, info = super().step(action)
        return obs, self.reward, terminated, truncated, info


def test_a_non_finite_reward_on_the_short_path_names_the_sub_env_and_a_huge_one_passes():
    subs = [_Rewarding(gym.make("CartPole-v1")) for _ in range(3)]
    envs = VectorRewardPolicyWrapper(gym.vector.SyncVectorEnv([lambda e=e: e for e in subs]))
    envs.reset(seed=0)
    assert envs._fast
    subs[1].reward = 1e200  # its square overflows the check's dot product: checked, fine
    # numpy says the dot product overflowed; the check then finds every reward finite.
    with pytest.warns(RuntimeWarning, match="overflow encountered in dot"):
        rewards = envs.step(np.zeros(3, dtype=np.int64))[1]
    assert np.isfinite(rewards).all()
    subs[1].reward = float("nan")
    with pytest.raises(ValueError, match=r"got nan from sub-env 1 at step 1"):
        envs.step(np.zeros(3, dtype=np.int64))
