"""A hypothesis strategy of arbitrary JSON-like values, for the never-raise tests."""

from __future__ import annotations

from hypothesis import strategies as st

__all__ = ["JSON"]

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=8) | st.integers(), children, max_size=4)
    ),
    max_leaves=12,
)
