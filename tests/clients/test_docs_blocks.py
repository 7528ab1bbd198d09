"""The ```python blocks of docs/clients.md run against the real libraries, with Gymnasium's
deprecation warnings as errors (the main suite skips the blocks whose libraries live here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_docs_code import ROOT, assert_page_block_runs, python_blocks

# The clients venv has every library the page uses; the main venv runs none of these blocks.
for _library in ("envpool", "mo_gymnasium", "ray", "torchrl"):
    pytest.importorskip(_library)

BLOCKS = python_blocks(ROOT / "docs" / "clients.md")


@pytest.mark.parametrize(("line", "code"), BLOCKS, ids=[f"clients.md:L{n}" for n, _ in BLOCKS])
def test_a_clients_page_block_runs(line: int, code: str, tmp_path: Path):
    if "ray.rllib" in code:
        # RLlib's first train() with its default batch takes over ten minutes on 2 cores; the
        # same idiom (the id string, register_env with the wrapper) trains on a small batch in
        # tests/clients/test_rllib.py.
        pytest.skip("RLlib's default batch is too slow here: test_rllib.py covers the idiom")
    assert_page_block_runs("clients.md", line, code, tmp_path, "clients")
