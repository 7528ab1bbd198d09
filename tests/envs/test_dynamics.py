"""Dynamics and scoring: outcome lists, item generation and the cached crawl score."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym.crawl import crawl_reward
from rlm_gym.envs import SCHEMAS
from rlm_gym.envs import dynamics as dyn
from rlm_gym.envs.items import build_items, defective_copy
from rlm_gym.envs.profiles import PATTERN_TYPES, sample_profile
from rlm_gym.envs.scoring import terminal_score


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


def test_every_defect_fails_validation():
    for pattern_type in PATTERN_TYPES:
        fields = SCHEMAS[pattern_type]
        for extractor in range(3):
            items = build_items(pattern_type, ((extractor, 4, 4),), offset=3)
            signal = crawl_reward(
                {"success": True, "data": items, "extraction_schema": {"required": list(fields)}}
            )
            assert signal.details["validation"] < 1.0, (pattern_type, extractor)
        clean = build_items(pattern_type, ((0, 64, 0),), offset=0)
        signal = crawl_reward(
            {"success": True, "data": clean, "extraction_schema": {"required": list(fields)}}
        )
        assert signal.details["validation"] == 1.0, pattern_type


def test_defective_copy_leaves_the_pool_untouched():
    item = {"a": 1, "b": 2, "c": 3}
    defective_copy(item, ("a", "b", "c"), "missing")
    assert item == {"a": 1, "b": 2, "c": 3}


@given(
    st.sampled_from(PATTERN_TYPES),
    st.lists(st.tuples(st.integers(0, 2), st.integers(1, 50), st.integers(0, 50)), max_size=3),
    st.booleans(),
    st.integers(0, 12),
    st.integers(0, 2000).map(lambda t: t * 100),
    st.booleans(),
    st.integers(0, 63),
)
@settings(max_examples=150, deadline=None)
def test_terminal_score_equals_crawl_reward(
    pattern_type, raw_blocks, success, pages, time_ms, has_error, offset
):
    blocks = tuple((e, n, min(d, n)) for e, n, d in raw_blocks)
    result = {
        "success": success,
        "data": build_items(pattern_type, blocks, offset),
        "navigation_result": {"pages_collected": pages, "strategy_used": "x"},
        "execution_time_ms": float(time_ms),
        "errors": ["HTTP 429 Too Many Requests"] if has_error else [],
        "extraction_schema": {"required": list(SCHEMAS[pattern_type])},
        "pattern_type": pattern_type,
    }
    expected = crawl_reward(result).value
    assert terminal_score(pattern_type, blocks, success, pages, time_ms, has_error) == expected
