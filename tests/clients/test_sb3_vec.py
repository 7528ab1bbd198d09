"""SB3 PPO learns through ``VecRewardPolicyWrapper`` with a ``WeightSchedule`` (docs/clients.md).

The SB3 wrapper shapes a whole ``VecEnv`` (``make_vec_env`` of ``rlm_gym/Crawl-v2``, whose
steps report their own results); ``RewardScheduleCallback`` sets its clock from
``num_timesteps`` through ``env_method`` and logs ``reward_weight/<name>``.
"""

from __future__ import annotations

import pytest

pytest.importorskip("stable_baselines3")

from stable_baselines3 import PPO
from stable_baselines3.common.env_util import make_vec_env

from rlm_gym import VecRewardPolicyWrapper, WeightSchedule
from rlm_gym.training import RewardScheduleCallback
from tests.sb3_helpers import RecordingLogger

pytestmark = pytest.mark.slow

ENV_ID = "rlm_gym:rlm_gym/Crawl-v2"
SCHEDULE = WeightSchedule({"efficiency": [(0, 0.0), (256, 1.0)]}, interpolation="linear")


def test_ppo_learns_through_the_vec_wrapper_with_a_schedule():
    venv = VecRewardPolicyWrapper(
        make_vec_env(ENV_ID, n_envs=4, seed=0), "crawl", schedule=SCHEDULE
    )
    try:
        model = PPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu")
        logger = RecordingLogger()
        model.set_logger(logger)
        model.learn(384, callback=RewardScheduleCallback(SCHEDULE))
        assert model.num_timesteps == 384 == venv.schedule_step
        logged = [value for key, value in logger.recorded if key == "reward_weight/efficiency"]
        # The training start, then rollout starts at 0, 128 and 256 (4 envs x 32 steps).
        assert logged == pytest.approx([0.0, 0.0, 0.5, 1.0])
        # Crawl episodes end within the budget; each reported the weights it was scored with.
        assert len(model.ep_info_buffer) >= 4
        obs = venv.reset()
        assert obs.shape == (4, *venv.observation_space.shape)
        ended = 0
        for _ in range(40):
            _, _, dones, infos = venv.step(model.predict(obs)[0])
            ended += int(dones.sum())
            for done, info in zip(dones, infos, strict=True):
                if done:
                    assert info["reward_weights"]["efficiency"] == 1.0
                    assert "terminal_observation" in info
                    assert set(info["episode_reward_components"]) == set(venv.component_names)
        assert ended >= 4  # 40 steps outlast the 30-step budget
    finally:
        venv.close()
