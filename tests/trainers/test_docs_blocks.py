"""The ```python blocks of docs/rlm.md run with the trainers' libraries installed (the main
suite skips the ones that import them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_docs_code import ROOT, assert_page_block_runs, python_blocks

for _library in ("openai", "trl", "verifiers"):
    pytest.importorskip(_library)

BLOCKS = python_blocks(ROOT / "docs" / "rlm.md")


@pytest.mark.parametrize(("line", "code"), BLOCKS, ids=[f"rlm.md:L{n}" for n, _ in BLOCKS])
def test_an_rlm_page_block_runs(line: int, code: str, tmp_path: Path):
    if "GRPOTrainer(" in code:
        # It names a model on the Hugging Face hub, which this machine cannot download; the
        # same calls train a tiny model built from a config in test_trl.py.
        pytest.skip("downloads a model: tests/trainers/test_trl.py runs these calls")
    assert_page_block_runs("rlm.md", line, code, tmp_path, "trainers")
