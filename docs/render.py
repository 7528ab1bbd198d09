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
import re
import sys
from collections.abc import Callable
from contextlib import redirect_stdout
from pathlib import Path

from ablation_blocks import (
    ablation_300k_convergence,
    ablation_300k_study,
    ablation_300k_verdict,
    ablation_convergence,
    ablation_cost_check,
    ablation_study,
    ablation_verdict,
)
from block_tools import BENCHMARKS, RESULTS, ROOT, read_json, table
from cli_blocks import cli_reference
from cost_blocks import study_cost
from crawl_vector_blocks import crawl_vector_env
from live_blocks import live_throughput, sim_to_live
from moonshot_blocks import MOONSHOT_BLOCKS
from real_data_blocks import (
    generated_defects,
    judge_scale_words,
    judge_signals,
    real_data_crawls,
    real_data_disagreements,
    real_data_figures,
    real_data_groups,
    stress_locales,
)
from recipe_blocks import demo_recipe, train_recipes
from reliable_blocks import RELIABLE_BLOCKS
from rlm_blocks import RLM_BLOCKS
from runtime_blocks import runtime_blocks
from scrapy_blocks import scrapy_memory, scrapy_settings, scrapy_stats
from study_blocks import (
    ablation_v1_study,
    defaults_study,
    demo_cost_study,
    demo_table,
    demo_version,
    recipe_cost_study,
    recipe_half_study,
)
from vector_blocks import training_wrapping, vector_wrapper

from rlm_gym.quality.corpora import CorporaUnavailable, corpus_dir

README = ROOT / "README.md"
DOCS = ROOT / "docs"

_BLOCK = re.compile(
    r"(<!-- generated: (?P<name>[a-z0-9_]+) \(python docs/render.py\) -->\n)"
    r"(?P<body>.*?)"
    r"(<!-- end: (?P=name) -->)",
    re.S,
)


def pages() -> list[Path]:
    """The pages whose generated blocks this script writes: the README, then ``docs/*.md``."""
    return [README, *sorted(DOCS.glob("*.md"))]


SCORE_EXAMPLE_FILE = ("realdata", "raw/03_justdial__justdial.csv")
"""The scraper's own CSV the ``score_explain`` block scores: a file of a labelled corpus, read
where the corpora are (the path shown names them by ``$RLM_GYM_CORPORA``)."""

SCORE_EXAMPLE = [
    "score",
    '"$RLM_GYM_CORPORA"/realdata/raw/03_justdial__justdial.csv',
    "--required",
    "img_link,name,rating,price",
    "--pages",
    "9",
    "--time-ms",
    "45000",
    "--explain",
]


def score_explain() -> str:
    """``rlm-gym score --explain`` on a scraper's own CSV from the corpus.

    Raises:
        CorporaUnavailable: the corpora are not on this machine (the block is then kept).
    """
    from rlm_gym.cli import main

    corpus, relative = SCORE_EXAMPLE_FILE
    argv = [*SCORE_EXAMPLE]
    argv[1] = str(corpus_dir(corpus) / relative)
    stream = io.StringIO()
    with redirect_stdout(stream):
        main(argv)
    command = " ".join(["rlm-gym", *SCORE_EXAMPLE])
    return f"```console\n$ {command}\n{stream.getvalue()}```\n"


def crawl_baselines() -> str:
    """Baselines per pattern type (``benchmarks/crawl_baselines.py --json``)."""
    data = read_json(RESULTS / "crawl_baselines.json")
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
    return caption + table(headers, rows)


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
    bench = read_json(BENCHMARKS)
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
            "≤ 1.5x",
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
    return table(["what", "measured", "target"], rows)


def demo_time() -> str:
    """How long ``make demo`` takes after the install (``benchmarks/demo_time.py``)."""
    timing = read_json(BENCHMARKS).get("demo_time")
    if not timing:
        return "*Not measured yet*: run `benchmarks/demo_time.py`.\n"
    walls = [run["wall_s"] for run in timing["runs"]]
    loads = [run["load_before"] for run in timing["runs"]]
    machine = timing.get("machine", "a machine the file does not name")
    install = "including" if timing.get("includes_install") else "not including"
    return (
        f"After the install it takes **{timing['median_wall_s']:.0f} s** of wall time on "
        f"{timing['cores']} cores (median of {len(walls)} runs, "
        f"{min(walls):.0f} to {max(walls):.0f} s; `benchmarks/demo_time.py`): the agent trains on "
        f"one core while the baselines are scored on the other. Measured on {machine}, with a "
        f"load average of {min(loads):.1f} to {max(loads):.1f} before the runs, {install} the "
        "install (a venv, torch and the `train` extra, the first `make demo` only); a busy core "
        f"makes it slower.{_demo_paired(read_json(BENCHMARKS).get('demo_time_paired'))}\n"
    )


