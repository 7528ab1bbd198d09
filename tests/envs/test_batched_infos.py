"""``add_infos`` against Gymnasium's ``VectorEnv._add_info`` called once per sub-env."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rlm_gym.envs.batched_infos import add_infos
from rlm_gym.envs.crawl_vector import CrawlVectorEnv

N = 6
_ENV = CrawlVectorEnv(N)

_leaves = st.one_of(
    st.integers(-5, 5),
    st.floats(-3, 3, allow_nan=False),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.lists(st.integers(0, 3), max_size=2),
    st.just(np.float32(1.5)),
    st.just(np.arange(3.0)),
)
_keys = st.sampled_from(["a", "b", "final_obs", "task"])
_infos = st.recursive(
    st.dictionaries(_keys, _leaves, max_size=4),
    lambda children: st.dictionaries(_keys, st.one_of(_leaves, children), max_size=4),
    max_leaves=12,
)


def _same_value(mine, theirs, key) -> None:
    if isinstance(theirs, np.ndarray):
        np.testing.assert_array_equal(mine, theirs)
        return
    assert type(mine) is type(theirs), key
    assert mine == theirs or (mine != mine and theirs != theirs), key  # nan is nan


def _same(got, want) -> None:
    assert list(got) == list(want)
    for key, value in want.items():
        if isinstance(value, dict):
            _same(got[key], value)
        elif isinstance(value, np.ndarray):
            assert got[key].dtype == value.dtype, key
            assert got[key].shape == value.shape, key
            if value.dtype != object:
                np.testing.assert_array_equal(got[key], value)  # nan equal to nan
                continue
            for mine, theirs in zip(got[key], value, strict=True):
                _same_value(mine, theirs, key)
        else:  # ``_add_info`` left a value of its own (a dict's entry) as it is
            _same_value(got[key], value, key)


@settings(max_examples=300, deadline=None)
@given(st.lists(_infos, max_size=N), st.randoms(use_true_random=False))
def test_add_infos_gives_what_add_info_per_sub_env_gives(infos, random):
    rows = random.sample(range(N), len(infos))
    want: dict = {}
    try:
        for row, info in zip(rows, infos, strict=True):
            want = _ENV._add_info(want, info, row)
    except (AttributeError, TypeError, ValueError):
        assume(False)  # infos ``_add_info`` itself cannot batch (e.g. None into an int array)
    _same(add_infos({}, infos, rows, N), want)
