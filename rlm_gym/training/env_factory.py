"""The envs of a run: the bare env, the training env (reward policy, shaping), the fit check.

A training env is ``RewardPolicyWrapper(gym.make(env_id, **env_kwargs), policy, ...)``,
optionally inside a ``PotentialShapingWrapper``, so SB3's ``Monitor`` records the reward the
agent learns from and ``info["env_reward"]`` keeps the env's own reward for the true score.
Every function is module-level, so ``functools.partial(make_env, ...)`` pickles into
``SubprocVecEnv`` workers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import gymnasium as gym

from rlm_gym._validation import unknown_name_error
from rlm_gym.policies import RewardPolicy
from rlm_gym.policies.info_keys import REPORTS_ACTION_RESULTS
from rlm_gym.wrappers import RewardPolicyWrapper, WeightSchedule

__all__ = [
    "PROBE_STEPS",
    "REWARD_WRAPPINGS",
    "VECTOR_RESETS",
    "VECTOR_MIN_ENVS",
    "check_policy_fits",
    "crawl_potential",
    "make_bare_env",
    "make_env",
    "reports_action_results",
    "resolve_reward_wrapping",
]

# Steps of the random-action episode `check_policy_fits` plays before training starts.
PROBE_STEPS = 200


def make_bare_env(env_id: str, env_kwargs: Mapping[str, Any] | None = None) -> gym.Env:
    """``gym.make(env_id, **env_kwargs)``, registering rlm_gym's envs first when needed.

    Worker processes (spawn / forkserver, Ray) start without ``rlm_gym.envs`` imported.
    Gymnasium's notice that Crawl-v1 is out of date is left as Gymnasium gives it: Crawl-v2
    is the current version (``rlm_gym.envs.CURRENT_CRAWL_ENV_ID``), and a run that asks for
    v1 (to reproduce an earlier study) is told so, as ``gym.make`` tells anyone.

    Example:
        >>> make_bare_env("rlm_gym/Crawl-v2").spec.id
        'rlm_gym/Crawl-v2'
    """
    if env_id.startswith("rlm_gym/"):
        import rlm_gym.envs  # noqa: F401  (registers the env ids)
    return gym.make(env_id, **dict(env_kwargs or {}))


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
    schedule: WeightSchedule | None = None,
    schedule_step: int = 0,
) -> gym.Env:
    """One training env: ``gym.make`` + ``RewardPolicyWrapper`` (+ potential shaping).

    With a ``schedule`` the wrapper's clock starts at ``schedule_step`` (a resumed run's
    steps done), so the first episodes are scored with the weights of that step;
    ``RewardScheduleCallback`` then sets it to ``num_timesteps`` at every rollout start.

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
        schedule=schedule,
    )
    if schedule is not None and schedule_step:
        env.set_schedule_step(schedule_step)
    if shaping is not None:
        from rlm_gym.wrappers.shaping import PotentialShapingWrapper

        env = PotentialShapingWrapper(env, shaping, gamma=shaping_gamma)
    return env


