"""CleanRL's ``ppo.py`` idiom on ``rlm_gym/Crawl-v2``: a minimal equivalent, not a copy.

CleanRL is a set of single-file scripts, not a library: its PyPI package (0.4.8) is a 2021
snapshot on the old ``gym`` API, and the repository's ``pyproject.toml`` pins
``gymnasium==0.29.1`` and ``torch==2.4.1``. This script keeps what ``cleanrl/ppo.py`` does with
the env -- ``gym.make(env_id)`` in a ``make_env`` thunk, ``RecordEpisodeStatistics``, a
``gym.vector.SyncVectorEnv`` of them, reset with the seed, ``num_steps`` rollout steps per
iteration, GAE, clipped PPO updates on minibatches -- and the same flag names, so
``--env-id rlm_gym:rlm_gym/Crawl-v2`` works here exactly as it does with CleanRL's own script
(also checked with upstream ppo.py unchanged). Logging is ``print`` instead of TensorBoard.

Two Gymnasium >= 1.0 details, which upstream ppo.py (written for 0.29) does not handle:
episode statistics arrive as ``infos["episode"]`` with the ``infos["_episode"]`` mask (there is
no ``"final_info"`` any more), and the vector env resets a finished env on the *next* step, whose
transition (reward 0, action ignored) is kept here as ppo.py keeps it.

Run::

    python examples/clients/cleanrl_ppo.py --env-id rlm_gym:rlm_gym/Crawl-v2
    python examples/clients/cleanrl_ppo.py --env-id rlm_gym:rlm_gym/Crawl-v2 --reward-policy lenient
"""

from __future__ import annotations

import argparse
import random
import time

import gymnasium as gym
import numpy as np
import torch
from torch import nn
from torch.distributions.categorical import Categorical


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The subset of ppo.py's flags that matter here, with its defaults and spelling."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-id", default="CartPole-v1")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--total-timesteps", type=int, default=500_000)
    parser.add_argument("--learning-rate", type=float, default=2.5e-4)
    parser.add_argument("--num-envs", type=int, default=4)
    parser.add_argument("--num-steps", type=int, default=128)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--num-minibatches", type=int, default=4)
    parser.add_argument("--update-epochs", type=int, default=4)
    parser.add_argument("--clip-coef", type=float, default=0.2)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--vf-coef", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=0.5)
    parser.add_argument("--capture-video", action="store_true")
    # Not a ppo.py flag: where a CleanRL user would edit make_env to add a reward wrapper.
    parser.add_argument("--reward-policy", default=None, help="wrap with RewardPolicyWrapper")
    return parser.parse_args(argv)


def make_env(env_id: str, idx: int, capture_video: bool, run_name: str, reward_policy=None):
    """A thunk building one env, as ppo.py's ``make_env`` does (plus an optional reward)."""

    def thunk() -> gym.Env:
        if capture_video and idx == 0:
            env = gym.make(env_id, render_mode="rgb_array")
            env = gym.wrappers.RecordVideo(env, f"videos/{run_name}")
        else:
            env = gym.make(env_id)
        if reward_policy is not None:
            # Imported here: without a reward policy the script needs only the id string.
            from rlm_gym.wrappers import RewardPolicyWrapper

            env = RewardPolicyWrapper(env, reward_policy)
        # Outermost, so the logged episodic return is the reward the agent is trained on.
        return gym.wrappers.RecordEpisodeStatistics(env)

    return thunk


def _layer(n_in: int, n_out: int, std: float = float(np.sqrt(2))) -> nn.Linear:
    layer = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, 0.0)
    return layer


