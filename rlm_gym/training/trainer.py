"""``train`` / ``resume``: PPO / MaskablePPO against a reward policy, in runs that never lose work.

The envs are built as ``make_vec_env(factory)`` where the factory returns
``RewardPolicyWrapper(gym.make(env_id, **env_kwargs), policy, ...)`` (optionally inside a
``PotentialShapingWrapper``), so SB3's ``Monitor`` records the reward the agent learns from, and
``info["env_reward"]`` keeps the env's own reward for the true score.

With a ``log_dir`` every run gets its own directory (``runs.unique_run_dir``: an existing,
non-empty directory is never reused, a ``-2``, ``-3`` ... suffix is added), files are written
atomically, checkpoints are written periodically, SIGINT / SIGTERM save the run and mark it
``"interrupted"``, and ``resume(run_dir)`` continues it (see ``rlm_gym.training.runs``).
"""

from __future__ import annotations

import contextlib
import csv
import errno
import functools
import importlib
import json
import math
import os
import platform
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import gymnasium as gym

from rlm_gym._validation import unknown_name_error
from rlm_gym.policies import RewardPolicy
from rlm_gym.training.episodes import make_bare_env
from rlm_gym.training.runs import (
    BEST_MODEL_FILE,
    CHECKPOINT_FILE,
    EPISODES_FILE,
    EVALUATIONS_FILE,
    METRICS_FILE,
    MODEL_FILE,
    RUN_CONFIG_FILE,
    RunWriteError,
    atomic_write,
    find_model,
    read_run_config,
    save_model_atomic,
    unique_run_dir,
    write_json_atomic,
)
from rlm_gym.wrappers import RewardPolicyWrapper

__all__ = [
    "ALGORITHMS",
    "DEFAULT_ALGO",
    "DEFAULT_HYPERPARAMS",
    "TrainResult",
    "TrainingInterrupted",
    "algorithm_class",
    "check_policy_fits",
    "crawl_potential",
    "load_model",
    "make_env",
    "read_episodes",
    "resume",
    "train",
    "write_episodes",
]

ALGORITHMS: dict[str, tuple[str, str]] = {
    "ppo": ("stable_baselines3", "PPO"),
    "maskable_ppo": ("sb3_contrib", "MaskablePPO"),
}
# MaskablePPO (sb3-contrib, with the env's action_masks) by measurement: at 150k steps it scores
# as PPO without shaping (0.651 vs 0.651 true crawl score, 300 seeded episodes) and, with the crawl
# potential, 0.778 vs 0.657 at 250k / 150k; PPO runs ~15 % more steps/s (2150 vs 1860).
DEFAULT_ALGO = "maskable_ppo"

# PPO defaults for the crawl env (episodes of 3-30 steps, one final reward), chosen on Crawl-v0 by
# single-seed sweeps at 100k-300k steps scored on 300 seeded evaluation episodes (true crawl score):
# n_steps 1024 per env beat 256 and 512 (0.674 vs 0.641 / 0.665 at 120k); learning rate 1e-3 beat
# 3e-4 (0.641 vs 0.600); ent_coef 0.01 beat 0.0 and 0.001; a [128, 128] network learned no better
# and ran 25 % slower; a linear learning-rate decay did not help at 250k.
DEFAULT_HYPERPARAMS: dict[str, Any] = {
    "n_steps": 1024,
    "batch_size": 256,
    "n_epochs": 10,
    "learning_rate": 1e-3,
    "gamma": 0.99,
    "gae_lambda": 0.95,
    "ent_coef": 0.01,
    "clip_range": 0.2,
    "policy_kwargs": {"net_arch": [64, 64]},
}

# Checkpoint every 25k steps (~12 s of crawl training on one core: a kill loses at most that) and
# evaluate every 25k steps on 50 seeded episodes, seeds 500 000+: away from the training seeds
# and from the 1 000 000+ episodes `rlm-gym evaluate` reports, so the best model is not picked
# on the episodes it is reported on.
DEFAULT_CHECKPOINT_FREQ = 25_000
DEFAULT_EVAL_FREQ = 25_000
DEFAULT_EVAL_EPISODES = 50
DEFAULT_EVAL_SEED = 500_000
# Steps of the random-action episode `check_policy_fits` plays before training starts.
PROBE_STEPS = 200
STATUSES: tuple[str, ...] = ("running", "interrupted", "failed", "finished")


@dataclass
class TrainResult:
    """What ``train`` returns.

    Attributes:
        model: The trained SB3 model.
        config: The run config (also written to ``<log_dir>/config.json``), with ``status``.
        metrics: Summary numbers (also ``<log_dir>/metrics.json``).
        episodes: One record per finished training episode (``timestep``, ``true_score``,
            ``shaped_return`` and the crawl details), in order; also ``episodes.csv``.
        log_dir: Where the files went, or None.
    """

    model: Any
    config: dict[str, Any]
    metrics: dict[str, Any]
    episodes: list[dict[str, Any]] = field(default_factory=list)
    log_dir: Path | None = None


