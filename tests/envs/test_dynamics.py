"""Dynamics and scoring: outcome lists, item generation and the cached crawl score."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym.crawl import crawl_reward
from rlm_gym.envs import SCHEMAS
from rlm_gym.envs import dynamics as dyn
from rlm_gym.envs.items import BREAKS, build_items, defective_copy, entity
from rlm_gym.envs.profiles import PATTERN_TYPES, sample_profile
from rlm_gym.envs.scoring import scorer_for, terminal_score


@given(st.integers(0, 10_000), st.integers(0, 9))
@settings(max_examples=200, deadline=None)
def test_outcome_probabilities_sum_to_one(seed, action):
    model = dyn.site_model(sample_profile(np.random.default_rng(seed)), max_steps=30)
    outcomes = dyn.transitions(model, dyn.initial_state(), action)
    assert abs(sum(p for p, _, _ in outcomes) - 1.0) < 1e-9
    assert all(p > 0 for p, _, _ in outcomes)


def test_rate_limited_site_refuses_a_second_request_without_backoff():
    profile = sample_profile(np.random.default_rng(0), overrides={"protection": 1})
    model = dyn.site_model(profile, max_steps=30)
    state = dyn.initial_state()
    state = next(s for _, s, e in dyn.transitions(model, state, dyn.FETCH_HTTP) if e[1])
    outcomes = dyn.transitions(model, state, dyn.FETCH_HTTP)
    assert [event[2] for _, _, event in outcomes] == [dyn.E_429]
    _, rested, _ = dyn.transitions(model, state, dyn.BACKOFF)[0]
    assert all(event[2] != dyn.E_429 for _, _, event in dyn.transitions(model, rested, 1))


def test_client_only_page_over_http_is_an_empty_shell():
    profile = sample_profile(np.random.default_rng(0), overrides={"rendering": 2, "protection": 0})
    model = dyn.site_model(profile, max_steps=30)
    state = next(
        s for _, s, e in dyn.transitions(model, dyn.initial_state(), dyn.FETCH_HTTP) if e[1]
    )
    ((_, _, event),) = dyn.transitions(model, state, dyn.EXTRACT_LLM)
    assert event[2] == dyn.E_EMPTY_SHELL


def _score(pattern_type, items):
    return crawl_reward(
        {
            "success": True,
            "data": items,
            "extraction_schema": {"required": list(SCHEMAS[pattern_type])},
            "pattern_type": pattern_type,
        }
    )


@pytest.mark.parametrize("pattern_type", PATTERN_TYPES)
def test_clean_rows_are_distinct_and_fully_valid(pattern_type):
    items = build_items(pattern_type, ((0, 50, 6, 0, 0, False),))
    signal = _score(pattern_type, items)
    assert signal.details["distinct_items"] == len(items) == 300
    assert signal.details["validation"] == 1.0 and signal.details["valid_share"] == 1.0
    assert signal.details["defects"] == []


@pytest.mark.parametrize("pattern_type", PATTERN_TYPES)
@pytest.mark.parametrize("extractor", [0, 1, 2])
def test_sporadic_defects_lower_validation_but_never_become_systematic(pattern_type, extractor):
    share = {0: 0.15, 1: 0.15, 2: 0.15}[extractor]
    for rows in (5, 7, 12, 20, 33, 48, 96):
        defective = int(rows * share)
        items = build_items(pattern_type, ((extractor, rows, 1, 0, defective, False),))
        signal = _score(pattern_type, items)
        assert signal.details["defects"] == [], (rows, signal.details["defects"])
        assert signal.details["distinct_items"] == rows
        if defective:
            assert signal.details["validation"] < 1.0


@pytest.mark.parametrize("pattern_type", PATTERN_TYPES)
@pytest.mark.parametrize("extractor", [0, 1])
def test_a_systematic_break_is_one_defect_on_its_field(pattern_type, extractor):
    field, _ = BREAKS[("css", "heuristic")[extractor]][pattern_type]
    items = build_items(pattern_type, ((extractor, 12, 2, 0, 0, True),))
    signal = _score(pattern_type, items)
    assert len(signal.details["defects"]) == 1
    assert signal.details["defects"][0].startswith(f"{field}: 100% of 24")
    assert signal.components["defects"] == -0.15
    assert signal.details["valid_share"] < 0.95  # never "excellent"


@pytest.mark.parametrize("pattern_type", PATTERN_TYPES)
def test_re_served_pages_repeat_rows_exactly(pattern_type):
    items = build_items(pattern_type, ((2, 10, 2, 1, 3, False),))
    assert len(items) == 30 and items[20:] == items[:10]
    signal = _score(pattern_type, items)
    assert signal.details["distinct_items"] == 20
    assert signal.details["defects"] == [
        "duplicate rows: 10 of 30 rows (33%) repeat another row exactly"
    ]


def test_entities_are_distinct_across_blocks_and_stable():
    blocks = ((0, 12, 2, 0, 0, False), (1, 11, 1, 0, 1, False), (2, 12, 3, 0, 5, False))
    for pattern_type in PATTERN_TYPES:
        items = build_items(pattern_type, blocks)
        assert len({repr(sorted(item.items())) for item in items}) == len(items) == 71
        assert build_items(pattern_type, blocks) == items
        assert entity(pattern_type, 5) == entity(pattern_type, 5)


def test_defective_copy_leaves_the_entity_untouched():
    item = {"a": 1, "b": 2, "c": 3}
    defective_copy(item, ("b", "c"), "missing")
    assert item == {"a": 1, "b": 2, "c": 3}
    before = dict(entity("product_list", 0))
    build_items("product_list", ((1, 5, 1, 0, 5, True),))
    assert entity("product_list", 0) == before


# Reward configs the env's scorer must follow: the default, graded errors, other weights.
_CONFIGS = [
    None,
    {"efficiency_errors": "graded"},
    {"weights": {"validation": 0.5}},
    {"weights": {"efficiency": 0.3}, "efficiency_errors": "graded", "error_step": 0.3},
]


@given(
    st.sampled_from(PATTERN_TYPES),
    st.lists(
        st.tuples(
            st.integers(0, 2),
            st.integers(1, 30),
            st.integers(0, 4),
            st.integers(0, 3),
            st.floats(0.0, 0.2),
            st.booleans(),
        ),
        max_size=3,
        unique_by=lambda block: block[0],
    ),
    st.booleans(),
    st.integers(0, 12),
    st.integers(0, 2000).map(lambda t: t * 100),
    st.integers(0, 6),
    st.sampled_from(_CONFIGS),
)
@settings(max_examples=150, deadline=None)
def test_terminal_score_equals_crawl_reward(
    pattern_type, raw_blocks, success, pages, time_ms, errors, config
):
    blocks = tuple(
        (e, per_page, p, d, int(p * per_page * share), broken and e < 2)
        for e, per_page, p, d, share, broken in sorted(raw_blocks)
    )
    result = {
        "success": success,
        "data": build_items(pattern_type, blocks),
        "navigation_result": {"pages_collected": pages, "strategy_used": "x"},
        "execution_time_ms": float(time_ms),
        "errors": ["HTTP 429 Too Many Requests"] * errors,
        "extraction_schema": {"required": list(SCHEMAS[pattern_type])},
        "pattern_type": pattern_type,
    }
    expected = crawl_reward(result, config=config).value
    assert terminal_score(pattern_type, blocks, success, pages, time_ms, errors, config) == expected


@given(
    st.integers(0, 40),
    st.integers(0, 2000).map(lambda t: t * 100),
    st.integers(0, 12),
    st.sampled_from(_CONFIGS),
)
@settings(max_examples=300, deadline=None)
def test_scorer_efficiency_is_crawl_rewards_efficiency_component(pages, time_ms, errors, config):
    """The env's scorer computes the efficiency component directly (``efficiency_score``):
    bit for bit the component ``crawl_reward`` gives the same pages, time and errors."""
    result = {
        "success": False,
        "data": [],
        "navigation_result": {"pages_collected": pages, "strategy_used": "x"},
        "execution_time_ms": float(time_ms),
        "errors": ["HTTP 403 Forbidden"] * errors,
    }
    expected = crawl_reward(result, config=config).components["efficiency"]
    assert repr(scorer_for(config).efficiency(pages, time_ms, errors)) == repr(expected)


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
        model = dyn.site_model(profile, max_steps=30)
        state = dyn.initial_state()
        while state[dyn.S_PHASE] != dyn.DONE:
            for action in range(len(dyn.ACTIONS)):
                outcomes = dyn.transitions(model, state, action)
                multi += len(outcomes) > 1
                for u in (0.0, 0.01, 0.3, 0.5, 0.7, 0.999999, float(rng.random())):
                    draws: list[float] = []
                    sampled = dyn.sample_transition(
                        model, state, action, lambda u=u, draws=draws: draws.append(u) or u
                    )
                    _, expected_state, expected_event = _pick(outcomes, u)
                    assert sampled == (expected_state, expected_event)
                    # The draw is taken only where there is a choice (the env's RNG stream).
                    assert len(draws) == (len(outcomes) > 1)
                    checked += 1
            _, state, _ = _pick(dyn.transitions(model, state, int(rng.integers(9))), rng.random())
    assert multi > 100 and checked > 10_000
