"""Every bad input to the CLI: ONE line on stderr, exit code 2, no traceback.

The rule is described in docs/reliability.md.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import rlm_gym
from rlm_gym.cli import _run, build_parser, main
from rlm_gym.envs import CRAWL_ENV_ID

RLM_GYM = [sys.executable, "-m", "rlm_gym.cli"]


def _exit_code(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as stop:  # argparse ends bad flags itself
        return int(stop.code)


def _assert_one_line_error(capsys, argv: list[str], message: str) -> None:
    code = _exit_code(argv)
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, err
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert message in lines[0], lines[0]


@pytest.fixture
def empty_dir(tmp_path) -> Path:
    path = tmp_path / "empty_run"
    path.mkdir()
    return path


NO_TRAINING = [
    # nonsense budgets
    (["train", "--timesteps", "0"], "argument --timesteps: expected a positive integer, got '0'"),
    (["train", "--timesteps", "-5"], "expected a positive integer, got '-5'"),
    (["train", "--timesteps", "1e9x"], "expected a positive integer"),
    (["train", "--n-envs", "0"], "argument --n-envs: expected a positive integer"),
    (["train", "--eval-freq", "-1"], "argument --eval-freq: expected an integer >= 0"),
    (["evaluate", "--episodes", "0"], "argument --episodes: expected a positive integer"),
    (["compare", "--episodes", "0"], "argument --episodes: expected a positive integer"),
    (["ablate", "--timesteps", "0"], "argument --timesteps"),
    (["ablate", "--n-envs", "0"], "argument --n-envs"),
    (["ablate", "--eval-episodes", "0"], "argument --eval-episodes"),
    (["ablate", "--workers", "0"], "argument --workers"),
    (["ablate", "--seeds", "4-0"], "Expected `--seeds` to name at least one seed"),
    (["ablate", "--seeds", "x-y"], "Expected `--seeds` like '0-4'"),
    (["demo", "--timesteps", "0"], "argument --timesteps"),
    # wrong hyper-parameter types and names
    (["train", "--hp", "n_steps=abc"], "Expected `--hp n_steps` to be a positive integer"),
    (["train", "--hp", "learning_rate=fast"], "Expected `--hp learning_rate` to be a positive"),
    (["train", "--hp", "gamma=2"], "Expected `--hp gamma` to be a number in [0, 1], got int 2"),
    (["train", "--hp", "n_step=64"], "Did you mean 'n_steps'?"),
    (["train", "--hp", "n_steps"], "Expected `--hp` as KEY=VALUE"),
    (["ablate", "--hp", "batch_size=0.5"], "Expected `--hp batch_size` to be a positive integer"),
    (["train", "--weight", "success=abc"], "Expected `--weight` as NAME=NUMBER"),
    (["train", "--weight", "success"], "Expected `--weight` as NAME=NUMBER"),
    (["train", "--weight", "success=nan"], "Expected `--weight` as NAME=NUMBER"),
    # unknown ids and names
    (["train", "--env", "CartPol-v1"], "Unknown env id 'CartPol-v1'. Did you mean 'CartPole-v1'?"),
    (["compare", "--env", "CartPol-v1"], "Did you mean 'CartPole-v1'?"),
    (["evaluate", "random", "--env", "Nope-v0"], "Unknown env id 'Nope-v0'"),
    (["ablate", "--env", "CartPol-v1"], "Did you mean 'CartPole-v1'?"),
    (["train", "--policy", "crawll"], "Did you mean 'crawl'?"),
    (["compare", "--policy", "lenint"], "Did you mean 'lenient'?"),
    (["train", "--disable", "valdation"], "Did you mean 'validation'?"),
    (["ablate", "--components", "quantiy"], "Did you mean 'quantity'?"),
    (["evaluate", "radnom"], "Did you mean 'random'?"),
    (["trian"], "invalid choice: 'trian'"),
    (["policies", "--format", "xml"], "invalid choice: 'xml'"),
    (["train", "--algo", "ppo2"], "Did you mean 'ppo'?"),
    # reward schedules: the flag named once, with what it accepts
    (
        ["train", "--reward-schedule", "efficiency"],
        "`--reward-schedule`: Expected a schedule as 'name=step:weight,step:weight'",
    ),
    (
        ["train", "--reward-schedule", "efficiency=0:x"],
        "`--reward-schedule`: Expected the breakpoints of `efficiency` as 'step:weight'",
    ),
    (
        ["train", "--reward-schedule", "efficiency=9:0,3:1"],
        "`--reward-schedule`: Expected the steps of `efficiency` to be strictly increasing",
    ),
    (
        ["train", "--env", "CartPole-v1", "--policy", "lenient", "--reward-schedule", "sucess=0:1"],
        "`--reward-schedule`: Unknown scheduled component 'sucess' of policy 'lenient'. Did you",
    ),
    (["train", "--reward-schedule-interpolation", "step"], "`--reward-schedule-interpolation`"),
    (["train", "--reward-schedule-interpolation", "cubic"], "invalid choice: 'cubic'"),
    # missing files
    (["evaluate", "runs/no/such/run"], "No such model file or run directory: runs/no/such/run"),
    (["train", "--hyperparams", "no_such.yml"], "No such hyper-parameter file: no_such.yml"),
    (["train", "--resume", "runs/no/such/run"], "No run directory at runs/no/such/run"),
    (["score", "no_such_file.jsonl"], "no_such_file.jsonl"),
    # a policy / baseline that does not fit the env
    (["compare", "--env", "CartPole-v1", "--policy", "crawl"], "Policy 'crawl' does not fit"),
    (["ablate", "--env", "CartPole-v1", "--seeds", "0"], "Policy 'crawl' does not fit env"),
    (["evaluate", "--env", "CartPole-v1", "--baselines"], "Baseline 'random' plays the crawl env"),
]


@pytest.mark.parametrize(("argv", "message"), NO_TRAINING, ids=lambda v: " ".join(v)[:60])
def test_bad_input_is_one_line_and_exit_code_2(argv, message, capsys):
    _assert_one_line_error(capsys, argv, message)


def test_a_policy_that_does_not_fit_the_env_fails_before_training(capsys):
    pytest.importorskip("stable_baselines3")
    argv = ["train", "--env", "CartPole-v1", "--policy", "crawl", "--timesteps", "64"]
    _assert_one_line_error(capsys, argv, "Policy 'crawl' does not fit env 'CartPole-v1'")


def test_maskable_ppo_on_an_env_without_masks_is_refused(capsys):
    pytest.importorskip("stable_baselines3")
    argv = ["train", "--env", "CartPole-v1", "--policy", "lenient", "--algo", "maskable_ppo"]
    _assert_one_line_error(capsys, argv, "needs an env with action_masks()")


def test_a_directory_without_a_model_is_named_not_model_zip_zip(capsys, empty_dir):
    _assert_one_line_error(capsys, ["evaluate", str(empty_dir)], f"No model in {empty_dir}")


@pytest.mark.parametrize("command", ["evaluate", "replay"])
@pytest.mark.parametrize(
    ("content", "kind"),
    [(b"not a zip", "is not a zip file"), (None, "is a zip without an SB3 model in it")],
)
def test_a_file_that_is_no_model_is_named_once_with_what_is_expected(
    command, content, kind, capsys, tmp_path
):
    path = tmp_path / "model.zip"
    if content is None:
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("notes.txt", "hello")
    else:
        path.write_bytes(content)
    argument = "AGENT" if command == "evaluate" else "RUN"
    _assert_one_line_error(
        capsys, [command, str(path)], f"error: `{argument}` {path}: {path} {kind}"
    )
    assert "Error: " not in capsys.readouterr().err


def test_an_error_with_an_error_prefix_of_its_own_gets_one_prefix(capsys):
    def sb3_style(args):  # stable-baselines3's load: ValueError("Error: the file ...")
        raise ValueError("Error: the file x.zip wasn't a zip-file")

    args = build_parser().parse_args(["policies"])
    args.func = sb3_style
    assert _run(args) == 2
    assert capsys.readouterr().err == "rlm-gym policies: error: the file x.zip wasn't a zip-file\n"


def test_the_rl_zoo3_example_is_refused_with_what_to_do_instead(capsys):
    pytest.importorskip("yaml")
    pytest.importorskip("stable_baselines3")
    example = Path(__file__).resolve().parents[2] / "examples/clients/rl_zoo3_ppo.yml"
    argv = ["train", "--hyperparams", str(example), "--timesteps", "64"]
    _assert_one_line_error(capsys, argv, "`--hyperparams`: `env_wrapper` in ")
    _exit_code(argv)
    err = capsys.readouterr().err
    assert "rlm-gym wraps the env in the reward policy itself (--policy" in err
    assert "python -m rl_zoo3.train" in err


def test_resume_refuses_run_flags(capsys, empty_dir):
    pytest.importorskip("stable_baselines3")
    argv = ["train", "--resume", str(empty_dir), "--policy", "lenient", "--timesteps", "9"]
    _assert_one_line_error(capsys, argv, "drop --policy, --timesteps")


def test_resume_refuses_a_reward_schedule_flag(capsys, empty_dir):
    pytest.importorskip("stable_baselines3")
    argv = ["train", "--resume", str(empty_dir), "--reward-schedule", "success=0:1"]
    _assert_one_line_error(capsys, argv, "drop --reward-schedule")


def test_resume_of_a_directory_without_config_says_so(capsys, empty_dir):
    pytest.importorskip("stable_baselines3")
    _assert_one_line_error(capsys, ["train", "--resume", str(empty_dir)], "has no config.json")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("CartPole-v1: [1, 2", "is not valid YAML"),
        ("- 1\n- 2\n", "in rl-zoo3's layout"),
        ("MountainCar-v0:\n  n_steps: 8\n", "Unknown section (env id) 'CartPole-v1'"),
        ("CartPole-v1:\n  n_timesteps: -3\n", "Expected `n_timesteps`"),
        ("CartPole-v1:\n  policy: CnnPolicy\n", "Expected `policy`"),
        ("CartPole-v1:\n  frame_stack: 4\n", "`frame_stack`"),
        ("CartPole-v1:\n  normalize: true\n", "VecNormalize"),
        ("CartPole-v1:\n  n_epochs: ten\n", "to be a positive integer, got str 'ten'"),
        ("CartPole-v1:\n  reward_schedule: [1]\n", "Expected `reward_schedule` in "),
        ("CartPole-v1:\n  reward_schedule: success=1:1,0:0\n", "strictly increasing"),
        ("CartPole-v1:\n  reward_schedule: succes=0:1\n", "Did you mean 'success'?"),
    ],
)
def test_a_bad_hyperparams_file_is_one_line(text, message, capsys, tmp_path):
    pytest.importorskip("yaml")
    path = tmp_path / "ppo.yml"
    path.write_text(text)
    argv = ["train", "--env", "CartPole-v1", "--policy", "lenient", "--hyperparams", str(path)]
    _assert_one_line_error(capsys, argv, message)


def test_compare_on_cartpole_skips_crawl_and_says_so_in_one_line(capsys):
    assert main(["compare", "--env", "CartPole-v1", "--episodes", "1"]) == 0
    captured = capsys.readouterr()
    err_lines = captured.err.strip().splitlines()
    assert len(err_lines) == 1 and "skipped" in err_lines[0] and "crawl" in err_lines[0]
    assert "\ncrawl " not in captured.out
    assert "lenient" in captured.out and "binary" in captured.out


def test_compare_on_the_crawl_env_keeps_every_policy(capsys):
    assert main(["compare", "--env", CRAWL_ENV_ID, "--episodes", "1", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert "crawl" in captured.out and "skipped" not in captured.err


def test_version_prints_the_package_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"rlm-gym {rlm_gym.__version__}"


class _ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_closed_pipe_ends_quietly_in_process(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert main(["policies"]) == 141
    assert capsys.readouterr().err == ""


def test_a_closed_pipe_ends_quietly_as_a_process():
    # The reader is gone before the command writes anything: every write gets EPIPE.
    read_end, write_end = os.pipe()
    os.close(read_end)
    process = subprocess.run(
        [*RLM_GYM, "policies", "--format", "json"],
        stdout=write_end,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
    )
    os.close(write_end)
    assert process.returncode == 141
    assert process.stderr == ""


def test_the_installed_command_prints_no_traceback():
    process = subprocess.run(
        [*RLM_GYM, "train", "--timesteps", "0"], capture_output=True, text=True, timeout=120
    )
    assert process.returncode == 2
    assert process.stderr.strip().splitlines() == [
        "rlm-gym train: error: argument --timesteps: expected a positive integer, got '0'"
    ]
