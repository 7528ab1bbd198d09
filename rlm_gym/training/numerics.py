"""The floating-point platform a run's numbers depend on, recorded with every run.

A run is bit-for-bit reproducible on the same platform: the same code, seed and settings
give the same parameters, learning curve and score. On another platform they need not:
torch picks its CPU kernels (``torch.backends.cpu.get_cpu_capability()``: AVX512, AVX2 or
the plain build) and MKL its matrix-multiply code path from the CPU it runs on, so sums are
added in another order and the last bits of a gradient differ. PPO amplifies such a
difference: once one sampled action comes out otherwise the trajectories part, and the run
ends at another score. Issue 30 met this: the committed ablation, re-run from the commit
that wrote it on another machine, parted from its learning curve between 8,192 and 16,384
steps on 4 of the 10 runs checked; forcing other kernels on one machine
(``ATEN_CPU_CAPABILITY``, ``MKL_CBWR``) moves the same curve points as much.

So every run segment records :func:`numerics` in its ``config.json`` and every study row
carries it into the results JSON: a result that does not reproduce can be told apart
(same numerics: the code changed; other numerics: the platform did).
"""

from __future__ import annotations

import os
import platform
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

__all__ = ["NUMERICS_ENV_VARS", "numerics", "numerics_differences", "segments_numerics"]

# Environment variables that choose or pin the float code paths (kernels, BLAS branch,
# threads); recorded when set, since each one changes the numbers as the CPU does.
NUMERICS_ENV_VARS = (
    "ATEN_CPU_CAPABILITY",
    "MKL_CBWR",
    "MKL_ENABLE_INSTRUCTIONS",
    "MKL_NUM_THREADS",
    "NPY_DISABLE_CPU_FEATURES",
    "OMP_NUM_THREADS",
    "ONEDNN_MAX_CPU_ISA",
)
_LIBRARIES = ("torch", "numpy", "stable-baselines3", "sb3-contrib", "gymnasium")


def _cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo`` on Linux), else ``platform.processor()``."""
    cpuinfo = Path("/proc/cpuinfo")
    try:
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def numerics() -> dict[str, Any]:
    """What decides this process's float results: CPU, torch's kernels, threads, libraries.

    Reads torch's state without changing it (no random draw, no thread setting); without
    torch installed its keys are ``None``.

    Returns:
        ``cpu`` (model name), ``machine`` (``platform.machine()``), ``torch_cpu_capability``
        (the kernels torch dispatches to), ``torch_threads``, ``blas`` (``"mkl"`` or
        ``None``), ``versions`` (torch, numpy, stable-baselines3, sb3-contrib, gymnasium)
        and ``env`` (those of :data:`NUMERICS_ENV_VARS` that are set).

    Example:
        >>> record = numerics()
        >>> sorted(record)
        ['blas', 'cpu', 'env', 'machine', 'torch_cpu_capability', 'torch_threads', 'versions']
        >>> record["versions"]["numpy"] is not None
        True
    """
    capability = threads = blas = None
    try:
        import torch
    except ImportError:
        pass
    else:
        capability = torch.backends.cpu.get_cpu_capability()
        threads = int(torch.get_num_threads())
        blas = "mkl" if torch.backends.mkl.is_available() else None
    return {
        "cpu": _cpu_model(),
        "machine": platform.machine(),
        "torch_cpu_capability": capability,
        "torch_threads": threads,
        "blas": blas,
        "versions": {name: _version(name) for name in _LIBRARIES},
        "env": {name: os.environ[name] for name in NUMERICS_ENV_VARS if name in os.environ},
    }


def segments_numerics(segments: Sequence[Mapping[str, Any]]) -> list[dict[str, Any] | None]:
    """The distinct numerics a run's segments were trained with, in order (``None`` for a
    segment recorded before numerics were): one entry for a run trained on one platform.

    Example:
        >>> a, b = {"cpu": "A"}, {"cpu": "B"}
        >>> segments_numerics([{"numerics": a}, {"numerics": a}, {"numerics": b}])
        [{'cpu': 'A'}, {'cpu': 'B'}]
        >>> segments_numerics([{"from_timesteps": 0}])
        [None]
    """
    distinct: list[dict[str, Any] | None] = []
    for segment in segments:
        record = segment.get("numerics")
        if record not in distinct:
            distinct.append(dict(record) if record is not None else None)
    return distinct


def numerics_differences(
    recorded: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
    current: Mapping[str, Any],
) -> list[str]:
    """What differs between a run's recorded numerics and ``current`` (e.g. ``numerics()``).

    Args:
        recorded: One numerics record, a study row's list of them (``segments_numerics``:
            one per platform the run was trained on), or ``None`` for a run recorded before
            numerics were.
        current: The numerics to compare with.

    Returns:
        One ``"key: recorded -> current"`` line per difference (``versions.torch: ...`` for
        nested keys); ``["not recorded"]`` when ``recorded`` is ``None``, empty or holds
        ``None``; ``[]`` when the run can be expected to reproduce bit for bit.

    Example:
        >>> now = {"cpu": "A", "torch_cpu_capability": "AVX512", "env": {}}
        >>> numerics_differences({**now, "torch_cpu_capability": "AVX2"}, now)
        ['torch_cpu_capability: AVX2 -> AVX512']
        >>> numerics_differences([now], now)
        []
        >>> numerics_differences(None, now)
        ['not recorded']
    """
    records = [recorded] if isinstance(recorded, Mapping) else list(recorded or [])
    if not records or any(record is None for record in records):
        return ["not recorded"]
    if len(records) > 1:
        return [f"trained on {len(records)} platforms (a run resumed elsewhere)"]
    return _differences(records[0], current, "")


def _differences(recorded: Mapping[str, Any], current: Mapping[str, Any], prefix: str) -> list[str]:
    lines = []
    for key in sorted({*recorded, *current}):
        old, new = recorded.get(key), current.get(key)
        if isinstance(old, Mapping) and isinstance(new, Mapping):
            lines += _differences(old, new, f"{prefix}{key}.")
        elif old != new:
            lines.append(f"{prefix}{key}: {old} -> {new}")
    return lines
