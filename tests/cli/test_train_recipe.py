"""``rlm-gym train --recipe NAME [--print]``: one line of flags, clear errors around it."""

from __future__ import annotations

import pytest

from rlm_gym.cli import main
from rlm_gym.training.studies.recipes import RECIPES


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_print_writes_the_recipe_as_one_command(name, capsys):
    assert main(["train", "--recipe", name, "--print"]) == 0
    assert capsys.readouterr().out == RECIPES[name].command() + "\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["train", "--recipe", "dmeo", "--print"], "Did you mean 'demo'?"),
        (["train", "--print"], "give --recipe NAME"),
        (["train", "--recipe", "demo", "--print", "--seed", "1"], "drop --seed"),
        (["train", "--recipe", "demo", "--hyperparams", "x.yml"], "keep one"),
        (["train", "--recipe", "demo", "--resume", "runs/x"], "drop --recipe"),
    ],
)
def test_recipe_mistakes_get_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
