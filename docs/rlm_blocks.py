"""Generated blocks of docs/rlm.md: the agents' table (``results/rlm_agents.json``, written by
``benchmarks/rlm_agents.py``) and the sandbox and env costs (``benchmarks/rlm_env.py``)."""

from __future__ import annotations

from collections.abc import Callable

from block_tools import BENCHMARKS, RESULTS, read_json, table

__all__ = ["RLM_BLOCKS"]

_PROGRAMS = {
    "answer_from_preview": "answer from the preview",
    "grep_only": "grep only",
    "chunk_and_query": "chunk-and-query",
    "batched_chunk_and_query": "chunk-and-query, batched",
    "buggy": "buggy",
}


def _agents() -> dict:
    return read_json(RESULTS / "rlm_agents.json")


def _cell(data: dict, family: str, length: int, program: str) -> dict:
    return next(
        c
        for c in data["cells"]
        if (c["family"], c["length"], c["program"]) == (family, length, program)
    )


def _power(length: int) -> str:
    return f"2^{length.bit_length() - 1}"


def rlm_headline() -> str:
    """The issue's bar: chunk-and-query against answer-from-preview on aggregation at 2^20."""
    data = _agents()
    length = max(data["lengths"])
    chunk = _cell(data, "aggregation", length, "chunk_and_query")
    preview = _cell(data, "aggregation", length, "answer_from_preview")
    return (
        f"On aggregation tasks of {_power(length)} characters ({data['seeds']} seeds, offline "
        f"reader), **chunk-and-query solves {100 * chunk['solved']:.0f} %** with "
        f"{chunk['sub_calls']:.0f} sub-calls reading {chunk['chars_read']:,.0f} characters; "
        f"**answering from the preview solves {100 * preview['solved']:.0f} %**.\n"
    )


def rlm_agents() -> str:
    """Per family at the largest length: task outcome, cost and each seed policy's return."""
    data = _agents()
    length = max(data["lengths"])
    rows = []
    for family in data["families"]:
        for program in data["programs"]:
            cell = _cell(data, family, length, program)
            rows.append(
                [
                    family,
                    _PROGRAMS[program],
                    f"{100 * cell['solved']:.0f} %",
                    f"{cell['score']:.2f} ± {cell['score_ci95']:.2f}",
                    f"{cell['sub_calls']:.0f}",
                    f"{cell['chars_read']:,.0f}",
                    *(f"{cell['returns'][policy]['mean']:+.2f}" for policy in data["policies"]),
                ]
            )
    headers = ["family", "program", "solved", "score", "sub-calls", "chars read"]
    headers += [f"`{policy}`" for policy in data["policies"]]
    caption = (
        f"Contexts of {_power(length)} characters, {data['seeds']} seeds per row (`"
        f"{data['command']}`), sub-model: {data['sub_model']}; score with its 95 % CI; "
        "returns are episode sums of the policy through `RewardPolicyWrapper`.\n\n"
    )
    return caption + table(headers, rows)


def rlm_lengths() -> str:
    """Share of tasks solved per family, program and length."""
    data = _agents()
    rows = []
    for family in data["families"]:
        for program in data["programs"]:
            rows.append(
                [family, _PROGRAMS[program]]
                + [
                    f"{100 * _cell(data, family, length, program)['solved']:.0f} %"
                    for length in data["lengths"]
                ]
            )
    return table(["family", "program", *map(_power, data["lengths"])], rows)