def _demo_paired(paired: dict | None) -> str:
    """The demo timed alternately, old code against new (``demo_time.py --paired``)."""
    if not paired:
        return ""
    runs = [run for rows in paired["runs"].values() for run in rows]
    loads = [run["load_before"] for run in runs]
    scores = sorted({f"{run['score']:.4f}" for run in runs})
    walls, cpus = paired["median_wall_s"], paired["median_cpu_s"]
    return (
        f" The code of {paired.get('old_commit', 'before')} and of "
        f"{paired.get('new_commit', 'now')} alternately (`--paired`, "
        f"{len(paired['runs']['new'])} runs each, "
        f"load {min(loads):.1f} to {max(loads):.1f}): median wall {walls['old']:.0f} s old, "
        f"{walls['new']:.0f} s new (**{paired['new_vs_old_wall']:.2f}x**), CPU {cpus['old']:.0f}"
        f" s and {cpus['new']:.0f} s ({paired['new_vs_old_cpu']:.2f}x); trained score "
        f"{' / '.join(scores)}."
    )


def performance_headline() -> str:
    """One line of ``make bench`` figures: the crawl env, the scorer, the wrapper, the import."""
    bench = read_json(BENCHMARKS)
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


def judge_libraries() -> str:
    """Each candidate library of the value judge with and without it
    (``benchmarks/judge_libraries.py --save``)."""
    rows = []
    keys = ("valid_accepted", "invalid_rejected", "pattern_type", "tier_agreement")
    for row in read_json(BENCHMARKS)["judge_libraries"]["libraries"]:
        if "skipped" in row:
            continue
        without = " / ".join(f"{row['corpus_without'][key]:.3f}" for key in keys)
        with_it = " / ".join(f"{row['corpus_with'][key]:.3f}" for key in keys)
        before, after = row["multilingual_without"], row["multilingual_with"]
        better = after["valid_accepted"] + after["invalid_rejected"] > before[
            "valid_accepted"
        ] + before["invalid_rejected"] and all(
            row["corpus_with"][key] >= row["corpus_without"][key] for key in keys
        )
        cost = (
            "build time only"
            if row["library"] == "babel"
            else f"{row['us_per_call']:,.1f} µs/value, import {row['import_s']:.2f} s"
        )
        rows.append(
            [
                f"{row['library']} {row['version']}",
                without,
                with_it,
                f"{before['valid_accepted']:.2f} / {before['invalid_rejected']:.2f} → "
                f"{after['valid_accepted']:.2f} / {after['invalid_rejected']:.2f}",
                cost,
                "**adopted**" if better else "not adopted",
            ]
        )
    headers = [
        "library",
        "corpus without (valid / invalid / type / tier)",
        "corpus with",
        "multilingual values valid / invalid",
        "cost",
        "",
    ]
    return table(headers, rows)


BLOCKS: dict[str, Callable[[], str]] = {
    "real_data_figures": real_data_figures,
    "real_data_groups": real_data_groups,
    "real_data_crawls": real_data_crawls,
    "real_data_disagreements": real_data_disagreements,
    "judge_signals": judge_signals,
    "judge_scale_words": judge_scale_words,
    "stress_locales": stress_locales,
    "generated_defects": generated_defects,
    "score_explain": score_explain,
    "judge_libraries": judge_libraries,
    "performance": performance,
    "performance_headline": performance_headline,
    "crawl_baselines": crawl_baselines,
    "observation_table": observation_table,
    "defaults_study": defaults_study,
    "demo_table": demo_table,
    "ablation_study": ablation_study,
    "ablation_verdict": ablation_verdict,
    "ablation_cost_check": ablation_cost_check,
    "ablation_v1_study": ablation_v1_study,
    "ablation_300k_study": ablation_300k_study,
    "ablation_300k_verdict": ablation_300k_verdict,
    "ablation_convergence": ablation_convergence,
    "ablation_300k_convergence": ablation_300k_convergence,
    "demo_version": demo_version,
    "vector_wrapper": vector_wrapper,
    "crawl_vector_env": crawl_vector_env,
    "training_wrapping": training_wrapping,
    "cli_reference": cli_reference,
    **runtime_blocks(),
    "scrapy_settings": scrapy_settings,
    "scrapy_stats": scrapy_stats,
    "scrapy_memory": scrapy_memory,
    "live_throughput": live_throughput,
    "sim_to_live": sim_to_live,
    "study_cost": study_cost,
    "recipe_cost_study": recipe_cost_study,
    "recipe_half_study": recipe_half_study,
    "demo_cost_study": demo_cost_study,
    "demo_time": demo_time,
    "demo_recipe": demo_recipe,
    "train_recipes": train_recipes,
    **MOONSHOT_BLOCKS,
    **RELIABLE_BLOCKS,
    **RLM_BLOCKS,
}


def render(text: str) -> str:
    """``text`` with every generated block rewritten from its source."""

    def replace(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in BLOCKS:
            raise KeyError(f"Generated block {name!r} has no renderer; known: {sorted(BLOCKS)}")
        try:
            return match.group(1) + BLOCKS[name]() + match.group(4)
        except CorporaUnavailable as error:
            # A checkout without the labelled corpora keeps the block as it is.
            print(f"render: {name} kept unchecked: {error}", file=sys.stderr)
            return match.group(0)

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
