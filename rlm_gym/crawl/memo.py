"""The scoring memo: the judgement of item lists already scored, keyed by their content.

An env ends many episodes with the same items, and the ``crawl`` policy scores the crawl the
env just scored: judging items is most of a score's cost, and the rest (success, pages, time,
errors, thresholds) is cheap. So the item-dependent part of a score (:class:`Judged`) is kept
in a memo per settings (:func:`memo_for`), keyed by :func:`content_key`, the items' exact
pickle. Every hit costs a pickle of the items and a dict lookup; keep that path tight.
"""

from __future__ import annotations

import copy
import io
import pickle
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rlm_gym.crawl.item_scores import ItemScores, assess
from rlm_gym.crawl.settings import CrawlSettings
from rlm_gym.quality.judge import judge_items

__all__ = [
    "MEMO_SIZE",
    "MEMO_MAX_ITEMS",
    "MEMO_MAX_KEY_BYTES",
    "memo_for",
    "content_key",
    "Judged",
    "judged",
    "fresh_fields",
]

# Entries of a scoring memo; one that outgrows it is cleared (cheaper per hit than an LRU).
MEMO_SIZE = 2048
# Longer item lists, or keys over MEMO_MAX_KEY_BYTES, are not memoised: the memo would hold
# too much (at most MEMO_SIZE x MEMO_MAX_KEY_BYTES = 32 MiB of keys per memo).
MEMO_MAX_ITEMS = 1000
MEMO_MAX_KEY_BYTES = 16_384
# Shared memos, one per distinct settings (few: one per reward config in use).
_MEMOS: list[tuple[CrawlSettings, dict[Any, Any]]] = []
_MAX_SHARED_MEMOS = 16


def memo_for(settings: CrawlSettings) -> dict[Any, Any]:
    """The scoring memo shared by every caller scoring with settings equal to ``settings``.

    The env's scorer and the ``crawl`` policy score the same items under the same config: with
    one memo, the policy reuses the judgement the env just made.

    Example:
        >>> from rlm_gym.crawl.settings import DEFAULT_SETTINGS, crawl_settings
        >>> memo_for(crawl_settings({})) is memo_for(DEFAULT_SETTINGS)
        True
    """
    for known, memo in _MEMOS:
        if known is settings or known == settings:
            return memo
    memo: dict[Any, Any] = {}
    if len(_MEMOS) < _MAX_SHARED_MEMOS:
        _MEMOS.append((settings, memo))
    return memo


class _BuiltinsOnlyPickler(pickle.Pickler):
    """Pickles exact built-in values only: anything else raises ``_NotBuiltin``.

    ``reducer_override`` is not called for exact ``str``, ``int``, ``float``, ``bool``,
    None, ``bytes``, ``list``, ``tuple``, ``dict``, ``set`` and ``frozenset`` (pickle's
    native types); it is called for everything else, subclasses included, which a judge may
    treat differently from their base type.
    """

    def reducer_override(self, obj: Any) -> Any:
        raise _NotBuiltin


class _NotBuiltin(Exception):
    pass


def content_key(data: Sequence[Any]) -> bytes | None:
    """A key equal for two item lists exactly when they hold the same values, or None.

    The key is the lists' pickle (protocol 5) when every value in them, at any depth, is an
    exact built-in (``str``, ``int``, ``float``, ``bool``, None, ``bytes``, ``list``,
    ``tuple``, ``dict``, ``set``, ``frozenset``). Pickling is faithful, so equal keys mean
    lists that unpickle to the same values of the same types in the same order, and every
    verdict on them is the same: ``1``, ``1.0`` and ``True`` differ, and so do ``0.0`` and
    ``-0.0``, which ``==`` cannot tell apart. Equal lists may still get different keys (a
    shared object is pickled once), which only costs a memo miss. Anything else (subclasses,
    custom objects, nesting too deep to pickle), more than ``MEMO_MAX_ITEMS`` items or a key
    over ``MEMO_MAX_KEY_BYTES`` gives None: not memoised.

    Example:
        >>> content_key([{"price": 1.0}]) == content_key([{"price": 1}])
        False
        >>> content_key([{"price": 1.0}]) == content_key([{"price": 1.0}])
        True
        >>> content_key([{"price": -0.0}]) == content_key([{"price": 0.0}])
        False
        >>> class Price(float): ...
        >>> content_key([{"price": Price(1.0)}]) is None
        True
    """
    kind = type(data)
    if (kind is list or kind is tuple) and not data:
        # Most final results of the env hold no items: their keys are made once.
        return _EMPTY_KEYS[kind]
    if len(data) > MEMO_MAX_ITEMS:
        return None
    return _pickled(data)


