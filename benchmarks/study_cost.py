"""Where one study run's CPU goes: rollout (policy forward, env + wrapper, callbacks, SB3's own
bookkeeping), update (gradient steps), evaluation (learning-curve points, the final score),
run files and set-up.

One run of a study's recipe (default: the ``ablation`` study's ``full`` variant, seed 0) is
trained and scored exactly as ``run_study`` trains and scores it, with every section's CPU time
(``time.process_time``: the whole process, torch's threads included) charged *exclusively*: a
section nested in another (an evaluation run from a callback inside the rollout, the policy's
forward pass inside the rollout) is taken out of its parent. What no section claims is set-up
(imports, building the model and the envs) and is measured as the process's total CPU.

A short run gives the shares; ``--scale-to`` (default: the study's budget) scales them to a
whole run: rollout and update grow with the steps, the curve evaluations with their count
(one every ``eval_freq`` steps), the final evaluation and set-up stay as they are.

The script runs against any checkout of the package (``PYTHONPATH=/path/to/old/tree``), so
``--label before`` records the old code's split next to today's (``--label after``, what
``make bench`` refreshes); ``--n-envs`` and ``--hp key=value`` measure a candidate recipe
(``--label candidate``). ``--plain`` only trains and scores the run, untimed: the command a
whole-process timing of old against new code runs, and ``--paired OLD_TREE`` runs that timing:
``--repeats`` alternating pairs of whole runs, old code then this checkout's, each one's CPU
seconds (user + system, the process and its children), and the ratio of each pair.

Run: ``.venv/bin/python benchmarks/study_cost.py [--timesteps 65536] [--label after]``;
``... --paired ../old-checkout --timesteps 600000 --repeats 3`` for the issue's whole-run figure.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import print_table, save_results

SECTIONS = (
    "policy forward",
    "env + wrapper",
    "callbacks",
    "SB3 rollout bookkeeping",
    "update",
    "curve evaluation",
    "final evaluation",
    "run files",
    "set-up",
)


class ExclusiveTimer:
    """CPU time per section, each nested section's time taken out of its parent's."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._stack: list[str] = []
        self._mark = 0.0

    def enter(self, name: str) -> None:
        now = time.process_time()
        if self._stack:
            self.totals[self._stack[-1]] += now - self._mark
        self._stack.append(name)
        self.calls[name] += 1
        self._mark = now

    def leave(self) -> None:
        now = time.process_time()
        self.totals[self._stack.pop()] += now - self._mark
        self._mark = now

    def wrap(self, owner: Any, attribute: str, name: str, only_inside: str | None = None) -> None:
        """Charge every call of ``owner.attribute`` to ``name`` (when ``only_inside`` is given,
        only the calls made while that section is open)."""
        original = getattr(owner, attribute)
        timer = self

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if only_inside is not None and only_inside not in timer._stack:
                return original(*args, **kwargs)
            timer.enter(name)
            try:
                return original(*args, **kwargs)
            finally:
                timer.leave()

        setattr(owner, attribute, timed)


def _study_module() -> Any:
    """The module that holds ``_train_and_score`` in this checkout (it moved in issue 30)."""
    # The runner before issue 30 moved it into rlm_gym.training.studies:
    for name in ("rlm_gym.training.studies.runner", "rlm_gym.training" + ".study"):
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    raise ImportError("no study runner found in this checkout of rlm_gym")


def run_spec(
    study_name: str,
    variant: str,
    seed: int,
    timesteps: int,
    run_dir: Path,
    n_envs: int | None = None,
    hyperparams: dict | None = None,
) -> dict:
    """The run's spec as ``run_study`` builds it (the same keys in both checkouts); ``n_envs``
    and ``hyperparams`` override the study's (a candidate recipe's cost)."""
    from rlm_gym.training import STUDIES

    study = STUDIES[study_name]
    settings = dict(study.variants[variant])
    return {
        "variant": variant,
        "seed": seed,
        "settings": settings,
        "run_dir": str(run_dir),
        "env_id": settings.get("env_id", study.env_id),
        "total_timesteps": timesteps,
        "n_envs": n_envs or study.n_envs,
        "hyperparams": {**study.hyperparams, **(hyperparams or {})},
        "n_eval_episodes": study.n_eval_episodes,
        "eval_seed": study.eval_seed,
        "curve_eval": dict(study.curve_eval),
        # Checkouts before issue 37 have no such setting: their batched env resets exactly.
        "vector_resets": getattr(study, "vector_resets", "exact"),
    }


