"""``CrawlRewardPolicy``: the crawl reward as a registered policy, with a knowledge store."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rlm_gym.crawl.config import COMPONENT_NAMES, WEIGHTED_COMPONENTS
from rlm_gym.crawl.memo import memo_for
from rlm_gym.crawl.result import pages_collected
from rlm_gym.crawl.reward import score_crawl_result
from rlm_gym.crawl.settings import CrawlConfig
from rlm_gym.policies.base import RewardPolicy, is_final
from rlm_gym.policies.registry import PolicyRegistry
from rlm_gym.policies.types import ActionResult, PolicyContext, RewardSignal
from rlm_gym.quality.pattern_types import classify_pattern_type

if TYPE_CHECKING:
    from rlm_gym.crawl.store import KnowledgeStore

__all__ = ["CrawlRewardPolicy"]

_NOT_FINAL = "crawl reward: not final"


@PolicyRegistry.register_reward("crawl")
class CrawlRewardPolicy(CrawlConfig, RewardPolicy):
    """Scores ``result.metadata["crawl_result"]`` on the final action with ``crawl_reward``.

    Before the final action the value is 0.0 with no components. With ``knowledge_store`` set
    (a path or ``":memory:"``) each finished episode's last scored crawl is recorded from
    :meth:`on_episode_end`; the store opens on first use and is not pickled, so the policy can
    be sent to subprocess vector envs (each process then opens its own connection).

    Args:
        config: Overrides of :meth:`get_default_config`; tables (``weights``,
            ``quantity_targets``, ``thresholds``, ...) merge entry by entry. Checked and
            prepared as :class:`~rlm_gym.crawl.settings.CrawlConfig` does (``self.config``,
            ``self.settings``).

    Example:
        >>> policy = CrawlRewardPolicy({"weights": {"efficiency": 0.0}})
        >>> article = {"title": "Giá vàng hôm nay", "body": "Giá vàng tăng mạnh trong phiên sáng."}
        >>> crawl = {"success": True, "data": [article],
        ...          "navigation_result": {"pages_collected": 1}, "execution_time_ms": 9000}
        >>> result = ActionResult("final", True, metadata={"crawl_result": crawl})
        >>> signal = policy.calculate({"action": "final"}, result, PolicyContext())
        >>> round(signal.value, 4), signal.details["pattern_type"], signal.components["efficiency"]
        (0.685, 'article_extraction', 0.0)
        >>> policy.calculate({"action": "extract_css"}, result, PolicyContext()).components
        {}
    """

    name = "crawl"
    description = (
        "Multi-dimensional crawl reward: success, data, validation, quantity, efficiency, "
        "systematic defects."
    )
    component_names = COMPONENT_NAMES
    value_range = (0.0, 1.0)

    def component_bounds(self) -> dict[str, tuple[float, float]]:
        """Each weighted part is its weight times a raw score (an efficiency penalty may turn
        it negative, by at most its weight); ``defects`` costs ``defect_penalty`` per defect,
        counted up to ``max_defects``, so its floor is their product.

        Example:
            >>> CrawlRewardPolicy().component_bounds()["defects"]
            (-0.45, 0.0)
        """
        weights = self.config["weights"]
        bounds = {name: (-abs(weights[name]), abs(weights[name])) for name in WEIGHTED_COMPONENTS}
        worst = float(self.config["defect_penalty"]) * int(self.config["max_defects"])
        bounds["defects"] = (round(0.0 - worst, 12), 0.0)
        return bounds

    # Weights times float raw scores: the components are always Python floats.
    float_components = True
    # Before the final action: RewardSignal(0.0, {}) (the wrapper skips those calls).
    final_only = True

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__(config)
        self._store: KnowledgeStore | None = None
        self._last: tuple[Mapping[str, Any], RewardSignal] | None = None
        # Judgements of item lists already scored, for ``self.settings`` (see
        # ``score_crawl_result``): an env ends many episodes with the same items.
        self._memo: dict[Any, Any] = memo_for(self.settings)
        self._memo_settings = self.settings

    @property
    def store(self) -> KnowledgeStore | None:
        """The knowledge store (opened on first use), or None when none is configured."""
        path = self.config["knowledge_store"]
        if path is None:
            return None
        if self._store is None:
            from rlm_gym.crawl.store import KnowledgeStore  # sqlite3: imported on first use

            self._store = KnowledgeStore(
                path,
                adaptive_thresholds=self.config["adaptive_thresholds"],
                thresholds=self.config["thresholds"],
            )
        return self._store

    def calculate(
        self, action: dict[str, Any], result: ActionResult, context: PolicyContext
    ) -> RewardSignal:
        if not is_final(action, result):
            return RewardSignal(0.0, {}, _NOT_FINAL)
        crawl = result.metadata.get("crawl_result")
        if crawl is None:
            raise ValueError(
                "Expected `result.metadata['crawl_result']` on the final action for policy "
                f"'crawl', got metadata keys {sorted(result.metadata)}"
            )
        thresholds = None
        if self.config["adaptive_thresholds"] and self.store is not None:
            pattern_type = crawl.get("pattern_type") if isinstance(crawl, Mapping) else None
            pattern_type = pattern_type or classify_pattern_type(crawl.get("data"))
            thresholds = self.store.thresholds(pattern_type)
        settings = self.settings
        if settings is not self._memo_settings:
            self._memo, self._memo_settings = memo_for(settings), settings
        signal = score_crawl_result(crawl, settings, thresholds=thresholds, memo=self._memo)
        self._last = (crawl, signal)
        return signal

    def on_episode_start(self, context: PolicyContext) -> None:
        self._last = None

    def on_episode_end(self, context: PolicyContext, total_reward: float) -> None:
        """Record the episode's last scored crawl in the knowledge store, if one is set."""
        last, self._last = self._last, None
        store = self.store
        if last is None or store is None:
            return
        crawl, signal = last
        details = signal.details
        navigation = crawl.get("navigation_result")
        strategy = navigation.get("strategy_used") if isinstance(navigation, Mapping) else None
        data = crawl.get("data") or ()
        store.record(
            crawl.get("domain") or "unknown",
            details["pattern_type"],
            strategy or "unknown",
            signal.value,
            items=len(data),
            pages=int(pages_collected(crawl)),
            execution_time_ms=float(crawl.get("execution_time_ms", 0.0)),
            tier=details["tier"],
            bucket=details["bucket"],
        )

    def close(self) -> None:
        """Close the knowledge store's connection (it reopens on next use)."""
        if self._store is not None:
            self._store.close()

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_store"] = None
        state["_last"] = None
        # The memo is shared per settings (``memo_for``): the unpickled policy rejoins its own
        # process's memo.
        state["_memo"] = None
        state["_memo_settings"] = None
        return state
