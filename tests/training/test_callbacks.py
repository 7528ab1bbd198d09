"""RewardComponentsCallback logs the means of the components it saw."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from stable_baselines3 import PPO
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.logger import KVWriter, Logger
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

from rlm_gym import RewardPolicyWrapper
from rlm_gym.training.callbacks import RewardComponentsCallback
from tests.helpers import ScriptedResultEnv

pytestmark = pytest.mark.slow


class MemoryWriter(KVWriter):
    """Keeps every dump's key/values."""

    def __init__(self) -> None:
        self.dumps: list[dict] = []

    def write(self, key_values, key_excluded, step=0) -> None:
        self.dumps.append(dict(key_values))


class SeenComponents(RewardComponentsCallback):
    """Also remembers every component value it was shown."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict[str, list[float]] = {}

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            for name, value in info["reward_components"].items():
                self.seen.setdefault(name, []).append(value)
        return super()._on_step()


def _make_env():
    return RewardPolicyWrapper(ScriptedResultEnv(episode_length=3), "lenient")


def _train_one_rollout(vec_env_cls, **vec_kwargs):
    envs = make_vec_env(
        _make_env, n_envs=2, seed=0, vec_env_cls=vec_env_cls, vec_env_kwargs=vec_kwargs
    )
    model = PPO("MlpPolicy", envs, n_steps=30, batch_size=60, n_epochs=1, seed=0, device="cpu")
    writer = MemoryWriter()
    model.set_logger(Logger(folder=None, output_formats=[writer]))
    callback = SeenComponents()
    model.learn(60, callback=callback)
    envs.close()
    return writer.dumps, callback


@pytest.mark.parametrize(
    ("vec_env_cls", "vec_kwargs"),
    [(DummyVecEnv, {}), (SubprocVecEnv, {"start_method": "forkserver"})],
    ids=["dummy", "subproc"],
)
def test_logged_component_means_equal_the_means_it_saw(vec_env_cls, vec_kwargs):
    dumps, callback = _train_one_rollout(vec_env_cls, **vec_kwargs)
    assert len(dumps) == 1
    logged = dumps[0]
    assert set(callback.seen) == {"attempt", "success", "failure", "progress", "final"}
    for name, values in callback.seen.items():
        assert len(values) == 60
        assert logged[f"reward/{name}"] == pytest.approx(np.mean(values))


def test_episode_sums_and_true_score_are_logged_per_episode():
    dumps, callback = _train_one_rollout(DummyVecEnv)
    logged = dumps[0]
    assert len(callback.episodes) == 20  # 60 steps of 3-step episodes
    assert logged["episode/true_score"] == pytest.approx(1.0)  # the env pays 1.0 at the end
    assert logged["episode_reward/attempt"] == pytest.approx(0.6)
    assert [e["timestep"] for e in callback.episodes][-1] == 60
    assert all(e["length"] == 3 for e in callback.episodes)
