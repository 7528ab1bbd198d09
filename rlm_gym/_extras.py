"""How to install an optional extra, written once for every "needs the extra" message.

rlm-gym is installed from a clone (it is not published on a package registry), so an extra is
added with an editable install from the clone's folder.
"""

from __future__ import annotations

__all__ = ["install_command"]


def install_command(extra: str) -> str:
    """The command that adds the optional ``extra`` to an install from a clone.

    Example:
        >>> install_command("live")
        'pip install -e ".[live]"'
    """
    return f'pip install -e ".[{extra}]"'
