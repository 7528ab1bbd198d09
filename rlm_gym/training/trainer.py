"""``train``: PPO / MaskablePPO against a reward policy, with component logging and run files.

The envs are built as ``make_vec_env(factory)`` where the factory returns
``RewardPolicyWrapper(gym.make(env_id, **env_kwargs), policy, ...)`` (optionally inside a
``PotentialShapingWrapper``), so SB3's ``Monitor`` records the reward the agent learns from, and
``info["env_reward"]`` keeps the env's own reward for the true score.
"""

from __future__ import annotations

import csv
import functools
import json
import platform
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import gymnasium as gym

from rlm_gym._validation import unknown_name_error
from rlm_gym.policies import RewardPolicy
from rlm_gym.training.episodes import make_bare_env
from rlm_gym.wrappers import RewardPolicyWrapper

__all__ = [
    "ALGORITHMS",
    "DEFAULT_ALGO",
    "DEFAULT_HYPERPARAMS",
    "FinalStepTerminates",
    "TrainResult",
    "algorithm_class",
    "crawl_potential",
    "load_model",
    "make_env",
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

# PPO defaults for rlm_gym/Crawl-v0 (episodes of 3-30 steps, one terminal reward), chosen by
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

RUN_CONFIG_FILE = "config.json"
METRICS_FILE = "metrics.json"
EPISODES_FILE = "episodes.csv"
MODEL_FILE = "model.zip"


@dataclass
class TrainResult:
    """What ``train`` returns.

    Attributes:
        model: The trained SB3 model.
        config: The run config (also written to ``<log_dir>/config.json``).
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


class FinalStepTerminates(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Report a step that delivers the final result (``action_type == "final"``) as terminated.

    The crawl env ends its step budget with the crawl result paid as reward but flags the step
    ``truncated``; SB3 then adds ``gamma * V(s_last)`` to that reward as if the crawl went on,
    which pays the agent for running into the step budget instead of stopping. The result is
    delivered and scored, so nothing follows: for learning it is a terminal step.

    Example:
        >>> env = FinalStepTerminates(gym.make("CartPole-v1"))
        >>> _ = env.reset(seed=0)
        >>> env.step(0)[2:4]
        (False, False)
    """

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.Wrapper.__init__(self, env)

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if truncated and not terminated and _is_final(info.get("action_result")):
            terminated, truncated = True, False
        return obs, reward, terminated, truncated, info


def _is_final(result: Any) -> bool:
    if result is None:
        return False
    action_type = result.get("action_type") if isinstance(result, Mapping) else result.action_type
    return action_type == "final"


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
    env = FinalStepTerminates(make_bare_env(env_id, env_kwargs))
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

    ``learning_rate_schedule="linear"`` anneals ``learning_rate`` linearly to 0 over training.
    """
    kwargs = dict(params)
    schedule = kwargs.pop("learning_rate_schedule", "constant")
    if schedule == "linear":
        initial = float(kwargs["learning_rate"])
        kwargs["learning_rate"] = functools.partial(_linear, initial)
    elif schedule != "constant":
        raise unknown_name_error("learning_rate_schedule", schedule, ("constant", "linear"))
    return kwargs


def _linear(initial: float, progress_remaining: float) -> float:
    return initial * progress_remaining


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


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
    algo: str = DEFAULT_ALGO,
    env_kwargs: Mapping[str, Any] | None = None,
    shaping: str | Callable[[gym.Env], float] | None = None,
    vec_env: str = "dummy",
    torch_threads: int | None = 1,
    progress_bar: bool = False,
    tensorboard: bool = True,
    verbose: int = 0,
) -> TrainResult:
    """Train an agent on ``env_id`` with ``policy``'s (ablated) reward.

    Args:
        env_id: A registered env id (e.g. ``"rlm_gym/Crawl-v0"``).
        policy: Reward policy name or instance (a name for ``vec_env="subproc"``).
        config: Policy config overrides.
        disable: Components to switch off.
        weights: Component multipliers.
        total_timesteps: Env steps to train for (over all envs).
        n_envs: Parallel envs.
        seed: Seeds the model and the envs (env ``i`` gets ``seed + i``).
        hyperparams: Overrides of ``DEFAULT_HYPERPARAMS`` (any PPO keyword argument).
        log_dir: Write ``model.zip``, ``config.json``, ``metrics.json``, ``episodes.csv``,
            ``progress.csv`` and TensorBoard events here (nothing is written when None).
        algo: ``"ppo"`` or ``"maskable_ppo"`` (sb3-contrib, uses the env's ``action_masks``).
        env_kwargs: Passed to ``gym.make``.
        shaping: Add potential-based shaping with this potential (``"potential"`` calls the
            env's ``potential()``; or a callable ``potential(env) -> float``).
        vec_env: ``"dummy"`` (one process; fastest for a cheap env) or ``"subproc"``.
        torch_threads: ``torch.set_num_threads`` value (1: two threads measured 3x slower on
            2 cores for these small networks); None leaves torch alone.
        progress_bar: Show SB3's progress bar (needs ``tqdm`` and ``rich``).
        tensorboard: Also write TensorBoard events when ``log_dir`` is set.
        verbose: SB3 verbosity.

    Returns:
        The ``TrainResult``.

    Raises:
        ValueError: Unknown ``algo``, ``vec_env``, policy or component.

    Example - a few hundred steps on CartPole:
        >>> result = train(
        ...     "CartPole-v1", "lenient", total_timesteps=256, n_envs=2
        ... )  # doctest: +SKIP
        >>> result.metrics["timesteps"]  # doctest: +SKIP
        256
    """
    from rlm_gym.training._deps import require

    require("torch", "stable_baselines3")
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from rlm_gym.training.callbacks import RewardComponentsCallback

    if vec_env not in ("dummy", "subproc"):
        raise unknown_name_error("vec_env", vec_env, ("dummy", "subproc"))
    algo_cls = algorithm_class(algo)
    _set_torch_threads(torch_threads)
    params = _resolve_hyperparams(hyperparams, total_timesteps, n_envs)
    disable = tuple(disable)
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
    factory()  # fail fast (unknown policy/component/env id) before starting any worker
    vec_cls, vec_kwargs = DummyVecEnv, {}
    if vec_env == "subproc":
        vec_cls, vec_kwargs = SubprocVecEnv, {"start_method": "forkserver"}
    envs = make_vec_env(
        factory, n_envs=n_envs, seed=seed, vec_env_cls=vec_cls, vec_env_kwargs=vec_kwargs
    )
    run_config = _jsonable(
        {
            "env_id": env_id,
            "policy": policy if isinstance(policy, str) else type(policy).__name__,
            "config": dict(config or {}),
            "disable": list(disable),
            "weights": dict(weights or {}),
            "total_timesteps": int(total_timesteps),
            "n_envs": int(n_envs),
            "seed": int(seed),
            "algo": algo,
            "hyperparams": params,
            "env_kwargs": dict(env_kwargs or {}),
            "shaping": shaping if shaping is None or isinstance(shaping, str) else "callable",
            "torch_threads": torch_threads,
            "python": platform.python_version(),
        }
    )
    model = algo_cls(
        "MlpPolicy", envs, seed=seed, verbose=verbose, device="cpu", **_model_kwargs(params)
    )
    run_dir = Path(log_dir) if log_dir is not None else None
    if run_dir is not None:
        from stable_baselines3.common.logger import configure

        run_dir.mkdir(parents=True, exist_ok=True)
        formats = ["csv", "tensorboard"] if tensorboard else ["csv"]
        if verbose:
            formats.append("stdout")
        model.set_logger(configure(str(run_dir), formats))
    callback = RewardComponentsCallback()
    started = time.perf_counter()
    try:
        model.learn(total_timesteps, callback=callback, progress_bar=progress_bar)
    finally:
        envs.close()
    wall_time = time.perf_counter() - started
    metrics = _metrics(callback.episodes, model.num_timesteps, wall_time)
    result = TrainResult(model, run_config, metrics, callback.episodes, run_dir)
    if run_dir is not None:
        _write_run(result)
    return result


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


def _write_run(result: TrainResult) -> None:
    run_dir = result.log_dir
    assert run_dir is not None
    result.model.save(run_dir / MODEL_FILE)
    (run_dir / RUN_CONFIG_FILE).write_text(json.dumps(result.config, indent=2) + "\n")
    (run_dir / METRICS_FILE).write_text(json.dumps(result.metrics, indent=2) + "\n")
    write_episodes(result.episodes, run_dir / EPISODES_FILE)


def write_episodes(episodes: list[dict[str, Any]], path: str | Path) -> None:
    """Write episode records as CSV (columns: the union of their keys, first-seen order)."""
    columns: dict[str, None] = {}
    for record in episodes:
        columns.update(dict.fromkeys(record))
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(columns))
        writer.writeheader()
        writer.writerows(episodes)


def load_model(path: str | Path, algo: str | None = None) -> Any:
    """Load a model saved by ``train`` (a run directory or its ``model.zip``).

    ``algo`` defaults to the one in the run's ``config.json``, else ``"ppo"``.
    """
    path = Path(path)
    run_dir = path if path.is_dir() else path.parent
    model_path = path / MODEL_FILE if path.is_dir() else path
    if algo is None:
        config_path = run_dir / RUN_CONFIG_FILE
        algo = json.loads(config_path.read_text())["algo"] if config_path.exists() else "ppo"
    return algorithm_class(algo).load(model_path, device="cpu")