class TrainingInterrupted(KeyboardInterrupt):
    """Training stopped on SIGINT / SIGTERM after saving the run (``resume`` continues it).

    A ``KeyboardInterrupt``, so a script that does not catch it stops as Ctrl-C always did.

    Attributes:
        run_dir: The saved run directory.
        signum: The signal received.
        timesteps: Steps trained when it stopped.
    """

    def __init__(self, run_dir: Path, signum: int, timesteps: int) -> None:
        super().__init__(
            f"Training interrupted at {timesteps:,} steps; saved in {run_dir} "
            f"(continue with `rlm-gym train --resume {run_dir}`)"
        )
        self.run_dir = run_dir
        self.signum = signum
        self.timesteps = timesteps


def algorithm_class(algo: str) -> type:
    """The SB3 class of ``algo`` (``"ppo"`` or ``"maskable_ppo"``).

    Raises:
        ValueError: Unknown ``algo`` (with a suggestion).
    """
    if algo not in ALGORITHMS:
        raise unknown_name_error("algo", algo, ALGORITHMS)
    from rlm_gym.training._deps import require

    module_name, class_name = ALGORITHMS[algo]
    require("torch", module_name)
    module = __import__(module_name, fromlist=[class_name])
    return getattr(module, class_name)


def crawl_potential(env: gym.Env) -> float:
    """The crawl env's shaping potential: the crawl reward of the result so far.

    ``env.unwrapped.potential()`` (``CrawlEnv.potential``). Module-level, so it pickles.
    """
    return float(env.unwrapped.potential())


def make_env(
    env_id: str,
    policy: str | RewardPolicy = "crawl",
    config: Mapping[str, Any] | None = None,
    disable: Iterable[str] = (),
    weights: Mapping[str, float] | None = None,
    env_kwargs: Mapping[str, Any] | None = None,
    shaping: str | Callable[[gym.Env], float] | None = None,
    shaping_gamma: float = 0.99,
) -> gym.Env:
    """One training env: ``gym.make`` + ``RewardPolicyWrapper`` (+ potential shaping).

    Module-level, so ``functools.partial(make_env, ...)`` pickles into ``SubprocVecEnv`` workers.

    Example:
        >>> env = make_env("CartPole-v1", "lenient")
        >>> type(env).__name__, env.component_names[0]
        ('RewardPolicyWrapper', 'attempt')
    """
    env = make_bare_env(env_id, env_kwargs)
    env = RewardPolicyWrapper(
        env,
        policy,
        config=dict(config) if config is not None else None,
        disable=tuple(disable),
        weights=dict(weights) if weights is not None else None,
    )
    if shaping is not None:
        from rlm_gym.wrappers.shaping import PotentialShapingWrapper

        env = PotentialShapingWrapper(env, shaping, gamma=shaping_gamma)
    return env


def _set_torch_threads(threads: int | None) -> None:
    if threads is not None:
        import torch

        torch.set_num_threads(int(threads))


def _check_positive(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"Expected `{name}` to be a positive integer, got {value!r}")
    if value <= 0:
        raise ValueError(f"Expected `{name}` to be a positive integer, got {value}")
    return value


