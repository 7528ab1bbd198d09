"""Write the measured numbers of README.md and docs/*.md from the committed JSON files.

Every figure on those pages sits in a generated block::

    <!-- generated: NAME (python docs/render.py) -->
    ...
    <!-- end: NAME -->

and is rendered here from a committed JSON file (``benchmarks/results.json`` for
``make bench``, ``results/*.json`` for ``make results``) or from a deterministic command over
committed data. A block may appear on several pages; each is rendered from the same source.
``make readme`` rewrites the blocks; ``--check`` (and ``tests/test_readme_numbers.py``) fails
when a page and the JSON disagree, so a number cannot go stale.

Usage:
    python docs/render.py [--check]
"""

from __future__ import annotations

import argparse
import difflib
import io
import json
import re
import sys
from collections.abc import Callable
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

from real_data_blocks import (
    real_data_crawls,
    real_data_disagreements,
    real_data_figures,
    real_data_groups,
)
from vector_blocks import vector_wrapper

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
BENCHMARKS = ROOT / "benchmarks" / "results.json"
RESULTS = ROOT / "results"

_BLOCK = re.compile(
    r"(<!-- generated: (?P<name>[a-z_]+) \(python docs/render.py\) -->\n)"
    r"(?P<body>.*?)"
    r"(<!-- end: (?P=name) -->)",
    re.S,
)


def pages() -> list[Path]:
    """The pages whose generated blocks this script writes: the README, then ``docs/*.md``."""
    return [README, *sorted(DOCS.glob("*.md"))]


def _json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


SCORE_EXAMPLE = [
    "score",
    "tests/data/realdata/raw/03_justdial__justdial.csv",
    "--required",
    "img_link,name,rating,price",
    "--pages",
    "9",
    "--time-ms",
    "45000",
    "--explain",
]


def score_explain() -> str:
    """``rlm-gym score --explain`` on a scraper's own CSV from the corpus."""
    from rlm_gym.cli import main

    stream = io.StringIO()
    with redirect_stdout(stream):
        main(SCORE_EXAMPLE)
    command = " ".join(["rlm-gym", *SCORE_EXAMPLE])
    return f"```console\n$ {command}\n{stream.getvalue()}```\n"


def _study(name: str) -> dict[str, Any]:
    return _json(RESULTS / f"{name}.json")


def _pm(value: float, half: float, digits: int = 3) -> str:
    return f"{value:.{digits}f} ± {half:.{digits}f}"


def _study_table(name: str) -> str:
    """Every variant of a study: mean true score, normalised, paired difference to the
    reference, and whether it beat the heuristic and the best fixed strategy on every seed
    (and each variant's budget, when they differ)."""
    study = _study(name)
    reference = study["reference"]
    budgets = {
        variant: row.get("total_timesteps", study["total_timesteps"])
        for variant, row in study["variants"].items()
    }
    show_budget = len(set(budgets.values())) > 1
    rows = []
    for variant, row in study["variants"].items():
        budget = [f"{budgets[variant] // 1000}k"] if show_budget else []
        if len(row["seeds"]) < 2:  # no interval from one seed (mean_ci95 gives 0.0)
            rows.append(
                [
                    f"`{variant}`",
                    *budget,
                    len(row["seeds"]),
                    f"{row['score']:.3f} (no CI)",
                    "",
                    "",
                    "",
                ]
            )
            continue
        paired = (
            "(reference)"
            if variant == reference
            else _pm(row["vs_reference"], row["vs_reference_ci95"], 3)
        )
        beats = (
            "yes"
            if row["beats_heuristic_every_seed"] and row["beats_best_fixed_every_seed"]
            else "no"
        )
        rows.append(
            [
                f"`{variant}`",
                *budget,
                len(row["seeds"]),
                _pm(row["score"], row["score_ci95"]),
                _pm(row["normalised"], row["normalised_ci95"], 2),
                paired,
                beats,
            ]
        )
    baselines = study["baselines"]
    low, high = baselines["random"]["score"], baselines["oracle"]["score"]
    for label, key in (
        ("random", "random"),
        ("heuristic", "heuristic"),
        ("best fixed", "best_fixed"),
        ("oracle", "oracle"),
    ):
        if key in baselines:
            score = baselines[key]["score"]
            rows.append(
                [
                    f"*{label}*",
                    *(["-"] if show_budget else []),
                    "-",
                    f"{score:.3f}",
                    f"{(score - low) / (high - low):.2f}",
                    "",
                    "",
                ]
            )
    headers = [
        "trained on",
        *(["steps"] if show_budget else []),
        "seeds",
        "true crawl score (mean ± 95 % CI)",
        "normalised",
        f"paired difference vs `{reference}` (± 95 % CI)",
        "beats heuristic and best fixed on every seed",
    ]
    per_run = (
        f"{study['total_timesteps']:,} steps per run unless the steps column says otherwise"
        if show_budget
        else f"{study['total_timesteps']:,} steps per run"
    )
    caption = (
        f"{per_run}, {study['n_envs']} envs, "
        f"{study['n_eval_episodes']} seeded evaluation episodes per agent "
        f"(seeds {study['eval_seed']:,}+); {study['runs_done']} of {study['runs_planned']} "
        "runs done"
    )
    if show_budget:
        caption += (
            "; a paired difference across budgets compares recipes *and* budgets, seed by seed"
        )
    if study["runs_done"] < study["runs_planned"]:
        complete = study["seeds_complete"]
        caption += (
            f" (**partial**: the table holds the {len(complete)} seed(s) every variant has "
            f"finished, {complete}; running the command again resumes the rest)"
        )
    caption += ".\n\n"
    return caption + _table(headers, rows)


