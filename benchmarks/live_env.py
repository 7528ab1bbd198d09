"""Steps per second of ``rlm_gym/CrawlLive-v0`` on one env at the default ``time_scale``:
real requests to the env's own farm (latency slept on the server), real parsing and
extraction, the observation and the final crawl reward, all included.

Wall-clock time (not CPU time, as the other benchmarks use): the server's latency is slept, so
the waiting is part of what an episode costs. Two players: the heuristic baseline (a crawl as an
agent plays it) and uniform random valid actions (short episodes, many resets). Interleaved
repetitions, medians. Also the parse and extraction cost of one 48-item page with parsel (the
extractors' selector library) beside a bare ``lxml.html`` parse, to show what the choice costs.

Goal (issue 29): >= 50 live steps/s on one env on 2 cores.

Run: ``.venv/bin/python benchmarks/live_env.py [--steps 300] [--repetitions 5]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from time import perf_counter, process_time

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gymnasium as gym
from _common import print_table, save_results

import rlm_gym  # noqa: F401  (registers the ids)
from rlm_gym.envs import CRAWL_LIVE_ENV_ID
from rlm_gym.live.sites import DEFAULT_TIME_SCALE

GOAL_STEPS_PER_S = 50.0


def runner(env: gym.Env, policy: str, steps: int):
    """A run of ``steps`` steps of ``policy`` over seeded sites: (wall steps/s, CPU s/step)."""
    state = {"seed": 0}

    def run() -> tuple[float, float, int]:
        env.reset(seed=state["seed"])
        episodes = 0
        started, cpu = perf_counter(), process_time()
        for _ in range(steps):
            action = getattr(env.unwrapped, f"{policy}_action")()
            *_, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                episodes += 1
                state["seed"] += 1
                env.reset(seed=state["seed"])
        wall = perf_counter() - started
        return steps / wall, (process_time() - cpu) / steps, episodes

    return run


def parse_costs(repetitions: int = 200) -> dict[str, float]:
    """Milliseconds to parse a 48-item listing page with lxml and parsel, and to extract it."""
    import lxml.html

    from rlm_gym.live.extract import extract, parse
    from rlm_gym.live.pages import render_page
    from rlm_gym.live.sites import make_site

    site = make_site(0, 0, ("product_list",), {"items_per_page": 48, "rendering": 0})
    dom = render_page(site, 1, "/s/0/").body.decode()

    def per_call_ms(function) -> float:
        started = perf_counter()
        for _ in range(repetitions):
            function()
        return (perf_counter() - started) / repetitions * 1000.0

    page = parse(dom)
    return {
        "page_kb": len(dom) / 1024,
        "lxml_parse_ms": per_call_ms(lambda: lxml.html.fromstring(dom)),
        "parsel_parse_ms": per_call_ms(lambda: parse(dom)),
        "extract_css_ms": per_call_ms(lambda: extract(0, page, "product_list")),
        "extract_heuristic_ms": per_call_ms(lambda: extract(1, page, "product_list")),
        "extract_llm_ms": per_call_ms(lambda: extract(2, page, "product_list")),
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args(argv)

    env = gym.make(CRAWL_LIVE_ENV_ID)
    try:
        runs = {name: runner(env, name, args.steps) for name in ("heuristic", "random")}
        samples: dict[str, list[tuple[float, float, int]]] = {name: [] for name in runs}
        for _ in range(args.repetitions):
            for name, run in runs.items():
                samples[name].append(run())
    finally:
        env.close()
    payload: dict = {"time_scale": DEFAULT_TIME_SCALE, "steps": args.steps}
    rows = []
    for name, values in samples.items():
        rate = statistics.median(v[0] for v in values)
        cpu_ms = statistics.median(v[1] for v in values) * 1000.0
        episodes = sum(v[2] for v in values) / len(values)
        payload[name] = {"steps_per_s": rate, "cpu_ms_per_step": cpu_ms, "episodes": episodes}
        verdict = "met" if rate >= GOAL_STEPS_PER_S else "NOT met"
        rows.append([name, f"{rate:,.0f}", f"{1000 / rate:.1f}", f"{cpu_ms:.1f}", verdict])
    print(
        f"{CRAWL_LIVE_ENV_ID}: one env, time_scale {DEFAULT_TIME_SCALE}, {args.steps} steps x "
        f"{args.repetitions} interleaved repetitions (wall clock, medians)"
    )
    print_table(
        ["player", "steps/s", "ms/step", "CPU ms/step", f"goal >= {GOAL_STEPS_PER_S:g}"], rows
    )
    costs = parse_costs()
    payload["parsing"] = costs
    print(f"\nparsing one 48-item page ({costs['page_kb']:.0f} KB):")
    print_table(
        ["step", "ms"],
        [[name, f"{value:.2f}"] for name, value in costs.items() if name.endswith("_ms")],
    )
    save_results("live_env", payload)
    return payload


if __name__ == "__main__":
    main()
