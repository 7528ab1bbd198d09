"""Process pools for runs side by side (an ablation grid, a study, the demo's baselines)."""

from __future__ import annotations

import multiprocessing

__all__ = ["pool_context"]


def pool_context() -> multiprocessing.context.BaseContext:
    """``forkserver`` where the platform has it, else ``spawn``: never ``fork``, which would copy
    a parent's torch threads and open files into every worker.

    Example:
        >>> pool_context().get_start_method() in ("forkserver", "spawn")
        True
    """
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
