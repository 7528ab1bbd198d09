"""``train`` / ``resume``: PPO / MaskablePPO against a reward policy, in runs that never lose work.

The envs are SB3's vector env of the run's env with the reward policy in it, per env or over
the whole vector env (``vec_envs``: same rewards either way), so SB3's monitor records the
reward the agent learns from and ``info["env_reward"]`` keeps the env's own reward for the
true score.

With a ``log_dir`` every run gets its own directory (``runs.unique_run_dir``: an existing,
non-empty directory is never reused, a ``-2``, ``-3`` ... suffix is added), files are written
atomically, checkpoints are written periodically, SIGINT / SIGTERM save the run and mark it
``"interrupted"``, and ``resume(run_dir)`` continues it (see ``rlm_gym.training.runs``).
"""

from __future__ import annotations

import contextlib
import functools
import json
import platform
import sys
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import gymnasium as gym

from rlm_gym.policies import RewardPolicy
from rlm_gym.training._deps import require
from rlm_gym.training.env_factory import check_policy_fits
from rlm_gym.training.models import algorithm_class, choose_algo, load_model, model_kwargs
from rlm_gym.training.run_config import RunConfig
from rlm_gym.training.run_recorder import RunRecorder, run_metrics
from rlm_gym.training.runs import (
    BEST_MODEL_FILE,
    CHECKPOINT_FILE,
    EPISODES_FILE,
    METRICS_FILE,
    RUN_CONFIG_FILE,
    read_episodes,
    read_evaluations,
    read_run_config,
    unique_run_dir,
)
from rlm_gym.training.vec_envs import make_training_vec_env, per_env_factory

__all__ = ["TrainResult", "TrainingInterrupted", "resume", "train"]


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


def train(
    env_id: str | RunConfig | None = None,
    policy: str | RewardPolicy | None = None,
    /,
    **settings: Any,
) -> TrainResult:
    """Train an agent on ``env_id`` with ``policy``'s (ablated) reward.

    ``train(env_id, policy, total_timesteps=..., seed=..., ...)`` takes the settings of
    ``RunConfig`` (see there for each one); ``train(RunConfig(...))`` takes a whole one, and
    keyword settings next to it replace some of its values.

    Returns:
        The ``TrainResult``.

    Raises:
        ValueError: Unknown ``algo``, ``vec_env``, policy, component or hyper-parameter, a
            budget <= 0, a policy that does not fit the env.
        TypeError: A hyper-parameter of the wrong kind, an unknown setting.
        TrainingInterrupted: SIGINT / SIGTERM arrived; the run was saved first.

    Example - a few hundred steps on CartPole:
        >>> result = train(
        ...     "CartPole-v1", "lenient", total_timesteps=256, n_envs=2
        ... )  # doctest: +SKIP
        >>> result.metrics["timesteps"]  # doctest: +SKIP
        256
    """
    config = _run_config(env_id, policy, settings)
    require("torch", "stable_baselines3")
    if config.algo is not None:
        algorithm_class(config.algo)
    factory = per_env_factory(config)
    # Fail fast (unknown policy/component/env id, a policy that does not fit) before any
    # directory or worker exists.
    masks = check_policy_fits(factory, config.policy_name, config.env_id)
    config = replace(config, algo=choose_algo(config.algo, masks, config.env_id))
    run_dir = unique_run_dir(config.log_dir) if config.log_dir is not None else None
    record = {
        **config.to_json(),
        "python": platform.python_version(),
        "status": "running",
        "timesteps_done": 0,
        "wall_time_s": 0.0,
        "segments": [],
    }
    return _learn(config, run_dir, record, factory, None, [], [])


def _run_config(
    env_id: str | RunConfig | None, policy: str | RewardPolicy | None, settings: dict[str, Any]
) -> RunConfig:
    if isinstance(env_id, RunConfig):
        if policy is not None:
            raise TypeError("train() takes a RunConfig or an env id and policy, not both")
        return replace(env_id, **settings) if settings else env_id
    for name, value in (("env_id", env_id), ("policy", policy)):
        if value is not None:
            if name in settings:
                raise TypeError(f"train() got multiple values for argument '{name}'")
            settings[name] = value
    return RunConfig(**settings)


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
    require("torch", "stable_baselines3")
    run_dir = Path(run_dir)
    record = read_run_config(run_dir)
    _check_resumable(run_dir, record)
    config = RunConfig.from_json(
        record, log_dir=run_dir, progress_bar=progress_bar, verbose=verbose
    )
    model, done = None, 0
    checkpoint = run_dir / CHECKPOINT_FILE
    if checkpoint.is_file():
        model = load_model(checkpoint, config.algo)
        done = int(model.num_timesteps)
    episodes = read_episodes(run_dir / EPISODES_FILE, max_timestep=done)
    evaluations = read_evaluations(run_dir, done)
    best = record.get("best")
    if best is not None and best.get("timestep", 0) > done:
        # The best model came from the part of a killed run that is being replayed.
        with contextlib.suppress(FileNotFoundError):
            (run_dir / BEST_MODEL_FILE).unlink()
        record["best"] = None
    record["timesteps_done"] = done
    factory = per_env_factory(config, done)
    return _learn(config, run_dir, record, factory, model, episodes, evaluations)


