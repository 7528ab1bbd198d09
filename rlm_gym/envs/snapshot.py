"""``CrawlSnapshot``: the crawl as ``CrawlEnv.snapshot()`` shows it to the renderer and baselines.

The frame renderer (``rlm_gym.envs.render``) and the baselines (``rlm_gym.envs.baselines``) read
the crawl from a snapshot, not from the env's attributes, so neither imports the env class and
the env is free to change how it keeps its own state. A snapshot is a copy taken between steps:
the env's later steps do not change it. Agents read the observation; a snapshot also shows the
hidden site, which only the oracle, the renderer and tests may look at.

Example:
    >>> from rlm_gym.envs.crawl_env import CrawlEnv
    >>> env = CrawlEnv(pattern_types=["product_list"])
    >>> env.snapshot().model is None
    True
    >>> _ = env.reset(seed=0)
    >>> snapshot = env.snapshot()
    >>> snapshot.phase, snapshot.profile.pattern_type, snapshot.last_action
    ('fetch', 'product_list', -1)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rlm_gym.envs.dynamics import PHASES, S_PHASE, SiteModel
from rlm_gym.envs.profiles import SiteProfile

__all__ = ["CrawlSnapshot"]


class CrawlSnapshot(NamedTuple):
    """The crawl after the env's last ``reset`` or ``step``.

    Attributes:
        model: The site's ``SiteModel`` (the hidden profile and the numbers derived from it),
            None before the first ``reset``.
        state: The state tuple, read through ``rlm_gym.envs.dynamics``'s ``S_*`` indices:
            phase, pages extracted per extractor, re-served pages, elapsed ms, errors (capped),
            403 and 429 answers, steps taken, the end reason.
        max_steps: The env's step budget.
        observation: A copy of the observation the last ``reset`` or ``step`` returned.
        errors: The error texts of the crawl so far, in order.
        last_action: The index of the last action taken, -1 after ``reset``.
        last_failed: Whether the last step failed.
        last_error: The last step's error code (``dynamics.E_*``, ``E_NONE`` after a success).
    """

    model: SiteModel | None
    state: tuple[int, ...]
    max_steps: int
    observation: np.ndarray
    errors: tuple[str, ...]
    last_action: int
    last_failed: bool
    last_error: int

    @property
    def profile(self) -> SiteProfile | None:
        """The hidden site profile, None before the first ``reset``."""
        return None if self.model is None else self.model.profile

    @property
    def phase(self) -> str:
        """The crawl's phase: ``"fetch"``, ``"extract"``, ``"paginate"`` or ``"done"``."""
        return PHASES[self.state[S_PHASE]]
