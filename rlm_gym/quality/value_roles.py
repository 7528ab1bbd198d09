"""The role a value plays, read from its own characters: a learned model, evaluated with numpy.

Every value gets a probability per *role* — a person, an organisation, a place, a title, a long
text, a category, an amount, a number, a rating, a date, a URL, an e-mail, a phone, an
identifier, code or markup, a labelled value ("Price: 3,7 mld") — from hashed character
1-4-grams of its normalised text (lower case, every digit of any script read as ``0``, at most
``MAX_CHARS`` characters) and two shape marks (its length and word count), through one linear
softmax layer. The weights are data (``tables/value_roles.npz``), built from generated values
in 60 Faker locales, CLDR's number, scale and date words and defect generators by
``tools/build_role_model.py`` (pinned versions and seeds); nothing is learned from a crawl.

The roles are grouped for judging (:data:`ROLE_GROUPS`): the name-like roles (person,
organisation, place, title, text, category) read alike across scripts and are one group, the
numeric roles another. :func:`role_outliers` finds, in a column of one group, the values that
plainly belong to another: "a salary in the `company` column", "a link in the `location`
column". The column's name plays no part.

Scoring is vectorised over a column and cached per distinct text, so a column of repeated
values costs one model row per distinct value.

Example:
    >>> roles = value_roles(["Anna Kowalska", "https://example.com/a", "45 000 - 60 000 zł"])
    >>> [ROLES[i] for i in roles.argmax(axis=1)]
    ['person', 'url', 'amount']
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rlm_gym.quality.numbers import ascii_digits

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "ROLES",
    "ROLE_GROUPS",
    "MAX_CHARS",
    "HASH_BITS",
    "OUTLIER_SETTINGS",
    "RoleOutliers",
    "ngram_hashes",
    "normalise",
    "scores",
    "softmax",
    "group_probabilities",
    "value_roles",
    "role_outliers",
]

ROLES = (
    "person",
    "organisation",
    "place",
    "title",
    "text",
    "category",
    "amount",
    "number",
    "rating",
    "date",
    "url",
    "email",
    "phone",
    "identifier",
    "markup",
    "labelled",
)
"""The roles the model tells apart, in the order of its outputs."""

ROLE_GROUPS = {
    "words": ("person", "organisation", "place", "title", "text", "category"),
    "numeric": ("amount", "number", "rating", "identifier"),
    "date": ("date",),
    "url": ("url",),
    "email": ("email",),
    "phone": ("phone",),
    "markup": ("markup",),
    "labelled": ("labelled",),
}
"""Roles that read alike are judged as one group: a city is often read as a person, a price
as a count; a number is never read as a name."""

MAX_CHARS = 48
"""Characters of a value read (long texts are told by their length mark and their start)."""

HASH_BITS = 15
"""The n-grams are hashed into ``2**HASH_BITS`` buckets."""

OUTLIER_SETTINGS: dict[str, float] = {
    "max_share": 0.1,
    "min_values": 5,
    "dominant_share": 0.6,
    "max_probability": 0.002,
}
"""When a column's value is another role's (:func:`role_outliers`): the column has at least
``min_values`` distinct texts, ``dominant_share`` of them in one group whose probability, for
the value, is at most ``max_probability``; and at most ``max_share`` of the column's values are
off it (more is a column of two roles, not a defect). ``max_probability``, ``dominant_share``
and ``max_share`` are the setting chosen by leave-one-corpus-out in
``benchmarks/judge_signals.py``."""

_MODEL_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tables", "value_roles.npz")
_GROUP_NAMES = tuple(ROLE_GROUPS)
_GROUP_OF = tuple(
    next(g for g, members in enumerate(ROLE_GROUPS.values()) if role in members) for role in ROLES
)
_OUTLIER_GROUPS = tuple(
    _GROUP_NAMES.index(group) for group in ("numeric", "date", "url", "email", "phone", "markup")
)
"""The groups a value among names is flagged for. A labelled value ("Cena: 1.700 €") is not:
titles and descriptions carry "label: value" parts of their own (measured by
``benchmarks/judge_signals.py``: the labelled role flagged only valid titles)."""
_LONG_TEXT = ROLES.index("text")
_LENGTH_EDGES = (1, 2, 3, 5, 8, 12, 20, 32, 64, 128)
_WORD_EDGES = (1, 2, 3, 4, 6, 10, 20)
_MARK_BASE = 0xE000  # private-use characters carry the shape marks into the n-grams
_BEGIN, _END = "\x02", "\x03"
_DIGIT_TABLE = str.maketrans("123456789", "000000000")
_MULTIPLIER = 0x9E3779B97F4A7C15
_PRIME = 1_000_003


def _bucket(value: int, edges: Sequence[int]) -> int:
    for index, edge in enumerate(edges):
        if value <= edge:
            return index
    return len(edges)


def normalise(text: str) -> str:
    """The text the model reads: shape marks, then the lower-cased text with digits as ``0``.

    Example:
        >>> normalise(" Price: 3,7 mld ")[3:]
        'price: 0,0 mld\\x03'
    """
    stripped = " ".join(text.split())
    marks = chr(_MARK_BASE + _bucket(len(stripped), _LENGTH_EDGES)) + chr(
        _MARK_BASE + 16 + _bucket(len(stripped.split()), _WORD_EDGES)
    )
    body = ascii_digits(stripped[:MAX_CHARS]).lower().translate(_DIGIT_TABLE)
    return _BEGIN + marks + body + _END


def ngram_hashes(texts: Sequence[str], bits: int = HASH_BITS) -> tuple[np.ndarray, np.ndarray]:
    """The hashed character 1-4-grams of the normalised ``texts``, all at once.

    Args:
        texts: Normalised texts (:func:`normalise`).
        bits: Hash width: buckets in ``[0, 2**bits)``.

    Returns:
        ``(buckets, owners)``: one bucket per n-gram and the index of the text it belongs to,
        ordered by owner.

    Example:
        >>> buckets, owners = ngram_hashes([normalise("ab"), normalise("c")])
        >>> owners.tolist() == sorted(owners.tolist()), int(buckets.max()) < 2**15
        (True, True)
    """
    import numpy as np

    joined = "".join(texts)
    codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    owner = np.repeat(np.arange(len(texts)), lengths)
    shift = np.uint64(64 - bits)
    buckets, owners = [], []
    rolling = codes.copy()
    prime, multiplier = np.uint64(_PRIME), np.uint64(_MULTIPLIER)
    with np.errstate(over="ignore"):
        for n in range(1, 5):
            if n > 1:
                rolling = rolling[:-1] * prime + codes[n - 1 :]
            same = owner[: len(owner) - n + 1] == owner[n - 1 :]
            mixed = (rolling[same] ^ np.uint64(n)) * multiplier
            buckets.append((mixed >> shift).astype(np.int64))
            owners.append(owner[: len(owner) - n + 1][same])
    bucket_all = np.concatenate(buckets)
    owner_all = np.concatenate(owners)
    order = np.argsort(owner_all, kind="stable")
    return bucket_all[order], owner_all[order]


def scores(
    weights: np.ndarray, bias: np.ndarray, buckets: np.ndarray, owners: np.ndarray, count: int
) -> np.ndarray:
    """The logits of ``count`` texts: each text's n-gram weights summed, over the square root
    of its n-gram count, plus the bias (the training script uses the same function)."""
    import numpy as np

    per_text = np.bincount(owners, minlength=count)
    cumulative = np.zeros((len(buckets) + 1, weights.shape[1]), dtype=np.float32)
    np.cumsum(weights[buckets], axis=0, out=cumulative[1:])
    ends = np.cumsum(per_text)
    sums = cumulative[ends] - cumulative[ends - per_text]
    return sums / np.sqrt(np.maximum(per_text, 1))[:, None] + bias


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax."""
    import numpy as np

    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


