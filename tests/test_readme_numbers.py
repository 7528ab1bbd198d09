"""README.md's numbers are the ones its committed JSON files hold (no number goes stale)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs"))

import render_readme  # noqa: E402


def test_every_generated_block_of_the_readme_matches_its_source():
    current = render_readme.README.read_text(encoding="utf-8")
    assert render_readme.render(current) == current, "README.md is stale: run `make readme`"


def test_every_block_renderer_is_used_in_the_readme():
    current = render_readme.README.read_text(encoding="utf-8")
    used = {match.group("name") for match in render_readme._BLOCK.finditer(current)}
    assert used == set(render_readme.BLOCKS)
