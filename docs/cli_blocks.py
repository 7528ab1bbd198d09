"""The command line's reference, rendered from the parser itself (``rlm-gym COMMAND --help``).

``docs/cli.md`` shows every subcommand's ``--help`` as ``rlm-gym`` prints it, so a flag, a
default or an example cannot be documented differently from what the parser does.
"""

from __future__ import annotations

import argparse
import os

from rlm_gym.cli import build_parser

# Help is wrapped to the terminal's width; the page is rendered at one fixed width.
WIDTH = 100


def help_text(parser: argparse.ArgumentParser) -> str:
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(WIDTH)
    try:
        return parser.format_help().rstrip()
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser by its words (``"farm serve"`` too), in ``--help`` order."""
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found[name] = sub
                found.update({f"{name} {words}": p for words, p in subcommands(sub).items()})
    return found


def cli_reference() -> str:
    """``rlm-gym --help``, then each subcommand's ``--help``, in text blocks."""
    parser = build_parser()
    parts = ["```text\n$ rlm-gym --help\n" + help_text(parser) + "\n```\n"]
    for name, sub in subcommands(parser).items():
        parts.append(f"\n### `rlm-gym {name}`\n\n```text\n$ rlm-gym {name} --help\n")
        parts.append(help_text(sub) + "\n```\n")
    return "".join(parts)
