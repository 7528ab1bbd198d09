"""Every command explains itself: a description, examples, help and a default on every flag.

The rule (issue 31), walked over the real parser so a new command or flag cannot skip it:
each subcommand's ``--help`` has a description of its own, an ``examples:`` section whose
lines name the command and parse, help text on every option, and a stated default on every
option that takes a value (argparse's ``(default: ...)`` or the help's own words).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

import pytest

from rlm_gym.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs"))

from cli_blocks import help_text, subcommands  # noqa: E402

PARSER = build_parser()
COMMANDS = subcommands(PARSER)
# Actions that take no value, so have no default to state.
SWITCHES = (
    argparse._HelpAction,
    argparse._VersionAction,
    argparse._StoreTrueAction,
    argparse._StoreFalseAction,
    argparse._StoreConstAction,
    argparse._CountAction,
)


def _examples(parser: argparse.ArgumentParser) -> list[str]:
    text = help_text(parser)
    assert "\nexamples:\n" in text, f"{parser.prog} --help shows no examples"
    lines = text.split("\nexamples:\n", 1)[1].splitlines()
    return [line.strip() for line in lines if line.strip()]


def test_every_command_is_walked():
    assert {"policies", "compare", "score", "train", "evaluate", "ablate", "study"} <= set(COMMANDS)
    assert {"replay", "demo", "farm", "farm serve"} <= set(COMMANDS)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_command_has_a_one_line_summary_and_a_description(name):
    *parents, last = name.split()
    listed = help_text(COMMANDS[" ".join(parents)] if parents else PARSER)
    assert f"\n    {last}" in listed, f"the parent's --help does not list {name}"
    parser = COMMANDS[name]
    assert parser.description and len(parser.description.split()) >= 5
    assert parser.description.strip().endswith(".")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_command_shows_examples_that_parse(name):
    examples = _examples(COMMANDS[name])
    assert examples
    for example in examples:
        words = shlex.split(example.split("|")[-1].strip())
        command = ["rlm-gym", *name.split()]
        assert words[: len(command)] == command, example
        PARSER.parse_args(words[1:])


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_option_has_help_and_every_value_a_default(name):
    parser = COMMANDS[name]
    text = help_text(parser)
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue  # -h is argparse's; a subcommand's help is its own summary
        label = "/".join(action.option_strings) or action.dest
        assert action.help and len(action.help.split()) >= 2, f"{name} {label}: no help text"
        if action.option_strings and not isinstance(action, SWITCHES):
            shown = parser._get_formatter()._get_help_string(action)
            assert "default" in shown.lower(), f"{name} {label}: the default is not stated"
    assert "(default: None)" not in text


def test_a_default_of_zero_is_shown():
    text = help_text(COMMANDS["demo"])
    assert "training seed (default: 0)" in text


def test_help_never_breaks_a_name_across_lines(monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    text = COMMANDS["study"].format_help()
    for name in ("ablation-300k", "demo-version", "ablation-v1"):
        assert name in text