def rlm_rankings() -> str:
    """Does each policy order the programs as the task score does? Where not, which part."""
    data = _agents()
    rows = []
    for policy in data["policies"]:
        report = data["rankings"][policy]
        parts = ", ".join(
            f"`{name}` ({count})" for name, count in report["reversal_components"].items()
        )
        rows.append(
            [
                f"`{policy}`",
                f"{report['agreeing_pairs']} of {report['ordered_pairs']}",
                len(report["reversals"]),
                parts or "-",
            ]
        )
    caption = (
        "Pairs of programs whose mean task scores differ by at least "
        f"{data['tie']} in a (family, length) cell, and how many of them each policy's mean "
        "return orders the same way. For a reversed pair, the component that favours the "
        "lower-scoring program most:\n\n"
    )
    reversals = [
        f"- `{policy}`: {_PROGRAMS[r['better_by_return']]} over "
        f"{_PROGRAMS[r['better_by_score']]} on {r['family']} at {_power(r['length'])} "
        f"(return {r['return_gap']:+.2f} for the lower score; `{r['component']}` "
        f"{r['component_gap']:+.2f})"
        for policy in data["policies"]
        for r in data["rankings"][policy]["reversals"]
    ]
    listing = "\nThe reversed pairs:\n\n" + "\n".join(reversals) + "\n" if reversals else ""
    return caption + table(["policy", "agreeing pairs", "reversed", "reversed by"], rows) + listing


def rlm_ties() -> str:
    """Two programs that solve the same needle tasks in one and in two steps."""
    data = _agents()
    length = max(data["lengths"])
    one = _cell(data, "needle", length, "grep_only")
    two = _cell(data, "needle", length, "chunk_and_query")
    returns = ", ".join(
        f"`{p}` {two['returns'][p]['mean']:+.2f} vs {one['returns'][p]['mean']:+.2f}"
        for p in data["policies"]
    )
    return (
        f"Where programs tie on the task, the policies still separate them: on needle tasks "
        f"of {_power(length)} characters grep-only (one step) and chunk-and-query (two steps) "
        f"both solve {100 * one['solved']:.0f} % and {100 * two['solved']:.0f} %, and the "
        f"returns are {returns} (two steps vs one). Every policy that pays each successful "
        "step (`default`'s `base` and `success`, `lenient`'s `attempt` and `success`, "
        "`research`'s `base_success`, `code_length`, `fast_execution`) pays for an extra "
        "look at the context; `strict` pays success on every step too. An agent trained on "
        "them may learn to add steps; `binary` (the final answer only) does not.\n"
    )


def rlm_sandbox() -> str:
    """``benchmarks/rlm_env.py``: the candidates and the env's own cost."""
    data = read_json(BENCHMARKS)["rlm_env"]
    rows = []
    for name, cell in data["candidates"].items():
        stopped = [k for k, v in cell["stops"].items() if v]
        missing = [k for k, v in cell["runs"].items() if not v]
        rows.append(
            [
                name + (" (default)" if name == data["default"] else ""),
                f"{cell['start_ms']:.0f}",
                f"{cell['load_1m_ms']:.1f}",
                f"{cell['step_ms']:.2f}",
                f"{len(stopped)} of {len(cell['stops'])}",
                "all" if not missing else "not: " + ", ".join(missing),
            ]
        )
    for name, reason in data["skipped"].items():
        rows.append([name, "-", "-", "-", "-", f"not measured: {reason}"])
    env = data["env"]
    goals = data["goals"]
    return (
        table(
            ["sandbox", "start ms", "load 1M chars ms", "step ms", "attempts stopped", "runs"],
            rows,
        )
        + f"\nThe env with the default sandbox: **{env['step_overhead_ms']:.2f} ms** of "
        f"overhead per step beside the code's own time (goal ≤ {goals['step_overhead_ms']:g} "
        f"ms; a whole trivial step {env['step_wall_ms']:.2f} ms), and **reset with a "
        f"1M-character context {env['reset_1m_ms']:.1f} ms** (median; slowest "
        f"{env['reset_1m_max_ms']:.1f} ms; goal ≤ {goals['reset_1m_ms']:g} ms). Wall-clock "
        f"medians of {data['repetitions']} steps, `benchmarks/rlm_env.py`, on {data['cores']} "
        f"cores with a load average of {data['load_average_1min']:.1f} (other work running)"
        + (f", pydantic-monty {data['monty_version']}" if data.get("monty_version") else "")
        + ".\n"
    )


RLM_BLOCKS: dict[str, Callable[[], str]] = {
    "rlm_headline": rlm_headline,
    "rlm_agents": rlm_agents,
    "rlm_lengths": rlm_lengths,
    "rlm_rankings": rlm_rankings,
    "rlm_ties": rlm_ties,
    "rlm_sandbox": rlm_sandbox,
}
