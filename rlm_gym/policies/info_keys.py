"""The ``info`` keys of a scored step: what an env hands to a policy, what a wrapper reports.

An env that knows more about a step than its reward puts the step's ``ActionResult`` (or a
dict of its fields) under :data:`ACTION_RESULT_KEY` and the action, as a dict, under
:data:`ACTION_KEY`. ``RewardPolicyWrapper`` scores that pair with a reward policy and writes
the reward keys, ``PotentialShapingWrapper`` the shaping keys; training callbacks and the
command line read them. Defined here, below the envs, the wrappers and training, so that
every one of them can name the same keys.
"""

from __future__ import annotations

__all__ = [
    "ACTION_KEY",
    "ACTION_RESULT_KEY",
    "REWARD_COMPONENTS_KEY",
    "ENV_REWARD_KEY",
    "REWARD_POLICY_KEY",
    "EPISODE_REWARD_COMPONENTS_KEY",
    "EPISODE_REWARD_KEY",
    "SHAPING_REWARD_KEY",
    "POTENTIAL_KEY",
    "REWARD_WEIGHTS_KEY",
    "SCALAR_REWARD_KEY",
    "REPORTS_ACTION_RESULTS",
]

#: The action of the step, as a dict (``{"action": type, ...}``); written by the env.
ACTION_KEY = "action"
#: The step's ``ActionResult`` or a dict of its fields; written by the env.
ACTION_RESULT_KEY = "action_result"
#: Every component the policy declares, as Python floats, after ablation.
REWARD_COMPONENTS_KEY = "reward_components"
#: The inner env's own reward of the step.
ENV_REWARD_KEY = "env_reward"
#: The name of the policy that scored the step.
REWARD_POLICY_KEY = "reward_policy"
#: On an episode's last step: each component summed over the episode.
EPISODE_REWARD_COMPONENTS_KEY = "episode_reward_components"
#: On an episode's last step: the policy's values summed over the episode.
EPISODE_REWARD_KEY = "episode_reward"
#: The potential-based shaping term ``gamma * Phi(s') - Phi(s)`` added to the step's reward.
SHAPING_REWARD_KEY = "shaping_reward"
#: The potential ``Phi(s')`` the shaping term used.
POTENTIAL_KEY = "potential"
#: On an episode's last step: every component's weight in force for that episode.
REWARD_WEIGHTS_KEY = "reward_weights"
#: With a vector reward: the scalar the wrapper would return in "scalar" mode.
SCALAR_REWARD_KEY = "scalar_reward"
#: An env class's ``metadata`` flag: its steps put an ``ActionResult`` under
#: :data:`ACTION_RESULT_KEY` (``rlm-gym train``'s ``reward_wrapping="auto"`` reads it).
REPORTS_ACTION_RESULTS = "reports_action_results"
