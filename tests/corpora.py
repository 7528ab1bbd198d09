"""The labelled real-data corpora for the tests: found by ``rlm_gym.quality.corpora`` (never
in this tree); a test that needs one skips, saying why, on a checkout without them."""

from __future__ import annotations

from pathlib import Path

import pytest

from rlm_gym.quality.corpora import CorporaUnavailable, corpus_dir


def corpus_or_skip(name: str, module_level: bool = False) -> Path:
    """The folder of corpus ``name``, or a skip of the calling test (or module) saying why."""
    try:
        return corpus_dir(name)
    except CorporaUnavailable as error:
        pytest.skip(f"needs the labelled corpora: {error}", allow_module_level=module_level)
