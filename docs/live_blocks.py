"""Generated blocks of docs/live.md: the live env's throughput and the sim-to-live table."""

from __future__ import annotations

import re

from block_tools import BENCHMARKS, RESULTS, read_json, table

__all__ = ["live_throughput", "sim_to_live"]

_AGENTS = {
    "random": "random",
    "best_fixed": "best fixed",
    "heuristic": "heuristic",
    "trained": "trained (Crawl-v2)",
    "oracle": "oracle",
}


def live_throughput() -> str:
    """``benchmarks/live_env.py``: live steps/s on one env, and the parse costs."""
    data = read_json(BENCHMARKS)["live_env"]
    rows = [
        [
            player,
            f"{data[player]['steps_per_s']:,.0f}",
            f"{1000.0 / data[player]['steps_per_s']:.1f}",
            f"{data[player]['cpu_ms_per_step']:.1f}",
        ]
        for player in ("heuristic", "random")
    ]
    parsing = data["parsing"]
    return (
        f"One env, its own farm, `time_scale` {data['time_scale']}, wall clock (medians of "
        f"interleaved runs of {data['steps']} steps):\n\n"
        + table(["player", "steps/s", "ms/step", "CPU ms/step"], rows)
        + f"\nParsing a 48-item listing page ({parsing['page_kb']:.0f} KB): lxml "
        f"{parsing['lxml_parse_ms']:.2f} ms, parsel {parsing['parsel_parse_ms']:.2f} ms; "
        f"extracting it: CSS {parsing['extract_css_ms']:.2f} ms, heuristics "
        f"{parsing['extract_heuristic_ms']:.2f} ms, the LLM stand-in "
        f"{parsing['extract_llm_ms']:.2f} ms.\n"
    )


def _pair(cell: dict, digits: int = 3, scale: float = 1.0, unit: str = "") -> list[str]:
    sim = f"{cell['sim'] * scale:.{digits}f}{unit}"
    live = f"{cell['live'] * scale:.{digits}f}{unit}"
    difference = (
        f"{cell['difference'] * scale:+.{digits}f} ± {cell['difference_ci95'] * scale:.{digits}f}"
    )
    return [sim, live, difference]


def _recipe_note(note: str) -> str:
    """Which named recipe the note's ``rlm-gym train`` command trains (``RECIPES``)."""
    from recipe_blocks import RECIPES, recipe_of_command

    command = re.search(r"rlm-gym train [^)`]*", note)
    name = recipe_of_command(command.group(0)) if command else None
    if name is None:
        return ""
    return f" That command is the recipe `{name}` ({RECIPES[name].summary})."


def sim_to_live() -> str:
    """``results/sim_to_live.json``: each agent on the same seeded sites, sim and live."""
    data = read_json(RESULTS / "sim_to_live.json")
    rows = []
    for name, label in _AGENTS.items():
        row = data["agents"].get(name)
        if row is None:
            continue
        time_per_item = row["time_per_valid_item_ms"]
        times = [
            "-" if time_per_item[side] is None else f"{time_per_item[side] / 1000:.2f}"
            for side in ("sim", "live")
        ]
        rows.append(
            [
                label,
                *_pair(row["score"]),
                *_pair(row["job_done"], 1, 100.0, " %"),
                *_pair(row["valid_items"], 1),
                *times,
            ]
        )
    headers = [
        "agent",
        "true score sim",
        "live",
        "live - sim (95 % CI)",
        "job done sim",
        "live",
        "live - sim",
        "valid items sim",
        "live",
        "live - sim",
        "s / valid item sim",
        "live",
    ]
    ranks = ", ".join(_AGENTS.get(name, name) for name in data["rank_live"])
    verdict = (
        "the agents rank in the same order on both"
        if data["same_rank"]
        else f"the order differs: sim {data['rank_sim']}, live {data['rank_live']}"
    )
    last = data["seed"] + data["episodes"] - 1
    caption = (
        f"{data['episodes']} seeded sites (seeds {data['seed']}..{last}; "
        f"live site k on farm seed 0 is Crawl-v2's site for seed k), each agent on the same "
        f"sites in both envs; differences are paired by site. From low to high on live: "
        f"{ranks}: {verdict}.\n"
    )
    model = data.get("trained_model")
    trained = data["agents"].get("trained")
    if model and trained:
        score = trained["score"]
        within = abs(score["difference"]) + score["difference_ci95"] <= 0.05
        caption += (
            f"\nTrained agent: {model['note']}{_recipe_note(model['note'])} Its live true "
            "score is "
            f"{score['live']:.3f} against {score['sim']:.3f} simulated: live - sim "
            f"{score['difference']:+.3f} ± {score['difference_ci95']:.3f}, "
            f"{'within' if within else 'not within'} 0.05 of it (the whole interval).\n"
        )
    return caption + "\n" + table(headers, rows)