def _check_resumable(run_dir: Path, record: Mapping[str, Any]) -> None:
    required = ("env_id", "policy", "algo", "total_timesteps")
    missing = [key for key in required if key not in record]
    if missing:
        raise ValueError(f"{run_dir / RUN_CONFIG_FILE} lacks {', '.join(missing)}; cannot resume")
    if record.get("status") == "finished":
        raise ValueError(
            f"{run_dir} is already finished ({record.get('timesteps_done', 0):,} of "
            f"{record['total_timesteps']:,} steps); start a new run instead"
        )
    if record.get("policy_is_instance"):
        raise ValueError(
            f"{run_dir} was trained with a policy instance ({record['policy']}); "
            "only runs of a registered policy name can be resumed"
        )


def _learn(
    config: RunConfig,
    run_dir: Path | None,
    record: dict[str, Any],
    factory: Callable[[], gym.Env],
    model: Any,
    episodes: list[dict[str, Any]],
    evaluations: list[dict[str, Any]],
) -> TrainResult:
    from rlm_gym.training.callbacks import RewardComponentsCallback
    from rlm_gym.training.lifecycle import (
        RunCallback,
        progress_callbacks,
        quiet_writer_threads,
        stop_on_signals,
        unchecked_distributions,
    )
    from rlm_gym.training.progress_log import run_logger

    algo_cls = algorithm_class(config.algo)
    if config.torch_threads is not None:
        import torch

        torch.set_num_threads(int(config.torch_threads))
    total = config.total_timesteps
    done = int(model.num_timesteps) if model is not None else 0
    envs = make_training_vec_env(config, config.seed + done, done)
    if model is None:
        model = algo_cls(
            "MlpPolicy",
            envs,
            seed=config.seed,
            verbose=config.verbose,
            device="cpu",
            **model_kwargs(config.hyperparams),
        )
    else:
        model.set_env(envs)
        model._last_obs = None  # new envs: SB3 resets them at the start of learn()
    components = RewardComponentsCallback()
    components.episodes = episodes
    started = time.perf_counter()
    recorder = None
    if run_dir is not None:
        model.set_logger(run_logger(run_dir, done, config.tensorboard, config.verbose))
        recorder = RunRecorder(run_dir, config, record, episodes, evaluations, started)
        recorder.start_segment(model)
    label = f"train {run_dir.name}" if run_dir is not None else "train"
    use_bar, progress = progress_callbacks(config.progress_bar, label, total)
    announce = functools.partial(print, file=sys.stderr, flush=True)
    # Handlers only when there is a run to save; otherwise Ctrl-C keeps its usual effect.
    signals = stop_on_signals(announce) if recorder is not None else contextlib.nullcontext(None)
    error: BaseException | None = None
    with signals as flag, quiet_writer_threads():
        run_callback = None
        if recorder is not None:
            run_callback = RunCallback(
                flag,
                checkpoint=lambda m: recorder.write_state(m, "running", checkpoint=True),
                checkpoint_freq=config.checkpoint_freq,
                evaluate=recorder.evaluate if config.n_eval_episodes else None,
                eval_freq=config.eval_freq,
                start=done,
            )
        callbacks = [components, *progress, *([run_callback] if run_callback else [])]
        if config.reward_schedule is not None:
            from rlm_gym.training.schedule_callback import RewardScheduleCallback

            callbacks.insert(0, RewardScheduleCallback(config.reward_schedule))
        try:
            if total > done:
                with warnings.catch_warnings(), unchecked_distributions():
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
    if recorder is not None:
        saved = recorder.finish_segment(model, error, stopped)
        if saved and stopped:
            raise TrainingInterrupted(run_dir, flag.signum, int(model.num_timesteps)) from error
        if error is not None:
            raise recorder.explain(error) from error
    if error is not None:
        raise error
    metrics = run_metrics(episodes, model.num_timesteps, time.perf_counter() - started)
    if run_dir is not None:
        metrics = json.loads((run_dir / METRICS_FILE).read_text())
    return TrainResult(model, record, metrics, episodes, run_dir)
