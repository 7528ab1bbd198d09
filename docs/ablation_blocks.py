"""The Crawl-v2 ablation's blocks (rendered by ``docs/render.py``) from
``results/ablation.json``: the true crawl score and the task outcome per variant, paired with
``binary`` and with ``full``, the steps each took to beat the heuristic, and a generated
verdict on the questions the study answers. ``trade_off_points`` is what
``docs/study_plots.py`` draws."""

from __future__ import annotations

from typing import Any

from block_tools import RESULTS, pm, study, table
from study_blocks import all_baselines, baseline_rows, beats_cell, study_caption

HALF = "ablation-300k"
# Task measures where less is better (a costlier variant has more of them).
LOWER_IS_BETTER = {"time_per_valid_item_ms", "requests", "time_ms", "banned"}
# The components whose switching off the verdict sentence weighs (the value checks, one by one
# and together).
VERDICT_COMPONENTS = ("has_data", "validation", "defects", "value_checks")
# Label, scale, unit and decimals of each measure in the verdict.
MEASURE_LABELS = {
    "score": ("true crawl score", 1.0, "", 3),
    "job_done": ("job done", 100.0, " points", 1),
    "valid_items": ("valid items", 1.0, "", 1),
    "time_per_valid_item_ms": ("time per valid item", 1e-3, " s", 2),
    "banned": ("bans", 100.0, " points", 1),
}


def ablation_results(name: str = "ablation") -> dict[str, Any] | None:
    return study(name) if (RESULTS / f"{name}.json").exists() else None


def _not_measured(name: str) -> str:
    return f"*Not measured yet*: `results/{name}.json` does not exist.\n"


def _versus(row: dict[str, Any], results: dict[str, Any], other: str, key: str) -> tuple:
    """The paired difference (mean, CI) of ``row`` against ``other`` on ``key``."""
    if other == results["reference"]:
        if key == "score":
            return row["vs_reference"], row["vs_reference_ci95"]
        measure = row.get("task", {}).get(key, {})
        return measure.get("vs_reference"), measure.get("vs_reference_ci95")
    measure = row.get("vs", {}).get(other, {}).get(key, {})
    return measure.get("diff"), measure.get("ci95")


def _steps_cell(row: dict[str, Any]) -> str:
    efficiency = row.get("steps_to_heuristic")
    if not efficiency:
        return "-"
    per_seed = "/".join("never" if s is None else f"{s // 1000}k" for s in efficiency["per_seed"])
    if efficiency["mean"] is None:
        return per_seed
    return f"{per_seed} (mean {efficiency['mean'] / 1000:.0f}k ± {efficiency['ci95'] / 1000:.0f}k)"


def ablation_study(name: str = "ablation") -> str:
    """Two tables: the true crawl score and the task outcome of every variant."""
    results = ablation_results(name)
    if results is None:
        return _not_measured(name)
    variants = results["variants"]
    score_rows, task_rows = [], []
    for name, row in variants.items():
        task = row.get("task", {})

        def measure(key: str, scale: float = 1.0, digits: int = 2, task: dict = task) -> str:
            found = task.get(key, {})
            return pm(found.get("mean"), found.get("ci95"), digits, scale)

        def paired(other: str, key: str, scale: float = 1.0, digits: int = 3, name=name) -> str:
            if name == other:
                return "(reference)"
            return pm(*_versus(variants[name], results, other, key), digits, scale)

        score_rows.append(
            [
                f"`{name}`",
                len(row["seeds"]),
                pm(row["score"], row["score_ci95"]),
                pm(row["normalised"], row["normalised_ci95"], 2),
                paired("binary", "score"),
                paired("full", "score"),
                beats_cell(row),
                _steps_cell(row),
            ]
        )
        task_rows.append(
            [
                f"`{name}`",
                measure("job_done", 100, 1),
                paired("binary", "job_done", 100, 1),
                paired("full", "job_done", 100, 1),
                measure("valid_items", 1, 1),
                measure("time_per_valid_item_ms", 1e-3, 2),
                paired("binary", "time_per_valid_item_ms", 1e-3, 2),
                paired("full", "time_per_valid_item_ms", 1e-3, 2),
                measure("banned", 100, 1),
            ]
        )
    score_rows += baseline_rows(results, 4)
    bars = {
        env_id.split("/")[-1]: baselines["heuristic"]["curve_score"]
        for env_id, baselines in all_baselines(results).items()
        if "curve_score" in baselines.get("heuristic", {})
    }
    curve = results.get("curve_eval", {})
    bar = ", ".join(
        f"{score:.3f}" if len(bars) == 1 else f"{score:.3f} on {version}"
        for version, score in bars.items()
    )
    steps_note = (
        f"; steps to the heuristic: the first evaluation during training (every "
        f"{curve['eval_freq']:,} steps, {curve['n_eval_episodes']} episodes of seeds "
        f"{curve['eval_seed']:,}+) that scored above the heuristic on the same episodes "
        f"({bar}), per seed"
        if bars and curve
        else ""
    )
    score_headers = [
        "trained on",
        "seeds",
        "true crawl score",
        "normalised",
        "vs `binary`",
        "vs `full`",
        "beats heuristic and best fixed on every seed",
        "steps to beat the heuristic",
    ]
    task_headers = [
        "trained on",
        "job done %",
        "vs `binary`",
        "vs `full`",
        "valid items",
        "s per valid item",
        "vs `binary`",
        "vs `full`",
        "banned %",
    ]
    return (
        study_caption(results)
        + "The true crawl score (mean ± 95 % CI over seeds; paired differences ± 95 % CI)"
        + steps_note
        + ":\n\n"
        + table(score_headers, score_rows)
        + "\nThe task outcome a crawl operator sees (means over the evaluation episodes, then "
        "over seeds ± 95 % CI; paired differences by seed):\n\n" + table(task_headers, task_rows)
    )


