"""Test helpers that need stable-baselines3 (import only after ``importorskip``)."""

from __future__ import annotations

from stable_baselines3.common.logger import Logger


class RecordingLogger(Logger):
    """An SB3 logger that keeps every ``record(key, value)`` call, in order, and writes nothing."""

    def __init__(self) -> None:
        super().__init__(folder=None, output_formats=[])
        self.recorded: list[tuple[str, float]] = []

    def record(self, key, value, exclude=None):
        self.recorded.append((key, value))
        super().record(key, value, exclude)
