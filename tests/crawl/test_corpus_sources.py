"""No labelled corpus holds a held-out set's repository or site (SPEC §11, issues 28 and 35).

The held-out list is ``shared/heldout/sources.sha256`` beside the corpora (read in place, never
copied: the tests skip, saying why, where it is absent): one line per held-out repository or
site, ``repo`` or ``site`` and the SHA-256 hex digest of ``repo:<owner/name, lowercased>`` or
``site:<domain, lowercased, without a leading www.>``. Every open corpus is checked, crawl by
crawl: its repository (``source`` = ``owner/name:path``) and its site (``domain``, and each
parent domain of it, so ``fr.example.com`` is caught when ``example.com`` is held out).

Only the ``source`` and ``domain`` of each crawl are read: nothing here scores a crawl, and the
sealed batch (``world_b``) is not opened at all.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from rlm_gym.quality.corpora import OPEN_CORPORA, corpora_root, read_crawls
from tests.corpora import corpus_or_skip


def digests_file() -> Path:
    """``shared/heldout/sources.sha256``, beside the corpora folder (or a skip saying why)."""
    root = corpora_root()
    path = None if root is None else root.parent / "heldout" / "sources.sha256"
    if path is None or not path.is_file():
        pytest.skip(
            f"needs the held-out digest list (shared/heldout/sources.sha256): not at {path}"
        )
    return path


def read_digests(path: Path) -> dict[str, set[str]]:
    """The held-out digests by kind (``repo``, ``site``); ``#`` lines are the header."""
    digests: dict[str, set[str]] = {"repo": set(), "site": set()}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        kind, _, digest = line.partition(" ")
        if kind not in digests or not re.fullmatch(r"[0-9a-f]{64}", digest):
            expected = "'repo <sha256 hex>' or 'site <sha256 hex>'"
            raise ValueError(f"{path.name} line {number}: expected {expected}, got {line!r}")
        digests[kind].add(digest)
    return digests


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def site_keys(domain: str) -> list[str]:
    """``site:`` keys of a crawl's domain and of each parent domain with at least two labels."""
    host = domain.strip().lower()
    host = host.removeprefix("www.")
    labels = host.split(".")
    return [f"site:{'.'.join(labels[i:])}" for i in range(max(1, len(labels) - 1))]


def listed_sources(crawl: dict, digests: dict[str, set[str]]) -> list[str]:
    """The keys of ``crawl``'s repository and site that the held-out list holds."""
    repo = crawl["source"].split(":", 1)[0].strip().lower()
    keys = [("repo", f"repo:{repo}")] + [("site", key) for key in site_keys(crawl["domain"])]
    return [key for kind, key in keys if _sha256(key) in digests[kind]]


@pytest.fixture(scope="module")
def digests() -> dict[str, set[str]]:
    return read_digests(digests_file())


def test_the_heldout_list_is_the_shared_format_with_its_header(digests):
    text = digests_file().read_text(encoding="utf-8")
    assert text.startswith("# Held-out real-data sources.")
    assert "repo:<owner/name, lowercased>" in text
    assert len(digests["repo"]) >= 20
    assert len(digests["site"]) >= 20


@pytest.mark.parametrize("name", OPEN_CORPORA)
def test_no_crawl_of_a_corpus_has_a_heldout_repository_or_site(name, digests):
    corpus = corpus_or_skip(name)
    labels = json.loads((corpus / "labels.json").read_text(encoding="utf-8"))
    rows = read_crawls(corpus)
    assert rows, f"{name}: no crawls"
    assert len(labels) == len(rows)
    hits = []
    for crawl, label in zip(rows, labels, strict=True):
        for checked in (crawl, label):
            where = f"line {label['line']} ({crawl['source']})"
            hits += [f"{where}: {key}" for key in listed_sources(checked, digests)]
    assert not hits, f"{name} holds held-out sources: {hits}"


def test_the_check_catches_a_listed_repository_and_a_parent_site():
    listed = {"repo": {_sha256("repo:someone/scraper")}, "site": {_sha256("site:example.com")}}
    crawl = {"source": "Someone/Scraper:out/data.csv", "domain": "www.shop.Example.com"}
    assert listed_sources(crawl, listed) == ["repo:someone/scraper", "site:example.com"]
    assert listed_sources({"source": "other/repo:x.csv", "domain": "example.org"}, listed) == []


def test_a_malformed_heldout_line_is_refused(tmp_path):
    bad = tmp_path / "sources.sha256"
    bad.write_text("# header\nrepo not-a-digest\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 2"):
        read_digests(bad)


ROOT = Path(__file__).resolve().parents[2]


def _sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_project_tree_holds_no_file_of_an_open_corpus():
    # The corpora came from public repositories: they live in shared/ only (issue 35).
    scraped = {}
    for name in OPEN_CORPORA:
        folder = corpus_or_skip(name)
        for path in [folder / "crawls.jsonl", folder / "labels.json", *folder.glob("raw/*")]:
            if path.is_file():
                scraped[_sha256_of(path)] = f"{name}/{path.relative_to(folder)}"
    skipped = {".git", "__pycache__", "node_modules"}
    copies = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if any(part in skipped or part.startswith(".venv") for part in parts):
            continue
        if path.is_file() and _sha256_of(path) in scraped:
            copies.append(f"{path.relative_to(ROOT)} = {scraped[_sha256_of(path)]}")
    assert not copies, f"scraped files in the project tree: {copies}"
    assert not (ROOT / "tests" / "data" / "realdata").exists()
    assert not (ROOT / "tests" / "data" / "devcorpus").exists()