def _direction(diff: float | None, half: float | None) -> int:
    """+1 / -1 when the CI excludes 0 on that side, 0 when it does not (or is missing)."""
    if diff is None or half is None:
        return 0
    return 1 if diff - half > 0 else -1 if diff + half < 0 else 0


def _costs(results: dict[str, Any], name: str) -> list[str]:
    """The measures on which ``name`` is worse than ``full`` by more than the CI."""
    row = results["variants"][name]
    found = []
    for key, (label, scale, unit, digits) in MEASURE_LABELS.items():
        diff, half = _versus(row, results, "full", key)
        worse = 1 if key in LOWER_IS_BETTER else -1
        if _direction(diff, half) == worse:
            found.append(f"{label} {diff * scale:+.{digits}f} ± {half * scale:.{digits}f}{unit}")
    return found


def ablation_300k_study() -> str:
    """The ablation at half its budget (``results/ablation-300k.json``)."""
    return ablation_study(HALF)


def ablation_300k_convergence() -> str:
    """How far the curves still rose over the last third of the half budget."""
    return ablation_convergence(HALF)


def ablation_300k_verdict() -> str:
    """The verdict of the ablation at half its budget."""
    return ablation_verdict(HALF)


def curve_gain(results: dict[str, Any], variant: str) -> float | None:
    """How much ``variant``'s seed-mean learning curve rose over the last third of the budget:
    its mean over the last sixth minus its mean over the sixth that ends at two thirds."""
    runs = [run["curve"] for run in results["variants"][variant]["per_seed"] if run.get("curve")]
    if not runs:
        return None
    budget = results["variants"][variant]["total_timesteps"]

    def window(low: float, high: float) -> float | None:
        scores = [
            point["score"]
            for curve in runs
            for point in curve
            if low * budget < point["timestep"] <= high * budget
        ]
        return sum(scores) / len(scores) if scores else None

    before, after = window(1 / 2, 2 / 3), window(5 / 6, 7 / 6)
    return None if before is None or after is None else after - before


def ablation_convergence(name: str = "ablation") -> str:
    """One sentence: how far the learning curves still rose over the last third of the budget."""
    results = ablation_results(name)
    if results is None:
        return _not_measured(name)
    gains = {v: curve_gain(results, v) for v in results["variants"]}
    gains = {v: g for v, g in gains.items() if g is not None}
    if not gains:
        return "*No learning curves recorded.*\n"
    top = max(gains, key=lambda v: gains[v])
    budget = results["total_timesteps"]
    return (
        f"Over the last third of the {budget // 1000}k-step budget (the seed-mean learning "
        f"curve's mean over its last sixth minus its mean over the sixth ending at "
        f"{2 * budget // 3000}k steps) the variants' curves moved by "
        f"{min(gains.values()):+.3f} to {gains[top]:+.3f} (`{top}`; `full`: "
        f"{gains.get('full', float('nan')):+.3f}) on the true crawl score.\n"
    )


