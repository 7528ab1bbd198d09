"""``rlm-gym replay RUN_DIR``: watch a trained agent crawl, step by step, or save it as a GIF.

The agent (the run's ``model.zip``, else its last checkpoint) plays seeded episodes of the run's
own env (env id and env kwargs from its ``config.json``). Each step prints one line — the
action, whether it worked, the error if any, the reward — and the episode ends with its crawl
score, tier and defects. With ``gif``, the env's ``rgb_array`` frames (drawn with numpy by
``rlm_gym.envs.render``) are written as an animated GIF with Pillow (a matplotlib dependency of
the ``train`` extra).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rlm_gym.crawl import crawl_reward
from rlm_gym.training.env_factory import make_bare_env
from rlm_gym.training.evaluation import model_actor
from rlm_gym.training.models import load_model
from rlm_gym.training.runs import atomic_write, find_model, read_run_config

__all__ = ["replay", "save_gif"]

REPLAY_SEED = 2_000_000
GIF_FRAME_MS = 500


def save_gif(frames: list[Any], path: str | Path, frame_ms: int = GIF_FRAME_MS) -> Path:
    """Write ``frames`` (H x W x 3 ``uint8`` arrays) as an animated GIF, atomically.

    Example:
        >>> import numpy as np, tempfile, os
        >>> path = os.path.join(tempfile.mkdtemp(), "two.gif")
        >>> frames = [np.zeros((16, 16, 3), np.uint8), np.full((16, 16, 3), 255, np.uint8)]
        >>> save_gif(frames, path).stat().st_size > 0
        True
    """
    from PIL import Image

    if not frames:
        raise ValueError("Expected at least one frame to write a GIF, got none")
    images = [Image.fromarray(frame) for frame in frames]
    path = Path(path)
    with atomic_write(path, "wb") as handle:
        images[0].save(
            handle,
            format="GIF",
            save_all=True,
            append_images=images[1:],
            duration=frame_ms,
            loop=0,
        )
    return path


def _step_line(step: int, action_name: str, info: dict[str, Any], reward: float) -> str:
    result = info.get("action_result")
    status = "ok" if result is None or result.success else "failed"
    error = f" ({result.error})" if result is not None and result.error else ""
    return f"  step {step:>2}  {action_name:<17} {status}{error}  reward {reward:.3f}"


def replay(
    run: str | Path,
    episodes: int = 1,
    seed: int = REPLAY_SEED,
    gif: str | Path | None = None,
    echo: Callable[[str], Any] = print,
) -> list[dict[str, Any]]:
    """Play a trained agent on its run's env and show (or save) what it does.

    Args:
        run: A run directory written by ``train`` (or a model file inside one).
        episodes: Episodes to play, > 0.
        seed: Episode ``i`` starts with ``reset(seed=seed + i)``.
        gif: Write the frames of every episode to this GIF file.
        echo: Where the step lines go.

    Returns:
        One record per episode: ``seed``, ``steps``, ``score``, ``tier``, ``defects``.

    Raises:
        FileNotFoundError: No run directory or model there.
        ValueError: ``episodes`` <= 0.
    """
    if isinstance(episodes, bool) or not isinstance(episodes, int) or episodes <= 0:
        raise ValueError(f"Expected `episodes` to be a positive integer, got {episodes!r}")
    model_path = find_model(run)
    config = read_run_config(model_path.parent)
    env_kwargs = dict(config.get("env_kwargs") or {})
    if gif is not None:
        env_kwargs["render_mode"] = "rgb_array"
    env = make_bare_env(config["env_id"], env_kwargs)
    act = model_actor(load_model(model_path))
    names = getattr(env.unwrapped, "ACTIONS", None)
    frames: list[Any] = []
    records = []
    try:
        for episode in range(episodes):
            obs, info = env.reset(seed=seed + episode)
            echo(f"episode {episode + 1} (seed {seed + episode}), {model_path}")
            if gif is not None:
                frames.append(env.render())
            done, step, reward = False, 0, 0.0
            while not done:
                action = act(env, obs)
                obs, reward, terminated, truncated, info = env.step(action)
                step += 1
                done = terminated or truncated
                name = names[action] if names is not None else str(action)
                echo(_step_line(step, name, info, float(reward)))
                if gif is not None:
                    frames.append(env.render())
            record = _episode_summary(info, seed + episode, step, float(reward))
            records.append(record)
            defects = "; ".join(record["defects"]) or "none"
            echo(
                f"  => crawl score {record['score']:.3f}, tier {record['tier']}, defects: {defects}"
            )
    finally:
        env.close()
    if gif is not None:
        echo(f"wrote {save_gif(frames, gif)} ({len(frames)} frames)")
    return records


def _episode_summary(info: dict[str, Any], seed: int, steps: int, reward: float) -> dict[str, Any]:
    record: dict[str, Any] = {"seed": seed, "steps": steps, "score": reward}
    result = info.get("action_result")
    crawl = result.metadata.get("crawl_result") if result is not None else None
    if crawl is not None:
        details = crawl_reward(crawl).details
        record.update(tier=details["tier"], defects=list(details["defects"]))
    else:
        record.update(tier="-", defects=[])
    return record
