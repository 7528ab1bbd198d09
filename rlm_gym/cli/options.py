"""What several commands share: argparse value types, flag parsers and checks, notes.

Nothing here imports torch or stable-baselines3: the parsers are built for every command.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import textwrap
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rlm_gym._validation import did_you_mean

__all__ = [
    "HelpFormatter",
    "add_algo",
    "add_command",
    "add_quiet",
    "check_env_id",
    "check_hp",
    "checked_number",
    "model_file",
    "non_negative_int",
    "note",
    "parse_assignments",
    "parse_seeds",
    "parse_weights",
    "positive_int",
    "split_names",
]


class HelpFormatter(argparse.HelpFormatter):
    """``--help`` as ``pip`` and ``pytest`` print it: the description wrapped paragraph by
    paragraph, the example lines as written, and each option's default after its help text.

    A paragraph of one line is wrapped to the terminal; one of several lines (the examples)
    is kept as it is. The default is appended when the option has one worth printing (not
    ``None``, not a switch's ``False``) and the help does not already say it: options whose
    default is resolved later (``None`` here) say in their own words what happens without them.
    """

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n\n".join(
            paragraph if "\n" in paragraph else "\n".join(_wrap(paragraph, width, indent))
            for paragraph in text.split("\n\n")
        )

    def _split_lines(self, text: str, width: int) -> list[str]:
        return _wrap(text, width)

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        # Identity, not ``in``: a default of 0 equals False and must still be printed.
        if (
            not action.option_strings
            or "default" in text.lower()
            or default is None
            or default is False
            or default is argparse.SUPPRESS
        ):
            return text
        return f"{text} (default: %(default)s)"


def _wrap(text: str, width: int, indent: str = "") -> list[str]:
    # Never break inside a name: `ablation-300k`, `rlm_gym/Crawl-v2` and flags stay whole.
    return textwrap.wrap(
        " ".join(text.split()),
        width,
        initial_indent=indent,
        subsequent_indent=indent,
        break_on_hyphens=False,
        break_long_words=False,
    )


def add_command(
    subparsers: Any, name: str, summary: str, examples: Sequence[str], description: str = ""
) -> argparse.ArgumentParser:
    """Add one subcommand with the house's help: a one-line summary (listed under
    ``rlm-gym --help``), a description (the summary when none is given), and example lines.

    Example:
        >>> parser = argparse.ArgumentParser(prog="rlm-gym")
        >>> sub = add_command(parser.add_subparsers(), "hello", "say hello", ["rlm-gym hello"])
        >>> print(sub.format_help().split("examples:")[1].strip())
        rlm-gym hello
    """
    epilog = "examples:\n" + "\n".join(f"  {line}" for line in examples)
    return subparsers.add_parser(
        name,
        help=summary,
        description=description or summary[0].upper() + summary[1:] + ".",
        epilog=epilog,
        formatter_class=HelpFormatter,
    )


def checked_number(
    text: str, convert: Callable[[str], Any], accepts: str, valid: Callable[[Any], bool]
) -> Any:
    """argparse's side of a number flag: ``convert(text)`` if it parses and is ``valid``, else
    ``ArgumentTypeError("expected <accepts>, got '<text>'")`` (argparse adds the flag).

    Example:
        >>> checked_number("0.5", float, "a number in [0, 1]", lambda value: 0 <= value <= 1)
        0.5
    """
    try:
        value = convert(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {accepts}, got {text!r}") from None
    if not valid(value):
        raise argparse.ArgumentTypeError(f"expected {accepts}, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """argparse type: an integer > 0.

    Example:
        >>> positive_int("3")
        3
        >>> positive_int("0")
        Traceback (most recent call last):
        ...
        argparse.ArgumentTypeError: expected a positive integer, got '0'
    """
    return checked_number(text, int, "a positive integer", lambda value: value > 0)


def non_negative_int(text: str) -> int:
    """argparse type: an integer >= 0 (0 switches a periodic action off)."""
    return checked_number(text, int, "an integer >= 0", lambda value: value >= 0)


def parse_seeds(text: str) -> list[int]:
    """Seeds from ``"0-4"``, ``"0,3,7"`` or a mix (``"0-2,9"``).

    Example:
        >>> parse_seeds("0-2,9")
        [0, 1, 2, 9]
        >>> parse_seeds("a")
        Traceback (most recent call last):
        ...
        ValueError: Expected `--seeds` like '0-4' or '0,3,7', got 'a'
    """
    seeds: list[int] = []
    try:
        for part in text.split(","):
            low, _, high = part.strip().partition("-")
            seeds.extend(range(int(low), int(high or low) + 1))
    except ValueError:
        raise ValueError(f"Expected `--seeds` like '0-4' or '0,3,7', got {text!r}") from None
    if not seeds:
        raise ValueError(f"Expected `--seeds` to name at least one seed, got {text!r}")
    return seeds


def parse_assignments(items: Sequence[str] | None, flag: str) -> dict[str, Any]:
    """``KEY=VALUE`` pairs; each value is parsed as JSON when it can be, else kept as text.

    Example:
        >>> parse_assignments(["lr=0.001", "net={\\"a\\": [1]}", "name=x"], "--hp")
        {'lr': 0.001, 'net': {'a': [1]}, 'name': 'x'}
    """
    result: dict[str, Any] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"Expected `{flag}` as KEY=VALUE, got {item!r}")
        try:
            result[key] = json.loads(value)
        except json.JSONDecodeError:
            result[key] = value
    return result


def parse_weights(items: Sequence[str] | None) -> dict[str, float]:
    """``--weight NAME=NUMBER`` pairs: component weights, finite numbers.

    Example:
        >>> parse_weights(["success=2", "quantity=0.5"])
        {'success': 2.0, 'quantity': 0.5}
        >>> parse_weights(["success=abc"])
        Traceback (most recent call last):
        ...
        ValueError: Expected `--weight` as NAME=NUMBER (e.g. success=2), got 'success=abc'
    """
    weights: dict[str, float] = {}
    for item in items or ():
        name, sep, text = item.partition("=")
        try:
            weight = float(text)
        except ValueError:
            weight = math.nan
        if not sep or not name.strip() or not math.isfinite(weight):
            raise ValueError(f"Expected `--weight` as NAME=NUMBER (e.g. success=2), got {item!r}")
        weights[name.strip()] = weight
    return weights


# What every stable-baselines3 save holds (its JSON settings and the network's weights).
_SB3_MODEL_MEMBERS = frozenset({"data", "policy.pth"})


def model_file(path: str, argument: str) -> Path:
    """The model file of a run directory or model path given as ``argument``, checked to be a
    model ``rlm-gym train`` saved (a stable-baselines3 zip) before any work starts.

    Raises:
        FileNotFoundError: No such path, or a directory without a model.
        ValueError: The file is not a stable-baselines3 model.
    """
    from rlm_gym.training import find_model

    model = find_model(path)
    try:
        with zipfile.ZipFile(model) as archive:
            members: set[str] | None = set(archive.namelist())
    except (zipfile.BadZipFile, OSError):
        members = None
    if members is None or not _SB3_MODEL_MEMBERS.issubset(members):
        kind = "not a zip file" if members is None else "a zip without an SB3 model in it"
        raise ValueError(
            f"`{argument}` {path}: {model} is {kind}; expected a model `rlm-gym train` saved "
            "(model.zip, best_model.zip or checkpoint.zip in its run directory)"
        )
    return model


def split_names(values: Sequence[str] | None) -> list[str]:
    """The names of a repeatable comma-separated flag, blanks dropped.

    Example:
        >>> split_names(["validation,quantity", " efficiency ", ""])
        ['validation', 'quantity', 'efficiency']
    """
    return [name.strip() for value in values or () for name in value.split(",") if name.strip()]


def check_env_id(env_id: str) -> None:
    """Raise a ``ValueError`` with a suggestion when ``env_id`` is not registered.

    Example:
        >>> check_env_id("CartPole-v9")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: Unknown env id 'CartPole-v9'. Did you mean 'CartPole-v1'? ...
    """
    import gymnasium as gym

    import rlm_gym.envs  # noqa: F401  (registers rlm_gym's env ids)

    if env_id not in gym.registry:
        ours = ", ".join(repr(name) for name in sorted(gym.registry) if name.startswith("rlm_gym"))
        raise ValueError(
            f"Unknown env id '{env_id}'.{did_you_mean(env_id, gym.registry)} rlm_gym's envs: "
            f"{ours}; every registered id: `python -c 'import gymnasium; "
            "gymnasium.pprint_registry()'`"
        )


def check_hp(overrides: dict[str, Any], algo: str | None) -> None:
    """Check ``--hp`` overrides for ``algo`` (``policy_kwargs`` is parsed in place)."""
    from rlm_gym.training import check_hyperparams, parse_policy_kwargs

    if "policy_kwargs" in overrides:
        overrides["policy_kwargs"] = parse_policy_kwargs(overrides["policy_kwargs"])
    check_hyperparams(overrides, algo or "ppo", source="--hp")


def note(args: argparse.Namespace, message: str) -> None:
    """A progress or information line on stderr (stdout carries the command's output)."""
    if not getattr(args, "quiet", False):
        print(f"rlm-gym {args.command}: {message}", file=sys.stderr, flush=True)


def add_algo(parser: argparse.ArgumentParser) -> None:
    """``--algo``: PPO or MaskablePPO."""
    parser.add_argument(
        "--algo",
        choices=("ppo", "maskable_ppo"),
        default=None,
        help="PPO or sb3-contrib's MaskablePPO (default: maskable_ppo when the env has "
        "action_masks(), else ppo)",
    )


def add_quiet(parser: argparse.ArgumentParser) -> None:
    """``--quiet`` (alias ``--no-progress``): no progress bar or progress lines."""
    parser.add_argument(
        "--quiet",
        "--no-progress",
        dest="quiet",
        action="store_true",
        help="no progress bar or progress lines",
    )


def add_format(parser: argparse.ArgumentParser, what: str) -> None:
    """``--format table|json|csv``: how a command prints its results (``what``)."""
    parser.add_argument(
        "--format",
        choices=("table", "json", "csv"),
        default="table",
        help=f"print {what} as a table, as json (every value) or as csv",
    )


def print_records(records: list[dict[str, Any]], fmt: str) -> None:
    """``records`` (dicts) as ``json`` (a list) or ``csv`` (one line each, every key)."""
    import json

    from rlm_gym.tables import csv_table

    if fmt == "json":
        print(json.dumps(records, indent=2))
        return
    keys = list(dict.fromkeys(key for record in records for key in record))
    print(csv_table(keys, [[record.get(key, "") for key in keys] for record in records]), end="")
