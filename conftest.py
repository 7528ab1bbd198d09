"""Settings every test shares (pytest reads this file before any test module).

* Hypothesis runs without a per-example deadline: the suite runs on two shared cores (``-n 2``),
  where one example's wall time says more about the neighbour process than about the reward
  function under test. Budgets stay per test (``max_examples``); a test that needs more
  examples says so with its own ``@settings``.
* Plots render off-screen (``MPLBACKEND=Agg``): CI has no display, and a notebook or a study
  must not pick an interactive backend from the developer's machine.
"""

from __future__ import annotations

import os

try:
    from hypothesis import settings
except ImportError:  # the clients and Ray suites run in venvs without the dev extra
    settings = None
if settings is not None:
    settings.register_profile("rlm_gym", deadline=None)
    settings.load_profile("rlm_gym")
os.environ.setdefault("MPLBACKEND", "Agg")
