"""The study-cost block of docs/performance.md, from ``benchmarks/results.json``
(``benchmarks/study_cost.py --label before|after``)."""

from __future__ import annotations

import sys

from block_tools import BENCHMARKS, ROOT, read_json, table

sys.path.insert(0, str(ROOT / "benchmarks"))
from study_cost import SECTIONS  # the benchmark's own order of the sections

LABELS = {
    "before": "before (ef690d1)",
    "after": "after",
    "candidate": "after, a cheaper recipe",
}


def _recipe(run: dict) -> str:
    spec = run["measured"]["spec"]
    params = spec["hyperparams"]
    return (
        f"{spec['n_envs']} envs x {params['n_steps']} steps, minibatches of "
        f"{params.get('batch_size', 256)}, {params.get('n_epochs', 10)} epochs"
    )


def study_cost() -> str:
    """One study run's CPU by section, before and after, scaled to the study's budget."""
    cost = read_json(BENCHMARKS)["study_cost"]
    labels = [label for label in LABELS if label in cost]
    first = cost[labels[0]]
    headers = ["section"] + [f"{LABELS[label]}: CPU s (share)" for label in labels]
    rows = []
    for section in SECTIONS:
        cells = [section]
        for label in labels:
            run = cost[label]
            seconds = run["scaled"][section]
            cells.append(f"{seconds:.1f} ({100 * seconds / run['scaled_total_s']:.1f} %)")
        rows.append(cells)
    rows.append(["**total**"] + [f"**{cost[label]['scaled_total_s']:.0f}**" for label in labels])
    notes = "; ".join(
        f"{LABELS[label]}: {_recipe(cost[label])}, {cost[label]['timesteps']:,} steps "
        f"measured ({cost[label]['measured']['total_s']:.1f} CPU s)"
        for label in labels
    )
    caption = (
        f"One run of the `{first['study']}` study's `{first['variant']}` variant (seed "
        f"{first['seed']}), CPU seconds scaled to its {first['scale_to']:,} steps: rollout and "
        f"update by the steps, curve evaluations by their count, the final evaluation and "
        f"set-up as measured. {notes}.\n\n"
    )
    paired = "".join(
        _paired(cost.get(key)) for key in ("paired", "paired_issue37", "paired_issue37b")
    )
    return caption + table(headers, rows) + paired


def _paired(result: dict | None) -> str:
    """The whole-run figure: old code and recipe against today's, in alternating pairs."""
    if not result:
        return ""
    pairs = ", ".join(f"{ratio:.3f}" for ratio in result["ratios"])
    old, new = result["cpu_s"]["old"], result["cpu_s"]["new"]
    how = (
        "pairs (the two runs of a pair at once, one per core)"
        if result.get("together")
        else "alternating pairs"
    )
    old_study = result.get("old_study", result["study"])
    runs = (
        f"of the `{result['study']}` study's `{result['variant']}` run"
        if old_study == result["study"]
        else f"of the `{old_study}` study's `{result['variant']}` run (old) against the "
        f"`{result['study']}` study's (new)"
    )
    return (
        f"\nWhole runs, measured paired (`--paired`): {len(result['ratios'])} {how} "
        f"{runs} at {result['timesteps']:,} steps, the code and recipe of "
        f"{result['old_tree_commit']} against {result['new_commit']}'s, whole-process CPU "
        "(user + system): old "
        f"{', '.join(f'{v:.0f}' for v in old)} s, new {', '.join(f'{v:.0f}' for v in new)} s; "
        f"new / old **{result['median_ratio']:.3f}** (median; pairs {pairs}){_scores(result)}.\n"
    )


def _scores(result: dict) -> str:
    """The runs' scores, when recorded: equal on both sides when the code computes the same."""
    scores = result.get("scores")
    if not scores:
        return ""
    same = scores["old"] == scores["new"]
    return f"; trained scores old {', '.join(scores['old'])}, new {', '.join(scores['new'])}" + (
        " (the same agents)" if same else ""
    )
