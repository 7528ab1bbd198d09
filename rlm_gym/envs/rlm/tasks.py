"""Long-context tasks with verifiable answers, generated from a seed at any length.

Four families, after the RLM paper's benchmarks (Zhang, Kraska, Khattab; arXiv 2512.24601):

- ``needle`` (S-NIAH-like): one "secret code" line hidden in filler text; exact match.
- ``aggregation`` (OOLONG-like): labelled records whose label is not written in them (each
  record is a question whose *topic* a reader must judge); the query counts one topic or
  compares two over every record. Numeric answers score ``0.75 ** |error|`` as OOLONG does;
  comparisons score by exact match.
- ``pairs`` (OOLONG-Pairs-like): the same records; the answer is every pair of users who both
  asked about a rare topic (quadratic in the users), scored by F1 over the set of pairs.
- ``multihop``: short documents of facts with distractors; the answer needs two facts found in
  two documents (a person's birth city, then that city's country); exact match.

A :class:`Task` is plain data (context, query, answer, scoring), so users bring their own with
:meth:`Task.custom` and a checker.

Example:
    >>> task = generate_task("needle", length=2**13, seed=3)
    >>> len(task.context) == 2**13, task.score(task.answer)
    (True, 1.0)
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "FAMILIES",
    "LABELS",
    "MIN_LENGTH",
    "MAX_LENGTH",
    "Task",
    "generate_task",
    "score_answer",
    "normalise",
    "topic_of",
]

FAMILIES = ("needle", "aggregation", "pairs", "multihop")
MIN_LENGTH = 2**13
MAX_LENGTH = 2**23

# OOLONG's trec-coarse labels; each question template belongs to exactly one topic, which is
# what a reader must recognise (the label itself never appears in a record).
_QUESTIONS: dict[str, tuple[str, ...]] = {
    "numeric value": (
        "how many moons does {w} have",
        "what year did {w} open",
        "how far is {w} from the coast",
        "what is the population of {w}",
    ),
    "location": (
        "where is {w} located",
        "which river runs through {w}",
        "what country borders {w}",
        "where can I find {w} on a map",
    ),
    "human being": (
        "who founded {w}",
        "who wrote the book about {w}",
        "who was the first mayor of {w}",
        "who painted the mural in {w}",
    ),
    "entity": (
        "what animal is the symbol of {w}",
        "what food is {w} known for",
        "which instrument is played in {w}",
        "what colour is the flag of {w}",
    ),
    "abbreviation": (
        "what does the acronym {W} stand for",
        "what is the full form of {W}",
        "what is {W} short for",
    ),
    "description": (
        "why is {w} famous",
        "how does {w} work",
        "what is the meaning of {w}",
        "describe the history of {w}",
    ),
}
LABELS = tuple(_QUESTIONS)
# The rare topic the pairs family asks about: a few dozen users at any length.
_RARE = "abbreviation"
_TEMPLATES = [
    (label, template) for label, templates in _QUESTIONS.items() for template in templates
]
# One pattern per template, matched whole: several templates share a prefix ("what is ...").
_TOPIC_PATTERNS = [
    (re.compile(re.escape(t).replace(r"\{w\}", "[A-Z][a-z]+").replace(r"\{W\}", "[A-Z]+")), label)
    for label, t in _TEMPLATES
]
_SYLLABLES = ("ka", "lo", "ven", "mar", "ti", "sor", "el", "dun", "ra", "pe", "quin", "zo")
_FILLER = (
    "the",
    "grass",
    "is",
    "green",
    "and",
    "sky",
    "blue",
    "river",
    "stone",
    "quiet",
    "morning",
    "light",
    "over",
    "hills",
    "far",
    "away",
)
_FIRST = ("Ada", "Bruno", "Chen", "Dara", "Emil", "Fatima", "Goran", "Hana", "Ivo", "Jun")
_LAST = ("Okafor", "Lindqvist", "Moreau", "Tanaka", "Silva", "Novak", "Haddad", "Kowal")


def topic_of(question: str) -> str | None:
    """The topic of a record's question, by the generator's own rule (``None`` if unknown).

    Example:
        >>> topic_of("who founded Kalomar")
        'human being'
        >>> topic_of("what is KALO short for")
        'abbreviation'
        >>> topic_of("what is the meaning of Kalo")
        'description'
    """
    for pattern, label in _TOPIC_PATTERNS:
        if pattern.fullmatch(question):
            return label
    return None


def normalise(text: Any) -> str:
    """Lower-case, strip punctuation and collapse spaces: how exact-match answers compare."""
    return " ".join(re.sub(r"[^\w\s]", " ", str(text).lower()).split())


def _to_number(answer: Any) -> float | None:
    match = re.search(r"-?\d+(?:\.\d+)?", str(answer).replace(",", ""))
    return float(match.group()) if match else None


def _to_pairs(answer: Any) -> set[tuple[int, int]]:
    if isinstance(answer, (list, tuple, set)):
        text = " ".join(str(item) for item in answer)
    else:
        text = str(answer)
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    return {tuple(sorted(numbers[i : i + 2])) for i in range(0, len(numbers) - 1, 2)}


def score_answer(kind: str, answer: Any, expected: Any) -> float:
    """The score of ``answer`` against ``expected`` in [0, 1].

    ``kind`` is ``"exact"`` (normalised strings equal), ``"numeric"`` (``0.75 ** |error|``, as
    OOLONG scores counts) or ``"f1"`` (F1 over sets of integer pairs, as OOLONG-Pairs does).

    Example:
        >>> score_answer("numeric", "12", 14)
        0.5625
        >>> score_answer("f1", [(1, 2), (3, 4)], [(1, 2)])
        0.6666666666666666
    """
    if kind == "exact":
        return 1.0 if normalise(answer) == normalise(expected) else 0.0
    if kind == "numeric":
        value = _to_number(answer)
        return 0.0 if value is None else float(0.75 ** abs(value - float(expected)))
    if kind == "f1":
        got, want = _to_pairs(answer), {tuple(sorted(p)) for p in expected}
        if not got and not want:
            return 1.0
        hits = len(got & want)
        if hits == 0:
            return 0.0
        precision, recall = hits / len(got), hits / len(want)
        return 2 * precision * recall / (precision + recall)
    raise ValueError(f"Expected `kind` in ('exact', 'numeric', 'f1'), got {kind!r}")


@dataclass
class Task:
    """A long context, a query about it, and how an answer is scored.

    Args:
        context: The text the agent explores (the REPL's ``context`` variable).
        query: The question.
        answer: The expected answer.
        kind: ``"exact"``, ``"numeric"``, ``"f1"``, or ``"custom"`` with ``checker``.
        family: The task family (``"custom"`` for user tasks).
        seed: The seed the task was generated from (``None`` for user tasks).
        checker: For ``kind="custom"``: ``checker(answer) -> float`` in [0, 1].
        metadata: Anything else (generator parameters).

    Example:
        >>> task = Task.custom("a b c", "How many letters?", lambda a: float(a.strip() == "3"))
        >>> task.score("3"), task.score("4")
        (1.0, 0.0)
    """

    context: str
    query: str
    answer: Any
    kind: str = "exact"
    family: str = "custom"
    seed: int | None = None
    checker: Callable[[Any], float] | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def custom(cls, context: str, query: str, checker: Callable[[Any], float]) -> Task:
        """A user task: ``checker(answer)`` returns the score in [0, 1]."""
        if not isinstance(context, str):
            raise TypeError(f"Expected `context` to be a str, got {type(context).__name__}")
        if not callable(checker):
            raise TypeError(f"Expected `checker` to be callable, got {type(checker).__name__}")
        return cls(context=context, query=query, answer=None, kind="custom", checker=checker)

    def score(self, answer: Any) -> float:
        """The score of ``answer`` in [0, 1]."""
        if self.kind == "custom":
            value = float(self.checker(answer))  # type: ignore[misc]
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"Expected the task's checker to return [0, 1], got {value!r}")
            return value
        return score_answer(self.kind, answer, self.answer)


_BANKS: dict[str, list[str]] = {}


def _bank(name: str) -> list[str]:
    """Made-up words and filler sentences, built once from a fixed seed: drawing from a bank
    by index keeps a 1M-character context's generation in milliseconds."""
    if name not in _BANKS:
        rng = np.random.default_rng(20241127)
        syllables = rng.integers(0, len(_SYLLABLES), size=(4096, 3))
        sizes = rng.integers(2, 4, size=4096)
        words = {
            "".join(_SYLLABLES[i] for i in row[:size]).capitalize()
            for row, size in zip(syllables, sizes, strict=False)
        }
        _BANKS["words"] = sorted(words)
        filler = np.array(_FILLER)[rng.integers(0, len(_FILLER), size=(1024, 12))]
        _BANKS["filler"] = [" ".join(row) + "." for row in filler]
    return _BANKS[name]


def _question_bank() -> list[str]:
    """Every template with every bank word, in template order (flat: template * words + word)."""
    if "questions" not in _BANKS:
        words = _bank("words")
        _BANKS["questions"] = [
            template.format(w=word, W=word.upper()[:4])
            for _, template in _TEMPLATES
            for word in words
        ]
    return _BANKS["questions"]


def _words(rng: np.random.Generator, count: int) -> list[str]:
    bank = _bank("words")
    return [bank[i] for i in rng.integers(0, len(bank), size=count)]


def _word(rng: np.random.Generator) -> str:
    return _words(rng, 1)[0]


def _pad(lines: list[str], length: int, rng: np.random.Generator) -> str:
    """Joined lines cut or padded with filler to exactly ``length`` characters."""
    text = "\n".join(lines)
    if len(text) < length:
        text = text + "\n" + "\n".join(_filler_lines(rng, (length - len(text)) // 40 + 2))
    return text[:length]


def _filler_lines(rng: np.random.Generator, count: int) -> list[str]:
    bank = _bank("filler")
    return [bank[i] for i in rng.integers(0, len(bank), size=count)]


def _needle(rng: np.random.Generator, length: int) -> tuple[str, str, Any, dict]:
    key = f"{_word(rng)}-{int(rng.integers(100, 1000))}"
    value = str(int(rng.integers(1_000_000, 10_000_000)))
    count = length // 60 + 2
    lines = _filler_lines(rng, count)
    # Lines of roughly 60 characters: the needle sits at a random line within the kept length.
    position = int(rng.integers(1, max(2, length // 70)))
    lines.insert(position, f"The secret code for {key} is {value}.")
    query = f"What is the secret code for {key}? Answer with the number only."
    return _pad(lines, length, rng), query, value, {"key": key, "line": position}


def _records(rng: np.random.Generator, length: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Records ``Date: .. || User: N || Instance: question`` filling ``length`` characters:
    the lines, and each kept record's user id and label index (arrays)."""
    count = length // 62 + 1
    users = max(8, count // 6)
    label_weights = np.array([0.22, 0.2, 0.2, 0.2, 0.0, 0.18])
    # The rare topic: about 40 records whatever the length, so pairs stay a few hundred.
    rare_share = min(0.1, 40.0 / count)
    label_weights = label_weights * (1 - rare_share) / label_weights.sum()
    label_weights[LABELS.index(_RARE)] = rare_share
    labels = rng.choice(len(LABELS), size=count, p=label_weights)
    sizes = np.array([len(_QUESTIONS[label]) for label in LABELS])
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    template_ids = offsets[labels] + (rng.random(count) * sizes[labels]).astype(int)
    words = _bank("words")
    word_ids = rng.integers(0, len(words), size=count)
    questions = _question_bank()
    question_ids = (template_ids * len(words) + word_ids).tolist()
    user_ids = rng.integers(10_000, 10_000 + users, size=count)
    days = rng.integers(0, 28, size=count).tolist()
    # Concatenating ready-made pieces: formatting each record costs twice as much, and a
    # 1M-character context has 15,000 of them.
    prefixes = [f"Date: Jan {day + 1:02d}, 2024 || User: " for day in range(28)]
    lines = [
        prefixes[day] + user + " || Instance: " + questions[q]
        for day, user, q in zip(days, map(str, user_ids.tolist()), question_ids, strict=True)
    ]
    # Whole records only: keep those that end within the length.
    ends = np.cumsum(np.fromiter(map(len, lines), dtype=np.int64, count=len(lines)) + 1)
    kept = int(np.searchsorted(ends, length, side="right"))
    return lines[:kept], user_ids[:kept], labels[:kept]


def _aggregation(rng: np.random.Generator, length: int) -> tuple[str, str, Any, dict]:
    lines, _, labels = _records(rng, length)
    counts = dict(zip(LABELS, np.bincount(labels, minlength=len(LABELS)).tolist(), strict=True))
    common = [label for label in LABELS if label != _RARE]
    # Both kinds are numbers over every record: a comparison answered "more" or "less" would
    # be guessed right half the time by an agent that reads nothing.
    if rng.random() < 0.5:
        label = common[int(rng.integers(0, len(common)))]
        query = (
            "Each line is a question asked by a user. How many of the questions have the topic "
            f"'{label}'? The topics are: {', '.join(LABELS)}. Answer with a number."
        )
        answer = counts[label]
    else:
        first, second = rng.choice(len(common), size=2, replace=False)
        a, b = common[int(first)], common[int(second)]
        query = (
            "Each line is a question asked by a user. How many more questions have the topic "
            f"'{a}' than the topic '{b}' (negative if fewer)? The topics are: "
            f"{', '.join(LABELS)}. Answer with a number."
        )
        answer = counts[a] - counts[b]
    kind = "numeric"
    return _pad(lines, length, rng), query, answer, {"kind": kind, "counts": counts}


def _pairs(rng: np.random.Generator, length: int) -> tuple[str, str, Any, dict]:
    lines, user_ids, labels = _records(rng, length)
    users = sorted(set(user_ids[labels == LABELS.index(_RARE)].tolist()))
    pairs = [[a, b] for i, a in enumerate(users) for b in users[i + 1 :]]
    query = (
        "Each line is a question asked by a user. List every pair of user IDs (smaller ID "
        f"first) where both users asked at least one question with the topic '{_RARE}'. The "
        f"topics are: {', '.join(LABELS)}. Answer as a list of pairs like [(1, 2), (1, 3)]."
    )
    return _pad(lines, length, rng), query, pairs, {"kind": "f1", "users": users}


def _multihop(rng: np.random.Generator, length: int) -> tuple[str, str, Any, dict]:
    # As many people as fit in half the context (each needs two fact documents of ~70
    # characters); the others are distractors of the same shape.
    names = [f"{first} {last}" for first in _FIRST for last in _LAST]
    people = int(min(len(names), max(4, length // 300)))
    chosen = rng.choice(len(names), size=people, replace=False)
    cities = [word + "ville" for word in _words(rng, people)]
    countries = [word + "land" for word in _words(rng, 12)]
    country_of = rng.integers(0, len(countries), size=people)
    facts = [f"{names[chosen[i]]} was born in {cities[i]}." for i in range(people)]
    facts += [f"{cities[i]} is a city in {countries[country_of[i]]}." for i in range(people)]
    filler = _filler_lines(rng, length // 100 + len(facts))
    docs = [facts[i] for i in rng.permutation(len(facts))]
    # Facts are spread over the whole context: each goes to a random slot among the filler.
    slots = np.sort(rng.choice(len(filler), size=len(facts), replace=False))
    lines, fact_i = [], 0
    for slot, line in enumerate(filler):
        while fact_i < len(facts) and slots[fact_i] == slot:
            lines.append(docs[fact_i])
            fact_i += 1
        lines.append(line)
    lines = [f"Document {i}: {line}" for i, line in enumerate(lines)]
    target = int(rng.integers(0, people))
    answer = countries[country_of[target]]
    query = f"In which country was {names[chosen[target]]} born? Answer with the country's name."
    text = "\n".join(lines)
    # Facts past the cut are lost; the asked ones are kept by putting them first if needed.
    needed = (f"{names[chosen[target]]} was born", f"{cities[target]} is a city")
    if any(fact not in text[:length] for fact in needed):
        kept = [line for line in lines if any(fact in line for fact in needed)]
        rest = [line for line in lines if line not in kept]
        middle = len(rest) // 4
        lines = rest[:middle] + kept[:1] + rest[middle : 2 * middle] + kept[1:] + rest[2 * middle :]
    return (
        _pad(lines, length, rng),
        query,
        answer,
        {"kind": "exact", "person": names[chosen[target]]},
    )


_GENERATORS = {
    "needle": _needle,
    "aggregation": _aggregation,
    "pairs": _pairs,
    "multihop": _multihop,
}


def generate_task(family: str, length: int = 2**16, seed: int = 0) -> Task:
    """A task of ``family`` whose context is exactly ``length`` characters, from ``seed``.

    Args:
        family: One of :data:`FAMILIES`.
        length: Characters of context, in [2**13, 2**23].
        seed: The seed; the same seed gives the same task.

    Raises:
        ValueError: For an unknown family (with the closest name) or a length out of range.
    """
    if family not in _GENERATORS:
        close = difflib.get_close_matches(str(family), FAMILIES, n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"Unknown task family {family!r}.{hint} Available: {', '.join(FAMILIES)}")
    if isinstance(length, bool) or not isinstance(length, (int, np.integer)):
        raise TypeError(f"Expected `length` to be an int, got {type(length).__name__}")
    if not MIN_LENGTH <= length <= MAX_LENGTH:
        raise ValueError(
            f"Expected `length` in [2**13, 2**23] = [{MIN_LENGTH}, {MAX_LENGTH}], got {length}"
        )
    rng = np.random.default_rng(seed)
    context, query, answer, metadata = _GENERATORS[family](rng, int(length))
    kind = metadata.pop("kind", "exact")
    return Task(
        context=context,
        query=query,
        answer=answer,
        kind=kind,
        family=family,
        seed=int(seed),
        metadata={"length": int(length), **metadata},
    )
