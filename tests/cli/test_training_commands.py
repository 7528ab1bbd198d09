"""The training subcommands: light imports, clear errors for bad flags and missing extras."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rlm_gym.cli import main
from rlm_gym.cli.options import parse_seeds
from rlm_gym.envs import CRAWL_ENV_ID
from rlm_gym.training import _deps


def test_importing_the_cli_loads_no_heavy_dependency():
    code = (
        "import sys, rlm_gym.cli; "
        "heavy = {'torch', 'stable_baselines3', 'matplotlib', 'rich', 'ray'} & set(sys.modules); "
        "print(sorted(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["train", "--policy", "crawll"], "Did you mean 'crawl'?"),
        (["train", "--disable", "valdation"], "Did you mean 'validation'?"),
        (["train", "--env", "rlm_gym/Crawl_v1"], f"Did you mean '{CRAWL_ENV_ID}'?"),
        (["evaluate", "radnom"], "Did you mean 'random'?"),
        (["ablate", "--components", "quantiy"], "Did you mean 'quantity'?"),
        (["ablate", "--seeds", "x-y"], "Expected `--seeds` like '0-4'"),
    ],
)
def test_bad_flags_fail_with_a_suggestion(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_unknown_algo_is_an_argparse_error(capsys):
    with pytest.raises(SystemExit):
        main(["train", "--algo", "ppo2"])
    err = capsys.readouterr().err
    assert "invalid choice: 'ppo2'" in err and "Did you mean 'ppo'?" in err


def test_a_missing_extra_names_the_install_command(monkeypatch, capsys):
    real_import = _deps.importlib.import_module

    def no_torch(name, *args):
        if name == "torch":
            raise ImportError("No module named 'torch'")
        return real_import(name, *args)

    monkeypatch.setattr(_deps.importlib, "import_module", no_torch)
    assert main(["demo", "--quick"]) == 2
    assert 'pip install -e ".[train]"' in capsys.readouterr().err


def test_seed_ranges_expand():
    assert parse_seeds("0-4") == [0, 1, 2, 3, 4]


def test_evaluate_baselines_prints_a_line_per_agent_unless_quiet(capsys):
    argv = ["evaluate", "--baselines", "--episodes", "2", "--format", "json"]
    assert main(argv) == 0
    lines = capsys.readouterr().err.strip().splitlines()
    assert [line.split("]")[0] for line in lines] == [
        f"rlm-gym evaluate: [{i}/4" for i in (1, 2, 3, 4)
    ]
    assert main([*argv, "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_train_help_says_the_plain_recipe_is_not_the_studys_best(capsys):

    with pytest.raises(SystemExit):
        main(["train", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "4 envs x 1,024-step rollouts and gamma 0.99" in help_text
    assert "found worse on the crawl env than the demo's" in help_text
    assert "--hp gamma=0.999" in help_text


def test_study_help_names_every_study(capsys):
    from rlm_gym.training.studies.plans import STUDIES

    with pytest.raises(SystemExit):
        main(["study", "--help"])
    help_text = capsys.readouterr().out
    for name in STUDIES:
        assert name in help_text
