"""The env's cached crawl score: bit for bit ``crawl_reward``'s value and components."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym.crawl import crawl_reward
from rlm_gym.envs import SCHEMAS
from rlm_gym.envs.items import build_items
from rlm_gym.envs.profiles import SIMULATED_PATTERN_TYPES
from rlm_gym.envs.scoring import scorer_for, terminal_score

# Reward configs the env's scorer must follow: the default, graded errors, other weights.
_CONFIGS = [
    None,
    {"efficiency_errors": "graded"},
    {"weights": {"validation": 0.5}},
    {"weights": {"efficiency": 0.3}, "efficiency_errors": "graded", "error_step": 0.3},
]


@given(
    st.sampled_from(SIMULATED_PATTERN_TYPES),
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
