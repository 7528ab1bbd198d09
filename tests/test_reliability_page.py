"""The messages docs/reliability.md shows for bad input are the ones the CLI prints.

Rule: a row of the "What bad input gets" table whose input is one `rlm-gym ...` command that
fails before any work (no placeholder such as RUN_DIR, nothing that trains) is run; its shown
message, cut at every ``...`` / ``…``, must appear piece by piece, in order, in what the command
printed. So the page cannot drift from the code, as the unknown-env row once did.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from rlm_gym.cli import main

PAGE = Path(__file__).resolve().parents[1] / "docs" / "reliability.md"
_ROW = re.compile(r"^\| `(rlm-gym [^`]+)` (?:\([^|]*\) )?\| `(.+?)`(?: |\(|$)")
_PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]{2,}\b")


def shown_messages() -> list[tuple[str, str]]:
    """``(command, shown message)`` of every row that follows the rule."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## What bad input gets", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        match = _ROW.match(line)
        if match and not _PLACEHOLDER.search(match.group(1)) and "|" not in match.group(1):
            rows.append((match.group(1), match.group(2)))
    return rows


ROWS = shown_messages()


def test_the_rule_finds_the_rows():
    commands = [command for command, _ in ROWS]
    assert "rlm-gym train --env CartPol-v1" in commands
    assert len(ROWS) >= 10


@pytest.mark.parametrize(("command", "message"), ROWS, ids=[c for c, _ in ROWS])
def test_a_shown_message_is_the_printed_one(command, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(PAGE.parents[1])
    try:
        code = main(shlex.split(command)[1:])
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    printed = " ".join(capsys.readouterr().err.split())
    position = 0
    for piece in re.split(r"\.\.\.|…", message):
        piece = " ".join(piece.split()).strip()
        if not piece:
            continue
        found = printed.find(piece, position)
        assert found >= 0, f"{piece!r} not in {printed!r}"
        position = found + len(piece)
