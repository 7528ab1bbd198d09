"""Fixtures of the live suite: farms on 127.0.0.1, started and stopped by the tests."""

from __future__ import annotations

import pytest

from rlm_gym.live.farm import SiteFarm


@pytest.fixture(scope="module")
def farm():
    """A farm without random faults (time-outs and 5xx are tested on farms of their own)."""
    with SiteFarm(seed=0, timeout_rate=0.0, error_rate=0.0) as running:
        yield running
