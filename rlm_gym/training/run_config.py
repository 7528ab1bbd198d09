"""``RunConfig``: every setting of a training run, checked once, written to ``config.json``.

``train(env_id, policy, **settings)`` builds one from its arguments; ``resume`` reads one back
from a run directory's ``config.json`` (``RunConfig.from_json``). The PPO hyper-parameters are
stored resolved (``DEFAULT_HYPERPARAMS`` under the overrides, the rollout fitted to the budget)
and in their JSON form, so a run trains with exactly what its ``config.json`` says.
"""

from __future__ import annotations

import importlib
import json
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import KW_ONLY, dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym

from rlm_gym._validation import unknown_name_error
from rlm_gym.policies import RewardPolicy
from rlm_gym.training.env_factory import VECTOR_RESETS, resolve_reward_wrapping
from rlm_gym.training.hyperparams import check_hyperparams, parse_policy_kwargs
from rlm_gym.training.models import ALGORITHMS
from rlm_gym.wrappers.schedule import WeightSchedule

__all__ = [
    "DEFAULT_CHECKPOINT_FREQ",
    "DEFAULT_EVAL_EPISODES",
    "DEFAULT_EVAL_FREQ",
    "DEFAULT_EVAL_SEED",
    "DEFAULT_HYPERPARAMS",
    "VEC_ENVS",
    "RunConfig",
    "ShortBudgetWarning",
    "short_budget_message",
]

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
VEC_ENVS: tuple[str, ...] = ("dummy", "subproc")
# Run directories written before 0.3 name the crawl potential at its old home.
_RENAMED_POTENTIALS = {
    "rlm_gym.training.trainer:crawl_potential": "rlm_gym.training.env_factory:crawl_potential"
}

Shaping = str | Callable[[gym.Env], float] | None


