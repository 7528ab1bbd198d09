"""A run's training vector env: a reward wrapper per env, or one over the whole vector env.

Two ways to put the reward policy into SB3's vector env give the same rewards, info keys and
episodes for the same seed (``tests/training/test_vec_envs.py`` trains both and compares the
models):

* ``"per_env"``: ``make_vec_env`` of ``RewardPolicyWrapper(env)`` (``env_factory.make_env``),
  each in SB3's ``Monitor``. Potential shaping wraps each env, so a shaped run takes this path.
* ``"vector"``: SB3's vector env of bare envs, inside one ``VecRewardPolicyWrapper`` that
  scores all of them (a built-in policy in one numpy pass), inside ``VecMonitor``. An env with
  a ``vector_entry_point`` (Crawl-v2) is instead made as one batch
  (``gym.make_vec``: ``CrawlVectorEnv``) inside one ``VectorRewardPolicyWrapper``, seen by SB3
  through ``batched_vec_env.GymVectorToSB3`` (one-process runs).

``"auto"`` (the default; ``env_factory.resolve_reward_wrapping``) picks ``"vector"`` for
one-process (``dummy``) runs of 16 envs or more without shaping (for the crawl envs only
Crawl-v2 with the ``crawl`` policy and no weight schedule, which the batch scores in arrays),
``"per_env"`` otherwise: the vector wrapper's fixed cost per vector step pays off from about
16 envs, and with ``subproc``
the per-env wrappers score inside the worker processes, in parallel, where one vector wrapper
would score in the main process.
``benchmarks/training_wrapping.py`` measures both paths.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import gymnasium as gym

from rlm_gym.training.env_factory import is_batched_env, make_bare_env, make_env

if TYPE_CHECKING:  # run_config imports env_factory, never this module
    from rlm_gym.training.run_config import RunConfig

__all__ = ["info_passing_dummy_vec_env", "make_training_vec_env", "per_env_factory"]


@functools.cache
def info_passing_dummy_vec_env() -> type:
    """SB3's ``DummyVecEnv`` handing over each step's info dicts rather than deep copies.

    ``DummyVecEnv.step_wait`` returns ``deepcopy(infos)`` every step. A crawl step's info holds
    the action, its ``ActionResult`` and the reward components, and the copy took more than half
    of the vector env's CPU (``benchmarks/study_cost.py``). The envs of a run (the crawl envs,
    Gymnasium's, the reward wrappers) build a new info dict on every step, and SB3 and our
    callbacks read a step's infos during that step, so the copy protects nothing here: the
    same seed trains the same model, weight for weight (``tests/training/test_vec_envs.py``).
    It also looks each env's ``action_masks`` up once, not on every step (MaskablePPO's
    ``get_action_masks``). Everything else (seeding, resets, the final observation of a
    finished episode) is ``DummyVecEnv``'s.
    """
    import numpy as np
    from stable_baselines3.common.vec_env import DummyVecEnv

    class InfoPassingDummyVecEnv(DummyVecEnv):
        _mask_methods: list | None = None

        def step_wait(self):  # type: ignore[no-untyped-def]
            for index, env in enumerate(self.envs):
                obs, reward, terminated, truncated, info = env.step(self.actions[index])
                self.buf_rews[index] = reward
                done = terminated or truncated
                self.buf_dones[index] = done
                info["TimeLimit.truncated"] = truncated and not terminated
                if done:
                    info["terminal_observation"] = obs
                    obs, self.reset_infos[index] = env.reset()
                self.buf_infos[index] = info
                self._save_obs(index, obs)
            return (
                self._obs_from_buf(),
                np.copy(self.buf_rews),
                np.copy(self.buf_dones),
                list(self.buf_infos),
            )

        def env_method(self, method_name, *method_args, indices=None, **method_kwargs):  # type: ignore[no-untyped-def]
            # MaskablePPO asks every env for its action masks on every step; the lookup
            # through each env's wrappers (``get_wrapper_attr``) cost as much as the masks.
            # The envs and their wrappers stay the same for the vector env's life, so the
            # bound methods are looked up once.
            if method_name != "action_masks" or indices is not None:
                return super().env_method(
                    method_name, *method_args, indices=indices, **method_kwargs
                )
            if self._mask_methods is None:
                self._mask_methods = [env.get_wrapper_attr(method_name) for env in self.envs]
            return [method(*method_args, **method_kwargs) for method in self._mask_methods]

    InfoPassingDummyVecEnv.__qualname__ = InfoPassingDummyVecEnv.__name__
    return InfoPassingDummyVecEnv


def _seeded_bare_env(env_id: str, env_kwargs: Any, seed: int | None) -> gym.Env:
    """A bare sub-env, its action space seeded as ``make_vec_env`` seeds a sub-env's."""
    env = make_bare_env(env_id, env_kwargs)
    if seed is not None:
        env.action_space.seed(seed)
    return env