@lru_cache(maxsize=1)
def _model() -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    with np.load(_MODEL_PATH) as data:
        roles = tuple(str(role) for role in data["roles"])
        if roles != ROLES:
            raise ValueError(f"Expected the roles {ROLES} in {_MODEL_PATH}, got {roles}")
        return data["weights"].astype(np.float32), data["bias"].astype(np.float32)


_CACHE: dict[str, np.ndarray] = {}
_CACHE_LIMIT = 16384


def value_roles(texts: Sequence[str]) -> np.ndarray:
    """The role probabilities of each text: an array of shape ``(len(texts), len(ROLES))``.

    Computed once per distinct text (cached) and vectorised over the texts not seen yet.

    Example:
        >>> probabilities = value_roles(["info@example.org", "2 days ago"])
        >>> [ROLES[i] for i in probabilities.argmax(axis=1)]
        ['email', 'date']
    """
    import numpy as np

    missing = [text for text in dict.fromkeys(texts) if text not in _CACHE]
    if not missing:
        return np.array([_CACHE[text] for text in texts]).reshape(len(texts), len(ROLES))
    weights, bias = _model()
    buckets, owners = ngram_hashes([normalise(text) for text in missing])
    probabilities = softmax(scores(weights, bias, buckets, owners, len(missing)))
    fresh = dict(zip(missing, probabilities, strict=True))
    if len(missing) == len(texts):
        result = probabilities
    else:
        result = np.array([fresh[text] if text in fresh else _CACHE[text] for text in texts])
    # The cache is bounded: emptied when full (after the rows above were read from it).
    if len(_CACHE) + len(fresh) > _CACHE_LIMIT:
        _CACHE.clear()
    if len(fresh) <= _CACHE_LIMIT:
        _CACHE.update(fresh)
    return result