def check_policy_fits(factory: Callable[[], gym.Env], policy: str, env_id: str) -> bool:
    """Play one short random-action episode with the reward policy; fail before training.

    A policy that needs what the env does not give (the ``crawl`` policy on CartPole has no
    crawl result to score) fails here with one clear message instead of deep inside training.

    Returns:
        Whether the env offers ``action_masks()`` (what MaskablePPO needs).

    Raises:
        ValueError: The policy (or the env) fails on the env's steps.

    Example:
        >>> import functools
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


#: ``RunConfig.reward_wrapping`` values (``--reward-wrapping``).
REWARD_WRAPPINGS: tuple[str, ...] = ("auto", "vector", "per_env")
#: How a batched env's sub-envs draw their sites (``RunConfig.vector_resets``): ``"exact"``
#: replays the single env of each sub-env's seed, ``"fast"`` draws from one generator.
VECTOR_RESETS: tuple[str, ...] = ("exact", "fast")
#: The fewest envs for which ``"auto"`` wraps the vector env as a whole: one vector wrapper
#: pays a fixed cost per vector step (SB3's info dicts in, a batch through the policy, the info
#: dicts out), which 16 envs amortise and 4 do not (``benchmarks/training_wrapping.py``).
VECTOR_MIN_ENVS = 16


def reports_action_results(env_id: str) -> bool:
    """Whether the registered env's class declares that its steps report an ``ActionResult``
    (``metadata[REPORTS_ACTION_RESULTS]``, as the crawl envs do). An id that is not registered
    counts as not reporting: making the env raises Gymnasium's own error for it.

    Example:
        >>> from rlm_gym.envs import CRAWL_ENV_ID
        >>> reports_action_results(CRAWL_ENV_ID), reports_action_results("CartPole-v1")
        (True, False)
    """
    try:
        entry_point = gym.spec(env_id).entry_point
    except gym.error.Error:
        return False  # not registered (yet): making the env reports that, with its own error
    creator = gym.envs.registration.load_env_creator(entry_point)
    return bool(getattr(creator, "metadata", {}).get(REPORTS_ACTION_RESULTS, False))


def is_batched_env(env_id: str | None) -> bool:
    """Whether the registered env is one of rlm_gym's envs stepped as one batch by
    ``gym.make_vec`` (a ``vector_entry_point`` of this package, as Crawl-v2's
    ``CrawlVectorEnv``, which takes Gymnasium's autoreset modes; Gymnasium's own vector
    entry points, CartPole's among them, do not all take them).

    Example:
        >>> from rlm_gym.envs import CRAWL_ENV_ID, CRAWL_V2_ENV_ID
        >>> is_batched_env(CRAWL_V2_ENV_ID), is_batched_env(CRAWL_ENV_ID)
        (True, False)
        >>> is_batched_env("CartPole-v1")
        False
    """
    if env_id is None:
        return False
    if env_id.startswith("rlm_gym/"):
        import rlm_gym.envs  # noqa: F401  (registers the env ids)
    try:
        entry_point = gym.spec(env_id).vector_entry_point
    except gym.error.Error:
        return False
    return isinstance(entry_point, str) and entry_point.startswith("rlm_gym.")


def resolve_reward_wrapping(
    requested: str,
    shaping: Any,
    vec_env: str,
    n_envs: int,
    env_id: str | None = None,
    policy: Any = None,
    schedule: Any = None,
) -> str:
    """The path a run takes: ``"vector"`` or ``"per_env"``; ``"auto"`` takes ``"vector"`` for
    one-process (``dummy``) runs of at least ``VECTOR_MIN_ENVS`` envs without shaping, of an
    env whose steps report no ``ActionResult``: the vector wrapper scores a reported result
    sub-env by sub-env, which measured slower than per-env wrappers at every size
    (``benchmarks/training_wrapping.py``, the crawl env), while generic results go through its
    table in a few numpy calls (CartPole: faster from 16 envs). A batched env
    (``is_batched_env``: Crawl-v2) trained with the ``crawl`` policy (by name) and no weight
    schedule takes ``"vector"`` too: it hands the policy its finished crawls' components as
    arrays (``rlm_gym.wrappers.vector_crawl``), 1.6x the per-env wrappers' steps per second
    (``benchmarks/crawl_vector_training.py``), and trains the same agent.

    Raises:
        ValueError: An unknown name, or ``"vector"`` with potential shaping (it wraps each
            env: only ``"per_env"`` can shape).

    Example:
        >>> resolve_reward_wrapping("auto", None, "dummy", 16, "CartPole-v1")
        'vector'
        >>> resolve_reward_wrapping("auto", None, "dummy", 4), resolve_reward_wrapping(
        ...     "auto", "potential", "dummy", 16)
        ('per_env', 'per_env')
        >>> from rlm_gym.envs import CRAWL_ENV_ID
        >>> resolve_reward_wrapping("auto", None, "dummy", 16, CRAWL_ENV_ID)
        'per_env'
        >>> from rlm_gym.envs import CRAWL_V2_ENV_ID
        >>> resolve_reward_wrapping("auto", None, "dummy", 16, CRAWL_V2_ENV_ID, "crawl")
        'vector'
        >>> resolve_reward_wrapping("vectors", None, "dummy", 16)
        Traceback (most recent call last):
        ...
        ValueError: Unknown reward_wrapping 'vectors'. Did you mean 'vector'? Available: 'auto', 'vector', 'per_env'
    """  # noqa: E501
    if requested not in REWARD_WRAPPINGS:
        raise unknown_name_error("reward_wrapping", requested, REWARD_WRAPPINGS)
    if requested == "vector" and shaping is not None:
        raise ValueError(
            "`reward_wrapping='vector'` cannot shape: potential shaping wraps each env "
            f"(shaping={shaping!r}). Use reward_wrapping='per_env' (or 'auto', which picks it)"
        )
    if requested != "auto":
        return requested
    vector = shaping is None and vec_env == "dummy" and n_envs >= VECTOR_MIN_ENVS
    if vector and env_id is not None and reports_action_results(env_id):
        vector = policy == "crawl" and schedule is None and is_batched_env(env_id)
    return "vector" if vector else "per_env"