# Idle picklers with their buffers: making a pickler costs as much as pickling a few items, so
# each is reused. A pool (list pop / append) rather than one shared pickler keeps concurrent
# calls from different threads apart.
_PICKLERS: list[tuple[_BuiltinsOnlyPickler, io.BytesIO]] = []


def _pickled(data: Sequence[Any]) -> bytes | None:
    """``data``'s protocol 5 pickle if it holds exact built-ins only and fits the key size."""
    try:
        pickler, buffer = _PICKLERS.pop()
    except IndexError:
        buffer = io.BytesIO()
        pickler = _BuiltinsOnlyPickler(buffer, 5)
    try:
        pickler.dump(data)
        key = buffer.getvalue() if buffer.tell() <= MEMO_MAX_KEY_BYTES else None
    except (_NotBuiltin, RecursionError, pickle.PicklingError, TypeError, ValueError):
        key = None
    # Forget this dump before the pickler is reused: its memo holds the items (a later dump
    # would refer back to them, and they would stay alive), its buffer the pickle (emptying
    # it frees the memory).
    pickler.clear_memo()
    buffer.seek(0)
    buffer.truncate()
    _PICKLERS.append((pickler, buffer))
    return key


_EMPTY_KEYS = {list: _pickled([]), tuple: _pickled(())}


# Immutable example values, shared between memoised rows and fresh diagnostics.
_LEAF_TYPES = frozenset({str, int, float, bool, type(None)})


@dataclass(slots=True)
class Judged:
    """The item-dependent part of a score (what a memo keeps).

    ``details`` holds the details that depend on the items alone, already in the order of the
    signal's details, with None for those set on every call: copying it and setting those
    costs less than building the whole dict again. ``field_rows`` are the field diagnostics
    as rows ``(name, type, checked, invalid, examples, examples are leaves, reasons)``
    (``()`` when not memoised); ``defects_note`` is the explanation's note on the systematic
    defects.
    """

    pattern_type: str
    assessed: ItemScores
    details: dict[str, Any]
    field_rows: tuple[tuple[Any, ...], ...]
    defects_note: str


def _field_rows(fields: dict[str, dict[str, Any]]) -> tuple[tuple[Any, ...], ...]:
    leaves = _LEAF_TYPES
    return tuple(
        (
            name,
            entry["type"],
            entry["checked"],
            entry["invalid"],
            tuple(entry["examples"]),
            all(type(value) in leaves for value in entry["examples"]),
            tuple(entry["reasons"].items()),
        )
        for name, entry in fields.items()
    )


def fresh_fields(rows: tuple[tuple[Any, ...], ...]) -> dict[str, dict[str, Any]]:
    """Field diagnostics built anew from memoised rows: the caller may change them freely."""
    # A plain loop: a dict comprehension costs a function call more, per memo hit.
    fields = {}
    for name, kind, checked, invalid, examples, leaves, reasons in rows:
        fields[name] = {
            "type": kind,
            "checked": checked,
            "invalid": invalid,
            "examples": [*examples] if leaves else copy.deepcopy(list(examples)),
            "reasons": dict(reasons),
        }
    return fields


def judged(
    data: Sequence[Any],
    fields: tuple[str, ...],
    pattern_type: str | None,
    settings: CrawlSettings,
    memo: dict[Any, Judged] | None,
) -> Judged:
    """The item-dependent part of a score: pattern type, distinct items and their assessment
    (with field rows when ``memo`` is given, else ``()``)."""
    key = None
    if memo is not None:
        content = content_key(data)
        if content is not None:
            key = (content, fields, pattern_type)
            found = memo.get(key)
            if found is not None:
                return found
    judgement = judge_items(data, fields, pattern_type)
    assessed = assess(judgement, len(data), settings)
    distinct = len(judgement.distinct)
    details = {
        "success": None,
        "has_data": 1.0 if assessed.extracted else 0.0,
        "validation": assessed.validation,
        "quantity": None,
        "efficiency": None,
        "presence": assessed.presence,
        "completeness": assessed.completeness,
        "quality": assessed.quality,
        "pattern_type": judgement.pattern_type,
        "tier": None,
        "bucket": None,
        "time_per_page_ms": None,
        "time_penalty": None,
        "items": len(data),
        "distinct_items": distinct,
        "junk_items": distinct - assessed.extracted,
        "valid_share": assessed.valid_share,
        "defects": None,
        "fields": None,
    }
    found = Judged(
        judgement.pattern_type,
        assessed,
        details,
        () if memo is None else _field_rows(assessed.fields),
        f", {len(assessed.defects)} systematic defect(s)" if assessed.defects else "",
    )
    if key is not None:
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[key] = found
    return found
