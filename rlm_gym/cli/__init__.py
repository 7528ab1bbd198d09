"""The ``rlm-gym`` command line: ``main``, the parser, and the one error and exit-code policy.

Each command lives in its own module (``policies`` and ``compare`` in :mod:`.policies`,
``score`` in :mod:`.score`, ``train`` in :mod:`.train`, ...) and adds itself to the parser with
``register(subparsers)``. Building the parser imports nothing heavy: torch, stable-baselines3,
matplotlib, rich and ray load when a command that needs them runs.

Every error a user can cause (a bad name, value, budget or file, a policy that does not fit the
env, a missing extra) ends the command with ONE line on stderr, ``rlm-gym <command>: error:
...``, and exit code 2 — never a traceback. A closed output pipe (``rlm-gym policies | head -1``)
ends it quietly with exit code 141 (128 + SIGPIPE, as a shell reports a writer killed by the
pipe); ``score``, a filter over logs, ends quietly with 0 instead. Ctrl-C / SIGTERM end it with
130 / 143 after saving what a training run has.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

from rlm_gym._validation import did_you_mean
from rlm_gym.cli import ablate, demo, evaluate, farm, policies, replay, score, study, train
from rlm_gym.cli.options import HelpFormatter
from rlm_gym.cli.policies import compare_policies, fitting_policies

__all__ = ["build_parser", "compare_policies", "fitting_policies", "main"]

EXIT_USAGE = 2
EXIT_BROKEN_PIPE = 128 + 13


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are one line (``prog: error: message``), exit 2.

    argparse prints the usage first; the one line says what was wrong, ``--help`` the rest.
    An invalid choice gets the closest valid one.
    """

    def error(self, message: str) -> NoReturn:
        """Print ``prog: error: message`` on stderr and exit with code 2."""
        match = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if match:
            choices = re.findall(r"'([^']*)'", match.group(2))
            message = message.replace(")", ")." + did_you_mean(match.group(1), choices), 1)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {_one_line(message)}\n")


def _one_line(text: object) -> str:
    """The text on one line, without an ``Error:`` of its own (SB3 starts messages with one,
    and the line already says ``error:``)."""
    line = " ".join(part.strip() for part in str(text).splitlines() if part.strip())
    return re.sub(r"^error:\s*", "", line, flags=re.IGNORECASE)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available subcommand."""
    from rlm_gym import __version__

    parser = OneLineParser(
        prog="rlm-gym",
        description="Reward policies for Gymnasium envs, the simulated crawl environment, and "
        "the crawl reward for a scraper's own output. `rlm-gym COMMAND --help` explains each "
        "command, with examples.",
        epilog="examples:\n"
        "  rlm-gym policies\n"
        "  rlm-gym score examples/crawl_results.jsonl --explain\n"
        "  rlm-gym demo",
        formatter_class=HelpFormatter,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"rlm-gym {__version__}",
        help="print the package version and exit",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in (policies, score, train, evaluate, ablate, study, replay, demo, farm):
        command.register(subparsers)
    return parser


def _user_errors() -> tuple[type[BaseException], ...]:
    """The exceptions that mean bad input (names, values, files, a missing extra)."""
    import gymnasium

    from rlm_gym.training import MissingExtraError

    return (ValueError, TypeError, OSError, MissingExtraError, gymnasium.error.Error)


def _quiet_stdout() -> None:
    # Python flushes stdout again at exit; point it at /dev/null so that flush cannot fail.
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (a test's capture): nothing to protect
    finally:
        os.close(devnull)


def _run(args: argparse.Namespace) -> int:
    from rlm_gym.training import TrainingInterrupted

    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        raise
    except TrainingInterrupted as stop:
        print(f"rlm-gym {args.command}: {stop}", file=sys.stderr)
        return 128 + int(stop.signum)
    except KeyboardInterrupt:
        print(f"rlm-gym {args.command}: interrupted", file=sys.stderr)
        return 128 + 2
    except _user_errors() as error:
        print(f"rlm-gym {args.command}: error: {_one_line(error)}", file=sys.stderr)
        return EXIT_USAGE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (argparse exits itself on bad flags and --help).

    Example:
        >>> main(["compare", "--env", "CartPole-v1", "--policy", "binary", "--episodes", "1"])
        ... # doctest: +ELLIPSIS
        CartPole-v1: mean per-episode reward components over 1 seeded episodes
        ...
        0
    """
    args = None
    try:
        args = build_parser().parse_args(argv)
        return _run(args)
    except BrokenPipeError:
        _quiet_stdout()
        # A command may say otherwise (`score` is a filter: its reader leaving is no failure).
        return getattr(args, "closed_pipe_exit", EXIT_BROKEN_PIPE)
