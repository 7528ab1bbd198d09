"""Baselines of ``rlm_gym/Crawl-v1`` per pattern type: random, heuristic, best fixed, oracle.

Usage:
    python benchmarks/crawl_baselines.py [--episodes 1000] [--seed 0] [--json PATH]

``rlm_gym.envs.BEST_FIXED_STRATEGY`` is the "best fixed strategy overall" this prints with the
default arguments (update it only from this output). ``--json`` also writes every mean (per
pattern type and overall, each of the 18 fixed strategies included) to a file.

For each pattern type, the same seeded sites (``reset(seed=s)``) are crawled by the random
policy, the observation-only heuristic and all 18 fixed (fetcher, extractor, paginator)
strategies; the oracle column is the exact expected score of the oracle's play on each site
(``Oracle.value`` at the start state, the mean of what ``oracle_action`` scores). Normalised
score = (score - random) / (oracle - random). Also printed: on how many sites each fetcher /
extractor / paginator is *uniquely* best (its best strategy beats every strategy with another
choice of that tool by more than 0.005), and how much the best other choice loses there.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict

import numpy as np

from rlm_gym.envs import FIXED_STRATEGIES, CrawlEnv, Oracle
from rlm_gym.envs import SIMULATED_PATTERN_TYPES as PATTERN_TYPES
from rlm_gym.envs.baselines import EXTRACTORS, FETCHERS, PAGINATORS

UNIQUE_MARGIN = 0.005
TOOLS = (("fetcher", 0, FETCHERS), ("extractor", 1, EXTRACTORS), ("paginator", 2, PAGINATORS))


def play(env: CrawlEnv, seed: int, policy) -> float:
    """Crawl the site of ``seed`` with ``policy`` and return the final crawl score."""
    env.reset(seed=seed)
    while True:
        _, reward, terminated, truncated, _ = env.step(policy())
        if terminated or truncated:
            return float(reward)


def benchmark_type(pattern_type: str, seeds: range) -> dict:
    env = CrawlEnv(pattern_types=[pattern_type])
    oracle = Oracle(max_sites=1)
    scores = defaultdict(list)
    unique = {tool: defaultdict(list) for tool, _, _ in TOOLS}
    for seed in seeds:
        scores["random"].append(play(env, seed, env.random_action))
        scores["heuristic"].append(play(env, seed, env.heuristic_action))
        for strategy in FIXED_STRATEGIES:
            action = env.fixed_strategy_action
            scores[strategy].append(play(env, seed, lambda s=strategy, a=action: a(s)))
        env.reset(seed=seed)
        values = oracle.strategy_values(env.model, env.state)
        scores["oracle"].append(max(values.values()))
        for tool, position, choices in TOOLS:
            best = {c: max(v for s, v in values.items() if s[position] == c) for c in choices}
            ranked = sorted(best.values(), reverse=True)
            if ranked[0] - ranked[1] > UNIQUE_MARGIN:
                winner = max(best, key=best.get)
                unique[tool][winner].append(ranked[0] - ranked[1])
    means = {key: float(np.mean(values)) for key, values in scores.items()}
    return {"means": means, "unique": unique, "sites": len(seeds)}


def normalised(score: float, random: float, oracle: float) -> float:
    return (score - random) / (oracle - random)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=1000, help="seeded sites per pattern type")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--json", default=None, help="also write the means to this JSON file")
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.episodes)
    started = time.perf_counter()
    results = {t: benchmark_type(t, seeds) for t in PATTERN_TYPES}
    overall = {
        key: float(np.mean([results[t]["means"][key] for t in PATTERN_TYPES]))
        for key in results[PATTERN_TYPES[0]]["means"]
    }
    best_fixed = max(FIXED_STRATEGIES, key=lambda s: overall[s])
    print(f"{args.episodes} seeded sites per pattern type (seeds {seeds.start}-{seeds.stop - 1})")
    print(f"best fixed strategy overall: {'+'.join(best_fixed)}\n")
    header = "| pattern type | random | heuristic | best fixed | oracle | random/oracle |"
    print(header + " heuristic (norm.) | best fixed (norm.) | best fixed of the type |")
    print("|---" * 9 + "|")
    rows = [(t, results[t]["means"]) for t in PATTERN_TYPES] + [("all (mean)", overall)]
    for name, means in rows:
        random, oracle = means["random"], means["oracle"]
        type_best = max(FIXED_STRATEGIES, key=lambda s, m=means: m[s])
        print(
            f"| {name} | {random:.3f} | {means['heuristic']:.3f} | {means[best_fixed]:.3f} | "
            f"{oracle:.3f} | {random / oracle:.2f} | "
            f"{normalised(means['heuristic'], random, oracle):.2f} | "
            f"{normalised(means[best_fixed], random, oracle):.2f} | "
            f"{'+'.join(type_best)} ({normalised(means[type_best], random, oracle):.2f}) |"
        )
    total = args.episodes * len(PATTERN_TYPES)
    print("\n| choice | uniquely best on | mean loss of the best other choice there |")
    print("|---|---|---|")
    for tool, _, choices in TOOLS:
        for choice in choices:
            gaps = [g for t in PATTERN_TYPES for g in results[t]["unique"][tool][choice]]
            loss = f"{np.mean(gaps):.3f}" if gaps else "-"
            print(f"| {tool} `{choice}` | {100 * len(gaps) / total:.1f} % | {loss} |")
    print(f"\n{time.perf_counter() - started:.0f} s")
    if args.json:
        means = {t: results[t]["means"] for t in PATTERN_TYPES} | {"all": overall}
        payload = {
            "episodes_per_type": args.episodes,
            "seeds": [seeds.start, seeds.stop - 1],
            "best_fixed_strategy": list(best_fixed),
            "means": {
                group: {(k if isinstance(k, str) else "+".join(k)): v for k, v in m.items()}
                for group, m in means.items()
            },
        }
        with open(args.json, "w") as stream:
            json.dump(payload, stream, indent=2)
            stream.write("\n")


if __name__ == "__main__":
    main()
