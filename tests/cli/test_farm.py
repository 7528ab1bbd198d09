"""``rlm-gym farm serve``: a farm in the foreground that stops cleanly on SIGINT and SIGTERM."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys

import pytest
import urllib3

from rlm_gym.cli import build_parser


def _serve(*flags: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "rlm_gym.cli", "farm", "serve", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    match = re.search(r"serving at (http://127\.0\.0\.1:\d+)", line)
    assert match, (line, process.stderr.read() if process.poll() is not None else "")
    return process, match.group(1)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_serve_answers_then_stops_cleanly_on_a_signal(signum):
    process, url = _serve("--seed", "3", "--time-scale", "0.002")
    try:
        info = json.loads(urllib3.request("GET", f"{url}/_farm").data)
        assert (info["seed"], info["time_scale"]) == (3, 0.002)
        assert urllib3.request("GET", f"{url}/s/1/", retries=False).status in (200, 403, 429)
        process.send_signal(signum)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert f"stopped ({signum.name})" in process.stderr.read()


def test_serve_help_names_every_flag_with_its_default_and_an_example(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["farm", "serve", "--help"])
    text = capsys.readouterr().out
    for flag in ("--host", "--port", "--seed", "--time-scale", "--timeout-rate", "--error-rate"):
        assert flag in text
    assert text.count("(default:") >= 6
    assert "example: rlm-gym farm serve" in text


def test_a_bad_seed_is_one_line_on_stderr(capsys):
    from rlm_gym.cli import main

    assert main(["farm", "serve", "--seed", "-1", "--port", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["rlm-gym farm: error: Expected `seed` to be an int >= 0, got -1"]
