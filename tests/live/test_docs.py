"""docs/live.md states the farm's constants as the code has them."""

from __future__ import annotations

from pathlib import Path

import pytest

from rlm_gym.envs.dynamics import COSTS
from rlm_gym.live import sites

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "live.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "text",
    [
        f'{sites.DEFECT_SHARE:.0%} of rows show "N/A"',
        f"{sites.HIDDEN_ROW_SHARE:.0%} of an irregular table's rows",
        f"{sites.SPONSORED_SHARE:.0%} of rows are marked",
        f"{sites.JSON_LD_DEFECT_SHARE:.0%} of JSON-LD items",
        f"{COSTS['timeout_rate']:.1%} of page requests hang",
        f"{sites.DEFAULT_ERROR_RATE:.1%}\n  are answered `503`",
        f"`time_scale` (default {sites.DEFAULT_TIME_SCALE}",
        f"sooner than {sites.RATE_INTERVAL_MS // 1000} site seconds",
        f"window is {sites.RATE_INTERVAL_MS * sites.DEFAULT_TIME_SCALE:.0f} ms",
        f"{COSTS['backoff_ms'] * sites.DEFAULT_TIME_SCALE:.0f} ms\nof a backoff",
    ],
)
def test_the_page_states_the_constant(text):
    assert text.replace("%", " %") in PAGE