@dataclass(frozen=True)
class RunConfig:
    """Every setting of one training run (``env_id`` and ``policy`` by position or keyword,
    the rest by keyword).

    Attributes:
        env_id: A registered env id (e.g. ``rlm_gym.envs.CRAWL_ENV_ID``).
        policy: Reward policy name or instance (a name for ``vec_env="subproc"`` and to resume).
        config: Policy config overrides.
        disable: Components to switch off.
        weights: Component multipliers.
        reward_schedule: A ``WeightSchedule`` of component weights over the training step
            (or its ``to_dict()`` form); checked against the policy's components, none also
            in ``disable`` or ``weights``. ``train`` installs ``RewardScheduleCallback`` so
            the schedule's clock follows ``num_timesteps`` (also after ``resume``).
        total_timesteps: Env steps to train for (over all envs), > 0.
        n_envs: Parallel envs, > 0.
        seed: Seeds the model and the envs (env ``i`` gets ``seed + i``).
        hyperparams: Overrides of ``DEFAULT_HYPERPARAMS`` (PPO keyword arguments, checked by
            ``hyperparams.check_hyperparams``; rl-zoo3's ``"lin_<x>"`` schedules work). Once
            built, the resolved settings: the defaults under the overrides, ``n_steps`` and
            ``batch_size`` cut to the budget, in their JSON form.
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
        reward_wrapping: How the reward policy wraps the envs: ``"per_env"`` (a
            ``RewardPolicyWrapper`` in each env), ``"vector"`` (one ``VecRewardPolicyWrapper``
            over the vector env) or ``"auto"``: ``"vector"`` for ``dummy`` runs of 16 envs or
            more without shaping of an env whose steps report no ``ActionResult`` (not the
            crawl envs), else ``"per_env"`` (``rlm_gym.training.vec_envs``). Both
            give the same rewards for the same seed (with a ``reward_schedule`` the vector
            path's clock is ``num_timesteps`` at every step, per-env wrappers' is set at each
            rollout start, SPEC 9.2). Once built, the path that runs (``config.json`` records
            it; a run recorded without one trained ``"per_env"``).
        vector_resets: How a batched env (an env with a ``vector_entry_point``, trained as one
            batch) draws its sites: ``"exact"`` replays the single env seeded ``seed + i`` in
            sub-env ``i`` (the per-env path's agent, weight for weight); ``"fast"`` draws
            them from one generator for the batch (the same distributions, two-sample tests in
            docs/environment.md; other per-seed numbers, less CPU per reset). Other envs
            ignore it.
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

    Raises:
        ValueError: Unknown ``algo``, ``vec_env`` or hyper-parameter, a budget <= 0.
        TypeError: A budget or a hyper-parameter of the wrong kind.

    Example:
        >>> import warnings
        >>> with warnings.catch_warnings(record=True) as caught:  # the budget cuts the rollout
        ...     warnings.simplefilter("always")
        ...     config = RunConfig("CartPole-v1", "lenient", total_timesteps=256, n_envs=2)
        >>> [type(warning.message).__name__ for warning in caught]
        ['ShortBudgetWarning']
        >>> config.hyperparams["n_steps"], config.hyperparams["batch_size"]
        (128, 256)
        >>> RunConfig("CartPole-v1", vec_env="threads")
        Traceback (most recent call last):
        ...
        ValueError: Unknown vec_env 'threads'. Available: 'dummy', 'subproc'
    """

    env_id: str
    policy: str | RewardPolicy = "crawl"
    _: KW_ONLY
    config: Mapping[str, Any] | None = None
    disable: Iterable[str] = ()
    weights: Mapping[str, float] | None = None
    reward_schedule: WeightSchedule | None = None
    total_timesteps: int = 50_000
    n_envs: int = 4
    seed: int = 0
    hyperparams: Mapping[str, Any] | None = None
    log_dir: str | Path | None = None
    algo: str | None = None
    env_kwargs: Mapping[str, Any] | None = None
    shaping: Shaping = None
    vec_env: str = "dummy"
    reward_wrapping: str = "auto"
    vector_resets: str = "exact"
    torch_threads: int | None = 1
    progress_bar: bool = True
    tensorboard: bool = True
    verbose: int = 0
    checkpoint_freq: int = DEFAULT_CHECKPOINT_FREQ
    eval_freq: int = DEFAULT_EVAL_FREQ
    n_eval_episodes: int = DEFAULT_EVAL_EPISODES
    eval_seed: int = DEFAULT_EVAL_SEED

    def __post_init__(self) -> None:
        _check_positive("total_timesteps", self.total_timesteps)
        _check_positive("n_envs", self.n_envs)
        for name in ("checkpoint_freq", "eval_freq", "n_eval_episodes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"Expected `{name}` to be an integer >= 0, got {value!r}")
        if self.vec_env not in VEC_ENVS:
            raise unknown_name_error("vec_env", self.vec_env, VEC_ENVS)
        if self.vector_resets not in VECTOR_RESETS:
            raise unknown_name_error("vector_resets", self.vector_resets, VECTOR_RESETS)
        if self.algo is not None and self.algo not in ALGORITHMS:
            raise unknown_name_error("algo", self.algo, ALGORITHMS)
        overrides = dict(self.hyperparams or {})
        if "policy_kwargs" in overrides:
            overrides["policy_kwargs"] = parse_policy_kwargs(overrides["policy_kwargs"])
        check_hyperparams(overrides, self.algo or "ppo", source="hyperparams")
        schedule = _checked_schedule(
            self.reward_schedule, self.policy, tuple(self.disable), self.weights
        )
        # Frozen: the normalised values are set once, here.
        normalised = {
            "reward_schedule": schedule,
            "reward_wrapping": resolve_reward_wrapping(
                self.reward_wrapping,
                self.shaping,
                self.vec_env,
                self.n_envs,
                self.env_id,
                self.policy,
                schedule,
            ),
            "hyperparams": _jsonable(
                _resolve_hyperparams(overrides, self.total_timesteps, self.n_envs)
            ),
            "disable": tuple(self.disable),
            "config": _copy(self.config),
            "weights": _copy(self.weights),
            "env_kwargs": _copy(self.env_kwargs),
        }
        for name, value in normalised.items():
            object.__setattr__(self, name, value)

    @property
    def policy_name(self) -> str:
        """The policy's registered name, or its class name for an instance."""
        return self.policy if isinstance(self.policy, str) else type(self.policy).__name__

    @property
    def shaping_gamma(self) -> float:
        """The discount of the potential shaping: the agent's own ``gamma``."""
        return float(self.hyperparams.get("gamma", 0.99))

    def to_json(self) -> dict[str, Any]:
        """The settings as ``config.json`` records them (the display settings ``log_dir``,
        ``progress_bar`` and ``verbose`` are not part of a run's record; ``reward_schedule``,
        as ``WeightSchedule.to_dict()``, only when there is one).

        Example:
            >>> RunConfig("CartPole-v1", "lenient", algo="ppo").to_json()["algo"]
            'ppo'
        """
        record = _jsonable(
            {
                "env_id": self.env_id,
                "policy": self.policy_name,
                "policy_is_instance": not isinstance(self.policy, str),
                "config": dict(self.config or {}),
                "disable": list(self.disable),
                "weights": dict(self.weights or {}),
                "total_timesteps": int(self.total_timesteps),
                "n_envs": int(self.n_envs),
                "seed": int(self.seed),
                "algo": self.algo,
                "hyperparams": self.hyperparams,
                "env_kwargs": dict(self.env_kwargs or {}),
                "shaping": _shaping_name(self.shaping),
                "vec_env": self.vec_env,
                "reward_wrapping": self.reward_wrapping,
                "torch_threads": self.torch_threads,
                "tensorboard": bool(self.tensorboard),
                "checkpoint_freq": int(self.checkpoint_freq),
                "eval_freq": int(self.eval_freq),
                "n_eval_episodes": int(self.n_eval_episodes),
                "eval_seed": int(self.eval_seed),
            }
        )
        if self.vector_resets != "exact":
            # Only when not the default: a run of exact resets writes what earlier runs wrote.
            record["vector_resets"] = self.vector_resets
        if self.reward_schedule is not None:
            # Only when given: a run without one writes what runs before schedules wrote.
            record["reward_schedule"] = self.reward_schedule.to_dict()
        return record

    @classmethod
    def from_json(
        cls,
        record: Mapping[str, Any],
        *,
        log_dir: str | Path | None = None,
        progress_bar: bool = True,
        verbose: int = 0,
    ) -> RunConfig:
        """The settings of a ``config.json`` (as ``read_run_config`` returns it).

        A setting missing from an older file takes the value training gave it then: no
        checkpoints, no evaluation, torch's own thread count.

        Raises:
            KeyError: ``env_id``, ``policy``, ``algo``, ``total_timesteps``, ``n_envs`` or
                ``seed`` is missing.
            ValueError: The run was shaped with an unnamed callable (it cannot be rebuilt).
        """
        return cls(
            record["env_id"],
            record["policy"],
            config=record.get("config") or None,
            disable=tuple(record.get("disable") or ()),
            weights=record.get("weights") or None,
            reward_schedule=_schedule_from_json(record.get("reward_schedule")),
            total_timesteps=int(record["total_timesteps"]),
            n_envs=int(record["n_envs"]),
            seed=int(record["seed"]),
            hyperparams=record.get("hyperparams") or {},
            log_dir=log_dir,
            algo=record["algo"],
            env_kwargs=record.get("env_kwargs") or None,
            shaping=_shaping_from_name(record.get("shaping")),
            vec_env="subproc" if record.get("vec_env") == "subproc" else "dummy",
            reward_wrapping=record.get("reward_wrapping", "per_env"),
            vector_resets=record.get("vector_resets", "exact"),
            torch_threads=record.get("torch_threads"),
            progress_bar=progress_bar,
            tensorboard=record.get("tensorboard", True),
            verbose=verbose,
            checkpoint_freq=int(record.get("checkpoint_freq", 0)),
            eval_freq=int(record.get("eval_freq", 0)),
            n_eval_episodes=int(record.get("n_eval_episodes", 0)),
            eval_seed=int(record.get("eval_seed", DEFAULT_EVAL_SEED)),
        )


def _checked_schedule(
    schedule: Any,
    policy: str | RewardPolicy,
    disable: tuple[str, ...],
    weights: Mapping[str, float] | None,
) -> WeightSchedule | None:
    """``reward_schedule`` as a ``WeightSchedule`` (a ``to_dict()`` form is read), checked
    against the policy's components, ``disable`` and ``weights``."""
    if schedule is None:
        return None
    if isinstance(schedule, Mapping):
        schedule = WeightSchedule.from_dict(schedule)
    if not isinstance(schedule, WeightSchedule):
        raise TypeError(
            "Expected `reward_schedule` to be a WeightSchedule (or its to_dict() form), "
            f"got {type(schedule).__name__} {schedule!r}"
        )
    from rlm_gym.policies import PolicyRegistry
    from rlm_gym.wrappers.ablation import check_schedule

    policy_cls = PolicyRegistry.get_reward_class(policy) if isinstance(policy, str) else policy
    name = policy if isinstance(policy, str) else type(policy).__name__
    check_schedule(schedule, tuple(policy_cls.component_names), name, disable, weights)
    return schedule


def _schedule_from_json(data: Mapping[str, Any] | None) -> WeightSchedule | None:
    return WeightSchedule.from_dict(data) if data else None


def _check_positive(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"Expected `{name}` to be a positive integer, got {value!r}")
    if value <= 0:
        raise ValueError(f"Expected `{name}` to be a positive integer, got {value}")
    return value


class ShortBudgetWarning(UserWarning):
    """The budget is below one PPO rollout, so the run trains on a rollout cut to fit it."""


def _fitted_n_steps(n_steps: int, total_timesteps: int, n_envs: int) -> int:
    # A tiny budget (tests, quick runs, the README's commands at 256 steps) still gets one
    # full rollout and one PPO update, on a shorter rollout than the recipe's.
    return max(8, min(n_steps, total_timesteps // max(1, n_envs)))


def short_budget_message(
    total_timesteps: int, n_envs: int, hyperparams: Mapping[str, Any] | None = None
) -> str | None:
    """What a budget below one PPO rollout does to the run, or None when it holds one.

    PPO updates once per rollout of ``n_steps`` x ``n_envs`` steps. A smaller budget is not
    refused (tests and quick runs train for a few hundred steps): the rollout is cut to fit it,
    and this says so.

    Example:
        >>> print(short_budget_message(100, 4))
        `total_timesteps` (--timesteps) 100 is below one PPO rollout of n_steps x n_envs = 1,024 x 4 = 4,096 steps: this run's rollout is cut to 25 x 4 = 100 steps (config.json records it), one PPO update on a rollout the recipe did not ask for. The smallest budget that trains the recipe's rollout is 4,096 (or set n_steps, e.g. --hp n_steps=25)
        >>> short_budget_message(4096, 4) is None
        True
    """  # noqa: E501
    n_steps = int({**DEFAULT_HYPERPARAMS, **dict(hyperparams or {})}["n_steps"])
    fitted = _fitted_n_steps(n_steps, total_timesteps, n_envs)
    if fitted >= n_steps:
        return None
    rollout = n_steps * n_envs
    return (
        f"`total_timesteps` (--timesteps) {total_timesteps:,} is below one PPO rollout of "
        f"n_steps x n_envs = {n_steps:,} x {n_envs} = {rollout:,} steps: this run's rollout is "
        f"cut to {fitted:,} x {n_envs} = {fitted * n_envs:,} steps (config.json records it), "
        "one PPO update on a rollout the recipe did not ask for. The smallest budget that "
        f"trains the recipe's rollout is {rollout:,} (or set n_steps, e.g. "
        f"--hp n_steps={fitted})"
    )


def _resolve_hyperparams(
    hyperparams: Mapping[str, Any], total_timesteps: int, n_envs: int
) -> dict[str, Any]:
    params = {**DEFAULT_HYPERPARAMS, **hyperparams}
    message = short_budget_message(total_timesteps, n_envs, hyperparams)
    if message is not None:
        warnings.warn(message, ShortBudgetWarning, stacklevel=4)
    per_env = _fitted_n_steps(int(params["n_steps"]), total_timesteps, n_envs)
    params["n_steps"] = per_env
    params["batch_size"] = min(int(params["batch_size"]), per_env * n_envs)
    return params


def _copy(mapping: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return dict(mapping) if mapping is not None else None


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def _shaping_name(shaping: Shaping) -> str | None:
    """How ``config.json`` records the shaping: a method name or ``module:function``."""
    if shaping is None or isinstance(shaping, str):
        return shaping
    module, name = getattr(shaping, "__module__", None), getattr(shaping, "__qualname__", "")
    if module and name and "<" not in name:
        return f"{module}:{name}"
    return "callable"


def _shaping_from_name(name: str | None) -> Shaping:
    if name is None or ":" not in name:
        if name == "callable":
            raise ValueError(
                "This run was shaped with an unnamed callable; it cannot be rebuilt from "
                "config.json. Use a module-level function"
            )
        return name
    module, _, qualname = _RENAMED_POTENTIALS.get(name, name).partition(":")
    target: Any = importlib.import_module(module)
    for part in qualname.split("."):
        target = getattr(target, part)
    return target