def _resolve_hyperparams(
    hyperparams: Mapping[str, Any] | None, total_timesteps: int, n_envs: int
) -> dict[str, Any]:
    params = {**DEFAULT_HYPERPARAMS, **dict(hyperparams or {})}
    # A tiny budget (tests, quick runs) still gets at least one full rollout.
    per_env = max(8, min(int(params["n_steps"]), total_timesteps // max(1, n_envs)))
    params["n_steps"] = per_env
    params["batch_size"] = min(int(params["batch_size"]), per_env * n_envs)
    return params


def _model_kwargs(params: Mapping[str, Any]) -> dict[str, Any]:
    """PPO keyword arguments from the (JSON-able) hyperparameters.

    ``learning_rate_schedule="linear"`` anneals ``learning_rate`` linearly to 0 over training;
    rl-zoo3's ``"lin_<x>"`` does the same for ``learning_rate`` or ``clip_range``; an
    ``activation_fn`` named ``"nn.ReLU"`` in ``policy_kwargs`` is ``torch.nn.ReLU``.
    """
    from rlm_gym.training.hyperparams import schedule_value

    kwargs = dict(params)
    schedule = kwargs.pop("learning_rate_schedule", "constant")
    if schedule == "linear":
        initial = float(kwargs["learning_rate"])
        kwargs["learning_rate"] = functools.partial(_linear, initial)
    elif schedule != "constant":
        raise unknown_name_error("learning_rate_schedule", schedule, ("constant", "linear"))
    for key in ("learning_rate", "clip_range"):
        initial = schedule_value(kwargs.get(key))
        if initial is not None:
            kwargs[key] = functools.partial(_linear, initial)
    policy_kwargs = dict(kwargs.get("policy_kwargs") or {})
    activation = policy_kwargs.get("activation_fn")
    if isinstance(activation, str):
        import torch

        name = activation.removeprefix("nn.")
        if not hasattr(torch.nn, name):
            raise ValueError(
                f"Expected `activation_fn` to name a torch.nn class, got {activation!r}"
            )
        policy_kwargs["activation_fn"] = getattr(torch.nn, name)
        kwargs["policy_kwargs"] = policy_kwargs
    return kwargs


def _linear(initial: float, progress_remaining: float) -> float:
    return initial * progress_remaining


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def _shaping_name(shaping: str | Callable[[gym.Env], float] | None) -> str | None:
    """How ``config.json`` records the shaping: a method name or ``module:function``."""
    if shaping is None or isinstance(shaping, str):
        return shaping
    module, name = getattr(shaping, "__module__", None), getattr(shaping, "__qualname__", "")
    if module and name and "<" not in name:
        return f"{module}:{name}"
    return "callable"


def _shaping_from_name(name: str | None) -> str | Callable[[gym.Env], float] | None:
    if name is None or ":" not in name:
        if name == "callable":
            raise ValueError(
                "This run was shaped with an unnamed callable; it cannot be rebuilt from "
                "config.json. Use a module-level function"
            )
        return name
    module, _, qualname = name.partition(":")
    target: Any = importlib.import_module(module)
    for part in qualname.split("."):
        target = getattr(target, part)
    return target


def check_policy_fits(factory: Callable[[], gym.Env], policy: str, env_id: str) -> bool:
    """Play one short random-action episode with the reward policy; fail before training.

    A policy that needs what the env does not give (the ``crawl`` policy on CartPole has no
    crawl result to score) fails here with one clear message instead of deep inside training.

    Returns:
        Whether the env offers ``action_masks()`` (what MaskablePPO needs).

    Raises:
        ValueError: The policy (or the env) fails on the env's steps.

    Example:
        >>> check_policy_fits(functools.partial(make_env, "CartPole-v1", "crawl"),
        ...                   "crawl", "CartPole-v1")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: Policy 'crawl' does not fit env 'CartPole-v1': Expected `result.metadata['crawl_result']`...
    """  # noqa: E501
    env = factory()
    try:
        env.get_wrapper_attr("action_masks")
        masks = True
    except AttributeError:
        masks = False
    try:
        env.action_space.seed(0)
        env.reset(seed=0)
        for _ in range(PROBE_STEPS):
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
            if terminated or truncated:
                break
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise ValueError(f"Policy '{policy}' does not fit env '{env_id}': {error}") from None
    finally:
        env.close()
    return masks


def train(
    env_id: str,
    policy: str | RewardPolicy = "crawl",
    *,
    config: Mapping[str, Any] | None = None,
    disable: Iterable[str] = (),
    weights: Mapping[str, float] | None = None,
    total_timesteps: int = 50_000,
    n_envs: int = 4,
    seed: int = 0,
    hyperparams: Mapping[str, Any] | None = None,
    log_dir: str | Path | None = None,
    algo: str | None = None,
    env_kwargs: Mapping[str, Any] | None = None,
    shaping: str | Callable[[gym.Env], float] | None = None,
    vec_env: str = "dummy",
    torch_threads: int | None = 1,
    progress_bar: bool = True,
    tensorboard: bool = True,
    verbose: int = 0,
    checkpoint_freq: int = DEFAULT_CHECKPOINT_FREQ,
    eval_freq: int = DEFAULT_EVAL_FREQ,
    n_eval_episodes: int = DEFAULT_EVAL_EPISODES,
    eval_seed: int = DEFAULT_EVAL_SEED,
) -> TrainResult:
    """Train an agent on ``env_id`` with ``policy``'s (ablated) reward.

    Args:
        env_id: A registered env id (e.g. ``rlm_gym.envs.CRAWL_ENV_ID``).
        policy: Reward policy name or instance (a name for ``vec_env="subproc"`` and to resume).
        config: Policy config overrides.
        disable: Components to switch off.
        weights: Component multipliers.
        total_timesteps: Env steps to train for (over all envs), > 0.
        n_envs: Parallel envs, > 0.
        seed: Seeds the model and the envs (env ``i`` gets ``seed + i``).
        hyperparams: Overrides of ``DEFAULT_HYPERPARAMS`` (PPO keyword arguments, checked by
            ``hyperparams.check_hyperparams``; rl-zoo3's ``"lin_<x>"`` schedules work).
        log_dir: The run directory. A new one is always made: if ``log_dir`` already holds
            anything, ``log_dir-2`` (``-3``, ...) is used instead (``TrainResult.log_dir`` says
            which). It gets ``config.json``, ``metrics.json``, ``episodes.csv``,
            ``checkpoint.zip`` (periodic), ``model.zip``, ``best_model.zip``,
            ``evaluations.json``, ``progress.csv`` and TensorBoard events, all written
            atomically. Nothing is written when None.
        algo: ``"ppo"`` or ``"maskable_ppo"`` (sb3-contrib, uses the env's ``action_masks``).
            Default: ``DEFAULT_ALGO`` when the env has ``action_masks()``, else ``"ppo"``.
        env_kwargs: Passed to ``gym.make``.
        shaping: Add potential-based shaping with this potential (``"potential"`` calls the
            env's ``potential()``; or a module-level callable ``potential(env) -> float``).
        vec_env: ``"dummy"`` (one process; fastest for a cheap env) or ``"subproc"``.
        torch_threads: ``torch.set_num_threads`` value (1: two threads measured 3x slower on
            2 cores for these small networks); None leaves torch alone.
        progress_bar: Show progress on stderr: SB3's bar when ``tqdm`` and ``rich`` are
            installed, else a line every tenth of the budget.
        tensorboard: Also write TensorBoard events when ``log_dir`` is set.
        verbose: SB3 verbosity.
        checkpoint_freq: Steps between checkpoints (with ``log_dir``; 0: none).
        eval_freq: Steps between evaluations on the true score (with ``log_dir``; 0: only the
            final one). The best evaluated model is kept as ``best_model.zip``.
        n_eval_episodes: Episodes per evaluation (0: no evaluation, no ``best_model.zip``).
        eval_seed: Seed of the first evaluation episode.

    Returns:
        The ``TrainResult``.

    Raises:
        ValueError: Unknown ``algo``, ``vec_env``, policy, component or hyper-parameter, a
            budget <= 0, a policy that does not fit the env.
        TypeError: A hyper-parameter of the wrong kind.
        TrainingInterrupted: SIGINT / SIGTERM arrived; the run was saved first.

    Example - a few hundred steps on CartPole:
        >>> result = train(
        ...     "CartPole-v1", "lenient", total_timesteps=256, n_envs=2
        ... )  # doctest: +SKIP
        >>> result.metrics["timesteps"]  # doctest: +SKIP
        256
    """
    from rlm_gym.training._deps import require
    from rlm_gym.training.hyperparams import check_hyperparams, parse_policy_kwargs

    require("torch", "stable_baselines3")
    total_timesteps = _check_positive("total_timesteps", total_timesteps)
    n_envs = _check_positive("n_envs", n_envs)
    for name, value in (
        ("checkpoint_freq", checkpoint_freq),
        ("eval_freq", eval_freq),
        ("n_eval_episodes", n_eval_episodes),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"Expected `{name}` to be an integer >= 0, got {value!r}")
    if vec_env not in ("dummy", "subproc"):
        raise unknown_name_error("vec_env", vec_env, ("dummy", "subproc"))
    if algo is not None:
        algorithm_class(algo)
    overrides = dict(hyperparams or {})
    if "policy_kwargs" in overrides:
        overrides["policy_kwargs"] = parse_policy_kwargs(overrides["policy_kwargs"])
    check_hyperparams(overrides, algo or "ppo", source="hyperparams")
    params = _resolve_hyperparams(overrides, total_timesteps, n_envs)
    disable = tuple(disable)
    policy_name = policy if isinstance(policy, str) else type(policy).__name__
    factory = partial(
        make_env,
        env_id,
        policy,
        config,
        disable,
        weights,
        env_kwargs,
        shaping,
        float(params.get("gamma", 0.99)),
    )
    # Fail fast (unknown policy/component/env id, a policy that does not fit) before any
    # directory or worker exists.
    masks = check_policy_fits(factory, policy_name, env_id)
    if algo is None:
        algo = DEFAULT_ALGO if masks else "ppo"
    elif algo == "maskable_ppo" and not masks:
        raise ValueError(
            f"`algo` 'maskable_ppo' needs an env with action_masks(); '{env_id}' has none "
            "(use 'ppo')"
        )
    run_dir = unique_run_dir(log_dir) if log_dir is not None else None
    run_config = _jsonable(
        {
            "env_id": env_id,
            "policy": policy_name,
            "policy_is_instance": not isinstance(policy, str),
            "config": dict(config or {}),
            "disable": list(disable),
            "weights": dict(weights or {}),
            "total_timesteps": int(total_timesteps),
            "n_envs": int(n_envs),
            "seed": int(seed),
            "algo": algo,
            "hyperparams": params,
            "env_kwargs": dict(env_kwargs or {}),
            "shaping": _shaping_name(shaping),
            "vec_env": vec_env,
            "torch_threads": torch_threads,
            "tensorboard": bool(tensorboard),
            "checkpoint_freq": int(checkpoint_freq),
            "eval_freq": int(eval_freq),
            "n_eval_episodes": int(n_eval_episodes),
            "eval_seed": int(eval_seed),
            "python": platform.python_version(),
            "status": "running",
            "timesteps_done": 0,
            "wall_time_s": 0.0,
            "segments": [],
        }
    )
    return _learn(run_config, run_dir, factory, None, [], [], progress_bar, verbose)


def resume(run_dir: str | Path, *, progress_bar: bool = True, verbose: int = 0) -> TrainResult:
    """Continue a run directory from its last checkpoint up to its ``total_timesteps``.

    Everything (env, env kwargs, policy, ablation, algorithm, hyper-parameters, seeds,
    checkpoint and evaluation cadence) comes from the run's ``config.json``; the model,
    its optimizer state and step count from ``checkpoint.zip``. Episodes, SB3 log rows and
    evaluations the run recorded after that checkpoint (a killed run goes on past it) are
    dropped, so the run directory holds one consistent run. Without a checkpoint the run starts
    again from step 0 in the same directory. The resumed envs are seeded with
    ``seed + timesteps done``, so they do not replay the first episodes.

    Raises:
        FileNotFoundError: Not a run directory.
        ValueError: The run is finished, or was trained with a policy instance or an unnamed
            shaping callable (neither can be rebuilt from ``config.json``).
        TrainingInterrupted: SIGINT / SIGTERM arrived again; the run was saved first.

    Example:
        >>> resume("no/such/run")  # doctest: +SKIP
        Traceback (most recent call last):
        ...
        FileNotFoundError: No run directory at no/such/run
    """
    from rlm_gym.training._deps import require

    require("torch", "stable_baselines3")
    run_dir = Path(run_dir)
    run_config = read_run_config(run_dir)
    required = ("env_id", "policy", "algo", "total_timesteps")
    missing = [key for key in required if key not in run_config]
    if missing:
        raise ValueError(f"{run_dir / RUN_CONFIG_FILE} lacks {', '.join(missing)}; cannot resume")
    if run_config.get("status") == "finished":
        raise ValueError(
            f"{run_dir} is already finished ({run_config.get('timesteps_done', 0):,} of "
            f"{run_config['total_timesteps']:,} steps); start a new run instead"
        )
    if run_config.get("policy_is_instance"):
        raise ValueError(
            f"{run_dir} was trained with a policy instance ({run_config['policy']}); "
            "only runs of a registered policy name can be resumed"
        )
    shaping = _shaping_from_name(run_config.get("shaping"))
    params = run_config.get("hyperparams") or {}
    factory = partial(
        make_env,
        run_config["env_id"],
        run_config["policy"],
        run_config.get("config") or None,
        tuple(run_config.get("disable") or ()),
        run_config.get("weights") or None,
        run_config.get("env_kwargs") or None,
        shaping,
        float(params.get("gamma", 0.99)),
    )
    model, done = None, 0
    checkpoint = run_dir / CHECKPOINT_FILE
    if checkpoint.is_file():
        model = algorithm_class(run_config["algo"]).load(checkpoint, device="cpu")
        done = int(model.num_timesteps)
    episodes = read_episodes(run_dir / EPISODES_FILE, max_timestep=done)
    evaluations = _read_evaluations(run_dir, done)
    best = run_config.get("best")
    if best is not None and best.get("timestep", 0) > done:
        # The best model came from the part of a killed run that is being replayed.
        with contextlib.suppress(FileNotFoundError):
            (run_dir / BEST_MODEL_FILE).unlink()
        run_config["best"] = None
    run_config["timesteps_done"] = done
    return _learn(run_config, run_dir, factory, model, episodes, evaluations, progress_bar, verbose)


def _read_evaluations(run_dir: Path, max_timestep: int) -> list[dict[str, Any]]:
    path = run_dir / EVALUATIONS_FILE
    if not path.is_file():
        return []
    try:
        evaluations = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        return []
    return [e for e in evaluations if isinstance(e, dict) and e.get("timestep", 0) <= max_timestep]


def _progress_callbacks(progress_bar: bool, label: str, total: int) -> tuple[bool, list[Any]]:
    """SB3's progress bar when tqdm and rich are installed, else a periodic line."""
    if not progress_bar:
        return False, []
    try:
        import rich  # noqa: F401
        import tqdm  # noqa: F401
    except ImportError:
        from rlm_gym.training.lifecycle import ProgressLineCallback

        return False, [ProgressLineCallback(label, total)]
    return True, []


def _resumable_logger(run_dir: Path, done: int, tensorboard: bool, verbose: int) -> Any:
    """SB3's logger for the run directory; a resumed run appends to ``progress.csv``."""
    from stable_baselines3.common.logger import CSVOutputFormat, Logger, make_output_format

    progress = run_dir / "progress.csv"
    if done and progress.is_file():
        _truncate_progress(progress, done)
        csv_format = _appending_csv(progress)
    else:
        csv_format = CSVOutputFormat(str(progress))
    formats = [csv_format]
    if tensorboard:
        formats.append(make_output_format("tensorboard", str(run_dir)))
    if verbose:
        formats.append(make_output_format("stdout", str(run_dir)))
    return Logger(str(run_dir), formats)


def _truncate_progress(path: Path, done: int) -> None:
    """Drop rows logged after step ``done`` (a killed run's lost stretch)."""
    with open(path, newline="") as handle:
        rows = list(csv.reader(handle))
    if not rows:
        return
    header = rows[0]
    column = header.index("time/total_timesteps") if "time/total_timesteps" in header else None
    keep = [header]
    for row in rows[1:]:
        try:
            steps = float(row[column]) if column is not None else 0.0
        except (ValueError, IndexError):
            steps = 0.0
        if steps <= done:
            keep.append(row)
    with atomic_write(path, "w", newline="") as handle:
        # SB3's own CSV writer does not quote numbers; keep its format for the appended rows.
        handle.writelines(",".join(row) + "\n" for row in keep)


def _appending_csv(path: Path) -> Any:
    """SB3's CSV writer continuing an existing ``progress.csv`` (its header gives the columns)."""
    from stable_baselines3.common.logger import CSVOutputFormat

    writer = CSVOutputFormat.__new__(CSVOutputFormat)
    writer.file = open(path, "r+")  # noqa: SIM115 (closed by Logger.close)
    header = writer.file.readline().rstrip("\n")
    writer.keys = header.split(",") if header else []
    writer.file.seek(0, 2)
    writer.separator = ","
    writer.quotechar = '"'
    return writer


class _RunFiles:
    """Writes one run directory's files, always atomically and in a crash-safe order."""

    def __init__(
        self,
        run_dir: Path,
        run_config: dict[str, Any],
        episodes: list[dict[str, Any]],
        evaluations: list[dict[str, Any]],
        started: float,
    ) -> None:
        self.run_dir = run_dir
        self.config = run_config
        self.episodes = episodes
        self.evaluations = evaluations
        self.started = started
        self.previous_wall = float(run_config.get("wall_time_s") or 0.0)
        best = run_config.get("best")
        self.best_score = best["score"] if best and (run_dir / BEST_MODEL_FILE).is_file() else None

    def wall_time(self) -> float:
        return self.previous_wall + (time.perf_counter() - self.started)

    def write_state(
        self,
        model: Any,
        status: str,
        checkpoint: bool,
        final: bool = False,
        keep_going: bool = False,
    ) -> None:
        """Episodes, models, metrics, then config.json (the commit record of the state).

        With ``keep_going`` a failed data write (a full disk) is noted in the config instead
        of raised, so a failing run still records its status.
        """
        steps = int(model.num_timesteps)
        try:
            write_episodes(self.episodes, self.run_dir / EPISODES_FILE)
            if checkpoint:
                save_model_atomic(model, self.run_dir / CHECKPOINT_FILE)
                self.config["checkpoint_timesteps"] = steps
            if final:
                save_model_atomic(model, self.run_dir / MODEL_FILE)
        except OSError as error:
            if not keep_going:
                raise
            self.config["save_error"] = str(error)
        metrics = _metrics(self.episodes, steps, self.wall_time())
        metrics["status"] = status
        write_json_atomic(self.run_dir / METRICS_FILE, metrics)
        self.config["status"] = status
        self.config["timesteps_done"] = steps
        self.config["wall_time_s"] = round(self.wall_time(), 3)
        write_json_atomic(self.run_dir / RUN_CONFIG_FILE, self.config)
        if final:
            with contextlib.suppress(FileNotFoundError):
                (self.run_dir / CHECKPOINT_FILE).unlink()

    def evaluate(self, model: Any) -> None:
        from rlm_gym.training.evaluation import evaluate

        summary = evaluate(
            model,
            self.config["env_id"],
            int(self.config["n_eval_episodes"]),
            int(self.config["eval_seed"]),
            env_kwargs=self.config.get("env_kwargs") or None,
        ).summary()
        steps = int(model.num_timesteps)
        record = {"timestep": steps, "score": summary["score"], "ci95": summary["score_ci95"]}
        self.evaluations.append(record)
        if self.best_score is None or summary["score"] > self.best_score:
            save_model_atomic(model, self.run_dir / BEST_MODEL_FILE)
            self.best_score = summary["score"]
            self.config["best"] = {"timestep": steps, "score": summary["score"]}
        write_json_atomic(self.run_dir / EVALUATIONS_FILE, self.evaluations)


def _learn(
    run_config: dict[str, Any],
    run_dir: Path | None,
    factory: Callable[[], gym.Env],
    model: Any,
    episodes: list[dict[str, Any]],
    evaluations: list[dict[str, Any]],
    progress_bar: bool,
    verbose: int,
) -> TrainResult:
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from rlm_gym.training.callbacks import RewardComponentsCallback
    from rlm_gym.training.lifecycle import RunCallback, stop_on_signals

    algo_cls = algorithm_class(run_config["algo"])
    _set_torch_threads(run_config.get("torch_threads"))
    total = int(run_config["total_timesteps"])
    done = int(model.num_timesteps) if model is not None else 0
    seed = int(run_config["seed"])
    vec_cls, vec_kwargs = DummyVecEnv, {}
    if run_config.get("vec_env") == "subproc":
        vec_cls, vec_kwargs = SubprocVecEnv, {"start_method": "forkserver"}
    envs = make_vec_env(
        factory,
        n_envs=int(run_config["n_envs"]),
        seed=seed + done,
        vec_env_cls=vec_cls,
        vec_env_kwargs=vec_kwargs,
    )
    if model is None:
        model = algo_cls(
            "MlpPolicy",
            envs,
            seed=seed,
            verbose=verbose,
            device="cpu",
            **_model_kwargs(run_config["hyperparams"]),
        )
    else:
        model.set_env(envs)
        model._last_obs = None  # new envs: SB3 resets them at the start of learn()
    components = RewardComponentsCallback()
    components.episodes = episodes
    started = time.perf_counter()
    files = None
    if run_dir is not None:
        model.set_logger(
            _resumable_logger(run_dir, done, run_config.get("tensorboard", True), verbose)
        )
        files = _RunFiles(run_dir, run_config, episodes, evaluations, started)
        run_config["segments"] = [
            *run_config.get("segments", []),
            {"from_timesteps": done, "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")},
        ]
        files.write_state(model, "running", checkpoint=False)
    label = f"train {run_dir.name}" if run_dir is not None else "train"
    use_bar, progress = _progress_callbacks(progress_bar, label, total)
    announce = functools.partial(print, file=sys.stderr, flush=True)
    # Handlers only when there is a run to save; otherwise Ctrl-C keeps its usual effect.
    signals = stop_on_signals(announce) if files is not None else contextlib.nullcontext(None)
    error: BaseException | None = None
    with signals as flag, _quiet_writer_threads():
        run_callback = None
        if files is not None:
            evaluate = files.evaluate if int(run_config.get("n_eval_episodes", 0)) else None
            run_callback = RunCallback(
                flag,
                checkpoint=lambda m: files.write_state(m, "running", checkpoint=True),
                checkpoint_freq=int(run_config.get("checkpoint_freq", 0)),
                evaluate=evaluate,
                eval_freq=int(run_config.get("eval_freq", 0)),
                start=done,
            )
        callbacks = [components, *progress, *([run_callback] if run_callback else [])]
        try:
            if total > done:
                with warnings.catch_warnings():
                    # SB3's bar is tqdm.rich, which warns on every run that it is "experimental".
                    warnings.filterwarnings("ignore", message="rich is experimental")
                    model.learn(
                        total - done,
                        callback=callbacks,
                        progress_bar=use_bar,
                        reset_num_timesteps=done == 0,
                    )
        except BaseException as raised:  # saved below, then re-raised
            error = raised
        finally:
            with contextlib.suppress(Exception):
                envs.close()
        stopped = flag is not None and flag.stopped
    if files is not None:
        _finish_segment(files, model, error, stopped, flag)
    if error is not None:
        raise _disk_error(error, run_dir, run_config) from error
    metrics = _metrics(episodes, model.num_timesteps, time.perf_counter() - started)
    if files is not None:
        metrics = json.loads((run_dir / METRICS_FILE).read_text())
    return TrainResult(model, run_config, metrics, episodes, run_dir)


@contextlib.contextmanager
def _quiet_writer_threads() -> Iterator[None]:
    """Keep a background writer's OSError (TensorBoard's event thread on a full disk) from
    printing a traceback: the same error reaches the training loop and is reported there."""
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        if not issubclass(args.exc_type, OSError):
            previous(args)

    threading.excepthook = hook
    try:
        yield
    finally:
        threading.excepthook = previous


def _disk_error(
    error: BaseException, run_dir: Path | None, run_config: Mapping[str, Any]
) -> BaseException:
    """A full or read-only disk hit by SB3's own log writes, said as what it is."""
    if (
        run_dir is None
        or isinstance(error, RunWriteError)
        or not isinstance(error, OSError)
        or error.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EROFS)
    ):
        return error
    checkpoint = run_config.get("checkpoint_timesteps")
    kept = (
        f"its last checkpoint ({checkpoint:,} steps) is intact"
        if checkpoint
        else "no checkpoint was written yet"
    )
    return RunWriteError(
        error.errno,
        f"{os.strerror(error.errno)} while training in {run_dir}; {kept}; free space, then "
        f"`rlm-gym train --resume {run_dir}`",
    )


