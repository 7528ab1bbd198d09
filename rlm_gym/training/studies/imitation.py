"""How far the oracle's choices can be learnt from the observation: behaviour cloning.

The oracle chooses knowing the site's hidden profile; an agent sees the noisy probe and the
crawl's progress. ``clone_oracle_report`` records the oracle's play on seeded training episodes
(observation, action mask, the oracle's action), fits a masked MLP classifier to it by cross
entropy, and reports how often the clone picks the oracle's action on held-out episodes and the
true crawl score it reaches when it plays greedily on the studies' evaluation episodes. A clone
far below the oracle says the oracle's choices are not in the observation (or not in a
classifier of it); a clone above the trained agents says there is score left that the
observation supports and reinforcement learning did not find. Cloning is a diagnostic here,
not a recipe: its data come from an oracle a real crawler does not have.

Needs torch (the ``train`` extra).

Example:
    >>> report = clone_oracle_report(n_train_episodes=20, n_eval_episodes=5, epochs=2)
    ... # doctest: +SKIP
    >>> 0.0 <= report["heldout_accuracy"] <= 1.0  # doctest: +SKIP
    True
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from rlm_gym.envs import CRAWL_V2_ENV_ID
from rlm_gym.training._deps import require
from rlm_gym.training.env_factory import make_bare_env
from rlm_gym.training.evaluation import evaluate
from rlm_gym.training.studies.plans import STUDY_EVAL_EPISODES, STUDY_EVAL_SEED

__all__ = ["clone_oracle_report", "oracle_demonstrations"]

#: Seed of the first training episode: far from the evaluation's (``STUDY_EVAL_SEED``).
DEMONSTRATION_SEED = 0


def oracle_demonstrations(
    env_id: str = CRAWL_V2_ENV_ID, n_episodes: int = 1_000, seed: int = DEMONSTRATION_SEED
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The oracle's play on ``n_episodes`` seeded episodes, step by step.

    Returns:
        ``(observations, masks, actions, episodes)``: one row per step; ``episodes`` is the
        index of the episode a step belongs to.

    Raises:
        ValueError: ``n_episodes`` is not a positive integer.
    """
    if isinstance(n_episodes, bool) or not isinstance(n_episodes, int) or n_episodes <= 0:
        raise ValueError(f"Expected `n_episodes` to be a positive integer, got {n_episodes!r}")
    env = make_bare_env(env_id)
    observations, masks, actions, episodes = [], [], [], []
    try:
        for episode in range(n_episodes):
            obs, _ = env.reset(seed=seed + episode)
            crawl, done = env.unwrapped, False
            while not done:
                action = crawl.oracle_action()
                observations.append(np.asarray(obs, dtype=np.float32))
                masks.append(np.asarray(crawl.action_masks(), dtype=bool))
                actions.append(action)
                episodes.append(episode)
                obs, _, terminated, truncated, _ = env.step(action)
                done = terminated or truncated
    finally:
        env.close()
    return np.stack(observations), np.stack(masks), np.asarray(actions), np.asarray(episodes)


def _masked_logits(net: Any, obs: Any, masks: Any) -> Any:
    import torch

    return net(obs).masked_fill(~masks, -torch.inf)


def _fit(
    obs: np.ndarray,
    masks: np.ndarray,
    actions: np.ndarray,
    hidden: Sequence[int],
    epochs: int,
    seed: int,
) -> Any:
    """A masked MLP classifier of the actions, fitted by Adam on minibatches of 256."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    sizes = [obs.shape[1], *hidden]
    layers: list[nn.Module] = []
    for width_in, width_out in itertools.pairwise(sizes):
        layers += [nn.Linear(width_in, width_out), nn.Tanh()]
    net = nn.Sequential(*layers, nn.Linear(sizes[-1], masks.shape[1]))
    optimiser = torch.optim.Adam(net.parameters(), lr=1e-3)
    x, m, y = torch.from_numpy(obs), torch.from_numpy(masks), torch.from_numpy(actions)
    generator = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        for batch in torch.randperm(len(y), generator=generator).split(256):
            loss = nn.functional.cross_entropy(_masked_logits(net, x[batch], m[batch]), y[batch])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    return net.eval()


def clone_oracle_report(
    env_id: str = CRAWL_V2_ENV_ID,
    n_train_episodes: int = 2_000,
    heldout_share: float = 0.1,
    hidden: Sequence[int] = (64, 64),
    epochs: int = 30,
    n_eval_episodes: int = STUDY_EVAL_EPISODES,
    eval_seed: int = STUDY_EVAL_SEED,
    seed: int = 0,
) -> dict[str, Any]:
    """Clone the oracle from its play and report the clone's accuracy and true crawl score.

    Args:
        env_id: The crawl env.
        n_train_episodes: Oracle episodes recorded (seeds ``DEMONSTRATION_SEED`` on).
        heldout_share: The last episodes' share kept out of the fit, for its accuracy.
        hidden: Hidden layer widths of the classifier (tanh), PPO's default ``(64, 64)``.
        epochs: Passes over the recorded steps.
        n_eval_episodes: Episodes the clone is scored on (the studies' evaluation episodes).
        eval_seed: Their first seed.
        seed: The fit's seed.

    Returns:
        ``{"env_id", "train_episodes", "train_steps", "hidden", "epochs", "heldout_accuracy",
        "heldout_accuracy_by_phase", "evaluation"}``: the share of held-out steps where the
        clone chose the oracle's action (overall and in each phase) and the clone's
        evaluation summary (``evaluate``'s).

    Raises:
        MissingExtraError: torch is not installed.
        ValueError: ``heldout_share`` is not in (0, 1).
    """
    if not 0.0 < heldout_share < 1.0:
        raise ValueError(f"Expected `heldout_share` in (0, 1), got {heldout_share!r}")
    require("torch")
    import torch

    from rlm_gym.envs.dynamics import PHASES
    from rlm_gym.envs.observation import INDEX

    obs, masks, actions, episodes = oracle_demonstrations(env_id, n_train_episodes)
    cut = round(n_train_episodes * (1.0 - heldout_share))
    train, heldout = episodes < cut, episodes >= cut
    net = _fit(obs[train], masks[train], actions[train], hidden, epochs, seed)
    with torch.no_grad():
        logits = _masked_logits(
            net, torch.from_numpy(obs[heldout]), torch.from_numpy(masks[heldout])
        )
    hits = logits.argmax(dim=1).numpy() == actions[heldout]
    by_phase = {}
    for phase in PHASES[:3]:
        rows = obs[heldout][:, INDEX[f"phase_{phase}"]] > 0.5
        if rows.any():
            by_phase[phase] = float(hits[rows].mean())

    def act(env: Any, observation: Any) -> int:
        mask = np.asarray(env.unwrapped.action_masks(), dtype=bool)
        with torch.no_grad():
            scores = _masked_logits(
                net,
                torch.as_tensor(np.asarray(observation, dtype=np.float32))[None],
                torch.from_numpy(mask)[None],
            )
        return int(scores.argmax())

    evaluation = evaluate(act, env_id, n_eval_episodes, eval_seed, label="oracle clone")
    return {
        "env_id": env_id,
        "train_episodes": cut,
        "train_steps": int(train.sum()),
        "hidden": list(hidden),
        "epochs": epochs,
        "heldout_accuracy": float(hits.mean()),
        "heldout_accuracy_by_phase": by_phase,
        "evaluation": evaluation.summary(),
    }
