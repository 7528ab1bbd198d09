"""Every recipe a page or a help text names is a recipe of ``RECIPES``, flag for flag.

A recipe is named by ``--recipe NAME`` or spelt out as flags (``--n-envs`` with ``--hp``); either
way the command must train exactly one of the studies' recipes, so advice cannot drift from the
plans (the old demo recipe's flags in four places were how a newcomer trained the wrong one).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs"))

import render  # noqa: E402
from recipe_blocks import RECIPES, recipe_of_command  # noqa: E402

from rlm_gym.cli.train import default_recipe_note  # noqa: E402

# A train command as pages show it: up to a closing backtick, parenthesis, table bar or line end.
_COMMAND = re.compile(r"rlm-gym train (?:[^`)|\n\\]|\\\n)*")


def _recipe_commands(text: str) -> list[str]:
    """The ``rlm-gym train`` commands of ``text`` that name a recipe or spell one out."""
    found = []
    for match in _COMMAND.finditer(text):
        command = match.group(0).strip()
        names_one = re.search(r"--recipe [a-z0-9]", command)
        spells_one = "--n-envs" in command and "--hp" in command
        if names_one or spells_one:
            found.append(command)
    return found


def _page_text(page: Path) -> str:
    text = page.read_text(encoding="utf-8")
    # docs/cli.md quotes --help wrapped to 100 columns; the help text is checked unwrapped below.
    return re.sub(r"```text\n\$ rlm-gym .*?```", "", text, flags=re.S)


PAGES = [page for page in render.pages() if _recipe_commands(_page_text(page))]


def test_the_pages_name_recipes():
    assert {page.name for page in PAGES} >= {"README.md", "training.md", "live.md"}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_recipe_a_page_names_is_a_recipe(page):
    for command in _recipe_commands(_page_text(page)):
        assert recipe_of_command(command) is not None, f"{page.name}: {command!r} is no recipe"


def test_the_train_help_names_the_demo_recipe_as_it_is():
    note = default_recipe_note()
    commands = _recipe_commands(note)
    assert RECIPES["demo"].command() in commands
    assert all(recipe_of_command(command) for command in commands)
    assert all(f"{name}: " in note for name in RECIPES)


def test_an_old_recipe_spelt_out_is_caught():
    old = "rlm-gym train --n-envs 16 --hp n_steps=256 --hp gamma=0.999"
    assert _recipe_commands(f"add `{old}`") == [old]
    assert recipe_of_command(old) is None