def ablation_verdict(name: str = "ablation") -> str:
    """One generated sentence per question of the study (issue 20's goal and moonshot)."""
    results = ablation_results(name)
    if results is None:
        return _not_measured(name)
    variants = results["variants"]
    if len(variants["full"]["seeds"]) < 2:
        return "*Not enough seeds yet*: the verdict needs two finished seeds of every variant.\n"
    full = variants["full"]
    words = {1: "beats", -1: "loses to", 0: "is not told apart from"}
    score = _direction(full["vs_reference"], full["vs_reference_ci95"])
    job = _versus(full, results, "binary", "job_done")
    job_word = {1: "more often than", -1: "less often than", 0: "about as often as"}
    lines = [
        f"At {results['total_timesteps'] // 1000}k steps on Crawl-v2, `full` {words[score]} "
        "`binary` on the true crawl score "
        f"({pm(full['vs_reference'], full['vs_reference_ci95'])} over "
        f"{len(full['seeds'])} paired seeds) and finishes the job "
        f"{job_word[_direction(*job)]} `binary` ({pm(*job, 1, 100)} points of job done)."
    ]
    quiet = []
    for component in VERDICT_COMPONENTS:
        if f"no_{component}" not in variants:
            continue
        costs = _costs(results, f"no_{component}")
        label = f"`{component}`"
        off = "off"
        if component == "value_checks":
            label, off = "the three value checks", "off together"
        if costs:
            lines.append(f"Switching {label} {off} costs: {'; '.join(costs)}.")
        else:
            quiet.append(label)
    if quiet:
        lines.append(
            f"Switching off {', '.join(quiet)} costs nothing measurable against `full` "
            "(no CI excludes 0 on any task measure or on the true score)."
        )
    lines.append(_moonshot(results))
    return " ".join(lines) + "\n"


def _moonshot(results: dict[str, Any]) -> str:
    """The variants dominated neither by ``binary`` on job done nor by ``full`` on time per
    valid item (worse by more than the paired CI), and those better than both (by more than
    the CI) on those two measures."""
    free, better = [], []
    for name, row in results["variants"].items():
        if name in ("binary", "full"):
            continue
        job = _direction(*_versus(row, results, "binary", "job_done"))
        time = _direction(*_versus(row, results, "full", "time_per_valid_item_ms"))
        if job >= 0 and time <= 0:
            free.append(f"`{name}`")
        if job > 0 and time < 0:
            better.append(f"`{name}`")
    if not free:
        return (
            "No variant escapes both: each one finishes the job less often than `binary` or "
            "spends more time per valid item than `full` (by more than the CI)."
        )
    sentence = (
        f"Not dominated by `binary` on job done nor by `full` on time per valid item: "
        f"{', '.join(free)}"
    )
    if better:
        sentence += (
            f"; of those, {', '.join(better)} finish the job more often than `binary` *and* "
            "spend less time per valid item than `full`, both by more than the CI"
        )
    return sentence + "."


# The record the quarter-cost `ablation` is checked against: the same study, the earlier recipe.
BEFORE_COST = "ablation-16envs"


