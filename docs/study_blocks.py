"""The learning studies' blocks (rendered by ``docs/render.py``) from ``results/<study>.json``:
the recipe study, the demo's agents and the version it trains on, and the Crawl-v1 record of
the ablation. The Crawl-v2 ablation's blocks are in ``ablation_blocks.py``."""

from __future__ import annotations

from typing import Any

from block_tools import BENCHMARKS, RESULTS, pm, read_json, study, table

BASELINE_ROWS = (
    ("random", "random"),
    ("heuristic", "heuristic"),
    ("best fixed", "best_fixed"),
    ("oracle", "oracle"),
)


def beats_cell(row: dict[str, Any]) -> str:
    """Whether a variant beat the heuristic and the best fixed strategy on every seed."""
    both = row.get("beats_heuristic_every_seed") and row.get("beats_best_fixed_every_seed")
    return "yes" if both else "no"


def all_baselines(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Env id -> baselines, of every env a study's variants use: the study's env first."""
    return {results["env_id"]: results["baselines"], **(results.get("baselines_by_env") or {})}


def env_ids(results: dict[str, Any]) -> list[str]:
    """Every env a study's baselines were scored on: the study's, then its variants' others."""
    return list(all_baselines(results))


def study_caption(results: dict[str, Any], show_budget: bool = False) -> str:
    """The budget, envs, evaluation episodes and progress of a study's runs."""
    steps = f"{results['total_timesteps']:,} steps per run"
    if show_budget:
        steps += " unless the steps column says otherwise"
    envs = env_ids(results)
    where = (
        f"`{envs[0]}`"
        if len(envs) == 1
        else "the variant's env ("
        + " or ".join(f"`{env}`" for env in envs)
        + "; each variant normalised and compared with its own env's baselines)"
    )
    caption = (
        f"{steps}, {results['n_envs']} envs of {where}, "
        f"{results['n_eval_episodes']} seeded evaluation episodes per agent "
        f"(seeds {results['eval_seed']:,}+); {results['runs_done']} of "
        f"{results['runs_planned']} runs done"
    )
    if show_budget:
        caption += (
            "; a paired difference across budgets compares recipes *and* budgets, seed by seed"
        )
    if results["runs_done"] < results["runs_planned"]:
        complete = results["seeds_complete"]
        caption += (
            f" (**partial**: the tables hold the {len(complete)} seed(s) every variant has "
            f"finished, {complete}; running the command again resumes the rest)"
        )
    return caption + ".\n\n"


def baseline_rows(results: dict[str, Any], width: int, show_budget: bool = False) -> list[list]:
    """The baselines as rows of a study table (``width`` cells after the score columns), those
    of each env the study's variants use (named by version when there are several)."""
    by_env = all_baselines(results)
    rows = []
    for env_id, baselines in by_env.items():
        low, high = baselines["random"]["score"], baselines["oracle"]["score"]
        version = f" ({env_id.split('/')[-1]})" if len(by_env) > 1 else ""
        for label, key in BASELINE_ROWS:
            if key not in baselines:
                continue
            score = baselines[key]["score"]
            rows.append(
                [
                    f"*{label}*{version}",
                    *(["-"] if show_budget else []),
                    "-",
                    f"{score:.3f}",
                    f"{(score - low) / (high - low):.2f}",
                    *[""] * width,
                ]
            )
    return rows


def study_table(name: str) -> str:
    """Every variant of a study: mean true score, normalised, paired difference to the
    reference, and whether it beat the heuristic and the best fixed strategy on every seed
    (and each variant's budget, when they differ)."""
    results = study(name)
    reference = results["reference"]
    budgets = {
        variant: row.get("total_timesteps", results["total_timesteps"])
        for variant, row in results["variants"].items()
    }
    show_budget = len(set(budgets.values())) > 1
    rows = []
    for variant, row in results["variants"].items():
        budget = [f"{budgets[variant] // 1000}k"] if show_budget else []
        one_seed = len(row["seeds"]) < 2  # no interval from one seed
        paired = (
            "(reference)"
            if variant == reference
            else pm(row["vs_reference"], None if one_seed else row["vs_reference_ci95"])
        )
        rows.append(
            [
                f"`{variant}`",
                *budget,
                len(row["seeds"]),
                pm(row["score"], None if one_seed else row["score_ci95"]),
                pm(row["normalised"], None if one_seed else row["normalised_ci95"], 2),
                paired,
                beats_cell(row),
            ]
        )
    rows += baseline_rows(results, 2, show_budget)
    headers = [
        "trained on",
        *(["steps"] if show_budget else []),
        "seeds",
        "true crawl score (mean ± 95 % CI)",
        "normalised",
        f"paired difference vs `{reference}` (± 95 % CI)",
        "beats heuristic and best fixed on every seed",
    ]
    return study_caption(results, show_budget) + table(headers, rows)


def defaults_study() -> str:
    """The ``defaults`` study: which recipe `make demo` trains."""
    return study_table("defaults")


def demo_cost_study() -> str:
    """The ``demo-cost`` study: the demo's recipe at a quarter of the cost against the earlier
    one, paired by seed."""
    if not (RESULTS / "demo-cost.json").exists():
        return "*Not measured yet*: `results/demo-cost.json` does not exist.\n"
    return study_table("demo-cost")


def recipe_cost_study(name: str = "recipe-cost") -> str:
    """The ``recipe-cost`` study: cheaper PPO recipes against the ablation's and the demo's
    (or another study of recipes, ``name``)."""
    results = study(name)
    rows = []
    for variant, row in results["variants"].items():
        settings = row.get("settings") or {}
        params = {**results["hyperparams"], **(settings.get("hyperparams") or {})}
        resets = settings.get("vector_resets", results.get("vector_resets", "exact"))
        recipe = (
            f"{settings.get('n_envs', results['n_envs'])} x {params['n_steps']}, "
            f"{params.get('batch_size', 256)}, {params.get('n_epochs', 10)}"
            + (", fast resets" if resets == "fast" else "")
        )
        per_seed = "/".join(f"{run['score']:.3f}" for run in row.get("per_seed", []))
        one_seed = len(row["seeds"]) < 2
        versus = []
        for other in (results["reference"], *results.get("compare_to", ())):
            if variant == other:
                versus.append("(reference)")
            elif other == results["reference"]:
                versus.append(
                    pm(row.get("vs_reference"), None if one_seed else row.get("vs_reference_ci95"))
                )
            else:
                found = ((row.get("vs") or {}).get(other) or {}).get("score") or {}
                versus.append(pm(found.get("diff"), None if one_seed else found.get("ci95")))
        rows.append(
            [
                f"`{variant}`",
                f"{row.get('total_timesteps', results['total_timesteps']) // 1000}k",
                recipe,
                len(row["seeds"]),
                pm(row["score"], None if one_seed else row["score_ci95"]),
                per_seed or "-",
                *versus,
            ]
        )
    headers = [
        "trained on",
        "steps",
        "envs x steps, minibatch, epochs",
        "seeds",
        "true crawl score",
        "per seed",
        *(f"vs `{name}`" for name in (results["reference"], *results.get("compare_to", ()))),
    ]
    return study_caption(results, True) + table(headers, rows)


def recipe_half_study() -> str:
    """The ``recipe-half`` study: the half-cost recipe against the ablation's, paired by seed."""
    if not (RESULTS / "recipe-half.json").exists():
        return "*Not measured yet*: `results/recipe-half.json` does not exist.\n"
    return recipe_cost_study("recipe-half")


def ablation_v1_study() -> str:
    """The ablation as it was answered on Crawl-v1 (``results/ablation-v1.json``)."""
    return study_table("ablation-v1")


def demo_version() -> str:
    """The demo recipe trained on Crawl-v1 and on Crawl-v2 (``results/demo-version.json``):
    true crawl score and task outcome, paired by seed, and the version the demo trains on; the
    score's difference on each env's own normalised scale beside the raw one."""
    from rlm_gym.training.demo import DEMO_ENV_ID

    if not (RESULTS / "demo-version.json").exists():
        return "*Not measured yet*: `results/demo-version.json` does not exist.\n"
    results = study("demo-version")
    reference = results["reference"]
    rows = []
    for name, row in results["variants"].items():
        task = {**row["task"], "score": row}

        def paired(key: str, scale: float, digits: int, name: str = name, task=task) -> str:
            if name == reference:
                return "(reference)"
            return pm(task[key]["vs_reference"], task[key]["vs_reference_ci95"], digits, scale)

        rows.append(
            [
                f"`{name}`" + (" (the demo's)" if DEMO_ENV_ID.endswith(name) else ""),
                len(row["seeds"]),
                pm(row["score"], row["score_ci95"]),
                paired("score", 1.0, 3),
                pm(row["normalised"], row["normalised_ci95"], 2),
                "(reference)"
                if name == reference
                else pm(row["vs_reference_normalised"], row["vs_reference_normalised_ci95"], 3),
                pm(task["job_done"]["mean"], task["job_done"]["ci95"], 1, 100),
                paired("job_done", 100, 1),
                pm(task["valid_items"]["mean"], task["valid_items"]["ci95"], 1),
                paired("valid_items", 1.0, 1),
                pm(*(task["time_per_valid_item_ms"][k] for k in ("mean", "ci95")), 2, 1e-3),
                beats_cell(row),
            ]
        )
    headers = [
        "trained on",
        "seeds",
        "true crawl score",
        f"vs `{reference}` (raw)",
        "normalised",
        f"vs `{reference}` (normalised)",
        "job done %",
        f"vs `{reference}`",
        "valid items",
        f"vs `{reference}`",
        "s per valid item",
        "beats heuristic and best fixed on every seed",
    ]
    return study_caption(results) + table(headers, rows)


def demo_table() -> str:
    """What ``make demo`` prints: the baselines and the demo recipe's seed-0 agent, from the
    demo's own study (``DEMO_STUDY``, variant ``DEMO_VARIANT``) and its baselines on the env
    that variant trains on, in the demo's own table, and whether every seed beat the
    heuristic and best fixed."""
    from rlm_gym.training.demo import DEMO_STUDY, DEMO_VARIANT
    from rlm_gym.training.evaluation import format_table, normalised_rows
    from rlm_gym.training.studies.summary import variant_baselines

    if not (RESULTS / f"{DEMO_STUDY}.json").exists():
        return f"*Not measured yet*: `results/{DEMO_STUDY}.json` does not exist.\n"
    results = study(DEMO_STUDY)
    name = DEMO_VARIANT
    variant = results["variants"][name]
    seed0 = next(row for row in variant["per_seed"] if row["seed"] == 0)
    baselines = variant_baselines(results, name)
    agents = [
        {**baselines["random"], "label": "random"},
        {**baselines["heuristic"], "label": "heuristic"},
        {**baselines["best_fixed"], "label": "best fixed"},
        {**seed0, "label": "trained"},
        {**baselines["oracle"], "label": "oracle"},
    ]
    rows = normalised_rows(agents)
    per_seed = ", ".join(f"seed {row['seed']}: {row['score']:.3f}" for row in variant["per_seed"])
    beats = beats_cell(variant) == "yes"
    footer = (
        f"\nEvery seed of the recipe ({per_seed}; mean normalised {variant['normalised']:.2f}) "
        f"{'beats' if beats else 'does NOT beat'} "
        f"both the heuristic ({baselines['heuristic']['score']:.3f}) and the best fixed strategy "
        f"({baselines['best_fixed']['score']:.3f}).\n"
    )
    return format_table(rows) + "\n" + footer + _numerics_note(seed0)


def _numerics_note(table_run: dict) -> str:
    """How far the trained row moves on another CPU (``benchmarks/demo_numerics.py``)."""
    measured = read_json(BENCHMARKS).get("demo_numerics")
    if not measured:
        return (
            "\nOn another CPU the trained row may differ (other float kernels, another "
            "trajectory); `benchmarks/demo_numerics.py` measures by how much.\n"
        )
    score = table_run["score"]
    where = ", ".join(
        f"{segment['cpu']}, {segment['torch_cpu_capability']}"
        for segment in table_run.get("numerics", [])[:1]
    )
    runs = measured["runs"]
    scores = [run["score"] for run in runs]
    jobs = [run["job_done"] for run in runs]
    half = max(abs(value - score) for value in scores)
    cpus = sorted({segment["cpu"] for run in runs for segment in run["numerics"]})
    settings = ", ".join(f"{run['setting']} {run['score']:.3f}" for run in runs)
    return (
        f"\nOn another CPU the trained row moves (torch and MKL take other float kernels and PPO "
        f"another trajectory; the baselines do not). Seed {measured['seed']} retrained with "
        f"`rlm-gym train --recipe demo` on {' / '.join(cpus)} under {len(runs)} kernel "
        f"settings ({settings}) scored {min(scores):.3f} to {max(scores):.3f}, job done "
        f"{min(jobs):.0%} to {max(jobs):.0%}, against {score:.3f} in the table"
        + (f" (trained on {where})" if where else "")
        + f": expect the score within about ±{half:.3f} of it (`benchmarks/demo_numerics.py`).\n"
    )
