"""The one path from a crawl config to the settings the crawl reward scores with.

:class:`CrawlConfig` checks a config the way every policy's config is checked (unknown keys,
kinds of values) and by :func:`~rlm_gym.crawl.config.check_crawl_config`, merges its tables
and prepares :class:`CrawlSettings`. The ``crawl`` policy is a :class:`CrawlConfig`;
:func:`crawl_settings` is the same path for callers that hold a config and no policy
(``crawl_reward(config=...)``, the simulated env's scorer).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rlm_gym.crawl.config import (
    TIME_BUDGETS,
    WEIGHTED_COMPONENTS,
    check_crawl_config,
    default_crawl_config,
    merge_tables,
)
from rlm_gym.crawl.patterns import DEFAULT_PATTERN_TYPE
from rlm_gym.policies.base import Policy

__all__ = ["CrawlSettings", "CrawlConfig", "DEFAULT_SETTINGS", "crawl_settings"]


@dataclass(frozen=True, slots=True)
class CrawlSettings:
    """A validated crawl config prepared for fast scoring (built once per config)."""

    weights: tuple[float, float, float, float, float]
    presence_weight: float
    completeness_weight: float
    quality_weight: float
    schemaless_completeness_weight: float
    schemaless_quality_weight: float
    schemaless_cap: float
    quantity_targets: dict[str, float]
    thresholds: dict[str, dict[str, float]]
    efficiency_cap: float
    single_page_budget_ms: float
    single_page_penalty_span_ms: float
    single_page_max_penalty: float
    multi_page_budget_ms: float
    multi_page_penalty_span_ms: float
    multi_page_max_penalty: float
    fast_page_ms: float
    fast_page_bonus: float
    graded_errors: bool
    error_step: float
    defect_penalty: float
    max_defects: int
    defect_min_items: int
    defect_field_share: float
    defect_duplicate_share: float
    excellent_valid_share: float

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> CrawlSettings:
        """Prepare a config that is already validated (tables merged here)."""
        merged = merge_tables(config)
        weights = merged["weights"]
        validation = merged["validation_weights"]
        schemaless = merged["schemaless_validation_weights"]
        return cls(
            weights=tuple(float(weights[name]) for name in WEIGHTED_COMPONENTS),
            presence_weight=validation["presence"],
            completeness_weight=validation["completeness"],
            quality_weight=validation["quality"],
            schemaless_completeness_weight=schemaless["completeness"],
            schemaless_quality_weight=schemaless["quality"],
            schemaless_cap=merged["schemaless_validation_cap"],
            quantity_targets=dict(merged["quantity_targets"]),
            thresholds={name: dict(row) for name, row in merged["thresholds"].items()},
            efficiency_cap=merged["efficiency_cap"],
            **{key: float(merged[key]) for key in TIME_BUDGETS},
            graded_errors=merged["efficiency_errors"] == "graded",
            error_step=float(merged["error_step"]),
            defect_penalty=float(merged["defect_penalty"]),
            max_defects=int(merged["max_defects"]),
            defect_min_items=int(merged["defect_min_items"]),
            defect_field_share=float(merged["defect_field_share"]),
            defect_duplicate_share=float(merged["defect_duplicate_share"]),
            excellent_valid_share=float(merged["excellent_valid_share"]),
        )

    def quantity_target(self, pattern_type: str) -> float:
        """Items for a full quantity score (unknown types: ``generic_extraction``'s)."""
        target = self.quantity_targets.get(pattern_type)
        return target if target is not None else self.quantity_targets[DEFAULT_PATTERN_TYPE]

    def pattern_thresholds(self, pattern_type: str) -> dict[str, float]:
        """Thresholds of ``pattern_type`` (unknown types: ``generic_extraction``'s)."""
        found = self.thresholds.get(pattern_type)
        return found if found is not None else self.thresholds[DEFAULT_PATTERN_TYPE]

    @property
    def error_cap(self) -> int:
        """The error count past which more errors cannot change the efficiency score.

        1 under ``efficiency_errors="any"`` (the first error voids efficiency);
        ``ceil(1 / error_step)`` under ``"graded"`` (0 when errors cost nothing).

        Example:
            >>> graded = crawl_settings({"efficiency_errors": "graded"})
            >>> DEFAULT_SETTINGS.error_cap, graded.error_cap
            (1, 4)
        """
        if not self.graded_errors:
            return 1
        return 0 if self.error_step <= 0.0 else math.ceil(1.0 / self.error_step)


class CrawlConfig(Policy):
    """The crawl reward's config, checked as the ``crawl`` policy's and prepared for scoring.

    ``config`` is checked like every policy's config (unknown keys with a suggestion, kinds of
    values) and by :func:`~rlm_gym.crawl.config.check_crawl_config`; ``self.config`` then
    holds every key with its tables merged, and ``self.settings`` the prepared settings.
    :class:`~rlm_gym.crawl.policy.CrawlRewardPolicy` is one.

    Args:
        config: Overrides of :func:`~rlm_gym.crawl.config.default_crawl_config`.

    Example:
        >>> CrawlConfig({"weights": {"validation": 0.5}}).settings.weights
        (0.25, 0.15, 0.5, 0.15, 0.15)
    """

    name = "crawl"

    @classmethod
    def get_default_config(cls) -> dict[str, Any]:
        return default_crawl_config()

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__(config)
        self.config = merge_tables(self.config)
        self.settings = CrawlSettings.from_config(self.config)

    def validate_config(self, config: dict[str, Any]) -> None:
        check_crawl_config(config)


DEFAULT_SETTINGS = CrawlSettings.from_config(default_crawl_config())
"""The settings of the default config (built once, at import)."""


def crawl_settings(config: Mapping[str, Any] | None = None) -> CrawlSettings:
    """The settings of a crawl config: :data:`DEFAULT_SETTINGS` for None (no validation
    cost), else the config checked and prepared by :class:`CrawlConfig`.

    Raises:
        TypeError: ``config`` is not a mapping, or a value has the wrong kind.
        ValueError: An unknown key or name, or a value out of its range.

    Example:
        >>> crawl_settings() is DEFAULT_SETTINGS, crawl_settings({}) == DEFAULT_SETTINGS
        (True, True)
        >>> crawl_settings({"error_step": 0.5}).error_step
        0.5
    """
    return DEFAULT_SETTINGS if config is None else CrawlConfig(config).settings