def measure(
    study_name: str,
    variant: str,
    seed: int,
    timesteps: int,
    n_envs: int | None = None,
    hyperparams: dict | None = None,
) -> dict[str, Any]:
    """Train and score one run with the sections timed; the CPU seconds per section."""
    started = time.process_time()
    import sb3_contrib
    import stable_baselines3
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.callbacks import CallbackList
    from stable_baselines3.common.policies import ActorCriticPolicy
    from stable_baselines3.common.vec_env import DummyVecEnv

    from rlm_gym.training import run_recorder

    module = _study_module()
    timer = ExclusiveTimer()
    for algo in (stable_baselines3.PPO, sb3_contrib.MaskablePPO):
        timer.wrap(algo, "collect_rollouts", "SB3 rollout bookkeeping")
        timer.wrap(algo, "train", "update")
    rollout = "SB3 rollout bookkeeping"
    for policy in (ActorCriticPolicy, MaskableActorCriticPolicy):
        timer.wrap(policy, "forward", "policy forward", only_inside=rollout)
    vec_classes = [DummyVecEnv]
    try:  # the DummyVecEnv that hands infos over without copies (issue 30)
        from rlm_gym.training.vec_envs import info_passing_dummy_vec_env

        vec_classes.append(info_passing_dummy_vec_env())
    except ImportError:
        pass
    try:  # the batched Crawl-v2 seen by SB3 (issue 37)
        from rlm_gym.training.batched_vec_env import GymVectorToSB3

        vec_classes.append(GymVectorToSB3)
    except ImportError:
        pass
    for vec_class in vec_classes:
        timer.wrap(vec_class, "step_wait", "env + wrapper", only_inside=rollout)
        timer.wrap(vec_class, "reset", "env + wrapper", only_inside=rollout)
    timer.wrap(CallbackList, "on_step", "callbacks", only_inside=rollout)
    timer.wrap(run_recorder.RunRecorder, "evaluate", "curve evaluation")
    timer.wrap(run_recorder.RunRecorder, "write_state", "run files")
    timer.wrap(module, "evaluate", "final evaluation")
    with tempfile.TemporaryDirectory() as tmp:
        spec = run_spec(
            study_name, variant, seed, timesteps, Path(tmp) / "run", n_envs, hyperparams
        )
        row = module._train_and_score(spec)
    total = time.process_time() - started
    seconds = {name: timer.totals.get(name, 0.0) for name in SECTIONS if name != "set-up"}
    seconds["set-up"] = total - sum(seconds.values())
    return {
        "seconds": seconds,
        "total_s": total,
        "curve_evaluations": timer.calls.get("curve evaluation", 0),
        "score": row["score"],
        "spec": {key: spec[key] for key in ("env_id", "n_envs", "hyperparams", "curve_eval")},
    }


