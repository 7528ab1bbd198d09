"""The transition function: outcome lists, and the env's sampler drawing from them."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym.envs import dynamics as dyn
from rlm_gym.envs.profiles import sample_profile
from rlm_gym.envs.scoring import scorer_for
from rlm_gym.envs.transitions import sample_transition, transitions


@given(st.integers(0, 10_000), st.integers(0, 9))
@settings(max_examples=200, deadline=None)
def test_outcome_probabilities_sum_to_one(seed, action):
    model = dyn.site_model(sample_profile(np.random.default_rng(seed)), 30, scorer_for(None))
    outcomes = transitions(model, dyn.initial_state(), action)
    assert abs(sum(p for p, _, _ in outcomes) - 1.0) < 1e-9
    assert all(p > 0 for p, _, _ in outcomes)


def test_rate_limited_site_refuses_a_second_request_without_backoff():
    profile = sample_profile(np.random.default_rng(0), overrides={"protection": 1})
    model = dyn.site_model(profile, 30, scorer_for(None))
    state = dyn.initial_state()
    state = next(s for _, s, e in transitions(model, state, dyn.FETCH_HTTP) if e[1])
    outcomes = transitions(model, state, dyn.FETCH_HTTP)
    assert [event[2] for _, _, event in outcomes] == [dyn.E_429]
    _, rested, _ = transitions(model, state, dyn.BACKOFF)[0]
    assert all(event[2] != dyn.E_429 for _, _, event in transitions(model, rested, 1))


def test_client_only_page_over_http_is_an_empty_shell():
    profile = sample_profile(np.random.default_rng(0), overrides={"rendering": 2, "protection": 0})
    model = dyn.site_model(profile, 30, scorer_for(None))
    state = next(s for _, s, e in transitions(model, dyn.initial_state(), dyn.FETCH_HTTP) if e[1])
    ((_, _, event),) = transitions(model, state, dyn.EXTRACT_LLM)
    assert event[2] == dyn.E_EMPTY_SHELL


def _pick(outcomes: list, u: float) -> tuple:
    """The outcome of ``transitions`` that ``u`` falls in (inverse CDF, the last on rounding)."""
    for outcome in outcomes:
        u -= outcome[0]
        if u < 0.0:
            break
    return outcome


def test_sample_transition_draws_the_outcome_of_transitions_that_u_falls_in() -> None:
    """The env's sampler builds only the drawn state: it must be the very outcome (state and
    event) that ``transitions`` lists for the same draw, on every reachable kind of state."""
    rng = np.random.default_rng(3)
    checked = multi = 0
    for _ in range(150):
        profile = sample_profile(rng)
        model = dyn.site_model(profile, 30, scorer_for(None))
        state = dyn.initial_state()
        while state[dyn.S_PHASE] != dyn.DONE:
            for action in range(len(dyn.ACTIONS)):
                outcomes = transitions(model, state, action)
                multi += len(outcomes) > 1
                for u in (0.0, 0.01, 0.3, 0.5, 0.7, 0.999999, float(rng.random())):
                    draws: list[float] = []
                    sampled = sample_transition(
                        model, state, action, lambda u=u, draws=draws: draws.append(u) or u
                    )
                    _, expected_state, expected_event = _pick(outcomes, u)
                    assert sampled == (expected_state, expected_event)
                    # The draw is taken only where there is a choice (the env's RNG stream).
                    assert len(draws) == (len(outcomes) > 1)
                    checked += 1
            _, state, _ = _pick(transitions(model, state, int(rng.integers(9))), rng.random())
    assert multi > 100 and checked > 10_000