def defaults_study() -> str:
    """The ``defaults`` study: which recipe `make demo` trains."""
    return _study_table("defaults")


def ablation_study() -> str:
    """The ``ablation`` study: the crawl reward, each component off, and binary (a note while
    ``results/ablation.json`` has not been produced)."""
    if not (RESULTS / "ablation.json").exists():
        return (
            "*Not measured yet*: `results/ablation.json` does not exist (the study needs about "
            "two hours on 2 cores; issue 11 tracks it). No ablation figure is quoted until it "
            "does.\n"
        )
    study = _study("ablation")
    return _study_table("ablation") + _ablation_verdict(study)


def ablation_verdict() -> str:
    """The ablation's generated verdict alone (the README's headline)."""
    if not (RESULTS / "ablation.json").exists():
        return "*Not measured yet*: `results/ablation.json` does not exist.\n"
    return _ablation_verdict(_study("ablation")).lstrip("\n")


def _ablation_verdict(study: dict) -> str:
    """One generated sentence per question the ablation answers: does the full reward beat
    ``binary`` by more than its paired CI, and which components' removal costs the most."""
    variants = study["variants"]
    reference = study["reference"]
    if len(variants["full"]["seeds"]) < 2:
        return ""

    def verdict(name: str) -> str:
        row = variants[name]
        diff, half = row["vs_reference"], row["vs_reference_ci95"]
        if diff - half > 0:
            outcome = f"beats `{reference}` by more than its CI"
        elif diff + half < 0:
            outcome = f"loses to `{reference}` by more than its CI"
        else:
            outcome = f"is not told apart from `{reference}` (the CI includes 0)"
        return f"`{name}` {outcome}: {_pm(diff, half, 3)} over {len(row['seeds'])} paired seeds"

    full = variants["full"]["score"]
    removed = sorted(
        (name for name in variants if name.startswith("no_")),
        key=lambda name: variants[name]["score"] - full,
    )
    costs = ", ".join(f"`{name}` {variants[name]['score'] - full:+.3f}" for name in removed)
    return (
        f"\n{verdict('full')}; "
        f"{verdict('graded')}. Switching one component off, against `full` (mean true score, "
        f"most costly first): {costs}.\n"
    )


