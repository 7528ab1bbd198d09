"""``RewardScheduleCallback``: drive the wrappers' schedule clock from SB3's step count."""

from __future__ import annotations

from stable_baselines3.common.callbacks import BaseCallback

from rlm_gym.wrappers.schedule import WeightSchedule

__all__ = ["RewardScheduleCallback"]

#: The logger key of a scheduled component's weight: ``reward_weight/<name>``.
WEIGHT_LOG_PREFIX = "reward_weight/"


class RewardScheduleCallback(BaseCallback):
    """Set the schedule clock of every wrapped env to ``num_timesteps`` at each rollout start.

    Per-env ``RewardPolicyWrapper`` instances count only their own steps; this tells each of
    them (through ``env_method("set_schedule_step", n)``, which also reaches a
    ``VecRewardPolicyWrapper``) the training step, so a schedule means the same thing whatever
    the number of envs. The weights in force at the rollout start are logged as
    ``reward_weight/<name>`` (TensorBoard, CSV, stdout).

    Args:
        schedule: The schedule the wrappers were built with (for the logged weights).
        verbose: SB3 verbosity.

    Example - anneal the lenient policy's success bonus while PPO trains:
        >>> import gymnasium as gym
        >>> from stable_baselines3 import PPO
        >>> from rlm_gym import RewardPolicyWrapper, WeightSchedule
        >>> schedule = WeightSchedule({"success": [(0, 1.0), (10_000, 0.0)]})
        >>> env = RewardPolicyWrapper(gym.make("CartPole-v1"), "lenient", schedule=schedule)
        >>> callback = RewardScheduleCallback(schedule)
        >>> _ = PPO("MlpPolicy", env, n_steps=64, batch_size=64).learn(128, callback=callback)
        >>> env.schedule_step >= 128
        True
    """

    def __init__(self, schedule: WeightSchedule, verbose: int = 0) -> None:
        super().__init__(verbose)
        if not isinstance(schedule, WeightSchedule):
            raise TypeError(
                f"Expected `schedule` to be a WeightSchedule, got {type(schedule).__name__}"
            )
        self.schedule = schedule

    def _set_clock(self) -> None:
        step = int(self.num_timesteps)
        self.training_env.env_method("set_schedule_step", step)
        for name, weight in self.schedule.weights_at(step).items():
            self.logger.record(f"{WEIGHT_LOG_PREFIX}{name}", weight)

    def _on_training_start(self) -> None:
        self._set_clock()

    def _on_rollout_start(self) -> None:
        self._set_clock()

    def _on_step(self) -> bool:
        return True
