"""``score_batch`` of the built-ins: the numbers of ``score_components``, per sub-env."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym.policies import ActionResult, PolicyContext, PolicyRegistry
from rlm_gym.policies.batch import ResultBatch

BUILTINS = ("default", "strict", "lenient", "research", "binary")

texts = st.sampled_from(
    ["", "ok", "x" * 60, "Traceback: boom", "Execution timeout", "it TIMED OUT", "failed " * 20]
)
codes = st.sampled_from([None, "", "x = 1", "f(" * 12 + ")" * 12, "y" * 700])
steps = st.builds(
    lambda kind, success, output, error, duration, partial, code, step: (
        {"action": kind, "code": code} if code is not None else {"action": kind},
        ActionResult(
            kind,
            success,
            output=output,
            error=error or None,
            duration_ms=duration,
            metadata={} if partial is None else {"partial": partial},
        ),
        step,
    ),
    st.sampled_from(["code", "final", "step"]),
    st.booleans(),
    texts,
    texts,
    st.sampled_from([0.0, 5.0, 999.9, 1000.0, 5000.0, 20000.0]),
    st.sampled_from([None, 0.0, 0.25, 1.0]),
    codes,
    st.integers(0, 12),
)


@pytest.mark.parametrize("name", BUILTINS)
@settings(max_examples=60, deadline=None)
@given(rows=st.lists(steps, min_size=1, max_size=8))
def test_score_batch_equals_score_components_per_sub_env(name, rows):
    policy = PolicyRegistry.get_reward(name)
    actions = [action for action, _, _ in rows]
    results = [result for _, result, _ in rows]
    step = np.array([row[2] for row in rows])
    batch = ResultBatch.from_results(actions, results, step, np.full(len(rows), 10))
    scored = policy.score_batch(batch)
    assert list(scored) == list(policy.component_names)
    for index, (action, result, row_step) in enumerate(rows):
        context = PolicyContext(step=row_step, max_steps=10)
        expected = dict.fromkeys(policy.component_names, 0.0)
        expected.update(policy.score_components(action, result, context))
        got = {key: float(values[index]) for key, values in scored.items()}
        assert got == pytest.approx(expected, abs=1e-12)


def test_default_score_batch_names_the_sub_env_of_a_bad_partial_share():
    results = [ActionResult("code", False), ActionResult("code", False, metadata={"partial": 2})]
    batch = ResultBatch.from_results([{}, {}], results, np.zeros(2, int), np.full(2, 10))
    with pytest.raises(ValueError, match=r"got 2 \(sub-env 1\)"):
        PolicyRegistry.get_reward("default").score_batch(batch)