def demo_table() -> str:
    """The demo's agents: the demo recipe's seed-0 run of the ``defaults`` study and the
    baselines on the same 300 episodes (what ``make demo`` prints)."""
    from rlm_gym.training.demo import DEMO_VARIANT

    study = _study("defaults")
    variant = study["variants"][DEMO_VARIANT]
    seed0 = next(row for row in variant["per_seed"] if row["seed"] == 0)
    baselines = study["baselines"]
    low, high = baselines["random"]["score"], baselines["oracle"]["score"]
    agents = [
        ("random", baselines["random"]),
        ("heuristic", baselines["heuristic"]),
        ("best fixed", baselines["best_fixed"]),
        (f"**trained** (`{DEMO_VARIANT}`, seed 0)", seed0),
        ("oracle", baselines["oracle"]),
    ]
    rows = []
    for label, row in agents:
        tiers = "/".join(
            f"{100 * row.get(f'tier_{t}', 0):.0f}"
            for t in ("excellent", "good", "acceptable", "poor")
        )
        rows.append(
            [
                label,
                f"{row['score']:.3f}",
                f"{row['score_ci95']:.3f}",
                f"{(row['score'] - low) / (high - low):.2f}",
                f"{row.get('success', 0):.2f}",
                f"{row.get('validation', 0):.2f}",
                f"{row.get('quantity', 0):.2f}",
                f"{row.get('efficiency', 0):.2f}",
                f"{row.get('items', 0):.1f}",
                f"{row.get('pages', 0):.2f}",
                tiers,
            ]
        )
    headers = [
        "agent",
        "true crawl score",
        "± 95 % CI",
        "normalised",
        "success",
        "validation",
        "quantity",
        "efficiency",
        "items",
        "pages",
        "tiers E/G/A/P %",
    ]
    per_seed = ", ".join(f"seed {row['seed']}: {row['score']:.3f}" for row in variant["per_seed"])
    mean_norm = variant["normalised"]
    beats = variant["beats_heuristic_every_seed"] and variant["beats_best_fixed_every_seed"]
    footer = (
        f"\nEvery seed of the recipe ({per_seed}; mean normalised {mean_norm:.2f}) "
        f"{'beats' if beats else 'does NOT beat'} "
        f"both the heuristic ({baselines['heuristic']['score']:.3f}) and the best fixed strategy "
        f"({baselines['best_fixed']['score']:.3f}).\n"
    )
    return _table(headers, rows) + footer


def crawl_baselines() -> str:
    """Baselines per pattern type (``benchmarks/crawl_baselines.py --json``)."""
    data = _json(RESULTS / "crawl_baselines.json")
    best = "+".join(data["best_fixed_strategy"])
    rows = []
    totals: dict[str, list[float]] = {"random": [], "heuristic": [], "best": [], "oracle": []}
    for pattern_type, means in data["means"].items():
        if pattern_type == "all":  # recomputed below from the per-type rows
            continue
        values = {
            "random": means["random"],
            "heuristic": means["heuristic"],
            "best": means[best],
            "oracle": means["oracle"],
        }
        for key, value in values.items():
            totals[key].append(value)
        rows.append([pattern_type, *_baseline_cells(values)])
    mean = {key: sum(values) / len(values) for key, values in totals.items()}
    rows.append(["all", *_baseline_cells(mean)])
    headers = [
        "pattern type",
        "random",
        "heuristic",
        "best fixed",
        "oracle",
        "random / oracle",
        "heuristic (norm.)",
        "best fixed (norm.)",
    ]
    caption = (
        f"{data['episodes_per_type']:,} seeded sites per pattern type; best fixed strategy: "
        f"{' + '.join(data['best_fixed_strategy'])}.\n\n"
    )
    return caption + _table(headers, rows)


def _baseline_cells(values: dict[str, float]) -> list[str]:
    low, high = values["random"], values["oracle"]

    def norm(key: str) -> str:
        return f"{(values[key] - low) / (high - low):.2f}"

    cells = [f"{values[key]:.3f}" for key in ("random", "heuristic", "best", "oracle")]
    return [*cells, f"{low / high:.2f}", norm("heuristic"), norm("best")]


def observation_table() -> str:
    """Every Crawl-v1 observation entry, from the env's own table."""
    from rlm_gym.envs.observation import observation_table as table

    return table().rstrip("\n") + "\n"


