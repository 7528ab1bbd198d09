"""Every relative link of README.md and docs/*.md resolves inside the repository.

A link ``[text](target)`` whose target is not a URL must name a file (or folder) of the
repository, relative to the page; an ``#anchor`` must be a heading of the page it points to
(GitHub's heading ids). No page refers to anything a user of the repository cannot open: the
project's specification or files outside the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^\s*```.*?^\s*```", re.S | re.M)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\((?P<target>[^()\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^#{1,6}\s+(?P<title>.+?)\s*#*\s*$", re.M)
EXTERNAL = ("http://", "https://", "mailto:")
# What a user of the repository cannot open: paths out of it and the project's specification.
OUTSIDE = re.compile(r"\.\./shared|shared/research|/work/|SPEC\.md|SPEC §")


def prose(text: str) -> str:
    """``text`` without fenced code blocks (links in code are not links)."""
    return FENCE.sub("", text)


def links(text: str) -> list[str]:
    """The link targets of a Markdown page, outside code blocks and inline code.

    Example:
        >>> links("[a](b.md) `[c](d.md)` ![e](f.png) [g](https://h) [i](#j)")
        ['b.md', 'f.png', 'https://h', '#j']
    """
    return [match.group("target") for match in LINK.finditer(INLINE_CODE.sub("", prose(text)))]


def slug(title: str) -> str:
    """GitHub's id for a heading: lower case, punctuation dropped, spaces to hyphens.

    Example:
        >>> slug("`make demo`: the trained agent")
        'make-demo-the-trained-agent'
        >>> slug("Score a scraper's output")
        'score-a-scrapers-output'
    """
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The heading ids of a page (repeated headings get ``-1``, ``-2`` ... as on GitHub)."""
    seen: dict[str, int] = {}
    ids = set()
    for match in HEADING.finditer(prose(page.read_text(encoding="utf-8"))):
        base = slug(match.group("title"))
        count = seen.get(base, 0)
        ids.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return ids


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_relative_link_resolves(page: Path):
    problems = []
    for target in links(page.read_text(encoding="utf-8")):
        if target.startswith(EXTERNAL):
            continue
        path_part, _, anchor = target.partition("#")
        resolved = (page.parent / path_part).resolve() if path_part else page
        if not resolved.is_relative_to(ROOT):
            problems.append(f"{target}: outside the repository")
        elif not resolved.exists():
            problems.append(f"{target}: no such file")
        elif anchor and anchor not in anchors(resolved):
            problems.append(f"{target}: no heading #{anchor} in {resolved.relative_to(ROOT)}")
    assert not problems, f"{page.name}: " + "; ".join(problems)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_no_page_refers_to_anything_outside_the_repository(page: Path):
    hits = [
        f"line {number}: {line.strip()}"
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not hits, f"{page.name} refers outside the repository: " + "; ".join(hits)


def test_the_link_rules_catch_what_they_must():
    page = ROOT / "README.md"
    assert "crawl-reward" in anchors(page)
    assert links("```\n[a](nope.md)\n```\n[b](docs/x.md)") == ["docs/x.md"]
    assert OUTSIDE.search("see ../shared/research/crawl-figures.md")
    assert OUTSIDE.search("the formulas of SPEC §5")
