"""PotentialShapingWrapper: F = gamma * Phi(s') - Phi(s), Phi = 0 after termination only."""

from __future__ import annotations

import itertools
import pickle

import gymnasium as gym
import numpy as np
import pytest

from rlm_gym.wrappers.shaping import PotentialShapingWrapper


class ChainEnv(gym.Env):
    """A deterministic 4-state chain: action 1 moves right, 0 stays; horizon 3, then terminate.

    The reward favours reaching the end but charges moving, so the best plan is not obvious.
    ``truncate`` ends with a truncation instead of a termination.
    """

    metadata = {"render_modes": []}
    REWARDS = np.array([[0.1, -0.2], [0.0, -0.1], [0.3, 0.5], [0.2, 0.0]])

    def __init__(self, horizon: int = 3, truncate: bool = False) -> None:
        self.observation_space = gym.spaces.Discrete(4)
        self.action_space = gym.spaces.Discrete(2)
        self.horizon = horizon
        self.truncate = truncate
        self.position = 0
        self.t = 0

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.position, self.t = 0, 0
        return self.position, {}

    def step(self, action):
        reward = float(self.REWARDS[self.position, int(action)])
        self.position = min(3, self.position + int(action))
        self.t += 1
        end = self.t >= self.horizon
        return self.position, reward, end and not self.truncate, end and self.truncate, {}

    def potential(self) -> float:
        return [0.0, 2.0, -1.5, 7.0][self.position]


def arbitrary_potential(env) -> float:
    return float(np.sin(3.0 * env.unwrapped.position + 1.0) * 4.0)


def discounted_return(env, plan, gamma):
    env.reset(seed=0)
    total = 0.0
    for t, action in enumerate(plan):
        _, reward, terminated, truncated, _ = env.step(action)
        total += gamma**t * float(reward)
        if terminated or truncated:
            break
    return total


@pytest.mark.parametrize("potential", ["potential", arbitrary_potential])
def test_shaping_keeps_the_ranking_of_every_plan(potential):
    gamma = 0.9
    plans = list(itertools.product((0, 1), repeat=3))
    plain = [discounted_return(ChainEnv(), plan, gamma) for plan in plans]
    shaped_env = PotentialShapingWrapper(ChainEnv(), potential, gamma=gamma)
    shaped = [discounted_return(shaped_env, plan, gamma) for plan in plans]
    rank = lambda returns: np.argsort(np.round(returns, 9), kind="stable").tolist()  # noqa: E731
    assert rank(plain) == rank(shaped)
    # Every plan's shaped return differs by the same constant, -Phi(s0).
    np.testing.assert_allclose(np.subtract(shaped, plain), shaped[0] - plain[0], atol=1e-12)


def test_step_adds_gamma_phi_next_minus_phi():
    env = PotentialShapingWrapper(ChainEnv(), "potential", gamma=0.5)
    env.reset()
    _, reward, *_, info = env.step(1)  # state 0 -> 1: F = 0.5 * 2.0 - 0.0
    assert info["shaping_reward"] == pytest.approx(1.0)
    assert reward == pytest.approx(-0.2 + 1.0)
    _, reward, *_, info = env.step(1)  # state 1 -> 2: F = 0.5 * -1.5 - 2.0
    assert info["shaping_reward"] == pytest.approx(-2.75)


def test_potential_is_zero_after_termination():
    env = PotentialShapingWrapper(ChainEnv(horizon=1), "potential", gamma=0.9)
    env.reset()
    _, _, terminated, _, info = env.step(1)
    assert terminated
    assert info["potential"] == 0.0
    assert info["shaping_reward"] == pytest.approx(0.0 - 0.0)


def test_potential_is_kept_after_truncation():
    env = PotentialShapingWrapper(ChainEnv(horizon=1, truncate=True), "potential", gamma=0.9)
    env.reset()
    _, _, terminated, truncated, info = env.step(1)
    assert truncated and not terminated
    assert info["potential"] == 2.0
    assert info["shaping_reward"] == pytest.approx(0.9 * 2.0)


def test_rejects_gamma_outside_unit_interval():
    with pytest.raises(ValueError, match=r"Expected `gamma` in \[0, 1\], got 1.5"):
        PotentialShapingWrapper(ChainEnv(), "potential", gamma=1.5)


def test_rejects_a_potential_name_the_env_lacks():
    with pytest.raises(ValueError, match="ChainEnv has no `potental`"):
        PotentialShapingWrapper(ChainEnv(), "potental")


def test_rejects_a_potential_that_is_neither_name_nor_callable():
    with pytest.raises(TypeError, match="potential"):
        PotentialShapingWrapper(ChainEnv(), 3.0)


def test_pickles_and_records_its_arguments():
    env = PotentialShapingWrapper(ChainEnv(), arbitrary_potential, gamma=0.8)
    clone = pickle.loads(pickle.dumps(env))
    assert clone.gamma == 0.8
    assert env._saved_kwargs == {"potential": arbitrary_potential, "gamma": 0.8}
