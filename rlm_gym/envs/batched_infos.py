"""Gymnasium's vector info layout for many sub-envs at once: ``VectorEnv._add_info`` batched.

``VectorEnv._add_info(vector_infos, info, i)`` adds one sub-env's info dict to a vector env's
infos (a key holds an array, ``"_key"`` marks the sub-envs that reported it, dicts are batched
key by key). Called once per finished sub-env it walks every nested key of every info - the
crawl result's included - one sub-env at a time. :func:`add_infos` gives the same infos for a
list of info dicts in one pass per key: the same keys in the same order, arrays of the same
dtype (the first value's, as ``_add_info`` types them) holding the same values.

:class:`LazyColumn` is an info key whose entries are Python objects built only when read (the
batched Crawl-v2's ``ActionResult`` s, action codes and crawl results): most steps nobody reads
them, and building one per sub-env per step costs more than the step itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = ["LazyColumn", "add_infos"]

_UNBUILT = object()


class LazyColumn(Sequence):
    """One info key of a vector step, one entry per sub-env, each built on first read.

    Reads as the object array ``_add_info`` would hold: ``column[i]`` (built once, then the
    same object), ``len``, iteration and ``np.asarray(column)`` (an object array). The
    ``"_key"`` mask beside it says which entries were reported; an unreported entry is whatever
    ``build`` gives (None by convention).

    Args:
        n: The number of sub-envs.
        build: ``build(i)`` gives sub-env ``i``'s entry.

    Example:
        >>> column = LazyColumn(3, lambda index: f"row {index}")
        >>> column[2], len(column), np.asarray(column).tolist()
        ('row 2', 3, ['row 0', 'row 1', 'row 2'])
    """

    __slots__ = ("_build", "_values")

    def __init__(self, n: int, build: Callable[[int], Any]) -> None:
        self._build = build
        self._values = [_UNBUILT] * n

    def __len__(self) -> int:
        return len(self._values)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, (int, np.integer)):
            value = self._values[index]
            if value is _UNBUILT:
                value = self._values[index] = self._build(int(index) % len(self._values))
            return value
        return np.asarray(self)[index]

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        array = np.empty(len(self._values), dtype=object)
        for index in range(len(self._values)):
            array[index] = self[index]
        return array if dtype is None else array.astype(dtype)

    def __repr__(self) -> str:
        return f"LazyColumn({np.asarray(self)!r})"


# ``_add_info`` keeps this key's values as the objects given (Gymnasium's special case).
_FINAL_OBS = "final_obs"


def add_infos(
    vector_infos: dict[str, Any], infos: list[dict[str, Any]], rows: list[int], n: int
) -> dict[str, Any]:
    """Add ``infos[j]`` as sub-env ``rows[j]``'s info, as ``_add_info`` called for each ``j`` in
    order would.

    Args:
        vector_infos: The vector infos to add to (updated and returned).
        infos: One info dict per sub-env of ``rows``.
        rows: The sub-envs, in the order ``_add_info`` would be called.
        n: The number of sub-envs.

    Example:
        >>> infos = add_infos({}, [{"task": {"done": True}}, {"task": {"done": False}}], [2, 0], 3)
        >>> infos["task"]["done"].tolist(), infos["_task"].tolist()
        ([False, False, True], [True, False, True])
    """
    # Each key's sub-envs and values, keys in the order they are first seen.
    columns: dict[str, tuple[list[int], list[Any]]] = {}
    keys = tuple(infos[0]) if infos else ()
    if all(tuple(info) == keys for info in infos):
        # The usual case (every info has the same keys): one list per key.
        for key in keys:
            columns[key] = (rows, [info[key] for info in infos])
    else:
        for row, info in zip(rows, infos, strict=True):
            for key, value in info.items():
                column = columns.get(key)
                if column is None:
                    column = columns[key] = ([], [])
                column[0].append(row)
                column[1].append(value)
    for key, (key_rows, values) in columns.items():
        kinds = {type(value) for value in values}
        dicts = sum(isinstance(value, dict) for value in values)
        if key == _FINAL_OBS or key in vector_infos or 0 < dicts < len(values):
            # Special, already there or mixed: ``_add_info``'s own rules, one value at a time.
            _one_by_one(vector_infos, key, key_rows, values, n)
            continue
        if dicts:
            array = add_infos({}, values, key_rows, n)
        else:
            array = _new_array(values[0], n)
            if len(kinds) == 1 and array.dtype != object and array.ndim == 1:
                # One numeric type: the same values as element by element, in one numpy call.
                array[key_rows] = values
            else:
                for row, value in zip(key_rows, values, strict=True):
                    array[row] = value
        mask = vector_infos.get(f"_{key}")
        if mask is None:
            mask = np.zeros(n, dtype=np.bool_)
        mask[key_rows] = True
        vector_infos[key], vector_infos[f"_{key}"] = array, mask
    return vector_infos


def _new_array(value: Any, n: int) -> np.ndarray:
    """The array ``_add_info`` makes for a key whose first value is ``value``."""
    if type(value) in (int, float, bool) or issubclass(type(value), np.number):
        return np.zeros(n, dtype=type(value))
    if isinstance(value, np.ndarray):
        return np.zeros((n, *value.shape), dtype=value.dtype)
    return np.full(n, None, dtype=object)


def _one_by_one(
    vector_infos: dict[str, Any], key: str, rows: list[int], values: list[Any], n: int
) -> None:
    for row, value in zip(rows, values, strict=True):
        if key == _FINAL_OBS:
            array = vector_infos.get(key)
            if array is None:
                array = np.full(n, None, dtype=object)
            array[row] = value
        elif isinstance(value, dict):
            array = add_infos(vector_infos.get(key, {}), [value], [row], n)
        else:
            array = vector_infos.get(key)
            if array is None:
                array = _new_array(value, n)
            array[row] = value
        mask = vector_infos.get(f"_{key}")
        if mask is None:
            mask = np.zeros(n, dtype=np.bool_)
        mask[row] = True
        vector_infos[key], vector_infos[f"_{key}"] = array, mask
