"""``VecRewardPolicyWrapper``: score every sub-env of a Stable-Baselines3 ``VecEnv`` with a policy.

An SB3 ``VecEnvWrapper`` (needs the ``train`` extra; the only module of the core that imports
SB3, loaded lazily by ``rlm_gym.VecRewardPolicyWrapper``). The scoring is
:class:`~rlm_gym.wrappers.VectorRewardPolicyWrapper`'s, run over a thin Gymnasium view of the
SB3 vector env: SB3 vector envs reset a finished sub-env inside ``step`` (the returned step is
the episode's last; its observation is ``info["terminal_observation"]``), which is Gymnasium's
``SAME_STEP`` autoreset, so a sub-env's next episode starts right after its done. Built-in
policies score a whole step in one numpy pass, other policies per sub-env; the numbers are those
of :class:`~rlm_gym.wrappers.RewardPolicyWrapper` applied to each sub-env, and each
sub-env's info dict gets the keys that wrapper writes.

Example - shape an SB3 vector CartPole with the lenient policy:
    >>> import gymnasium as gym
    >>> from stable_baselines3.common.vec_env import DummyVecEnv
    >>> venv = DummyVecEnv([lambda: gym.make("CartPole-v1")] * 2)
    >>> venv = VecRewardPolicyWrapper(venv, "lenient", disable=("success",))
    >>> _ = venv.reset()
    >>> _, rewards, _, infos = venv.step(np.zeros(2, dtype=np.int64))
    >>> rewards.dtype.name, np.allclose(rewards, 0.2), infos[0]["reward_components"]["attempt"]
    ('float32', True, 0.2)
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper

from rlm_gym.policies import DEFAULT_HISTORY_LIMIT, PolicyContext, RewardPolicy
from rlm_gym.policies.info_keys import (
    ACTION_KEY,
    ACTION_RESULT_KEY,
    ENV_REWARD_KEY,
    EPISODE_REWARD_COMPONENTS_KEY,
    EPISODE_REWARD_KEY,
    REWARD_COMPONENTS_KEY,
    REWARD_POLICY_KEY,
    REWARD_WEIGHTS_KEY,
    SCALAR_REWARD_KEY,
)
from rlm_gym.policies.registry import DEFAULT_REWARD_POLICY
from rlm_gym.wrappers.reward_policy import DEFAULT_REWARD_MODE
from rlm_gym.wrappers.schedule import WeightSchedule
from rlm_gym.wrappers.vector import VectorRewardPolicyWrapper
from rlm_gym.wrappers.vector_results import FINAL_INFO_KEY

__all__ = ["SB3_TIME_LIMIT_KEY", "VecRewardPolicyWrapper"]

#: SB3's mark of a truncated (not terminated) episode in a sub-env's info.
SB3_TIME_LIMIT_KEY = "TimeLimit.truncated"
#: The methods the wrapper answers itself through ``env_method`` (it holds the weights).
OWN_METHODS = frozenset({"set_weights", "set_disabled", "set_schedule_step"})
#: The attributes the wrapper answers itself through ``get_attr`` (same for every sub-env).
OWN_ATTRIBUTES = frozenset({"schedule_step", "component_names", "policy"})


class _GymnasiumView(VectorEnv):
    """An SB3 ``VecEnv`` seen as a Gymnasium ``SAME_STEP`` vector env (for the scoring).

    ``step`` collects the step the SB3 env was sent by ``step_async``; the SB3 info dicts are
    kept in :attr:`sb3_infos` and their ``action_result`` / ``action`` are batched (a finished
    sub-env's info is its last step's, so the same batch serves as ``final_info``).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, venv: VecEnv) -> None:
        self.venv = venv
        self.num_envs = venv.num_envs
        self.single_observation_space = venv.observation_space
        self.single_action_space = venv.action_space
        self.observation_space = batch_space(venv.observation_space, venv.num_envs)
        self.action_space = batch_space(venv.action_space, venv.num_envs)
        self.sb3_infos: list[dict[str, Any]] = []

    def reset(self, *, seed: Any = None, options: Any = None) -> tuple[Any, dict[str, Any]]:
        return self.venv.reset(), {}

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict]:
        obs, rewards, dones, infos = self.venv.step_wait()
        self.sb3_infos = infos
        dones = np.asarray(dones, dtype=bool)
        truncated = np.array([bool(info.get(SB3_TIME_LIMIT_KEY, False)) for info in infos])
        truncated &= dones
        batched: dict[str, Any] = {}
        for key in (ACTION_RESULT_KEY, ACTION_KEY):
            mask = np.array([info.get(key) is not None for info in infos])
            if mask.any():
                column = np.empty(self.num_envs, dtype=object)
                column[:] = [info.get(key) for info in infos]
                batched[key], batched[f"_{key}"] = column, mask
        if dones.any():
            batched[FINAL_INFO_KEY] = dict(batched)
        return obs, np.asarray(rewards, dtype=np.float64), dones & ~truncated, truncated, batched

    def close(self, **kwargs: Any) -> None:
        """Closing is the SB3 wrapper's (it closes the SB3 env)."""