def group_probabilities(probabilities: np.ndarray) -> np.ndarray:
    """Role probabilities summed per group of :data:`ROLE_GROUPS`."""
    return probabilities @ _group_matrix()


@lru_cache(maxsize=1)
def _group_matrix() -> np.ndarray:
    import numpy as np

    matrix = np.zeros((len(ROLES), len(ROLE_GROUPS)), dtype=np.float32)
    matrix[np.arange(len(ROLES)), list(_GROUP_OF)] = 1.0
    return matrix


_SHOWN = {"labelled": "labelled value", "markup": "piece of markup", "text": "long text"}


def _plural(role: str) -> str:
    if role == "person":
        return "people"
    if role == "text":
        return "texts"
    return role[:-1] + "ies" if role.endswith("y") else role + "s"


@dataclass(frozen=True, slots=True)
class RoleOutliers:
    """Values of a column that play another role than the column's.

    Attributes:
        column_role: The column's most frequent role, plural ("organisations").
        roles: Value -> the role it plays instead ("amount").
        rows: How many of the column's values are outliers.
        total: How many values the column holds.

    Example:
        >>> names = ["Anna Nowak", "Jan Kowalski", "Ewa Lis", "Piotr Wójcik", "Maria Zając"]
        >>> found = role_outliers(names * 2 + ["https://example.com/jobs/12"])
        >>> found.column_role, found.roles, (found.rows, found.total)
        ('people', {'https://example.com/jobs/12': 'url'}, (1, 11))
    """

    column_role: str
    roles: dict[str, str]
    rows: int
    total: int

    def reason(self, field: str, value: str) -> str:
        """The reason text for ``value`` of column ``field``."""
        role = _SHOWN.get(self.roles[value], self.roles[value])
        article = "an" if role[0] in "aeio" else "a"
        return (
            f"{article} {role} in the `{field}` column of {self.column_role}: "
            f"{self.rows} of {self.total} rows"
        )


def role_outliers(
    values: Sequence[Any], settings: dict[str, float] | None = None
) -> RoleOutliers | None:
    """The values of a text column that plainly play another role than the column's.

    A column's group is the group of :data:`ROLE_GROUPS` most of its distinct texts read as
    (at least ``dominant_share``); a value is an outlier when its probability of that group is
    at most ``max_probability`` and whose own group is a number, a date, a URL, an e-mail, a
    phone or markup. Only columns of name-like values (people, companies, places, titles,
    categories) are read: their values are free text, so nothing else checks their role;
    columns of long texts, which may hold anything, and non-string values are left alone.

    A bare whole number is never an outlier: among names it is a model or a year ("320",
    "1984"), which the shifted-column rule judges by the field's name.

    Args:
        values: The column's values.
        settings: Overrides of :data:`OUTLIER_SETTINGS`.

    Returns:
        The outliers, or None when the column has none (or is too small or mixed to say).

    Example:
        >>> role_outliers(["Warszawa", "Kraków", "Gdańsk"]) is None  # too few values
        True
    """
    import numpy as np

    chosen = OUTLIER_SETTINGS if settings is None else {**OUTLIER_SETTINGS, **settings}
    texts = [value for value in values if type(value) is str and value.strip()]
    if len(texts) * chosen["max_share"] < 1:
        return None  # a single outlier would already be too many: nothing to find
    distinct = list(dict.fromkeys(texts))
    if len(distinct) < chosen["min_values"]:
        return None
    probabilities = value_roles(distinct)
    grouped = group_probabilities(probabilities)
    best = grouped.argmax(axis=1)
    words = _GROUP_NAMES.index("words")
    if (best == words).sum() < chosen["dominant_share"] * len(distinct):
        return None
    if probabilities.sum(axis=0).argmax() == _LONG_TEXT:
        return None  # a long text may hold anything: a price, a date, a link, a label
    off = (grouped[:, words] <= chosen["max_probability"]) & np.isin(best, _OUTLIER_GROUPS)
    # A bare whole number among names is a model or a year ("320", "1984"): the
    # shifted-column rule judges those by the field's name.
    for index in np.flatnonzero(off):
        off[index] = not distinct[index].strip().isdecimal()
    if not off.any():
        return None
    outliers = {text for text, flag in zip(distinct, off.tolist(), strict=True) if flag}
    rows = sum(1 for text in texts if text in outliers)
    if rows > chosen["max_share"] * len(texts):
        return None
    column_role = _plural(ROLES[int(probabilities[~off].sum(axis=0).argmax())])
    roles = {
        text: ROLES[int(probabilities[index].argmax())]
        for index, text in enumerate(distinct)
        if off[index]
    }
    return RoleOutliers(column_role, roles, rows, len(texts))
