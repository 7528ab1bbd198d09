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
    assert "examples:\n  rlm-gym farm serve" in text


def test_a_bad_seed_is_one_line_on_stderr(capsys):
    from rlm_gym.cli import main

    assert main(["farm", "serve", "--seed", "-1", "--port", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["rlm-gym farm: error: Expected `seed` to be an int >= 0, got -1"]


# Runs Python with the `live` extra's modules unimportable (they stay installed).
_HIDE_LIVE = """
import sys
class HideLive:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {"aiohttp", "parsel", "urllib3"}:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, HideLive())
"""


def _without_live(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _HIDE_LIVE + code], capture_output=True, text=True, timeout=120
    )


def test_serve_without_the_live_extra_asks_for_it_in_one_line():
    process = _without_live(
        "from rlm_gym.cli import main; raise SystemExit(main(['farm', 'serve', '--port', '0']))"
    )
    assert process.returncode == 2
    assert process.stderr.strip().splitlines() == [
        "rlm-gym farm: error: This needs `aiohttp`: install it with "
        '`pip install -e ".[live]"` in the rlm_gym clone'
    ]


def test_the_live_env_without_the_extra_names_it_and_the_core_still_imports():
    process = _without_live(
        "import gymnasium as gym, rlm_gym\n"
        "assert 'rlm_gym/CrawlLive-v0' in gym.registry\n"
        "try:\n"
        "    gym.make('rlm_gym/CrawlLive-v0')\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    assert process.returncode == 0, process.stderr
    assert 'pip install -e ".[live]"' in process.stdout
