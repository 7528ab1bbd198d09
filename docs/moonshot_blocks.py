"""The moonshot's blocks (issue 37) of docs/training.md: the screen of ideas
(``results/moonshot-screen.json``), the 3-seed confirmation (``results/moonshot.json`` with its
rliable figures in ``results/reliable.json``, paired with the demo's record in
``results/demo-cost.json``) and where the score falls short of the oracle
(``results/oracle-gap.json``)."""

from __future__ import annotations

from typing import Any

from block_tools import RESULTS, pm, read_json, study, table

from rlm_gym.crawl.config import COMPONENT_WEIGHTS
from rlm_gym.training.run_config import DEFAULT_HYPERPARAMS
from rlm_gym.training.studies.plans import (
    MOONSHOT_CHOICE,
    MOONSHOT_RERUN,
    STUDIES,
    variant_budget,
)
from rlm_gym.training.studies.recipes import RECIPES
from rlm_gym.training.studies.task_measures import mean_and_ci

#: The bar of the moonshot: normalised true crawl score (random 0, oracle 1).
BAR = 0.90
# PPO settings a screen variant may change; where the demo sets none, training's defaults hold.
_PPO_KEYS = ("n_epochs", "ent_coef", "gae_lambda", "batch_size", "gamma", "n_steps")


def _idea(settings: dict[str, Any], budget: int) -> str:
    """What a screen variant changes over the demo's recipe, read from its settings."""
    demo = RECIPES["demo"]
    hyperparams = dict(settings.get("hyperparams") or {})
    changes = []
    if budget != demo.total_timesteps:
        changes.append(f"{budget:,} steps (the demo: {demo.total_timesteps:,})")
    if "reward_schedule" in settings:
        changes.append("the success-first curriculum (`curriculum_success_first`)")
    arch = (hyperparams.get("policy_kwargs") or {}).get("net_arch")
    if arch and list(arch) != list(DEFAULT_HYPERPARAMS["policy_kwargs"]["net_arch"]):
        changes.append(f"a {' x '.join(str(width) for width in arch)} network (PPO's: 64 x 64)")
    if hyperparams.get("learning_rate_schedule") == "linear":
        changes.append("the learning rate annealed linearly to 0")
    config = dict(settings.get("config") or {})
    if config.get("efficiency_errors", "any") == "any":
        changes.append("the true score's efficiency rule: any error voids it (the demo: graded)")
    elif "error_step" in config:
        changes.append(
            f"graded efficiency at {config['error_step']:g} off per error (the demo: 0.25)"
        )
    # A variant that spells out every PPO setting names only those that differ.
    explicit = set(DEFAULT_HYPERPARAMS) <= set(hyperparams)
    for key in _PPO_KEYS:
        if key not in hyperparams:
            continue
        was = demo.hyperparams.get(key, DEFAULT_HYPERPARAMS[key])
        if hyperparams[key] != was:
            changes.append(f"`{key}` {hyperparams[key]:g} (the demo: {was:g})")
        elif key not in demo.hyperparams and not explicit:
            changes.append(
                f"`{key}` {hyperparams[key]:g} set explicitly, which the demo already trains "
                "with (training's default): a re-run of `demo-2M`"
            )
    return ", ".join(changes) or "the demo's recipe"


def _normalised(score: float, baselines: dict[str, Any]) -> float:
    low, high = baselines["random"]["score"], baselines["oracle"]["score"]
    return (score - low) / (high - low)


def _curve_at(run: dict[str, Any], step: int | None) -> str:
    """The learning curve's score at the last point at or before ``step`` (None: the last)."""
    points = [p for p in run.get("curve", []) if step is None or p["timestep"] <= step]
    return f"{points[-1]['score']:.3f}" if points else "-"


