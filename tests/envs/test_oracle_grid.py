"""The time-grid search gives the scalar expectimax's values, bit for bit, on every state.

``reference_value`` below is the oracle's search as it was before the grid (issue 30), kept
deliberately simple: expectimax over ``transitions`` state by state, memoised per state. The
grid solver must agree with it exactly (``==`` on floats) for every strategy, on states the
oracle's own play reaches and on states other policies reach, including the corners the
default env rarely visits: the step budget ending a crawl, a time budget off the 100 ms grid,
graded errors (more than one error counted), rate limits and backoffs.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from rlm_gym.envs import FIXED_STRATEGIES, CrawlEnv, Oracle
from rlm_gym.envs import dynamics as dyn
from rlm_gym.envs.baselines import heuristic_action
from rlm_gym.envs.oracle_grid import GRID_MS, GridSite, candidates
from rlm_gym.envs.scoring import state_score
from rlm_gym.envs.transitions import transitions

ACTION = {name: index for index, name in enumerate(dyn.ACTIONS)}


def plan_of(strategy: tuple[str, str, str]) -> tuple[int, int, int]:
    return tuple(ACTION[name] for name in strategy)  # type: ignore[return-value]


def reference_value(model, state, plan, table) -> float:
    """The scalar search: a state's value under a strategy (pure failures valued -1)."""
    found = table.get(state)
    if found is not None:
        return found
    if state[dyn.S_PHASE] == dyn.DONE:
        value = state_score(model, state)
    else:
        value = max(reference_q(model, state, a, plan, table) for a in candidates(state, plan))
    table[state] = value
    return value


def reference_q(model, state, action, plan, table) -> float:
    outcomes = transitions(model, state, action)
    if len(outcomes) == 1:
        _, following, event = outcomes[0]
        if not event[1] and following[dyn.S_PHASE] == state[dyn.S_PHASE]:
            return -1.0
    return sum(p * reference_value(model, s, plan, table) for p, s, _ in outcomes)


def visited_states(env: CrawlEnv, seed: int, policy: str, rng: random.Random) -> list[tuple]:
    """The running states of one episode played by ``policy`` (``oracle``, ``heuristic`` or
    ``random``: other policies reach states the oracle's own play never does)."""
    env.reset(seed=seed)
    states = []
    while env.state[dyn.S_PHASE] != dyn.DONE:
        states.append(env.state)
        if policy == "oracle":
            action = env.oracle_action()
        elif policy == "heuristic":
            action = heuristic_action(env.snapshot().observation)
        else:
            action = rng.choice(np.flatnonzero(env.action_masks()).tolist())
        env.step(action)
    return states


CONFIGS = {
    "default": {},
    "rate_limited_listing": {"pattern_types": ["product_list"], "protection": "rate_limit"},
    # The step budget binds: every path of 8 steps ends out of steps.
    "short_step_budget": {"pattern_types": ["product_list"], "max_steps": 8},
    # A budget off the grid (top = 123 ticks): timeouts and renders overrun it.
    "odd_time_budget": {"time_budget_ms": 12_345},
    # Graded errors: the state counts up to ten errors.
    "graded_errors": {"reward_config": {"efficiency_errors": "graded"}},
}


@pytest.mark.parametrize("config", CONFIGS, ids=list(CONFIGS))
def test_grid_values_equal_the_scalar_search(config):
    env = CrawlEnv(**CONFIGS[config])
    rng = random.Random(0)
    checked = 0
    for seed in range(4):
        for policy in ("oracle", "heuristic", "random"):
            states = visited_states(env, seed, policy, rng)
            model = env.model
            site = GridSite(model, {})
            tables = {strategy: {} for strategy in FIXED_STRATEGIES}
            for state in states:
                assert site.fits(state)
                for strategy in FIXED_STRATEGIES:
                    plan = plan_of(strategy)
                    table = tables[strategy]
                    solver = site.solver(plan)
                    assert solver.value(state) == reference_value(model, state, plan, table)
                    expected = [
                        (a, reference_q(model, state, a, plan, table))
                        for a in candidates(state, plan)
                    ]
                    assert solver.q_values(state) == expected
                    checked += 1
    assert checked > 18 * 4 * 3


def test_oracle_takes_states_off_the_grid_by_the_scalar_search():
    env = CrawlEnv(pattern_types=["product_list"])
    env.reset(seed=1)
    oracle = Oracle()
    model = env.model
    # 50 ms: not on the 100 ms grid of the dynamics.
    state = list(env.state)
    state[dyn.S_TIME] = 50
    state = tuple(state)
    assert not GridSite(model, {}).fits(state)
    values = oracle.strategy_values(model, state)
    for strategy, value in values.items():
        assert value == reference_value(model, state, plan_of(strategy), {})
    assert oracle.action(model, state) in range(len(dyn.ACTIONS))
    # An ended state: its score.
    done = (dyn.DONE, *state[1:])
    assert oracle.value(model, done) == state_score(model, done)


def test_grid_end_values_are_state_score_at_every_time():
    env = CrawlEnv(pattern_types=["product_list"], time_budget_ms=20_000)
    env.reset(seed=2)
    model = env.model
    site = GridSite(model, {})
    for pages, duplicates, end, errors in [(0, 0, 1, 0), (2, 1, 1, 1), (3, 0, 3, 1), (1, 0, 2, 0)]:
        state = [dyn.DONE, 0, pages, 0, 0, errors, 1, 0, 1, 2, 7, end, 0, duplicates, 0, 0]
        key = tuple(state)
        values = site.ended(key, site.top + 40)
        for tick in range(0, site.top + 40, 7):
            state[dyn.S_TIME] = tick * GRID_MS
            assert values[tick] == state_score(model, tuple(state))


def test_oracle_falls_back_to_the_scalar_search_when_a_move_is_off_the_grid(monkeypatch):
    # A 150 ms navigation is not a multiple of the grid: the grid solver gives up on the site.
    monkeypatch.setitem(dyn.COSTS, "navigate_ms", 150)
    env = CrawlEnv(pattern_types=["product_list"], pagination="url_param", protection="none")
    env.reset(seed=0)
    oracle = Oracle()
    values = oracle.strategy_values(env.model, env.state)
    assert oracle._sites[env.model][0] is None
    for strategy, value in values.items():
        assert value == reference_value(env.model, env.state, plan_of(strategy), {})
