"""The batched Crawl-v2 block of ``docs/performance.md`` (rendered by ``docs/render.py``), from
the ``crawl_vector_env`` and ``crawl_vector_env_valid`` sections of ``benchmarks/results.json``
(``benchmarks/crawl_vector_env.py``, without and with ``--valid``), and the training vector
env's figure from ``crawl_vector_training`` (``benchmarks/crawl_vector_training.py``)."""

from __future__ import annotations

import json
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks" / "results.json"

# The bars: the batch against SyncVectorEnv of single envs, and per core against one env.
BARS = {"batched_vs_sync": 10.0, "batched_vs_single": 5.0}
SECTIONS = ("crawl_vector_env", "crawl_vector_env_valid")
# `auto` moves the crawl envs' training to the batch only for a clear gain over per-env wrappers
# (the same agent either way, so a switch buys only speed; a small ratio drifts with the load).
AUTO_SWITCH = 1.3


def crawl_vector_env() -> str:
    """Steps/s of Crawl-v2 + ``crawl``: one env, ``SyncVectorEnv`` and the batch in its fast
    and exact modes, with ratios."""
    results = json.loads(BENCHMARKS.read_text(encoding="utf-8"))
    sync_bar, single_bar = BARS["batched_vs_sync"], BARS["batched_vs_single"]
    rows = [
        "| actions | one env | `SyncVectorEnv` x N | `CrawlVectorEnv` x N | batch / sync "
        f"(bar {sync_bar:g}x) | batch / one env (bar {single_bar:g}x) |",
        "|---|---|---|---|---|---|",
    ]
    for name in SECTIONS:
        section = results.get(name)
        if section is None:
            continue
        n = section["num_envs"]
        rates = section["steps_per_s"]
        for suffix, mode in (("", "fast (default)"), ("_exact", "`exact=True`")):
            if f"batched{n}{suffix}" not in rates:
                continue
            figures = [section[key.replace("batched", "batched" + suffix)] for key in BARS]
            ratios = [
                f"**{value:.2f}x** ({'met' if value >= bar else 'not met'})"
                for value, bar in zip(figures, BARS.values(), strict=True)
            ]
            rows.append(
                f"| {section['actions']} | {rates['single']:,.0f} steps/s | "
                f"{rates[f'sync{n}']:,.0f} (N = {n}) | {rates[f'batched{n}{suffix}']:,.0f} "
                f"(N = {n}, {mode}) | {ratios[0]} | {ratios[1]} |"
            )
    training = results.get("crawl_vector_training")
    if training is not None:
        rates = training["steps_per_s"]
        ratio = training["vector_vs_per_env"]
        verdict = (
            f"below the {AUTO_SWITCH:g}x a switch asks for, yet `auto` takes the batch for "
            "Crawl-v2 with the `crawl` policy: re-measure before trusting it"
            if ratio < AUTO_SWITCH
            else f"at least the {AUTO_SWITCH:g}x a switch asks for, so `auto` takes the batch "
            "for Crawl-v2 with the `crawl` policy and no weight schedule (the same agent, "
            "weight for weight: only the speed changes)"
        )
        rows.append("")
        rows.append(
            f"The training vector env of a run (`make_training_vec_env`, {training['num_envs']} "
            f"envs, valid actions, masks asked each step): per-env wrappers "
            f'{rates["per_env"]:,.0f} steps/s, the batch (`reward_wrapping="vector"`) '
            f"{rates['vector']:,.0f} steps/s, **{ratio:.2f}x**, {verdict}."
        )
    return "\n".join(rows) + "\n"