def performance() -> str:
    """The ``make bench`` figures against their targets."""
    bench = _json(BENCHMARKS)
    wrapper = bench["wrapper_overhead"]
    ratios = ", ".join(
        f"{name} {wrapper[name]['ratio']:.2f}x"
        for name in ("strict", "lenient", "research", "binary")
        if name in wrapper
    )
    default = wrapper["default"]
    reference = wrapper["reference"]
    env = bench["crawl_env_throughput"]
    scorer = bench["scorer_throughput"]
    share = bench["training_share"]
    imports = bench["import_time"]
    rows = [
        [
            '`RewardPolicyWrapper(env, "default")` overhead on CartPole-v1 vs a hand-written '
            "minimal shaping wrapper",
            f"{default['overhead_us']:.2f} µs vs {reference['overhead_us']:.2f} µs per step: "
            f"**{default['ratio']:.2f}x** ({ratios})",
            "≤ 2x",
        ],
        [
            "`rlm_gym/Crawl-v1` + `crawl` policy, single env",
            f"**{env['single/crawl']['steps_per_s']:,.0f} steps/s** "
            f"(bare env {env['single/bare']['steps_per_s']:,.0f}, ratio "
            f"{env['single/crawl']['steps_per_s'] / env['single/bare']['steps_per_s']:.2f}"
            f"{_env_class_rate(env)}; "
            f"`make_vec` x 8 with `crawl`: {env['vec8/crawl']['steps_per_s']:,.0f})",
            "≥ 45,000",
        ],
        [
            "`crawl_reward` on a 1,000-item product list",
            f"**{scorer['1000']['items_per_s']:,.0f} items/s**; 1,000 vs 100 items "
            f"{scorer['ratio_1000_vs_100']:.1f}x (linear: 10x)",
            "≥ 100,000 items/s",
        ],
        [
            '`python -c "import rlm_gym"`',
            f"**{imports['import_cpu_s']:.2f} s** CPU ({imports['import_wall_s']:.2f} s wall; "
            f"interpreter alone {imports['interpreter_cpu_s']:.2f} s; "
            f"{_uncached_import(imports)})",
            "< 0.5 s",
        ],
        [
            "share of PPO wall time in env + wrapper (SB3 PPO, 4 envs, `crawl` policy)",
            f"{100 * share['share']:.1f} % ({share['env_wrapper_s']:.2f} s of "
            f"{share['learn_wall_s']:.1f} s)",
            "informative",
        ],
    ]
    return _table(["what", "measured", "target"], rows)


def performance_headline() -> str:
    """One line of ``make bench`` figures: the crawl env, the scorer, the wrapper, the import."""
    bench = _json(BENCHMARKS)
    env = bench["crawl_env_throughput"]
    return (
        f"`rlm_gym/Crawl-v1` with the `crawl` policy: "
        f"**{env['single/crawl']['steps_per_s']:,.0f} steps/s** (single env); `crawl_reward`: "
        f"**{bench['scorer_throughput']['1000']['items_per_s']:,.0f} items/s**; "
        f"`RewardPolicyWrapper`: **{bench['wrapper_overhead']['default']['ratio']:.2f}x** the "
        f"per-step cost of a hand-written minimal wrapper; `import rlm_gym`: "
        f"**{bench['import_time']['import_cpu_s']:.2f} s** CPU.\n"
    )


def _env_class_rate(env: dict) -> str:
    """The env class alone (no ``gym.make`` wrappers), if the benchmark measured it."""
    if "single/env class" not in env:
        return ""
    rate = env["single/env class"]["steps_per_s"]
    return f"; `CrawlEnv()` without `gym.make`'s wrappers {rate:,.0f}"


def _uncached_import(imports: dict) -> str:
    """The import figure without bytecode caches, if ``benchmarks/import_time.py`` measured it."""
    if "import_no_bytecode_cpu_s" not in imports:
        return "not measured without bytecode caches"
    return (
        f"{imports['import_no_bytecode_cpu_s']:.2f} s when `rlm_gym`'s modules are compiled on "
        "every import, as an editable install does under `PYTHONDONTWRITEBYTECODE=1`"
    )


BLOCKS: dict[str, Callable[[], str]] = {
    "real_data_figures": real_data_figures,
    "real_data_groups": real_data_groups,
    "real_data_crawls": real_data_crawls,
    "real_data_disagreements": real_data_disagreements,
    "score_explain": score_explain,
    "performance": performance,
    "performance_headline": performance_headline,
    "crawl_baselines": crawl_baselines,
    "observation_table": observation_table,
    "defaults_study": defaults_study,
    "demo_table": demo_table,
    "ablation_study": ablation_study,
    "ablation_verdict": ablation_verdict,
    "vector_wrapper": vector_wrapper,
}


def render(text: str) -> str:
    """``text`` with every generated block rewritten from its source."""

    def replace(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in BLOCKS:
            raise KeyError(f"Generated block {name!r} has no renderer; known: {sorted(BLOCKS)}")
        return match.group(1) + BLOCKS[name]() + match.group(4)

    return _BLOCK.sub(replace, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if a page is stale")
    args = parser.parse_args(argv)
    stale = []
    for page in pages():
        current = page.read_text(encoding="utf-8")
        rendered = render(current)
        if rendered == current:
            continue
        name = str(page.relative_to(ROOT))
        if args.check:
            diff = difflib.unified_diff(
                current.splitlines(), rendered.splitlines(), name, "rendered", lineterm=""
            )
            print("\n".join(diff))
            stale.append(name)
        else:
            page.write_text(rendered, encoding="utf-8")
    if stale:
        print(f"stale: {', '.join(stale)}: run `make readme`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