def _per_seed(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Every variant's runs of the seeds all variants finished."""
    return [run for row in results["variants"].values() for run in row["per_seed"]]


def _demo() -> tuple[str, dict[str, Any]]:
    """The demo's variant and its row in its own study's record."""
    recipe = RECIPES["demo"]
    return recipe.variant, study(recipe.study)["variants"][recipe.variant]


def _rerun_seed0() -> dict[str, Any] | None:
    """The recipe re-run on this stop's code, seed 0 (the `moonshot` study's), if finished."""
    confirmation = study("moonshot")
    runs = [*confirmation.get("unpaired_runs", []), *_per_seed(confirmation)]
    return next(
        (run for run in runs if run["variant"] == MOONSHOT_RERUN and run["seed"] == 0), None
    )


def _explicit(settings: dict[str, Any]) -> bool:
    """A variant of this stop: every PPO setting written out (``_moonshot_explicit``)."""
    return set(DEFAULT_HYPERPARAMS) <= set(settings.get("hyperparams") or {})


def moonshot_screen() -> str:
    """Each idea's seed-0 run: true score, normalised, and its learning curve; the last
    stop's ideas against `demo-2M`, this stop's against the recipe re-run on their code."""
    results = study("moonshot-screen")
    baselines = results["baselines"]
    reference = results["reference"]
    _, demo = _demo()
    demo_seed0 = next(run for run in demo["per_seed"] if run["seed"] == 0)
    rerun = _rerun_seed0()
    rows = [
        [
            "the demo (450k steps, `demo-cost` record)",
            f"{demo_seed0['score']:.3f}",
            f"{_normalised(demo_seed0['score'], baselines):.3f}",
            "-",
            "-",
            "-",
            "-",
            "-",
            f"{demo_seed0['efficiency']:.2f}",
            f"{demo_seed0['job_done']:.2f}",
        ]
    ]
    finished = {
        run["variant"]: run
        for run in [*results.get("unpaired_runs", []), *_per_seed(results)]
        if run["seed"] == 0
    }
    screened = [
        (name, row["settings"], row["total_timesteps"]) for name, row in results["variants"].items()
    ]
    if rerun is not None:
        # The re-run is the `moonshot` study's run; it stands here as this stop's reference.
        rerun_settings = STUDIES["moonshot"].variants[MOONSHOT_RERUN]
        screened.append(
            (MOONSHOT_RERUN, rerun_settings, variant_budget(STUDIES["moonshot"], MOONSHOT_RERUN))
        )
        finished[MOONSHOT_RERUN] = rerun
    confirmed = list(study("moonshot")["variants"])
    for name, settings, budget in screened:
        idea = f"`{name}`: {_idea(settings, budget)}"
        if name == MOONSHOT_RERUN:
            idea += " (the recipe re-run on this stop's code; `moonshot` study, seed 0)"
        run = finished.get(name)
        if run is None:
            rows.append([idea, "not finished", *["-"] * 8])
            continue
        against = (
            rerun if _explicit(settings) and name != MOONSHOT_RERUN else finished.get(reference)
        )
        if name in (reference, MOONSHOT_RERUN):
            versus = "(reference)"
        elif against is None:
            versus = "-"
        else:
            versus = f"{run['score'] - against['score']:+.3f}"
        rows.append(
            [
                idea,
                f"{run['score']:.3f}",
                f"{_normalised(run['score'], baselines):.3f}",
                versus,
                _curve_at(run, 600_000),
                _curve_at(run, 1_200_000),
                _curve_at(run, 2_000_000),
                _curve_at(run, None),
                f"{run['efficiency']:.2f}",
                f"{run['job_done']:.2f}",
            ]
        )
    curve = results["curve_eval"]
    last_old = [name for name, settings, _ in screened if not _explicit(settings)][-1]
    caption = (
        f"Seed 0 of each idea, {results['total_timesteps']:,} steps unless it says otherwise, "
        f"scored on the studies' {results['n_eval_episodes']} evaluation episodes (seeds "
        f"{results['eval_seed']:,}+); the learning curve is the true score on "
        f"{curve['n_eval_episodes']} other episodes (seeds {curve['eval_seed']:,}+) every "
        f"{curve['eval_freq']:,} steps, at the last point by 600k, 1.2M, 2M steps and the end. "
        "One seed tells ideas apart only by more than a seed's spread (the demo's "
        f"{len(demo['scores'])} seeds span {max(demo['scores']) - min(demo['scores']):.3f}); "
        f"{', '.join(f'`{name}`' for name in confirmed)} went on to the 3-seed confirmation. "
        f"The ideas up to `{last_old}` ran on the last stop's code and are compared with "
        f"`{reference}`; those after it spell out every PPO setting and ran on this stop's code, "
        "on which the same recipe and seed train another agent (the batched training env), so "
        f"they are compared with `{MOONSHOT_RERUN}`, the recipe re-run on that code. "
        "Efficiency is the true score's (any error voids it), job done the share of jobs whose "
        "target of valid rows was met without a ban or a time-out.\n\n"
    )
    headers = [
        "idea",
        "true score",
        "normalised",
        "vs its reference",
        "curve, 600k",
        "curve, 1.2M",
        "curve, 2M",
        "curve, end",
        "efficiency",
        "job done",
    ]
    return caption + table(headers, rows)


def _verdict(iqm: dict[str, Any] | None) -> str:
    if iqm is None:
        return "not computed"
    if iqm["iqm_ci95"][0] >= BAR:
        return f"**reached**: the whole CI is at or above {BAR:.2f}"
    if iqm["iqm"] >= BAR:
        return f"IQM at or above {BAR:.2f}, its CI not"
    return f"**not reached**: {BAR - iqm['iqm']:.3f} short"


def _paired(scores: dict[int, float], other: dict[int, float]) -> str:
    """The mean difference over the seeds both hold, with its Student-t 95 % half-width."""
    seeds = [seed for seed in scores if seed in other]
    diff, half = mean_and_ci([scores[seed] - other[seed] for seed in seeds])
    return "-" if diff is None else f"{diff:+.3f}" + ("" if half is None else f" ± {half:.3f}")


def moonshot_verdict() -> str:
    """The confirmation on 3 seeds, one row per recipe of the `moonshot` study: score,
    normalised, IQM with its CI against the bar, paired by seed with the demo's record and
    with the study's reference (the demo's recipe trained longer)."""
    results = study("moonshot")
    entry = read_json(RESULTS / "reliable.json").get("moonshot") or {}
    demo_variant, demo = _demo()
    demo_scores = {run["seed"]: run["score"] for run in demo["per_seed"]}
    reference = results["reference"]
    by_variant = {
        name: dict(zip(row["seeds"], row["scores"], strict=True))
        for name, row in results["variants"].items()
    }
    rows = []
    for name, row in results["variants"].items():
        iqm = entry.get("variants", {}).get(name)
        interval = (
            f"{iqm['iqm']:.3f} [{iqm['iqm_ci95'][0]:.3f}, {iqm['iqm_ci95'][1]:.3f}]" if iqm else "-"
        )
        recipe = "`moonshot`: " if name == MOONSHOT_CHOICE else ""
        rows.append(
            [
                f"{recipe}`{name}`",
                len(row["seeds"]),
                ", ".join(f"{score:.3f}" for score in row["scores"]),
                pm(row["score"], row["score_ci95"]),
                pm(row["normalised"], row["normalised_ci95"]),
                interval,
                _paired(by_variant[name], demo_scores),
                _versus(name, results, by_variant),
                _verdict(iqm),
            ]
        )
    headers = [
        "recipe",
        "seeds",
        "true score per seed",
        "true score",
        "normalised",
        "IQM, normalised [95 % CI]",
        f"vs the demo (`{demo_variant}`, paired by seed)",
        "vs its reference (paired by seed)",
        f"normalised {BAR:.2f}",
    ]
    seeds = sorted({seed for row in results["variants"].values() for seed in row["seeds"]})
    caption = (
        f"`rlm-gym study moonshot`, {results['total_timesteps']:,} steps, seeds "
        f"{', '.join(str(seed) for seed in seeds)} (seed 0 of a screened idea is the "
        f"screen's run: the same recipe and seed), {results['n_eval_episodes']} evaluation "
        "episodes per agent; `rlm-gym train --recipe moonshot` trains the row marked "
        "`moonshot`. The IQM's CI is rliable's stratified bootstrap over seeds "
        "(`results/reliable.json`), the paired differences a Student t over the seeds both "
        f"hold. The last stop's recipes are paired with `{reference}`, this stop's (trained on "
        f"this stop's code) with `{MOONSHOT_RERUN}`, the same recipe re-run on that code.\n\n"
    )
    return caption + table(headers, rows)


def _versus(name: str, results: dict[str, Any], by_variant: dict[str, dict[int, float]]) -> str:
    """A confirmed recipe against its reference: this stop's against the re-run recipe, the
    last stop's against the study's reference; paired by seed."""
    settings = STUDIES["moonshot"].variants.get(name, {})
    reference = results["reference"]
    if _explicit(settings) and MOONSHOT_RERUN in by_variant:
        reference = MOONSHOT_RERUN
    if name in (results["reference"], MOONSHOT_RERUN):
        return "(reference)"
    return f"{_paired(by_variant[name], by_variant[reference])} (vs `{reference}`)"


def moonshot_gap() -> str:
    """Where the moonshot's agents fall short of the oracle: per reward component (mean over
    the confirmation's seeds) and per phase of the crawl (``oracle-gap.json``)."""
    results = study("moonshot")
    oracle = results["baselines"]["oracle"]
    runs = results["variants"][MOONSHOT_CHOICE]["per_seed"]
    rows = []
    for name, weight in COMPONENT_WEIGHTS.items():
        agent = sum(run[name] for run in runs) / len(runs)
        rows.append(
            [
                f"`{name}` (weight {weight})",
                f"{agent:.3f}",
                f"{oracle[name]:.3f}",
                f"{weight * (oracle[name] - agent):+.3f}",
            ]
        )
    agent_score = results["variants"][MOONSHOT_CHOICE]["score"]
    rows.append(
        ["true crawl score", f"{agent_score:.3f}", f"{oracle['score']:.3f}",
         f"{oracle['score'] - agent_score:+.3f}"]
    )  # fmt: skip
    components = table(
        ["component (as the env reports it)", "agents", "oracle", "weighted shortfall"], rows
    )
    gap = read_json(RESULTS / "oracle-gap.json")
    agent, own = gap["agent"], gap["oracle"]
    phase_rows = [
        [
            phase,
            f"{row['steps']:.2f}",
            f"{100 * row['agree']:.0f} %",
            f"{row['loss']:+.3f}",
            f"{own['by_phase'].get(phase, {}).get('loss', 0.0):+.3f}",
        ]
        for phase, row in agent["by_phase"].items()
    ]
    phases = table(
        ["phase", "agent's steps per episode", "oracle's action", "agent's loss", "oracle's own"],
        phase_rows,
    )
    worst = sorted(agent["by_action"].items(), key=lambda item: -item[1]["loss"])[:3]
    costly = "; ".join(
        f"`{name}` ({row['loss']:+.3f}; the oracle would have chosen "
        + ", ".join(
            f"`{other}` {100 * share:.0f} %"
            for other, share in sorted(row["oracle"].items(), key=lambda item: -item[1])[:2]
        )
        + ")"
        for name, row in worst
    )
    clone = gap.get("clone")
    cloned = (
        f" A classifier of the oracle's actions from the observation (an MLP "
        f"{' x '.join(str(width) for width in clone['hidden'])} fitted on "
        f"{clone['train_steps']:,} steps of its play, `rlm_gym.training.studies.imitation`) "
        f"picks the oracle's action on {100 * clone['heldout_accuracy']:.0f} % of held-out "
        f"steps and, played greedily, scores {clone['evaluation']['score']:.3f} on the "
        "evaluation episodes."
        if clone
        else ""
    )
    return (
        components
        + "\n"
        + (
            f"Step by step (`python -m rlm_gym.training.studies.oracle_gap`: the "
            f"`{gap['variant']}` agent of seed {gap['train_seed']} on {agent['episodes']} "
            f"evaluation episodes): the oracle's value of the first state is "
            f"{agent['start_value']:.3f}, of the last {agent['end_value']:.3f} (the score the "
            f"env reports; the true score is {agent['score']:.3f}); the oracle's own play ends "
            f"at {own['end_value']:.3f} from {own['start_value']:.3f} (true "
            f"{own['score']:.3f}). The agent takes the oracle's action on "
            f"{100 * agent['agree']:.0f} % of its steps. Its loss, V(s_t) - V(s_t+1) summed by "
            f"phase:\n\n"
        )
        + phases
        + f"\nThe costliest of the agent's actions: {costly}.{cloned}\n"
    )


def moonshot_reward() -> str:
    """The demo's recipe trained on Crawl-v1, whose reward's success is the true one, and on
    Crawl-v2 (the `demo-version` study), scored on Crawl-v2's scale."""
    baselines = study("moonshot-screen")["baselines"]  # Crawl-v2's random and oracle
    version = study("demo-version")
    rows = []
    by_env = {row["env_id"]: row for row in version["variants"].values()}
    reference = version["variants"][version["reference"]]
    for env_id, row in by_env.items():
        diff = (
            "(reference)" if row is reference else pm(row["vs_reference"], row["vs_reference_ci95"])
        )
        rows.append(
            [
                f"`demo-version` ({version['n_envs']} envs, {version['total_timesteps']:,} "
                f"steps), trained on `{env_id}`",
                ", ".join(f"{score:.3f}" for score in row["scores"]),
                f"{_normalised(row['score'], baselines):.3f}",
                diff,
            ]
        )
    screen = study("moonshot-screen")
    demo_2m = next(run for run in _per_seed(screen) if run["variant"] == "demo-2M")
    planned = STUDIES["moonshot-v1"]
    label = (
        f"`moonshot-v1` (`demo-2M`: {planned.n_envs} envs, {planned.total_timesteps:,} steps, "
        f"seed {planned.seeds[0]}), trained on "
    )
    v1_path = RESULTS / "moonshot-v1.json"
    if v1_path.exists():
        v1 = read_json(v1_path)
        run = v1["variants"]["demo-2M"]["per_seed"][0]
        rows.append(
            [
                f"{label}`{v1['env_id']}`",
                f"{run['score']:.3f}",
                f"{_normalised(run['score'], baselines):.3f}",
                f"{run['score'] - demo_2m['score']:+.3f} (vs `demo-2M` on Crawl-v2, seed 0)",
            ]
        )
    else:
        rows.append([f"{label}Crawl-v1", "not run", "-", "-"])
    caption = (
        "Trained on Crawl-v1 (its reward's `success` is the true one: the target of valid rows "
        "met) and on Crawl-v2, scored on the same evaluation episodes by the true score, "
        "normalised on Crawl-v2's scale (its random and oracle). `demo-version`'s difference "
        f"is paired by seed against its reference (`{version['reference']}`), Student t; "
        "`moonshot-v1`'s is its one seed against the same seed of `demo-2M` on Crawl-v2.\n\n"
    )
    headers = ["run", "true score per seed", "normalised (Crawl-v2's scale)", "difference"]
    return caption + table(headers, rows)


def moonshot_modes() -> str:
    """Greedy against sampled play of the moonshot's runs (``results/moonshot-modes.json``)."""
    modes = read_json(RESULTS / "moonshot-modes.json")
    rows = [
        [
            f"`{run['variant']}`, seed {run['seed']}",
            f"{run['greedy']:.3f}",
            ", ".join(f"{score:.3f}" for score in run["sampled"]),
            pm(run["sampled_mean"], run["sampled_ci95"]),
            f"{run['sampled_minus_greedy']:+.3f}",
        ]
        for run in modes["runs"]
    ]
    caption = (
        f"`python -m rlm_gym.training.studies.eval_modes --study {modes['study']}`: each "
        f"finished run of `{modes['study']}` on the {modes['n_eval_episodes']} evaluation "
        f"episodes, greedy (the studies' scoring) and sampling its actions with "
        f"{len(modes['sampling_seeds'])} seeds of the draws (the same episodes).\n\n"
    )
    headers = ["run", "greedy", "sampled, per draw seed", "sampled", "sampled - greedy"]
    return caption + table(headers, rows)


MOONSHOT_BLOCKS = {
    "moonshot_modes": moonshot_modes,
    "moonshot_reward": moonshot_reward,
    "moonshot_screen": moonshot_screen,
    "moonshot_verdict": moonshot_verdict,
    "moonshot_gap": moonshot_gap,
}