def verdict_classes(results: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """The classes the verdict sentence puts variants in, by the rules that write it: which
    variants beat `binary` on the true score (by more than the paired CI), which of the value
    checks cost something against `full` when off and which cost nothing measurable, which variants
    are dominated neither by `binary` on job done nor by `full` on time per valid item, and
    which beat both on those measures."""
    variants = results["variants"]
    beats = tuple(
        name
        for name, row in variants.items()
        if name != results["reference"]
        and _direction(row["vs_reference"], row["vs_reference_ci95"]) > 0
    )
    off = [f"no_{c}" for c in VERDICT_COMPONENTS if f"no_{c}" in variants]
    costs = tuple(name for name in off if _costs(results, name))
    free, better = [], []
    for name, row in variants.items():
        if name in ("binary", "full"):
            continue
        job = _direction(*_versus(row, results, "binary", "job_done"))
        time = _direction(*_versus(row, results, "full", "time_per_valid_item_ms"))
        if job >= 0 and time <= 0:
            free.append(name)
        if job > 0 and time < 0:
            better.append(name)
    return {
        "beat `binary` on the true crawl score": beats,
        "cost something against `full` when off": costs,
        "cost nothing measurable against `full` when off": tuple(n for n in off if n not in costs),
        "not dominated (job done vs `binary`, time per valid item vs `full`)": tuple(free),
        "better than both on those two": tuple(better),
    }


def _same(same: bool) -> str:
    return "yes" if same else "**no**"


def on_seeds(results: dict[str, Any], seeds: list[int]) -> dict[str, Any]:
    """``results`` summarised again from its runs of ``seeds`` only (what a study with those
    seeds would have written), so that two studies are compared on the same seeds."""
    from dataclasses import replace

    from rlm_gym.training.studies.plans import STUDIES
    from rlm_gym.training.studies.summary import summarise_study

    study = replace(STUDIES[results["study"]], seeds=tuple(seeds))
    rows = [
        row
        for variant in results["variants"].values()
        for row in variant["per_seed"]
        if row["seed"] in seeds
    ]
    return summarise_study(study, rows, results["baselines"], results.get("baselines_by_env"))


def ablation_cost_check() -> str:
    """The quarter-cost ``ablation`` against its record with the earlier recipe: the verdict's
    classes side by side on the seeds both have (and the record's on all its seeds), and
    ``full`` - ``binary`` on the true score in each."""
    after, before_all = ablation_results(), ablation_results(BEFORE_COST)
    if after is None or before_all is None:
        return _not_measured(BEFORE_COST if before_all is None else "ablation")
    seeds = sorted(
        set(after["variants"]["full"]["seeds"]) & set(before_all["variants"]["full"]["seeds"])
    )
    before = on_seeds(before_all, seeds)
    every, old, new = (verdict_classes(r) for r in (before_all, before, after))

    def names(found: tuple[str, ...]) -> str:
        return ", ".join(f"`{name}`" for name in found) or "none"

    def full_vs_binary(results: dict[str, Any]) -> str:
        full = results["variants"]["full"]
        return pm(full["vs_reference"], full["vs_reference_ci95"])

    def sign(results: dict[str, Any]) -> int:
        full = results["variants"]["full"]
        return _direction(full["vs_reference"], full["vs_reference_ci95"])

    rows = [
        [
            "`full` - `binary`, true crawl score",
            full_vs_binary(before_all),
            full_vs_binary(before),
            full_vs_binary(after),
            _same(sign(before) == sign(after)),
        ]
    ]
    rows += [
        [
            label,
            names(every[label]),
            names(old[label]),
            names(new[label]),
            _same(old[label] == new[label]),
        ]
        for label in new
    ]
    changed = [label for label in new if old[label] != new[label]]
    summary = (
        "On the same seeds, every class holds the same variants."
        if not changed
        else f"On the same seeds, {len(changed)} of {len(new)} classes differ: "
        f"{'; '.join(changed)}."
    )
    span = f"seeds {seeds[0]}-{seeds[-1]}" if len(seeds) > 1 else f"seed {seeds[0]}"
    header = [
        "verdict",
        f"16 envs, minibatch 256, 10 epochs ({len(before_all['variants']['full']['seeds'])} seeds)",
        f"the same, {span}",
        f"quarter cost, {span}",
        "same",
    ]
    return table(header, rows) + f"\n{summary}\n\n" + _recipe_differences(before_all, after)


def _recipe_differences(before: dict[str, Any], after: dict[str, Any]) -> str:
    """Each variant's true crawl score with both recipes, paired by seed (quarter cost minus
    the 16-env recipe)."""
    from rlm_gym.training.studies.stats import mean_ci95

    rows = []
    for name, row in after["variants"].items():
        old = {run["seed"]: run["score"] for run in before["variants"][name]["per_seed"]}
        new = {run["seed"]: run["score"] for run in row["per_seed"]}
        seeds = sorted(set(old) & set(new))
        if len(seeds) < 2:
            continue
        diff, half = mean_ci95([new[seed] - old[seed] for seed in seeds])
        rows.append(
            [
                f"`{name}`",
                len(seeds),
                pm(*mean_ci95([old[seed] for seed in seeds])),
                pm(*mean_ci95([new[seed] for seed in seeds])),
                pm(diff, half),
            ]
        )
    header = ["trained on", "seeds", "16-env recipe", "quarter cost", "difference (paired)"]
    return (
        "The true crawl score of each variant with both recipes (mean ± 95 % CI over seeds; "
        "the difference paired by seed):\n\n" + table(header, rows)
    )


def trade_off_points() -> list[dict[str, Any]]:
    """One point per variant: time per valid item (s) against job done (%), with CIs."""
    results = ablation_results()
    if results is None:
        return []
    points = []
    for name, row in results["variants"].items():
        task = row.get("task", {})
        if "job_done" not in task or "time_per_valid_item_ms" not in task:
            continue
        time, job = task["time_per_valid_item_ms"], task["job_done"]
        points.append(
            {
                "label": name,
                "x": time["mean"] / 1000,
                "x_ci": (time["ci95"] or 0.0) / 1000,
                "y": 100 * job["mean"],
                "y_ci": 100 * (job["ci95"] or 0.0),
            }
        )
    return points
