"""Where a trained crawler's score falls short of the oracle's, step by step.

The oracle (``rlm_gym.envs.baselines.Oracle``) plays knowing the site's hidden profile; the
agent sees the noisy probe and the crawl's progress. ``oracle_gap`` plays the agent on seeded
episodes and, at every step, asks the oracle two things about the state the agent is in: which
action it would take there, and the expected final score of its play from there (its value,
``V``). The agent's shortfall then splits over its steps: step ``t`` loses ``V(s_t) -
V(s_t+1)``, which the oracle's own play loses nothing of on average, and the losses of an
episode add up to ``V(s_0) - V(s_T)``. Grouped by phase and by the agent's action they say
which decisions cost the score; the agreement with the oracle's action says how often the agent
chose as the oracle would.

The oracle values a state by the score the env reports (on Crawl-v2 the crawl reward of the
crawler's *recorded* success), so the value of the last state (``end_value``) is that score,
not the true crawl score (the ground truth's): their difference is what the recorded success
credits that the ground truth does not, for the oracle's play as for the agent's.

The oracle's calls read the env's model and state and draw nothing from its random generator,
so the agent's episodes are those ``evaluate`` plays on the same seeds.

Example:
    >>> gap = oracle_gap("heuristic", n_episodes=2, seed=0)
    >>> sorted(gap["by_phase"])
    ['extract', 'fetch', 'paginate']
    >>> abs(gap["start_value"] - gap["end_value"] - gap["loss"]) < 1e-9
    True
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from typing import Any

from rlm_gym.envs import CRAWL_V2_ENV_ID
from rlm_gym.envs.baselines import Oracle
from rlm_gym.envs.dynamics import ACTIONS, PHASES, S_PHASE
from rlm_gym.training.env_factory import make_bare_env
from rlm_gym.training.episodes import episode_record
from rlm_gym.training.evaluation import _resolve_actor
from rlm_gym.training.studies.plans import MOONSHOT_CHOICE, STUDY_EVAL_SEED

__all__ = ["main", "oracle_gap"]


def oracle_gap(
    agent: Any,
    env_id: str = CRAWL_V2_ENV_ID,
    n_episodes: int = 300,
    seed: int = STUDY_EVAL_SEED,
) -> dict[str, Any]:
    """The agent's shortfall against the oracle, split by phase and by the agent's action.

    Args:
        agent: What ``evaluate`` plays: an SB3 model, a run directory or model path, a
            baseline name or a callable ``actor(env, obs) -> action``; greedy.
        env_id: The crawl env played.
        n_episodes: Episodes, ``reset(seed=seed + i)``.
        seed: Seed of the first episode.

    Returns:
        ``{"episodes", "score", "start_value", "end_value", "loss", "agree", "by_phase":
        {phase: {"steps", "agree", "loss"}}, "by_action": {action: {"steps", "agree",
        "loss", "oracle": {action: share}}}}``: means per episode (``score``: the true crawl
        score, ``start_value`` and ``end_value``: the oracle's values of the first and the
        last state, ``loss``: their difference), the share of steps where the agent took the
        oracle's action, and each group's steps and loss per episode.

    Raises:
        ValueError: ``n_episodes`` is not a positive integer.
    """
    if isinstance(n_episodes, bool) or not isinstance(n_episodes, int) or n_episodes <= 0:
        raise ValueError(f"Expected `n_episodes` to be a positive integer, got {n_episodes!r}")
    actor, _ = _resolve_actor(agent, deterministic=True)
    oracle = Oracle()
    env = make_bare_env(env_id)
    steps: list[tuple[str, str, str, float]] = []  # phase, action, oracle's action, loss
    scores, starts, ends = [], [], []
    try:
        for episode in range(n_episodes):
            obs, info = env.reset(seed=seed + episode)
            crawl = env.unwrapped
            value = oracle.value(crawl.model, crawl.state)
            starts.append(value)
            pending: list[tuple[str, str, str]] = []
            values = [value]
            total, length, done = 0.0, 0, False
            while not done:
                phase = PHASES[crawl.state[S_PHASE]]
                best = oracle.action(crawl.model, crawl.state)
                action = actor(env, obs)
                pending.append((phase, ACTIONS[action], ACTIONS[best]))
                obs, reward, terminated, truncated, info = env.step(action)
                total += float(reward)
                length += 1
                done = terminated or truncated
                values.append(oracle.value(crawl.model, crawl.state))
            scores.append(episode_record(info, total, length)["score"])
            ends.append(values[-1])
            steps += [(*step, values[i] - values[i + 1]) for i, step in enumerate(pending)]
    finally:
        env.close()
    episodes = float(n_episodes)
    return {
        "env_id": env_id,
        "episodes": n_episodes,
        "seed": seed,
        "score": sum(scores) / episodes,
        "start_value": sum(starts) / episodes,
        "end_value": sum(ends) / episodes,
        "loss": sum(step[3] for step in steps) / episodes,
        "agree": sum(step[1] == step[2] for step in steps) / len(steps),
        "by_phase": _grouped(steps, 0, episodes, PHASES[:3]),
        "by_action": _grouped(steps, 1, episodes, ACTIONS),
    }


def _grouped(
    steps: list[tuple[str, str, str, float]], key: int, episodes: float, order: tuple[str, ...]
) -> dict[str, Mapping[str, Any]]:
    """Steps, agreement and loss per episode of each group (``key``: 0 phase, 1 action)."""
    groups: dict[str, list[tuple[str, str, str, float]]] = defaultdict(list)
    for step in steps:
        groups[step[key]].append(step)
    out: dict[str, Mapping[str, Any]] = {}
    for name in order:
        members = groups.get(name)
        if not members:
            continue
        row: dict[str, Any] = {
            "steps": len(members) / episodes,
            "agree": sum(step[1] == step[2] for step in members) / len(members),
            "loss": sum(step[3] for step in members) / episodes,
        }
        if key == 1:
            oracle = Counter(step[2] for step in members)
            row["oracle"] = {a: oracle[a] / len(members) for a in ACTIONS if oracle[a]}
        out[name] = row
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the oracle gap of a study run's agent and of the oracle's own play, and the
    oracle's clone (``imitation.clone_oracle_report``), as JSON."""
    import argparse
    import json
    from pathlib import Path

    from rlm_gym.training.models import load_model
    from rlm_gym.training.runs import write_json_atomic
    from rlm_gym.training.studies.imitation import clone_oracle_report

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", default="moonshot", help="the study whose run is played")
    parser.add_argument("--variant", default=MOONSHOT_CHOICE, help="the study's variant")
    parser.add_argument("--seed", type=int, default=0, help="the run's training seed")
    parser.add_argument("--episodes", type=int, default=300, help="episodes played")
    parser.add_argument(
        "--clone-episodes", type=int, default=1_000, help="oracle episodes the clone learns from"
    )
    parser.add_argument("--runs-dir", default="runs/studies", help="where the study's runs are")
    parser.add_argument("--out", default="results/oracle-gap.json", help="the JSON written")
    args = parser.parse_args(argv)
    run_dir = Path(args.runs_dir) / args.study / args.variant / f"seed_{args.seed}"
    write_json_atomic(
        args.out,
        {
            "study": args.study,
            "variant": args.variant,
            "train_seed": args.seed,
            "agent": oracle_gap(load_model(run_dir), n_episodes=args.episodes),
            "oracle": oracle_gap("oracle", n_episodes=args.episodes),
            "clone": clone_oracle_report(
                n_train_episodes=args.clone_episodes, n_eval_episodes=args.episodes
            ),
        },
        strict=True,
    )
    print(json.dumps({"wrote": args.out}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
