"""Clear errors when the optional ``train`` / ``ray`` / ``live`` extras are missing."""

from __future__ import annotations

import importlib

from rlm_gym._extras import install_command

__all__ = ["MissingExtraError", "require"]

_EXTRA_OF = {
    "torch": "train",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
    "matplotlib": "train",
    "rich": "train",
    "rliable": "train",
    "ray": "ray",
    "aiohttp": "live",
    "parsel": "live",
    "urllib3": "live",
}


class MissingExtraError(ImportError):
    """An optional dependency is missing; the message says which extra installs it."""


def require(*modules: str) -> None:
    """Import ``modules`` or raise ``MissingExtraError`` naming the extra to install.

    Example:
        >>> require("json")
        >>> require("no_such_module_xyz")
        Traceback (most recent call last):
        ...
        rlm_gym.training._deps.MissingExtraError: This needs `no_such_module_xyz`: install it with `pip install -e ".[train]"` in the rlm_gym clone (torch CPU: `pip install torch==2.13.0` first)
    """  # noqa: E501
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as error:
            extra = _EXTRA_OF.get(module.split(".")[0], "train")
            hint = " (torch CPU: `pip install torch==2.13.0` first)" if extra == "train" else ""
            raise MissingExtraError(
                f"This needs `{module}`: install it with `{install_command(extra)}` in the rlm_gym "
                f"clone{hint}"
            ) from error