def _sub_env_spec(venv: VecEnv) -> Any:
    """The first sub-env's ``spec`` (None when the SB3 env cannot say)."""
    try:
        return venv.get_attr("spec", indices=[0])[0]
    except (AttributeError, IndexError):
        return None


class VecRewardPolicyWrapper(VecEnvWrapper):
    """Replace (or add to) an SB3 vector env's rewards with a named, ablatable reward policy.

    Every sub-env is scored as :class:`~rlm_gym.wrappers.RewardPolicyWrapper` scores one env,
    and its info dict gets the same keys: ``reward_components``, ``env_reward`` and
    ``reward_policy`` on every step; ``episode_reward``, ``episode_reward_components`` and
    ``reward_weights`` on its episode's last step (``scalar_reward`` with
    ``reward_output="vector"``). A sub-env's next episode starts on the step its episode ends
    (SB3 resets it there). ``set_weights``, ``set_disabled`` and ``set_schedule_step`` act on
    every sub-env and also answer ``env_method(...)`` calls, so callbacks written for per-env
    wrappers (``RewardScheduleCallback``) work unchanged; the schedule's clock counts every
    sub-env step, as SB3's ``num_timesteps``.

    Args:
        venv: The SB3 vector env (``DummyVecEnv``, ``SubprocVecEnv``, ``make_vec_env``...).
        policy, config, disable, weights, reward_mode, schedule, reward_output, task,
        max_steps, history_limit: As :class:`~rlm_gym.wrappers.VectorRewardPolicyWrapper`;
            ``task`` and ``max_steps`` default to the first sub-env's spec (else ``""`` and 10),
            as a per-env wrapper reads them.

    Raises:
        ValueError: As ``VectorRewardPolicyWrapper`` (naming the sub-env); ``env_method`` of
            a reward setting on only some sub-envs (the settings are the whole vector's).
    """

    def __init__(
        self,
        venv: VecEnv,
        policy: str | RewardPolicy = DEFAULT_REWARD_POLICY,
        config: Mapping[str, Any] | None = None,
        disable: Iterable[str] = (),
        weights: Mapping[str, float] | None = None,
        reward_mode: str = DEFAULT_REWARD_MODE,
        schedule: WeightSchedule | None = None,
        reward_output: str = "scalar",
        task: str | None = None,
        max_steps: int | None = None,
        history_limit: int = DEFAULT_HISTORY_LIMIT,
    ) -> None:
        super().__init__(venv)
        spec = _sub_env_spec(venv)
        if task is None:
            task = getattr(spec, "id", None) or ""
        if max_steps is None:
            max_steps = getattr(spec, "max_episode_steps", None)
        self._view = _GymnasiumView(venv)
        self._scorer = VectorRewardPolicyWrapper(
            self._view,
            policy,
            config=config,
            disable=disable,
            weights=weights,
            reward_mode=reward_mode,
            schedule=schedule,
            reward_output=reward_output,
            task=task,
            max_steps=max_steps,
            history_limit=history_limit,
        )
        self._names = self._scorer.component_names
        self._policy_name = self._scorer.policy.name
        self._vector_output = reward_output == "vector"
        if self._vector_output:
            self.reward_space = self._scorer.reward_space
            self.single_reward_space = self._scorer.single_reward_space
        self._actions: Any = None

    # -- configuration -------------------------------------------------------------------

    @property
    def policy(self) -> RewardPolicy:
        """The reward policy scoring every sub-env."""
        return self._scorer.policy

    @property
    def component_names(self) -> tuple[str, ...]:
        """The policy's component names (``info["reward_components"]`` keys)."""
        return self._names

    @property
    def contexts(self) -> list[PolicyContext | None]:
        """Each sub-env's running ``PolicyContext`` (None before its first episode)."""
        return self._scorer.contexts

    @property
    def weights(self) -> np.ndarray:
        """The weights in force, ``(num_envs, k)`` in ``component_names`` order (a copy)."""
        return self._scorer.weights

    @property
    def schedule_step(self) -> int:
        """The schedule's clock: ``num_envs`` x ``step()`` calls, or as set."""
        return self._scorer.schedule_step

    def set_disabled(self, names: Iterable[str]) -> None:
        """Switch off exactly these components in every sub-env, from the next step."""
        self._scorer.set_disabled(names)

    def set_weights(self, weights: Mapping[str, float]) -> None:
        """Scale components by these multipliers in every sub-env, from the next step."""
        self._scorer.set_weights(weights)

    def set_schedule_step(self, step: int) -> None:
        """Set the schedule's clock (e.g. to SB3's ``num_timesteps``); steps count on from it."""
        self._scorer.set_schedule_step(step)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: int | Iterable[int] | None = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """Answer the reward settings here (for every sub-env); pass any other call on."""
        if method_name not in OWN_METHODS:
            return self.venv.env_method(method_name, *method_args, indices=indices, **method_kwargs)
        chosen = list(self._get_indices(indices))
        if sorted(chosen) != list(range(self.num_envs)):
            raise ValueError(
                f"`env_method('{method_name}', indices={list(chosen)})`: the reward settings "
                f"of {type(self).__name__} are the whole vector's ({self.num_envs} sub-envs); "
                "call it without indices"
            )
        getattr(self, method_name)(*method_args, **method_kwargs)
        return [None] * len(chosen)

    def get_attr(self, attr_name: str, indices: int | Iterable[int] | None = None) -> list[Any]:
        """The wrapper's own ``schedule_step`` (etc.) per sub-env; anything else passed on."""
        if attr_name in OWN_ATTRIBUTES:
            return [getattr(self, attr_name)] * len(list(self._get_indices(indices)))
        return self.venv.get_attr(attr_name, indices)

    # -- episode loop --------------------------------------------------------------------

    def reset(self) -> Any:
        """Reset every sub-env and start its policy episode."""
        obs, _ = self._scorer.reset()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions
        self.venv.step_async(actions)

    def step_wait(self) -> tuple[Any, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Collect the step and score it (see the class docstring)."""
        obs, rewards, terminated, truncated, batched = self._scorer.step(self._actions)
        infos = self._view.sb3_infos
        self._write_infos(infos, batched)
        dones = terminated | truncated
        if not self._vector_output:
            rewards = rewards.astype(np.float32)
        return obs, rewards, dones, infos

    def _write_infos(self, infos: list[dict[str, Any]], batched: dict[str, Any]) -> None:
        """Each sub-env's info dict gets the keys ``RewardPolicyWrapper`` writes."""
        components = batched[REWARD_COMPONENTS_KEY]
        env_rewards = batched[ENV_REWARD_KEY]
        scalars = batched.get(SCALAR_REWARD_KEY)
        ended = batched.get(f"_{EPISODE_REWARD_KEY}")
        for index, info in enumerate(infos):
            info[REWARD_COMPONENTS_KEY] = {
                name: float(column[index]) for name, column in components.items()
            }
            info[ENV_REWARD_KEY] = float(env_rewards[index])
            info[REWARD_POLICY_KEY] = self._policy_name
            if scalars is not None:
                info[SCALAR_REWARD_KEY] = float(scalars[index])
            if ended is None or not ended[index]:
                continue
            info[EPISODE_REWARD_KEY] = float(batched[EPISODE_REWARD_KEY][index])
            info[EPISODE_REWARD_COMPONENTS_KEY] = {
                name: float(column[index])
                for name, column in batched[EPISODE_REWARD_COMPONENTS_KEY].items()
            }
            weights = batched.get(REWARD_WEIGHTS_KEY, {})
            info[REWARD_WEIGHTS_KEY] = {
                name: float(column[index]) for name, column in weights.items()
            }

    # -- pickling: as VecNormalize, without SB3's `class_attributes` (a mappingproxy); own
    # methods because SB3's __getattr__ looks in `venv`, absent while unpickling.

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("class_attributes", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.class_attributes = dict(inspect.getmembers(self.__class__))
