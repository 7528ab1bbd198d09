"""An SB3 ``VecEnv`` view of a Gymnasium vector env: a batched env trains without glue.

``gym.make_vec("rlm_gym/Crawl-v2", num_envs=N)`` steps N crawl jobs as one batch
(``rlm_gym.envs.crawl_vector.CrawlVectorEnv``); SB3 and sb3-contrib's ``MaskablePPO`` expect a
``VecEnv``: one info dict per env, the finished episode's last observation under
``terminal_observation``, ``TimeLimit.truncated``, and ``env_method("action_masks")``.
``GymVectorToSB3`` turns one into the other. The vector env runs in Gymnasium's ``SAME_STEP``
autoreset mode, which is SB3's: a finished sub-env is reset within the step and its own last
info (``infos["final_info"]``) becomes its info dict. Each sub-env's dict holds the keys the
per-env wrappers put there that SB3's side reads: ``reward_components`` and ``env_reward`` on
every step; on an episode's last step also the episode totals, the crawl env's ``action``
(its names), ``task`` and ``true_crawl_score``, and under ``final_crawl`` the env's
``FinalCrawl`` (``rlm_gym.envs.vector_finals``): the numbers of the crawl that ended, its
``crawl_result`` and ``action_result`` built only when read. The entries a vector env builds
when read (``LazyColumn`` s: ``action_result``, ``crawl_result``, action codes) are not read
here, and the per-step ``action`` of a running episode is left out: nothing on the training
path reads them and building them cost as much as the step. So
``RewardComponentsCallback``, ``VecMonitor`` and evaluation read it as they read
``DummyVecEnv``'s; ``tests/training/test_vec_envs.py`` trains the same agent, weight for weight,
on this path and on per-env wrappers.

Example:
    >>> import gymnasium as gym
    >>> from rlm_gym.wrappers import VectorRewardPolicyWrapper
    >>> vector = gym.make_vec("rlm_gym/Crawl-v2", num_envs=2, autoreset_mode="SameStep")
    >>> venv = GymVectorToSB3(VectorRewardPolicyWrapper(vector, "crawl"))
    >>> venv.seed(0)
    [0, 1]
    >>> venv.reset().shape, venv.env_method("action_masks")[0].shape
    ((2, 58), (10,))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from rlm_gym.envs.batched_infos import LazyColumn
from rlm_gym.policies.info_keys import ENV_REWARD_KEY, REWARD_COMPONENTS_KEY
from rlm_gym.training.episodes import FINAL_CRAWL_KEY

__all__ = ["GymVectorToSB3"]

_FINAL_INFO = "final_info"
_FINAL_OBS = "final_obs"
_MASKS = "action_masks"
_COMPONENTS = REWARD_COMPONENTS_KEY
_ENV_REWARD = ENV_REWARD_KEY
# The keys every step's info dict gets; the others only on an episode's last step.
_STEP_KEYS = (_COMPONENTS, _ENV_REWARD)


def _entries(batched: Mapping[str, Any], rows: list[int]) -> list[dict[str, Any]]:
    """The info dicts of the sub-envs of ``rows`` from batched infos (Gymnasium's layout, masks
    honoured), one per row in order.

    Key by key over all the rows at once: a one-dimensional array of numbers gives its rows'
    Python values in one ``tolist`` (what ``.item()`` gives element by element); any other
    entry is read as it is, a numpy scalar as its ``.item()``. A ``LazyColumn`` is skipped:
    reading it would build its entries (the crawl env's ``FinalCrawl`` builds them on demand).
    """
    infos: list[dict[str, Any]] = [{} for _ in rows]
    for key, value in batched.items():
        if key.startswith("_") or isinstance(value, LazyColumn):
            continue
        mask = batched.get(f"_{key}")
        if mask is None:
            targets, present = infos, rows
        else:
            # Only the rows that reported the key are read: an entry built when read (a
            # ``LazyColumn``) is not built for a row that did not report it.
            marked = np.asarray(mask)[rows].tolist()
            targets = [info for info, on in zip(infos, marked, strict=True) if on]
            present = [row for row, on in zip(rows, marked, strict=True) if on]
        if not present:
            continue
        if isinstance(value, Mapping):
            entries = _entries(value, present)
        elif isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype != object:
            entries = value[present].tolist()
        else:
            entries = [value[index] for index in present]
            entries = [e.item() if isinstance(e, np.generic) else e for e in entries]
        for info, entry in zip(targets, entries, strict=True):
            info[key] = entry
    return infos


class GymVectorToSB3(VecEnv):
    """SB3's ``VecEnv`` interface over a Gymnasium ``VectorEnv`` in ``SAME_STEP`` autoreset mode.

    Args:
        env: The vector env (or a vector wrapper of it, e.g. ``VectorRewardPolicyWrapper``).

    Raises:
        ValueError: The vector env does not autoreset in ``SAME_STEP`` mode.

    Example:
        >>> import gymnasium as gym
        >>> venv = GymVectorToSB3(gym.make_vec("rlm_gym/Crawl-v2", 3, autoreset_mode="SameStep"))
        >>> _ = venv.reset()
        >>> _, _, dones, infos = venv.step(np.full(3, 9))
        >>> dones.tolist(), sorted(infos[0])[:3]
        ([True, True, True], ['TimeLimit.truncated', 'action', 'final_crawl'])
    """

    def __init__(self, env: Any) -> None:
        mode = AutoresetMode(env.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP))
        if mode is not AutoresetMode.SAME_STEP:
            raise ValueError(
                f"Expected a vector env in the SAME_STEP autoreset mode (SB3's), got {mode}: "
                "make it with gym.make_vec(..., autoreset_mode='SameStep')"
            )
        self.env = env
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
        self._actions: np.ndarray | None = None
        self.render_mode = None
        # The crawl env's finished crawls of the last step (None for other vector envs).
        self._final_crawls = getattr(env.unwrapped, "final_crawls", None)

    def reset(self) -> np.ndarray:
        seeds = list(self._seeds)
        seed = None if all(seed is None for seed in seeds) else seeds
        obs, infos = self.env.reset(seed=seed)
        self.reset_infos = _entries(infos, list(range(self.num_envs)))
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, rewards, terminated, truncated, infos = self.env.step(self._actions)
        dones = terminated | truncated
        list_infos = self._step_infos(infos)
        final_info = infos.get(_FINAL_INFO)
        final_obs = infos.get(_FINAL_OBS)
        ignored = {_FINAL_INFO, _FINAL_OBS, *_STEP_KEYS, "phase"}
        rest = {key: value for key, value in infos.items() if key.lstrip("_") not in ignored}
        finished = np.flatnonzero(dones).tolist()
        rests = _entries(rest, finished)
        finals = _entries(final_info, finished) if final_info is not None else rests
        for index, rest_info, final in zip(finished, rests, finals, strict=True):
            info = list_infos[index]
            info.update(rest_info)
            if final_info is not None:
                info.update(final)
            if final_obs is not None:
                info["terminal_observation"] = final_obs[index]
            info["TimeLimit.truncated"] = bool(truncated[index] and not terminated[index])
        if finished and self._final_crawls is not None:
            for index, crawl in self._final_crawls().items():
                list_infos[index][FINAL_CRAWL_KEY] = crawl
        return obs, np.asarray(rewards, dtype=np.float32), dones, list_infos

    def _step_infos(self, infos: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Every sub-env's per-step keys: the reward wrapper's components and inner reward
        (what SB3's callbacks read on every step); the rest of a step's infos is read for the
        sub-envs that finish, whose last step carries the crawl result and task."""
        n = self.num_envs
        list_infos: list[dict[str, Any]] = [{} for _ in range(n)]
        components = infos.get(_COMPONENTS)
        if isinstance(components, Mapping) and components:
            names = [name for name in components if not name.startswith("_")]
            rows = np.column_stack([components[name] for name in names]).tolist()
            for info, row in zip(list_infos, rows, strict=True):
                info[_COMPONENTS] = dict(zip(names, row, strict=True))
        env_rewards = infos.get(_ENV_REWARD)
        if env_rewards is not None:
            for info, value in zip(list_infos, np.asarray(env_rewards).tolist(), strict=True):
                info[_ENV_REWARD] = value
        return list_infos

    def close(self) -> None:
        self.env.close()

    # -- attribute access (SB3's VecEnv API) --------------------------------------------------

    def _indices_list(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        value = getattr(self.env.unwrapped, attr_name)
        return [value for _ in self._indices_list(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.env.unwrapped, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks`` gives each sub-env's mask row; any other method is called once on
        the vector env (or its wrapper) and its result repeated per index."""
        rows = self._indices_list(indices)
        if method_name == _MASKS:
            masks = self.env.unwrapped.action_masks()
            return [masks[index] for index in rows]
        target = self.env if hasattr(self.env, method_name) else self.env.unwrapped
        result = getattr(target, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices_list(indices)]

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self.env, attr_name) or hasattr(self.env.unwrapped, attr_name)

    def action_masks(self) -> np.ndarray:
        """``(num_envs, n_actions)`` masks of the vector env."""
        return self.env.unwrapped.action_masks()

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs
