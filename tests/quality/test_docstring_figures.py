"""The quality package quotes no measured figure: figures live in generated docs blocks,
which a test keeps equal to the JSON a committed command wrote."""

from __future__ import annotations

import re

import rlm_gym.quality


def test_the_package_docstring_quotes_no_measured_figure():
    prose = rlm_gym.quality.__doc__.split("\nExample:\n")[0]
    assert not re.findall(r"\d\.\d\d|\d+/\d+|µs|\d+ labelled", prose)
    assert "docs/crawl-reward.md" in prose
