"""``ResultBatch``: the struct of arrays a vector step is scored from."""

from __future__ import annotations

import numpy as np
import pytest

from rlm_gym.policies import ActionResult
from rlm_gym.policies.batch import ResultBatch, bracket_depth


def test_generic_batch_is_the_wrappers_generic_result_elementwise():
    batch = ResultBatch.generic(
        rewards=np.array([1.0, 0.0, -1.0, 0.5]),
        terminated=np.array([False, True, True, False]),
        step=np.arange(4),
        max_steps=np.full(4, 10),
    )
    assert batch.action_type.tolist() == ["step", "final", "final", "step"]
    assert batch.success.tolist() == [True, False, False, True]
    assert batch.is_final.tolist() == [False, True, True, False]
    assert not batch.has_error.any() and not batch.output_has_error_word.any()
    assert (batch.duration_ms == 0.0).all() and (batch.partial == 0.0).all()
    assert batch.step.tolist() == [0, 1, 2, 3] and len(batch) == 4


def test_generic_constants_are_shared_and_read_only():
    first = ResultBatch.generic(np.zeros(3), np.zeros(3, bool), np.zeros(3), np.zeros(3))
    second = ResultBatch.generic(np.ones(3), np.ones(3, bool), np.zeros(3), np.zeros(3))
    assert first.duration_ms is second.duration_ms
    with pytest.raises(ValueError):
        first.duration_ms[0] = 1.0


def test_from_results_extracts_what_the_builtin_formulas_read():
    actions = [{"action": "code", "code": "f(g([1]))"}, {"action": "final"}, {}]
    results = [
        ActionResult("code", True, output="Traceback: boom", duration_ms=5.0, tokens_used=3),
        ActionResult("final", False, error="Execution timeout", metadata={"partial": 0.5}),
        ActionResult("final", False, output=None, metadata={"partial": 2}),
    ]
    batch = ResultBatch.from_results(actions, results, np.array([1, 2, 3]), np.full(3, 10))
    assert batch.action_type.tolist() == ["code", "final", "final"]
    assert batch.is_final.tolist() == [False, True, True]  # the dict's "action", else the type
    assert batch.has_error.tolist() == [False, True, False]
    assert batch.error_text.tolist() == ["", "Execution timeout", ""]
    assert batch.output_length.tolist() == [15, 0, 0]
    assert batch.code_length.tolist() == [9, 0, 0]
    assert batch.code_depth.tolist() == [3, 0, 0]
    assert batch.output_has_error_word.tolist() == [True, False, False]
    assert batch.duration_ms.tolist() == [5.0, 0.0, 0.0]
    assert batch.tokens_used.tolist() == [3, 0, 0]
    assert batch.partial[1] == 0.5 and np.isnan(batch.partial[2])
    assert batch.partial_errors == {
        2: "Expected `metadata['partial']` to be a number in [0, 1], got 2"
    }


def test_a_successful_result_never_reads_its_partial_share():
    results = [ActionResult("code", True, metadata={"partial": "bad"})]
    batch = ResultBatch.from_results([{}], results, np.zeros(1), np.ones(1))
    assert batch.partial.tolist() == [0.0] and not batch.partial_errors


def test_bracket_depth_ignores_unbalanced_closers():
    assert bracket_depth(")))(") == 1
    assert bracket_depth("") == 0