def _finish_segment(
    files: _RunFiles, model: Any, error: BaseException | None, stopped: bool, flag: Any
) -> None:
    segment = files.config["segments"][-1]
    segment["ended"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    segment["to_timesteps"] = int(model.num_timesteps)
    if stopped or isinstance(error, KeyboardInterrupt):
        status = "interrupted"
    elif error is not None:
        status = "failed"
        files.config["error"] = f"{type(error).__name__}: {error}"
    else:
        status = "finished"
    segment["status"] = status
    if status == "finished":
        if int(files.config.get("n_eval_episodes", 0)):
            files.evaluate(model)
        files.write_state(model, "finished", checkpoint=False, final=True)
        return
    try:
        files.write_state(model, status, checkpoint=True, keep_going=error is not None)
    except OSError:
        if error is None:
            raise
        # The training error is the news; the last periodic checkpoint is still on disk.
        return
    if stopped:
        raise TrainingInterrupted(files.run_dir, flag.signum, int(model.num_timesteps)) from error


def _metrics(episodes: list[dict[str, Any]], timesteps: int, wall_time: float) -> dict[str, Any]:
    tail = episodes[-max(1, len(episodes) // 10) :] if episodes else []
    mean = (lambda key: sum(e[key] for e in tail) / len(tail)) if tail else (lambda key: None)
    return {
        "timesteps": int(timesteps),
        "wall_time_s": round(wall_time, 3),
        "steps_per_s": round(timesteps / wall_time, 1) if wall_time > 0 else None,
        "episodes": len(episodes),
        "final_true_score": mean("true_score"),
        "final_shaped_return": mean("shaped_return"),
    }


def write_episodes(episodes: list[dict[str, Any]], path: str | Path) -> None:
    """Write episode records as CSV (columns: the union of their keys, first-seen order),
    atomically."""
    columns: dict[str, None] = {}
    for record in episodes:
        columns.update(dict.fromkeys(record))
    with atomic_write(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(columns))
        writer.writeheader()
        writer.writerows(episodes)


def _cell(text: str) -> Any:
    for kind in (int, float):
        try:
            value = kind(text)
        except ValueError:
            continue
        return value if kind is int or math.isfinite(value) else text
    return text


def read_episodes(path: str | Path, max_timestep: int | None = None) -> list[dict[str, Any]]:
    """Episode records written by ``write_episodes`` (numbers parsed back), optionally only
    those recorded at or before ``max_timestep``.

    Example:
        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "episodes.csv"
        >>> write_episodes([{"timestep": 8, "score": 0.5, "tier": "good"},
        ...                 {"timestep": 16, "score": 1.0, "tier": "poor"}], path)
        >>> read_episodes(path, max_timestep=10)
        [{'timestep': 8, 'score': 0.5, 'tier': 'good'}]
    """
    path = Path(path)
    if not path.is_file():
        return []
    with open(path, newline="", encoding="utf-8") as handle:
        records = [
            {key: _cell(value) for key, value in row.items() if value != ""}
            for row in csv.DictReader(handle)
        ]
    if max_timestep is None:
        return records
    return [r for r in records if int(r.get("timestep", 0)) <= max_timestep]


def load_model(path: str | Path, algo: str | None = None) -> Any:
    """Load a model saved by ``train``: a run directory (its ``model.zip``, else its last
    ``checkpoint.zip``) or a model file such as ``best_model.zip``.

    ``algo`` defaults to the one in the run's ``config.json``, else ``"ppo"``.

    Raises:
        FileNotFoundError: No such path, or a directory without a model.
    """
    model_path = find_model(path)
    run_dir = model_path.parent
    if algo is None:
        config_path = run_dir / RUN_CONFIG_FILE
        algo = read_run_config(run_dir).get("algo", "ppo") if config_path.exists() else "ppo"
    return algorithm_class(algo).load(model_path, device="cpu")
