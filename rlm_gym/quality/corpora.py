"""Where the labelled real-data corpora live, and how to read them.

The corpora are real scraper outputs from public repositories, labelled value by value by a
crawl-quality expert. They live outside the project's tree (``../shared/corpora/`` beside the
checkout) and are never copied into it. One resolver finds them: the environment variable
``RLM_GYM_CORPORA`` wins; else ``<repository root>/../shared/corpora`` when that folder exists;
else there are none, and whatever needs them says so (:class:`CorporaUnavailable`).

Each corpus folder holds ``crawls.jsonl`` (one crawl result per line) and ``labels.json`` (one
label per crawl). Real values hold U+2028, U+0085 and other characters that
:meth:`str.splitlines` treats as line ends, so lines are split on ``"\\n"`` only.

Example:
    >>> from rlm_gym.quality.corpora import split_jsonl
    >>> split_jsonl('{"a": "x\\u2028y"}\\n{"a": 2}\\n')
    [{'a': 'x\\u2028y'}, {'a': 2}]
"""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path
from typing import Any

__all__ = [
    "CORPORA_ENV",
    "OPEN_CORPORA",
    "SEALED_CORPORA",
    "FIRST_SCORED_CORPORA",
    "CorporaUnavailable",
    "corpora_root",
    "corpus_dir",
    "is_sealed",
    "load_corpus",
    "read_crawls",
    "split_jsonl",
]

CORPORA_ENV = "RLM_GYM_CORPORA"
"""The environment variable naming the folder that holds the corpus folders."""

OPEN_CORPORA = ("realdata", "devcorpus", "world_a", "world_b", "world_c")
"""The corpora every measurement scores, in this order."""

FIRST_SCORED_CORPORA = ("world_b",)
"""Corpora that were sealed and have had their first scoring, kept in
``benchmarks/results.json`` → ``real_data_sealed`` → name → ``first`` (the honest estimate,
never overwritten). They are development corpora since: every figure measured on them after
that is a development figure, not an estimate of how the judge does on unseen crawls."""

SEALED_CORPORA: tuple[str, ...] = ()
"""Corpora kept sealed: scored only on purpose (``benchmarks/real_data.py --sealed``), since
their first score is the honest estimate of how the judge does on crawls it has never seen.
None now (``world_b``'s first score is kept); a folder named ``sealed*`` is one too."""

_REPO_ROOT = Path(__file__).resolve().parents[2]


class CorporaUnavailable(FileNotFoundError):
    """The corpora (or one corpus folder) are not on this machine; the message says where they
    were looked for and how to point at them."""


def corpora_root() -> Path | None:
    """The folder holding the corpus folders, or ``None`` when there is none.

    ``$RLM_GYM_CORPORA`` when set (even if missing: the user asked for it, and
    :func:`corpus_dir` then says it is missing); else ``<repository root>/../shared/corpora``
    when it exists.
    """
    override = os.environ.get(CORPORA_ENV)
    if override:
        return Path(override).expanduser()
    default = _REPO_ROOT.parent / "shared" / "corpora"
    return default if default.is_dir() else None


def corpus_dir(name: str) -> Path:
    """The folder of the corpus ``name`` (one of :data:`OPEN_CORPORA` or :data:`SEALED_CORPORA`).

    Raises:
        ValueError: ``name`` is no known corpus (with the closest known name).
        CorporaUnavailable: the corpora, or this corpus's ``crawls.jsonl``, are not here.
    """
    known = (*OPEN_CORPORA, *SEALED_CORPORA)
    if name not in known:
        close = difflib.get_close_matches(name, known, n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"Expected `name` to be one of {list(known)}, got {name!r}.{hint}")
    root = corpora_root()
    if root is None:
        raise CorporaUnavailable(
            f"the labelled corpora are not on this machine: set ${CORPORA_ENV} to their folder "
            f"(looked for {_REPO_ROOT.parent / 'shared' / 'corpora'})"
        )
    folder = root / name
    if not (folder / "crawls.jsonl").is_file():
        raise CorporaUnavailable(f"no corpus {name!r} at {folder} (no crawls.jsonl there)")
    return folder


def is_sealed(path: str | os.PathLike[str]) -> bool:
    """Whether a corpus folder is a sealed batch (:data:`SEALED_CORPORA`, or named ``sealed*``)."""
    name = Path(path).name.lower()
    return name in SEALED_CORPORA or name.startswith("sealed")


def split_jsonl(text: str) -> list[Any]:
    """The JSON values of a JSON-lines text, split on ``"\\n"`` only (blank lines skipped)."""
    return [json.loads(line) for line in text.split("\n") if line.strip()]


def read_crawls(folder: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The crawl results of a corpus folder's ``crawls.jsonl``, in order."""
    return split_jsonl((Path(folder) / "crawls.jsonl").read_text(encoding="utf-8"))


def load_corpus(folder: str | os.PathLike[str]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """``(crawl result, label)`` pairs of a labelled corpus folder, in order.

    Raises:
        ValueError: the folder holds a different number of crawls and labels.
    """
    folder = Path(folder)
    crawls = read_crawls(folder)
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    if len(crawls) != len(labels):
        raise ValueError(f"{folder}: {len(crawls)} crawls but {len(labels)} labels")
    return list(zip(crawls, labels, strict=True))
