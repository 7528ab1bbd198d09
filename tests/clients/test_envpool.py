"""EnvPool's Gymnasium vector envs take ``VectorRewardPolicyWrapper`` as they are (docs/clients.md).

``envpool.make(..., env_type="gymnasium")`` is a Gymnasium ``VectorEnv`` in ``NEXT_STEP``
autoreset mode, not built by Gymnasium: its ``spec`` has no ``id`` and keeps
``max_episode_steps`` under ``spec.config``. The step that resets a finished sub-env is no
policy step, so it is scored 0.0.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("envpool")

import envpool
from gymnasium.vector import AutoresetMode

from rlm_gym import VectorRewardPolicyWrapper

N = 8


def test_envpool_cartpole_is_shaped_and_its_reset_steps_score_zero():
    pool = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=N, seed=0)
    assert not hasattr(pool.spec, "id")
    envs = VectorRewardPolicyWrapper(pool, "lenient")
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    envs.reset()
    assert all(context.task == "" for context in envs.contexts)
    # CartPole's step limit, read from EnvPool's spec.config (not the default of 10).
    assert all(context.max_steps == 500 for context in envs.contexts)
    rng = np.random.default_rng(0)
    previous_dones = np.zeros(N, dtype=bool)
    totals = np.zeros(N)
    finished = resets = 0
    for _ in range(200):
        actions = rng.integers(0, 2, size=N).astype(np.int32)
        _, rewards, terminated, truncated, infos = envs.step(actions)
        components = np.stack(list(infos["reward_components"].values()), axis=1)
        # A reset step: reward and every component 0.0, and no episode ends there.
        assert (rewards[previous_dones] == 0.0).all()
        assert (components[previous_dones] == 0.0).all()
        resets += int(previous_dones.sum())
        dones = terminated | truncated
        # Every other step is scored: CartPole's +1 is a lenient success (attempt 0.2 +
        # success 0.5), plus the final bonus on a terminating step.
        ongoing = ~previous_dones & ~dones
        assert rewards[ongoing] == pytest.approx(0.7)
        assert (rewards[dones] > 0.7).all()
        low, high = envs.policy.value_range  # the value is the clamped sum of components
        np.testing.assert_allclose(np.clip(components.sum(axis=1), low, high), rewards, atol=1e-9)
        totals[~previous_dones] += rewards[~previous_dones]
        if dones.any():
            assert (infos["_episode_reward"] == dones).all()
            np.testing.assert_allclose(infos["episode_reward"][dones], totals[dones], atol=1e-9)
            totals[dones] = 0.0
            finished += int(dones.sum())
        previous_dones = dones
    assert finished >= N and resets >= N
    envs.close()
