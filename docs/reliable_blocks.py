"""The rliable blocks of docs/training.md, from ``results/reliable.json``
(``docs/reliable_report.py`` writes it from the studies' results files)."""

from __future__ import annotations

from collections.abc import Callable

from block_tools import RESULTS, read_json, table


def _interval(value: float, low: float, high: float, digits: int = 2) -> str:
    return f"{value:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def reliable_table(name: str) -> str:
    """A study's IQM and probabilities of improvement, one row per variant in study order."""
    entry = read_json(RESULTS / "reliable.json")[name]
    results = read_json(RESULTS / f"{name}.json")
    order = list(results["variants"])
    references = entry["references"]
    rows = []
    for variant in order:
        row = entry["variants"].get(variant)
        if row is None:
            continue
        cells = [f"`{variant}`", str(row["seeds"]), _interval(row["iqm"], *row["iqm_ci95"])]
        for reference in references:
            found = row["vs"].get(reference)
            cells.append(
                "(reference)"
                if variant == reference
                else _interval(found["poi"], *found["poi_ci95"])
                if found
                else "-"
            )
        rows.append(cells)
    counts = sorted({row["seeds"] for row in entry["variants"].values()})
    seeds = (
        f"{counts[0]} seed{'s' if counts[0] > 1 else ''}"
        if len(counts) == 1
        else f"{counts[0]} to {counts[-1]} seeds"
    )
    caption = (
        f"The normalised true crawl score as Agarwal et al. (2021) report RL results (`rliable`): "
        f"its interquartile mean (IQM) over seeds with a 95 % stratified bootstrap CI "
        f"({entry['reps']:,} resamples), and the probability of improvement, P(X > Y): the "
        f"chance that a run of the variant scores above a run of the reference, with its 95 % "
        f"bootstrap CI ({entry['poi_reps']:,} resamples). A study is one task (its env), so "
        f"the bootstrap resamples seeds; with {seeds} the intervals are coarse and, unlike "
        f"the paired differences above, ignore the pairing by seed."
    )
    if results.get("baselines_by_env"):
        caption += (
            " Each variant's runs are normalised with the baselines of the env it trained on "
            "(random to that env's oracle), for the IQM and for P(X > Y) alike: raw scores of "
            "two envs with different oracles are not one scale."
        )
    caption += "\n\n"
    headers = ["trained on", "seeds", "IQM, normalised [95 % CI]"]
    headers += [f"P(> `{reference}`) [95 % CI]" for reference in references]
    return caption + table(headers, rows)


def _block(name: str) -> Callable[[], str]:
    def render() -> str:
        return reliable_table(name)

    render.__name__ = f"{name.replace('-', '_')}_reliable"
    render.__doc__ = f"The rliable figures of ``results/{name}.json``."
    return render


RELIABLE_BLOCKS: dict[str, Callable[[], str]] = {
    f"{name.replace('-', '_')}_reliable": _block(name)
    for name in (
        "ablation",
        "ablation-16envs",
        "ablation-300k",
        "ablation-v1",
        "defaults",
        "demo-cost",
        "demo-version",
        "recipe-cost",
    )
}