def scaled(measured: dict[str, Any], timesteps: int, scale_to: int, eval_freq: int | None):
    """The sections of a ``scale_to``-step run from a ``timesteps``-step one (see the module)."""
    factor = scale_to / timesteps
    out = {}
    for name, value in measured["seconds"].items():
        if name in ("final evaluation", "set-up"):
            out[name] = value
        elif name == "curve evaluation" and eval_freq:
            per_call = value / max(1, measured["curve_evaluations"])
            out[name] = per_call * (scale_to // eval_freq + 1)  # and the one at the end
        else:
            out[name] = value * factor
    return out


def paired(
    old_tree: str,
    repeats: int,
    timesteps: int,
    study: str,
    variant: str,
    together: bool = False,
    old_study: str | None = None,
) -> dict:
    """Whole-process CPU seconds of ``--plain`` runs, old code against this checkout, in
    pairs: alternating (old, new, old, new, ...), each run's user + system CPU, its children
    included, read from ``resource.getrusage(RUSAGE_CHILDREN)`` around it; or, ``together``,
    the two runs of a pair at the same time (on a busy machine both then share its load).
    ``old_study``: the study the old checkout runs (default ``study``), when this checkout's
    candidate recipe is a study of its own (``ablation-half`` against ``ablation``)."""
    import os
    import resource
    import statistics
    import subprocess

    here = Path(__file__).resolve()
    trees = {"old": str(Path(old_tree).resolve()), "new": str(here.parents[1])}
    base = [sys.executable, str(here), "--plain", "--timesteps", str(timesteps)]
    commands = {
        "old": [*base, "--study", old_study or study, "--variant", variant],
        "new": [*base, "--study", study, "--variant", variant],
    }
    seconds: dict[str, list[float]] = {"old": [], "new": []}
    scores: dict[str, list[str]] = {"old": [], "new": []}
    load = os.getloadavg()[0]
    for repeat in range(repeats):
        if together:
            # Both runs of the pair at once, one per core: whatever else the machine does
            # weighs on both alike. Each one's CPU comes from its own wait4 record.
            running = {
                label: subprocess.Popen(
                    commands[label],
                    env={**os.environ, "PYTHONPATH": tree},
                    cwd=tree,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                )
                for label, tree in trees.items()
            }
            for label, process in running.items():
                _, status, usage = os.wait4(process.pid, 0)
                process.returncode = os.waitstatus_to_exitcode(status)
                if process.returncode:
                    raise subprocess.CalledProcessError(process.returncode, commands[label])
                cpu = usage.ru_utime + usage.ru_stime
                seconds[label].append(round(cpu, 2))
                # The run's printed score: the same on both sides when the code computes the same.
                scores[label].append(process.stdout.read().strip().rsplit(" ", 1)[-1])
                print(f"repeat {repeat + 1}/{repeats} {label}: {cpu:.1f} CPU s", flush=True)
            continue
        for label, tree in trees.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            env = {**os.environ, "PYTHONPATH": tree}
            subprocess.run(commands[label], env=env, check=True, capture_output=True, cwd=tree)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            seconds[label].append(round(cpu, 2))
            print(f"repeat {repeat + 1}/{repeats} {label}: {cpu:.1f} CPU s", flush=True)
    ratios = [new / old for old, new in zip(seconds["old"], seconds["new"], strict=True)]
    return {
        "old_tree_commit": _commit(trees["old"]),
        "new_commit": _commit(trees["new"]),
        "study": study,
        "old_study": old_study or study,
        "variant": variant,
        "timesteps": timesteps,
        "cpu_s": seconds,
        "scores": scores,
        "ratios": [round(r, 4) for r in ratios],
        "median_ratio": round(statistics.median(ratios), 4),
        "median_old_s": statistics.median(seconds["old"]),
        "median_new_s": statistics.median(seconds["new"]),
        "together": together,
        "load_before": round(load, 2),
    }


def _commit(tree: str) -> str:
    import subprocess

    found = subprocess.run(
        ["git", "-C", tree, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return found.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", default="ablation")
    parser.add_argument("--variant", default="full")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timesteps", type=int, default=65_536)
    parser.add_argument("--scale-to", type=int, default=None, help="default: the study's budget")
    parser.add_argument("--label", default="after", help="where in results.json: before|after")
    parser.add_argument("--n-envs", type=int, default=None, help="a candidate recipe's envs")
    parser.add_argument(
        "--hp", action="append", default=[], help="a candidate recipe's PPO setting, key=value"
    )
    parser.add_argument("--no-save", action="store_true")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="only train and score the run, untimed (a whole-process timing's command)",
    )
    parser.add_argument(
        "--paired",
        metavar="OLD_TREE",
        default=None,
        help="whole-process CPU of --plain runs, OLD_TREE's code against this checkout's, in "
        "alternating pairs (saved as study_cost.paired)",
    )
    parser.add_argument("--repeats", type=int, default=3, help="pairs for --paired")
    parser.add_argument(
        "--old-study",
        default=None,
        help="with --paired: the study OLD_TREE runs (default: --study), e.g. `ablation` "
        "against this checkout's `ablation-half`",
    )
    parser.add_argument(
        "--key",
        default="paired",
        help="with --paired: the study_cost section to save into (one per issue keeps each "
        "issue's figure, e.g. paired_issue37)",
    )
    parser.add_argument(
        "--together",
        action="store_true",
        help="with --paired: run the two runs of each pair at the same time, one per core",
    )
    args = parser.parse_args(argv)
    if args.paired:
        result = paired(
            args.paired,
            args.repeats,
            args.timesteps,
            args.study,
            args.variant,
            args.together,
            args.old_study,
        )
        print(
            f"whole-process CPU, median of {args.repeats} pairs: old {result['median_old_s']:.1f}"
            f" s, new {result['median_new_s']:.1f} s, new/old {result['median_ratio']:.3f} "
            f"(pairs: {', '.join(f'{r:.3f}' for r in result['ratios'])})"
        )
        if not args.no_save:
            _save_section(args.key, result)
        return result
    if args.plain:
        hyperparams = {k: json.loads(v) for k, v in (hp.split("=", 1) for hp in args.hp)}
        with tempfile.TemporaryDirectory() as tmp:
            spec = run_spec(
                args.study,
                args.variant,
                args.seed,
                args.timesteps,
                Path(tmp) / "run",
                args.n_envs,
                hyperparams,
            )
            row = _study_module()._train_and_score(spec)
        print(f"score {row['score']:.6f}")
        return row

    hyperparams = {key: json.loads(value) for key, value in (hp.split("=", 1) for hp in args.hp)}
    measured = measure(
        args.study, args.variant, args.seed, args.timesteps, args.n_envs, hyperparams
    )
    from rlm_gym.training import STUDIES

    study = STUDIES[args.study]
    scale_to = args.scale_to or int(study.variants[args.variant].get("total_timesteps", 0) or 0)
    scale_to = scale_to or study.total_timesteps
    eval_freq = study.curve_eval.get("eval_freq") if study.curve_eval else None
    whole = scaled(measured, args.timesteps, scale_to, eval_freq)
    total = sum(whole.values())
    print(
        f"{args.study}/{args.variant} seed {args.seed}: {args.timesteps:,} steps measured "
        f"({measured['total_s']:.1f} CPU s, score {measured['score']:.3f}), scaled to "
        f"{scale_to:,} steps"
    )
    print_table(
        ["section", "measured CPU s", f"at {scale_to:,} steps", "share"],
        [
            [
                name,
                f"{measured['seconds'][name]:.2f}",
                f"{whole[name]:.1f}",
                f"{whole[name] / total:.1%}",
            ]
            for name in SECTIONS
        ]
        + [["total", f"{measured['total_s']:.2f}", f"{total:.1f}", "100%"]],
    )
    payload = {
        "study": args.study,
        "variant": args.variant,
        "seed": args.seed,
        "timesteps": args.timesteps,
        "scale_to": scale_to,
        "measured": measured,
        "scaled": whole,
        "scaled_total_s": total,
    }
    if not args.no_save:
        _save_section(args.label, payload)
    return payload


def _save_section(label: str, payload: dict) -> None:
    from _common import RESULTS_PATH

    results = json.loads(RESULTS_PATH.read_text()) if RESULTS_PATH.exists() else {}
    section = dict(results.get("study_cost", {}))
    section[label] = payload
    save_results("study_cost", section)


if __name__ == "__main__":
    main()
