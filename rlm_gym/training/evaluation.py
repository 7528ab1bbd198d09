"""``evaluate``: the true crawl score of a trained agent or a baseline, and the comparison table.

Every agent plays the same seeded episodes (episode ``i`` is ``env.reset(seed=seed + i)``) on the
bare env, so the score is the true crawl score: the full, unablated crawl reward of the final
result (on Crawl-v2 ``info["true_crawl_score"]``, the reward on the ground truth), whatever
reward policy or ablation the agent was trained on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from rlm_gym._validation import unknown_name_error
from rlm_gym.crawl import WEIGHTED_COMPONENTS
from rlm_gym.crawl.patterns import TIERS
from rlm_gym.envs import BEST_FIXED_STRATEGY, CURRENT_CRAWL_ENV_ID
from rlm_gym.tables import markdown_table
from rlm_gym.training.env_factory import make_bare_env
from rlm_gym.training.episode_batch import BATCHED_EVAL_ENVS, play_batched
from rlm_gym.training.episodes import TASK_KEYS, episode_record
from rlm_gym.training.models import load_model
from rlm_gym.training.studies.stats import mean_ci95

__all__ = [
    "BASELINES",
    "EvalResult",
    "baseline_actor",
    "comparison_table",
    "evaluate",
    "evaluate_baselines",
    "format_table",
    "model_actor",
    "normalised_rows",
    "table_cells",
    "task_summary",
]

BASELINES: tuple[str, ...] = ("random", "heuristic", "best_fixed", "oracle")
SUMMARY_KEYS: tuple[str, ...] = (
    *WEIGHTED_COMPONENTS,
    "items",
    "pages",
    "time_per_page_ms",
    "length",
)

Actor = Callable[[gym.Env, Any], int]


@dataclass
class EvalResult:
    """Per-episode records of one agent and their summary.

    Attributes:
        label: The agent's name in tables.
        episodes: One ``episode_record`` per episode (``score``, raw scores, items, …).
    """

    label: str
    episodes: list[dict[str, Any]] = field(default_factory=list)

    @property
    def scores(self) -> list[float]:
        """The true score of every episode, in order."""
        return [record["score"] for record in self.episodes]

    def summary(self) -> dict[str, Any]:
        """Mean score with its 95 % CI, mean raw scores and crawl numbers, tier shares.

        Example:
            >>> EvalResult("a", [{"score": 0.5}, {"score": 1.0}]).summary()["score"]
            0.75
        """
        score, half_width = mean_ci95(self.scores)
        summary: dict[str, Any] = {
            "label": self.label,
            "episodes": len(self.episodes),
            "score": score,
            "score_ci95": half_width,
        }
        for key in SUMMARY_KEYS:
            values = [record[key] for record in self.episodes if key in record]
            if values:
                summary[key] = float(np.mean(values))
        summary.update(task_summary(self.episodes))
        tiers = [record["tier"] for record in self.episodes if "tier" in record]
        if tiers:
            for tier in TIERS:
                summary[f"tier_{tier}"] = tiers.count(tier) / len(tiers)
        return summary


def task_summary(episodes: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """The task outcome's means with 95 % CIs, and the time per valid item.

    Every ``TASK_KEYS`` entry the records hold gives ``<key>`` (its mean: a rate for
    ``job_done`` and ``banned``) and ``<key>_ci95``. ``time_per_valid_item_ms`` is the total
    time over the total valid items (a ratio of sums: episodes without a valid item add their
    time, not an infinity); absent when no episode delivered one.

    Example:
        >>> rows = [{"job_done": 1.0, "valid_items": 10.0, "time_ms": 4000.0},
        ...         {"job_done": 0.0, "valid_items": 0.0, "time_ms": 2000.0}]
        >>> summary = task_summary(rows)
        >>> summary["job_done"], summary["time_per_valid_item_ms"]
        (0.5, 600.0)
    """
    summary: dict[str, float] = {}
    for key in TASK_KEYS:
        values = [record[key] for record in episodes if key in record]
        if values and key not in ("items", "pages"):
            mean, half_width = mean_ci95(values)
            summary[key], summary[f"{key}_ci95"] = mean, half_width
    times = [record["time_ms"] for record in episodes if "valid_items" in record]
    valid = sum(record["valid_items"] for record in episodes if "valid_items" in record)
    if valid > 0:
        summary["time_per_valid_item_ms"] = float(sum(times)) / valid
    return summary


def baseline_actor(name: str) -> Actor:
    """The actor of a named baseline of the crawl env (``BASELINES``).

    ``best_fixed`` plays ``rlm_gym.envs.BEST_FIXED_STRATEGY`` with ``fixed_strategy_action``.

    Raises:
        ValueError: Unknown baseline (with a suggestion).
    """
    if not isinstance(name, str) or name not in BASELINES:
        raise unknown_name_error("baseline", name, BASELINES)
    if name == "best_fixed":
        return lambda env, obs: env.unwrapped.fixed_strategy_action(BEST_FIXED_STRATEGY)
    method = f"{name}_action"
    return lambda env, obs: getattr(env.unwrapped, method)()


def _check_baseline_fits(env: gym.Env, name: str, env_id: str) -> None:
    method = "fixed_strategy_action" if name == "best_fixed" else f"{name}_action"
    if not hasattr(env.unwrapped, method):
        raise ValueError(
            f"Baseline '{name}' plays the crawl envs ({CURRENT_CRAWL_ENV_ID} and earlier); "
            f"'{env_id}' has no "
            f"{method}(). Evaluate a model there, or use --env {CURRENT_CRAWL_ENV_ID}"
        )


def model_actor(model: Any, deterministic: bool = True) -> Actor:
    """An actor playing an SB3 model (with ``action_masks`` for MaskablePPO)."""
    masked = type(model).__name__ == "MaskablePPO"

    def act(env: gym.Env, obs: Any) -> int:
        if masked:
            masks = env.unwrapped.action_masks()
            action, _ = model.predict(obs, deterministic=deterministic, action_masks=masks)
        else:
            action, _ = model.predict(obs, deterministic=deterministic)
        return int(action)

    act.model = model  # type: ignore[attr-defined]  (what batched evaluation plays)
    return act


def _resolve_actor(agent: Any, deterministic: bool) -> tuple[Actor, str]:
    if isinstance(agent, str) and agent in BASELINES:
        return baseline_actor(agent), agent
    if isinstance(agent, (str, Path)):
        path = Path(agent)
        if not path.exists():
            if isinstance(agent, Path) or "/" in agent or agent.endswith(".zip"):
                raise FileNotFoundError(f"No such model file or run directory: {agent}")
            raise unknown_name_error("agent (baseline or model path)", str(agent), BASELINES)
        return model_actor(load_model(path), deterministic), "trained"
    if hasattr(agent, "predict"):
        return model_actor(agent, deterministic), "trained"
    if callable(agent):
        return agent, getattr(agent, "__name__", "agent")
    raise TypeError(
        "Expected `model_or_baseline` to be an SB3 model, a model path, a baseline name "
        f"{BASELINES} or a callable (env, obs) -> action, got {type(agent).__name__}"
    )


def evaluate(
    model_or_baseline: Any,
    env_id: str = CURRENT_CRAWL_ENV_ID,
    n_episodes: int = 100,
    seed: int = 0,
    *,
    env_kwargs: Mapping[str, Any] | None = None,
    deterministic: bool = True,
    label: str | None = None,
    max_episode_steps: int = 10_000,
    n_envs: int | None = None,
) -> EvalResult:
    """Play ``n_episodes`` seeded episodes and record the true score and crawl details.

    A model played greedily (``deterministic``) plays ``n_envs`` episodes at once (default
    ``BATCHED_EVAL_ENVS``): one env per episode in play, one batched policy call per step, the
    next episode started on an env as soon as its episode ends. Each episode is still
    ``reset(seed=seed + i)`` on an env of its own and the same actions are chosen, so the
    records are the same as one episode at a time (``n_envs=1``), in the same order
    (``tests/training/test_evaluation.py`` compares both). Baselines, callables and sampled
    actions play one episode at a time.

    Args:
        model_or_baseline: An SB3 model, a path saved by ``train``, a baseline name
            (``"random"``, ``"heuristic"``, ``"best_fixed"``, ``"oracle"``) or a callable
            ``actor(env, obs) -> action``.
        env_id: The env to play (bare: no reward wrapper).
        n_episodes: Episodes to play.
        seed: Episode ``i`` starts with ``reset(seed=seed + i)``.
        env_kwargs: Passed to ``gym.make``.
        deterministic: Greedy actions for models.
        label: Name in tables (default: the baseline name or ``"trained"``).
        max_episode_steps: Safety cap for envs without a time limit.
        n_envs: Episodes played at once by a greedy model (1: one at a time).

    Returns:
        The ``EvalResult``.

    Raises:
        ValueError: ``n_episodes`` <= 0, an unknown baseline, or a baseline on an env that is
            not the crawl env (the baselines are the crawl env's own players).
        FileNotFoundError: A model path that does not exist, or a directory without a model.

    Example - a callable agent on CartPole:
        >>> result = evaluate(lambda env, obs: 0, "CartPole-v1", n_episodes=2, seed=0)
        >>> len(result.episodes), result.summary()["score"] > 0
        (2, True)
    """
    if isinstance(n_episodes, bool) or not isinstance(n_episodes, int) or n_episodes <= 0:
        raise ValueError(f"Expected `n_episodes` to be a positive integer, got {n_episodes!r}")
    if n_envs is not None and (
        isinstance(n_envs, bool) or not isinstance(n_envs, int) or n_envs <= 0
    ):
        raise ValueError(f"Expected `n_envs` to be a positive integer or None, got {n_envs!r}")
    actor, default_label = _resolve_actor(model_or_baseline, deterministic)
    model = getattr(actor, "model", None)
    batch = min(n_envs or BATCHED_EVAL_ENVS, n_episodes)
    if model is not None and deterministic and batch > 1:
        records = play_batched(
            model, env_id, n_episodes, seed, batch, env_kwargs, max_episode_steps
        )
        if records is not None:
            return EvalResult(label or default_label, records)
    env = make_bare_env(env_id, env_kwargs)
    result = EvalResult(label or default_label)
    try:
        if isinstance(model_or_baseline, str) and model_or_baseline in BASELINES:
            _check_baseline_fits(env, model_or_baseline, env_id)
        for episode in range(n_episodes):
            obs, info = env.reset(seed=seed + episode)
            total, length, done = 0.0, 0, False
            while not done and length < max_episode_steps:
                obs, reward, terminated, truncated, info = env.step(actor(env, obs))
                total += float(reward)
                length += 1
                done = terminated or truncated
            result.episodes.append(episode_record(info, total, length))
    finally:
        env.close()
    return result


def evaluate_baselines(
    env_id: str = CURRENT_CRAWL_ENV_ID,
    n_episodes: int = 100,
    seed: int = 0,
    baselines: Sequence[str] = BASELINES,
    env_kwargs: Mapping[str, Any] | None = None,
) -> dict[str, EvalResult]:
    """``evaluate`` every named baseline on the same seeded episodes."""
    return {
        name: evaluate(name, env_id, n_episodes, seed, env_kwargs=env_kwargs) for name in baselines
    }


def comparison_table(
    results: Mapping[str, EvalResult] | Sequence[EvalResult],
    low: str = "random",
    high: str = "oracle",
) -> list[dict[str, Any]]:
    """Summaries of several agents with ``normalised`` = (score - low) / (high - low).

    Args:
        results: EvalResults (or a mapping label -> EvalResult), in table order.
        low: Label scoring 0 on the normalised scale.
        high: Label scoring 1.

    Returns:
        One summary dict per agent (see ``EvalResult.summary``) plus ``normalised``.

    Example:
        >>> rows = comparison_table([EvalResult("random", [{"score": 0.2}]),
        ...                          EvalResult("me", [{"score": 0.8}]),
        ...                          EvalResult("oracle", [{"score": 1.0}])])
        >>> [round(row["normalised"], 2) for row in rows]
        [0.0, 0.75, 1.0]
    """
    items = list(results.values()) if isinstance(results, Mapping) else list(results)
    return normalised_rows([result.summary() for result in items], low, high)


def normalised_rows(
    rows: Sequence[Mapping[str, Any]], low: str = "random", high: str = "oracle"
) -> list[dict[str, Any]]:
    """Copies of summary rows (``label``, ``score``, ...) with ``normalised`` added, as
    ``comparison_table`` makes them (recorded summaries, e.g. a study's, included).

    ``normalised`` needs both ends of the scale: without a ``low`` and a ``high`` row of
    different scores (a CartPole model evaluated alone, say) the rows get no ``normalised``,
    and the tables leave the column out rather than print ``nan``.

    Example:
        >>> rows = normalised_rows([{"label": "random", "score": 0.2},
        ...                         {"label": "oracle", "score": 1.0}])
        >>> [row["normalised"] for row in rows]
        [0.0, 1.0]
        >>> "normalised" in normalised_rows([{"label": "trained", "score": 0.5}])[0]
        False
    """
    rows = [dict(row) for row in rows]
    by_label = {row["label"]: row["score"] for row in rows}
    low_score, high_score = by_label.get(low), by_label.get(high)
    if low_score is None or high_score is None or high_score == low_score:
        return rows
    for row in rows:
        row["normalised"] = (row["score"] - low_score) / (high_score - low_score)
    return rows


_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("agent", "label", "{}"),
    ("score", "score", "{:.3f}"),
    ("± 95% CI", "score_ci95", "{:.3f}"),
    ("normalised", "normalised", "{:.2f}"),
    *((name, name, "{:.2f}") for name in WEIGHTED_COMPONENTS),
    ("job done %", "job_done", "{:.0%}"),
    ("valid items", "valid_items", "{:.1f}"),
    ("s/valid item", "time_per_valid_item_ms", "{:.2f}"),
    ("items", "items", "{:.1f}"),
    ("pages", "pages", "{:.2f}"),
    ("s/page", "time_per_page_ms", "{:.1f}"),
    ("steps", "length", "{:.1f}"),
    ("tiers E/G/A/P %", "tiers", "{}"),
)


def table_cells(row: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(header, formatted cell) pairs of one ``comparison_table`` row (missing → blank)."""
    cells = []
    for header, key, fmt in _COLUMNS:
        if key == "tiers":
            shares = [row.get(f"tier_{tier}") for tier in TIERS]
            value = "/".join(f"{100 * s:.0f}" for s in shares) if None not in shares else ""
        elif key in ("time_per_page_ms", "time_per_valid_item_ms"):
            value = fmt.format(row[key] / 1000.0) if key in row else ""
        else:
            value = fmt.format(row[key]) if key in row else ""
        cells.append((header, value))
    return cells


def format_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """A Markdown table of ``comparison_table`` rows (columns without any value are dropped).

    Example:
        >>> print(format_table([{"label": "random", "score": 0.5, "score_ci95": 0.1,
        ...                      "normalised": 0.0}]))
        | agent | score | ± 95% CI | normalised |
        |---|---|---|---|
        | random | 0.500 | 0.100 | 0.00 |
    """
    table = [table_cells(row) for row in rows]
    if not table:
        return ""
    headers = [header for header, _ in table[0]]
    keep = [i for i in range(len(headers)) if any(cells[i][1] for cells in table)]
    return markdown_table(
        [headers[i] for i in keep], [[cells[i][1] for i in keep] for cells in table]
    )
