"""Checks of ``CrawlEnv``'s arguments and actions: errors that name the argument and the value.

Example:
    >>> check_pattern_types("contact_info")
    ('contact_info',)
    >>> check_pattern_types(["job_listing"])
    Traceback (most recent call last):
    ...
    ValueError: Pattern type 'job_listing' in `pattern_types` is scored by the crawl reward but ...
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rlm_gym._validation import did_you_mean, unknown_name_error
from rlm_gym.crawl import PATTERN_TYPES
from rlm_gym.envs.dynamics import ACTIONS
from rlm_gym.envs.profiles import SIMULATED_PATTERN_TYPES, SiteProfile

__all__ = [
    "RENDER_MODES",
    "check_keywords",
    "check_render_mode",
    "check_max_steps",
    "check_pattern_types",
    "as_action",
]

RENDER_MODES: tuple[str, ...] = ("ansi", "rgb_array")
# Constructor keywords besides the profile overrides (for "did you mean" on a typo).
_KEYWORDS = ("render_mode", "pattern_types", "max_steps", "reward_config")
_N_ACTIONS = len(ACTIONS)


def check_keywords(overrides: dict[str, Any]) -> None:
    """Raise ``TypeError`` for a keyword that is neither an argument nor a profile attribute."""
    attributes = [name for name in SiteProfile._fields if name != "pattern_type"]
    for key in overrides:
        if key not in attributes:
            valid = [*_KEYWORDS, *attributes]
            raise TypeError(
                f"CrawlEnv() got an unexpected keyword argument {key!r}.{did_you_mean(key, valid)}"
                f" Valid keywords: {', '.join(valid)}"
            )


def check_render_mode(render_mode: Any) -> None:
    """Raise ``ValueError`` unless ``render_mode`` is None or one of ``RENDER_MODES``."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(
            f"Expected `render_mode` None, 'ansi' or 'rgb_array', got {render_mode!r}"
            f"{did_you_mean(render_mode, RENDER_MODES)}"
        )


def check_max_steps(max_steps: Any) -> int:
    """``max_steps`` as an int; ``TypeError`` if it is not an integer, ``ValueError`` below 1."""
    if isinstance(max_steps, (bool, np.bool_)) or not isinstance(max_steps, (int, np.integer)):
        raise TypeError(
            f"Expected `max_steps` to be an int >= 1, got {type(max_steps).__name__} {max_steps!r}"
        )
    if max_steps < 1:
        raise ValueError(f"Expected `max_steps` to be an int >= 1, got {max_steps!r}")
    return int(max_steps)


def check_pattern_types(pattern_types: Any) -> tuple[str, ...] | None:
    """The pattern types to draw sites from, as a tuple (None: all simulated types).

    Raises:
        ValueError: For an empty list, a pattern type the crawl reward scores but the simulator
            does not model (saying which types it models and why), or an unknown name (with
            the closest simulated type).
    """
    if pattern_types is None:
        return None
    if isinstance(pattern_types, str):
        pattern_types = [pattern_types]
    types = tuple(pattern_types)
    if not types:
        raise ValueError("Expected `pattern_types` to name at least one pattern type, got []")
    for name in types:
        if name in SIMULATED_PATTERN_TYPES:
            continue
        if name in PATTERN_TYPES:
            simulated = ", ".join(repr(v) for v in SIMULATED_PATTERN_TYPES)
            raise ValueError(
                f"Pattern type {name!r} in `pattern_types` is scored by the crawl reward but not "
                f"simulated: the simulator generates items, extraction schemas and selectors "
                f"for {simulated} only"
            )
        raise unknown_name_error(
            "pattern type", name, SIMULATED_PATTERN_TYPES, "in `pattern_types`"
        )
    return types


def as_action(action: Any) -> int:
    """An action index from a numpy integer or 0-d integer array (the slow path of ``step``)."""
    if isinstance(action, (bool, np.bool_)):
        raise TypeError(
            f"Expected `action` to be an int in [0, {_N_ACTIONS - 1}], got bool {action!r}"
        )
    if isinstance(action, (int, np.integer)):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    shape = f" of shape {action.shape}" if isinstance(action, np.ndarray) else ""
    raise TypeError(
        f"Expected `action` to be an int in [0, {_N_ACTIONS - 1}] (an int, numpy integer or "
        f"0-d integer array), got {type(action).__name__}{shape} {action!r}"
    )
