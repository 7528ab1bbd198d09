"""Sim-to-live: the same agents on the same seeded sites, simulated (Crawl-v2) and live.

On farm seed 0, live site ``k`` has the profile Crawl-v2 draws for ``reset(seed=k)``, so every
episode pairs a simulated crawl with a live crawl of the same site. For each agent this reports
the true crawl score, the task outcome (job done, valid items) and the time per valid item on
both, and the paired live - sim difference of each per-episode measure with its 95 % interval;
then whether the agents rank in the same order on both, and how far a trained agent's live score
lies from its simulated one.

Run (writes ``results/sim_to_live.json``; ``docs/live.md`` renders it)::

    python -m rlm_gym.training.sim_to_live --episodes 200 --model runs/sim2live/model.zip
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rlm_gym.envs import CRAWL_LIVE_ENV_ID, CRAWL_V2_ENV_ID
from rlm_gym.training.evaluation import BASELINES, evaluate
from rlm_gym.training.studies.stats import mean_ci95

__all__ = ["MEASURES", "compare", "sim_to_live", "main"]

#: Per-episode measures compared pair by pair (episode records' keys).
MEASURES: tuple[str, ...] = ("score", "job_done", "valid_items", "time_ms")
_ORDER = ("random", "best_fixed", "heuristic", "trained", "oracle")


def compare(sim: Sequence[Mapping[str, Any]], live: Sequence[Mapping[str, Any]]) -> dict:
    """Means on both envs and paired live - sim differences (95 % CI) of ``MEASURES``, plus
    the time per valid item (total time over total valid items) on both.

    Example:
        >>> row = compare([{"score": 0.5, "valid_items": 2, "time_ms": 10, "job_done": 1}] * 2,
        ...               [{"score": 0.7, "valid_items": 2, "time_ms": 10, "job_done": 1}] * 2)
        >>> round(row["score"]["difference"], 3), row["score"]["difference_ci95"]
        (0.2, 0.0)
    """
    row: dict[str, Any] = {}
    for key in MEASURES:
        a = [float(record[key]) for record in sim]
        b = [float(record[key]) for record in live]
        (sim_mean, sim_ci), (live_mean, live_ci) = mean_ci95(a), mean_ci95(b)
        difference, difference_ci = mean_ci95([y - x for x, y in zip(a, b, strict=True)])
        row[key] = {
            "sim": sim_mean,
            "sim_ci95": sim_ci,
            "live": live_mean,
            "live_ci95": live_ci,
            "difference": difference,
            "difference_ci95": difference_ci,
        }
    for name, records in (("sim", sim), ("live", live)):
        valid = sum(float(record["valid_items"]) for record in records)
        total = sum(float(record["time_ms"]) for record in records)
        row.setdefault("time_per_valid_item_ms", {})[name] = total / valid if valid else None
    return row


def sim_to_live(
    agents: Mapping[str, Any], episodes: int, seed: int, live_kwargs: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Evaluate each agent on Crawl-v2 and on CrawlLive-v0 over the same seeded sites."""
    rows = {}
    timings = {}
    for label, agent in agents.items():
        runs = {}
        for env_id, kwargs in ((CRAWL_V2_ENV_ID, None), (CRAWL_LIVE_ENV_ID, live_kwargs)):
            started = time.perf_counter()
            result = evaluate(agent, env_id, episodes, seed, env_kwargs=kwargs, label=label)
            runs[env_id] = result.episodes
            timings[f"{label}/{env_id}"] = time.perf_counter() - started
        rows[label] = compare(runs[CRAWL_V2_ENV_ID], runs[CRAWL_LIVE_ENV_ID])
    sim_rank = sorted(rows, key=lambda name: rows[name]["score"]["sim"])
    live_rank = sorted(rows, key=lambda name: rows[name]["score"]["live"])
    return {
        "episodes": episodes,
        "seed": seed,
        "sim_env": CRAWL_V2_ENV_ID,
        "live_env": CRAWL_LIVE_ENV_ID,
        "live_kwargs": dict(live_kwargs or {}),
        "agents": rows,
        "rank_sim": sim_rank,
        "rank_live": live_rank,
        "same_rank": sim_rank == live_rank,
        "seconds": timings,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=200, help="sites per agent (default 200)")
    parser.add_argument("--seed", type=int, default=1_000_000, help="first site (default 1e6)")
    parser.add_argument("--model", default=None, help="a Crawl-v2 model (model.zip) to add")
    parser.add_argument("--model-note", default="", help="how the model was trained")
    parser.add_argument("--out", default="results/sim_to_live.json")
    args = parser.parse_args(argv)
    agents: dict[str, Any] = {name: name for name in BASELINES}
    if args.model:
        agents["trained"] = args.model
    agents = {name: agents[name] for name in _ORDER if name in agents}
    results = sim_to_live(agents, args.episodes, args.seed, None)
    results["trained_model"] = {"path": args.model, "note": args.model_note} if args.model else None
    Path(args.out).write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    for label, row in results["agents"].items():
        score = row["score"]
        print(
            f"{label:<11} sim {score['sim']:.3f}  live {score['live']:.3f}  "
            f"live - sim {score['difference']:+.3f} ± {score['difference_ci95']:.3f}"
        )
    ranks = f"sim {results['rank_sim']}, live {results['rank_live']}"
    print(f"same rank: {results['same_rank']} ({ranks})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
