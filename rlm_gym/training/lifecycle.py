"""What keeps a training run safe while it runs: signals, checkpoints, evaluation, progress.

* ``stop_on_signals``: SIGINT (Ctrl-C) and SIGTERM set a flag instead of killing the process,
  so training stops at the next step and the run is saved; a second Ctrl-C aborts at once.
* ``RunCallback``: at the start of a rollout (right after a PPO update, so the saved weights
  match the step count) it writes a checkpoint every ``checkpoint_freq`` steps and evaluates
  the agent on the true score every ``eval_freq`` steps, keeping the best as ``best_model.zip``.
* ``ProgressLineCallback``: one progress line every tenth of the budget, for terminals and
  logs without tqdm / rich (``progress_callbacks`` picks it or SB3's bar).
* ``quiet_writer_threads``: a full disk is reported once, by the training loop, not again by
  TensorBoard's writer thread.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from stable_baselines3.common.callbacks import BaseCallback

__all__ = [
    "ProgressLineCallback",
    "RunCallback",
    "StopFlag",
    "progress_callbacks",
    "quiet_writer_threads",
    "stop_on_signals",
]


@dataclass
class StopFlag:
    """Set by ``stop_on_signals`` when a stop signal arrives (``signum`` is its number)."""

    signum: int | None = None

    @property
    def stopped(self) -> bool:
        """True once a stop signal has arrived."""
        return self.signum is not None


@contextlib.contextmanager
def stop_on_signals(announce: Callable[[str], None] | None = None) -> Iterator[StopFlag]:
    """Turn SIGINT and SIGTERM into a ``StopFlag`` for the duration of the block.

    Outside the main thread (where Python cannot install handlers) the flag never sets and the
    signals keep their usual effect. A second SIGINT raises ``KeyboardInterrupt`` at once.

    Example:
        >>> import os, signal
        >>> with stop_on_signals() as flag:
        ...     os.kill(os.getpid(), signal.SIGTERM)
        ...     flag.signum == signal.SIGTERM
        True
    """
    flag = StopFlag()
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return

    def handler(signum: int, frame: Any) -> None:
        if flag.stopped and signum == signal.SIGINT:
            raise KeyboardInterrupt
        if not flag.stopped and announce is not None:
            name = signal.Signals(signum).name
            announce(f"{name}: saving a checkpoint and stopping (Ctrl-C again to abort)")
        flag.signum = flag.signum or signum

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield flag
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


class RunCallback(BaseCallback):
    """Stop on a signal, write periodic checkpoints, keep the best model by true score.

    Args:
        flag: The ``StopFlag`` to watch (training stops at the next step once set).
        checkpoint: ``checkpoint(model)`` writes a checkpoint (None: no checkpoints).
        checkpoint_freq: Steps between checkpoints (0: none).
        evaluate: ``evaluate(model) -> score`` on the true score (None: no evaluation).
        eval_freq: Steps between evaluations (0: only the final one ``train`` runs).
        start: ``num_timesteps`` when this segment started (a resumed run starts late).
    """

    def __init__(
        self,
        flag: StopFlag,
        checkpoint: Callable[[Any], None] | None = None,
        checkpoint_freq: int = 0,
        evaluate: Callable[[Any], None] | None = None,
        eval_freq: int = 0,
        start: int = 0,
    ) -> None:
        super().__init__(0)
        self.flag = flag
        self.checkpoint = checkpoint
        self.checkpoint_freq = int(checkpoint_freq)
        self.evaluate = evaluate
        self.eval_freq = int(eval_freq)
        self._last_checkpoint = start
        self._last_eval = start

    def _on_step(self) -> bool:
        return not self.flag.stopped

    def _on_rollout_start(self) -> None:
        steps = self.model.num_timesteps
        if (
            self.evaluate is not None
            and self.eval_freq
            and steps - self._last_eval >= (self.eval_freq)
        ):
            self._last_eval = steps
            self.evaluate(self.model)
        if (
            self.checkpoint is not None
            and self.checkpoint_freq
            and (steps - self._last_checkpoint >= self.checkpoint_freq)
        ):
            self._last_checkpoint = steps
            self.checkpoint(self.model)


class ProgressLineCallback(BaseCallback):
    """Print ``label: 30,000/300,000 steps (10 %), 2,150 steps/s`` every tenth of the budget,
    and once more when training ends.

    Lines go to ``stream`` (stderr), so they never mix with a command's output.
    """

    def __init__(self, label: str, total: int, stream: Any = None, parts: int = 10) -> None:
        super().__init__(0)
        self.label = label
        self.total = int(total)
        self.stream = stream
        self.step_size = max(1, self.total // parts)
        self._next = 0
        self._started = 0.0
        self._start_steps = 0

    def _on_training_start(self) -> None:
        self._started = time.perf_counter()
        self._start_steps = self.model.num_timesteps
        self._next = (self._start_steps // self.step_size + 1) * self.step_size

    def _on_step(self) -> bool:
        steps = self.model.num_timesteps
        if steps >= self._next:
            self._next = (steps // self.step_size + 1) * self.step_size
            self._print(steps)
        return True

    def _on_training_end(self) -> None:
        self._print(self.model.num_timesteps)

    def _print(self, steps: int) -> None:
        elapsed = time.perf_counter() - self._started
        rate = (steps - self._start_steps) / elapsed if elapsed > 0 else 0.0
        share = 100 * min(steps, self.total) / self.total
        stream = self.stream or sys.stderr
        print(
            f"{self.label}: {steps:,}/{self.total:,} steps ({share:.0f} %), {rate:,.0f} steps/s",
            file=stream,
            flush=True,
        )


def progress_callbacks(progress_bar: bool, label: str, total: int) -> tuple[bool, list[Any]]:
    """Whether to show SB3's progress bar (when tqdm and rich are installed), else the
    callbacks printing a periodic progress line."""
    if not progress_bar:
        return False, []
    try:
        import rich  # noqa: F401
        import tqdm  # noqa: F401
    except ImportError:
        return False, [ProgressLineCallback(label, total)]
    return True, []


@contextlib.contextmanager
def quiet_writer_threads() -> Iterator[None]:
    """Keep a background writer's OSError (TensorBoard's event thread on a full disk) from
    printing a traceback: the same error reaches the training loop and is reported there."""
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        if not issubclass(args.exc_type, OSError):
            previous(args)

    threading.excepthook = hook
    try:
        yield
    finally:
        threading.excepthook = previous


@contextlib.contextmanager
def unchecked_distributions() -> Iterator[None]:
    """Skip torch's argument checks of the policy's distributions while training.

    Every rollout step and every minibatch builds a (masked) categorical distribution, and
    torch checks its logits each time (``validate_args``); the policy's logits are the
    network's own finite outputs, and a check changes no value, so training gives the same
    weights (``tests/training/test_trainer.py``) at less CPU (``benchmarks/study_cost.py``).
    torch's default is restored on the way out, also when training raises.
    """
    import torch

    previous = torch.distributions.Distribution._validate_args
    torch.distributions.Distribution.set_default_validate_args(False)
    try:
        yield
    finally:
        torch.distributions.Distribution.set_default_validate_args(previous)
