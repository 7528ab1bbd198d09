"""Baselines: valid actions, ordering random < heuristic <= oracle, oracle exactness."""

from __future__ import annotations

import numpy as np
import pytest

from rlm_gym.crawl import crawl_reward
from rlm_gym.envs import BEST_FIXED_STRATEGY, FIXED_STRATEGIES, CrawlEnv, Oracle
from rlm_gym.envs import dynamics as dyn

SEEDS = range(100)


def mean_score(env: CrawlEnv, policy, seeds=SEEDS) -> float:
    scores = []
    for seed in seeds:
        env.reset(seed=seed)
        while True:
            _, reward, terminated, truncated, _ = env.step(policy(env))
            if terminated or truncated:
                scores.append(reward)
                break
    return float(np.mean(scores))


@pytest.fixture(scope="module")
def scores() -> dict[str, float]:
    env = CrawlEnv()
    return {
        "random": mean_score(env, lambda e: e.random_action()),
        "heuristic": mean_score(env, lambda e: e.heuristic_action()),
        "oracle": mean_score(env, lambda e: e.oracle_action()),
    }


# Both play hundreds of oracle episodes (the oracle plans each site by dynamic programming):
# tens of seconds, so they run with `make test`, not `make test-fast`.
@pytest.mark.slow
def test_baseline_ordering_random_heuristic_oracle(scores):
    assert scores["random"] < scores["heuristic"] <= scores["oracle"]


def test_baselines_return_valid_actions():
    env = CrawlEnv()
    policies = [
        lambda e: e.random_action(),
        lambda e: e.heuristic_action(),
        lambda e: e.oracle_action(),
        lambda e: e.fixed_strategy_action(BEST_FIXED_STRATEGY),
    ]
    for seed in range(40):
        policy = policies[seed % len(policies)]
        env.reset(seed=seed)
        while True:
            action = policy(env)
            assert env.action_masks()[action]
            _, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                break


def test_fixed_strategies_are_all_triples():
    assert len(FIXED_STRATEGIES) == 18 and BEST_FIXED_STRATEGY in FIXED_STRATEGIES


def test_fixed_strategy_rejects_unknown_triples():
    env = CrawlEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="`strategy`"):
        env.fixed_strategy_action(("fetch_http", "extract_css", "stop"))


@pytest.mark.slow
def test_oracle_value_matches_its_mean_score():
    env = CrawlEnv(pattern_types=["product_list"])
    oracle = Oracle(max_sites=4)
    seeds = range(60)
    expected = []
    for seed in seeds:
        env.reset(seed=seed)
        expected.append(oracle.value(env.model, env.state))
    played = mean_score(env, lambda e: e.oracle_action(), seeds)
    assert abs(played - float(np.mean(expected))) < 0.05


def test_oracle_is_at_least_every_fixed_strategy_in_expectation():
    env = CrawlEnv()
    oracle = Oracle()
    for seed in range(30):
        env.reset(seed=seed)
        values = oracle.strategy_values(env.model, env.state)
        assert max(values.values()) == oracle.value(env.model, env.state)
        assert all(0.0 <= value <= 1.0 for value in values.values())


def test_oracle_stops_when_no_progress_is_possible():
    # A WAF that blocks plain HTTP and fingerprints headless browsers, on a client-only site.
    env = CrawlEnv(rendering="client_only", protection="waf_headless")
    env.reset(seed=0)
    values = Oracle().strategy_values(env.model, env.state)
    assert max(values.values()) >= 0.15
    assert dyn.ACTIONS[env.oracle_action()] in ("stop", "fetch_http", "fetch_headless")


@pytest.mark.parametrize("config", [None, {"efficiency_errors": "graded"}])
@pytest.mark.parametrize("policy", ["random_action", "heuristic_action", "oracle_action"])
def test_env_score_equals_crawl_reward_of_its_own_result(policy, config):
    """The env's cached score is exactly ``crawl_reward`` of the crawl result it returns."""
    env = CrawlEnv(reward_config=config)
    defects = 0
    # The oracle solves every site exactly (slow under graded errors): fewer sites.
    for seed in range(25 if policy == "oracle_action" else 60):
        env.reset(seed=seed)
        while True:
            if env.state[dyn.S_STEPS] % 3 == 0:
                assert env.potential() == crawl_reward(env.crawl_result()[0], config=config).value
            _, reward, terminated, _, info = env.step(getattr(env, policy)())
            if terminated:
                break
        signal = crawl_reward(info["action_result"].metadata["crawl_result"], config=config)
        assert reward == signal.value, (policy, seed)
        defects += bool(signal.details["defects"])
    if policy == "random_action":
        assert defects > 0, "random crawls should meet systematic defects"


def test_graded_errors_change_scores_and_the_oracle_plans_for_them():
    graded = CrawlEnv(reward_config={"efficiency_errors": "graded"})
    default = CrawlEnv()
    assert graded.model is None and graded._scorer.error_cap == 4
    differs = 0
    for seed in range(40):
        scores = []
        for env in (default, graded):
            env.reset(seed=seed)
            while True:
                _, reward, terminated, _, _ = env.step(env.random_action())
                if terminated:
                    scores.append(reward)
                    break
        differs += scores[0] != scores[1]
    assert differs > 5