class Agent(nn.Module):
    """Separate 64-64 tanh actor and critic with orthogonal initialisation."""

    def __init__(self, n_obs: int, n_actions: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(
            _layer(n_obs, 64), nn.Tanh(), _layer(64, 64), nn.Tanh(), _layer(64, 1, std=1.0)
        )
        self.actor = nn.Sequential(
            _layer(n_obs, 64), nn.Tanh(), _layer(64, 64), nn.Tanh(), _layer(64, n_actions, 0.01)
        )

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs)

    def act(self, obs: torch.Tensor, action: torch.Tensor | None = None):
        dist = Categorical(logits=self.actor(obs))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(obs)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    batch_size = args.num_envs * args.num_steps
    minibatch_size = batch_size // args.num_minibatches
    iterations = args.total_timesteps // batch_size
    run_name = f"{args.env_id.replace(':', '_').replace('/', '_')}__cleanrl_ppo__{args.seed}"

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)

    envs = gym.vector.SyncVectorEnv(
        [
            make_env(args.env_id, i, args.capture_video, run_name, args.reward_policy)
            for i in range(args.num_envs)
        ]
    )
    if not isinstance(envs.single_action_space, gym.spaces.Discrete):
        raise SystemExit(f"only discrete action spaces, got {envs.single_action_space}")
    obs_shape = envs.single_observation_space.shape
    agent = Agent(int(np.prod(obs_shape)), int(envs.single_action_space.n))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    shape = (args.num_steps, args.num_envs)
    obs = torch.zeros(shape + obs_shape)
    actions = torch.zeros(shape, dtype=torch.long)
    logprobs, rewards, dones, values = (torch.zeros(shape) for _ in range(4))

    global_step = 0
    start = time.time()
    next_obs = torch.as_tensor(envs.reset(seed=args.seed)[0], dtype=torch.float32)
    next_done = torch.zeros(args.num_envs)
    for iteration in range(1, iterations + 1):
        optimizer.param_groups[0]["lr"] = (1.0 - (iteration - 1) / iterations) * args.learning_rate
        for step in range(args.num_steps):
            global_step += args.num_envs
            obs[step], dones[step] = next_obs, next_done
            with torch.no_grad():
                action, logprob, _, value = agent.act(next_obs)
            actions[step], logprobs[step], values[step] = action, logprob, value.flatten()

            observation, reward, terminated, truncated, infos = envs.step(action.numpy())
            rewards[step] = torch.as_tensor(reward, dtype=torch.float32)
            next_obs = torch.as_tensor(observation, dtype=torch.float32)
            next_done = torch.as_tensor(np.logical_or(terminated, truncated), dtype=torch.float32)
            if "episode" in infos:
                for i in np.flatnonzero(infos["_episode"]):
                    episode_return = float(infos["episode"]["r"][i])
                    print(f"global_step={global_step}, episodic_return={episode_return}")

        # Generalised advantage estimation, bootstrapping from the value of the next obs.
        with torch.no_grad():
            next_value = agent.value(next_obs).flatten()
            advantages = torch.zeros_like(rewards)
            gae = torch.zeros(args.num_envs)
            for t in reversed(range(args.num_steps)):
                if t == args.num_steps - 1:
                    nonterminal, following = 1.0 - next_done, next_value
                else:
                    nonterminal, following = 1.0 - dones[t + 1], values[t + 1]
                delta = rewards[t] + args.gamma * following * nonterminal - values[t]
                gae = delta + args.gamma * args.gae_lambda * nonterminal * gae
                advantages[t] = gae
            returns = advantages + values

        b_obs = obs.reshape((-1, *obs_shape))
        b_actions, b_logprobs = actions.reshape(-1), logprobs.reshape(-1)
        b_advantages, b_returns, b_values = (
            advantages.reshape(-1),
            returns.reshape(-1),
            values.reshape(-1),
        )
        indices = np.arange(batch_size)
        for _ in range(args.update_epochs):
            np.random.shuffle(indices)
            for begin in range(0, batch_size, minibatch_size):
                mb = indices[begin : begin + minibatch_size]
                _, new_logprob, entropy, new_value = agent.act(b_obs[mb], b_actions[mb])
                ratio = (new_logprob - b_logprobs[mb]).exp()
                adv = b_advantages[mb]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                clipped = torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)
                pg_loss = torch.max(-adv * ratio, -adv * clipped).mean()
                new_value = new_value.flatten()
                v_clipped = b_values[mb] + torch.clamp(
                    new_value - b_values[mb], -args.clip_coef, args.clip_coef
                )
                v_loss = (
                    0.5
                    * torch.max(
                        (new_value - b_returns[mb]) ** 2, (v_clipped - b_returns[mb]) ** 2
                    ).mean()
                )
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        print(f"iteration={iteration}, loss={loss.item():.4f}")
        print("SPS:", int(global_step / (time.time() - start)))
    envs.close()


if __name__ == "__main__":
    main()