def per_env_factory(config: RunConfig, done: int = 0) -> Callable[[], gym.Env]:
    """The run's per-env training env as a picklable factory (one call per env); a
    schedule's clock starts at ``done``, the steps already trained.

    Example:
        >>> from rlm_gym.training.run_config import RunConfig
        >>> per_env_factory(RunConfig("CartPole-v1", "lenient"))().component_names[0]
        'attempt'
    """
    return partial(
        make_env,
        config.env_id,
        config.policy,
        config.config,
        config.disable,
        config.weights,
        config.env_kwargs,
        config.shaping,
        config.shaping_gamma,
        config.reward_schedule,
        done,
    )


def make_training_vec_env(config: RunConfig, seed: int, done: int = 0) -> Any:
    """The SB3 vector env ``config`` trains on (``config.reward_wrapping``'s path).

    Args:
        config: The run (``reward_wrapping`` already resolved).
        seed: Seeds the envs: sub-env ``i`` gets ``seed + i`` (as ``make_vec_env``).
        done: Steps already trained (a schedule's clock starts there).

    Example:
        >>> from rlm_gym.training.run_config import RunConfig
        >>> config = RunConfig("CartPole-v1", "lenient", n_envs=2, reward_wrapping="vector")
        >>> venv = make_training_vec_env(config, seed=0)
        >>> type(venv).__name__, type(venv.venv).__name__
        ('VecMonitor', 'VecRewardPolicyWrapper')
    """
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv, VecMonitor

    vec_cls, vec_kwargs = info_passing_dummy_vec_env(), {}
    if config.vec_env == "subproc":
        vec_cls, vec_kwargs = SubprocVecEnv, {"start_method": "forkserver"}
    if config.reward_wrapping == "per_env":
        return make_vec_env(
            per_env_factory(config, done),
            n_envs=config.n_envs,
            seed=seed,
            vec_env_cls=vec_cls,
            vec_env_kwargs=vec_kwargs,
        )
    if config.vec_env != "subproc" and is_batched_env(config.env_id):
        return VecMonitor(_batched_vec_env(config, seed, done))
    from rlm_gym.wrappers.vec_sb3 import VecRewardPolicyWrapper

    bare = [
        partial(_seeded_bare_env, config.env_id, config.env_kwargs, seed + rank)
        for rank in range(config.n_envs)
    ]
    venv = vec_cls(bare, **vec_kwargs)
    venv.seed(seed)  # the first reset's seeds, as make_vec_env
    venv = VecRewardPolicyWrapper(venv, config.policy, **_policy_options(config))
    if config.reward_schedule is not None and done:
        venv.set_schedule_step(done)
    return VecMonitor(venv)


def _policy_options(config: RunConfig) -> dict[str, Any]:
    """The reward wrapper's options of a run (policy config, ablated components, weights and
    schedule), the same for the per-env and the batched path."""
    return {
        "config": dict(config.config) if config.config is not None else None,
        "disable": tuple(config.disable),
        "weights": dict(config.weights) if config.weights is not None else None,
        "schedule": config.reward_schedule,
    }


def _batched_vec_env(config: RunConfig, seed: int, done: int) -> Any:
    """The run's env as one batch (``gym.make_vec``'s ``vector_entry_point``), scored by one
    ``VectorRewardPolicyWrapper``, in SB3's ``VecEnv`` interface; sub-env ``i`` is seeded
    ``seed + i``, as ``make_vec_env`` seeds its envs."""
    from gymnasium.vector import AutoresetMode

    from rlm_gym.training.batched_vec_env import GymVectorToSB3
    from rlm_gym.wrappers import VectorRewardPolicyWrapper

    vector = gym.make_vec(
        config.env_id,
        num_envs=config.n_envs,
        vectorization_mode="vector_entry_point",
        autoreset_mode=AutoresetMode.SAME_STEP,
        # Exact (the default): sub-env i draws what the per-env path's env i draws, so a run
        # trains the same agent on either path and the studies' records stay comparable.
        exact=config.vector_resets == "exact",
        **dict(config.env_kwargs or {}),
    )
    wrapped = VectorRewardPolicyWrapper(vector, config.policy, **_policy_options(config))
    if config.reward_schedule is not None and done:
        wrapped.set_schedule_step(done)
    venv = GymVectorToSB3(wrapped)
    venv.seed(seed)
    return venv
