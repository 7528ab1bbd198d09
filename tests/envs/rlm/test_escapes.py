"""The escape suite: every attempt ends in a clear ActionResult error, the env stays alive,
nothing outside the sandbox's folder changes, and close() leaves nothing behind."""

from __future__ import annotations

import os
import shutil
import threading

import pytest

from rlm_gym.envs.rlm import RLMEnv

# Catches the worker's time-out and loops on: only the parent's deadline stops it. (An inner
# `while True: pass` would not do: CPython raises the timer's exception outside its `try`.)
SWALLOW = (
    "n = 0\nwhile True:\n    try:\n        while n < 10**15:\n            n += 1\n"
    "    except BaseException:\n        pass"
)
# (what is attempted, the code, what the error must say)
ATTEMPTS = [
    ("read a file outside", "open('/etc/hostname').read()", "is not allowed"),
    ("read outside by a relative path", "open('../../../etc/hostname').read()", "not allowed"),
    ("write outside", "open(SENTINEL, 'w').write('pwned')", "is not allowed"),
    ("create a file outside", "open(NEW_FILE, 'x').write('pwned')", "is not allowed"),
    ("import os", "import os\nos.remove(SENTINEL)", "import of 'os' is not allowed"),
    ("import pathlib", "import pathlib", "import of 'pathlib' is not allowed"),
    ("open a socket", "import socket\nsocket.socket()", "import of 'socket' is not allowed"),
    ("start a process", "import subprocess", "import of 'subprocess' is not allowed"),
    ("import ctypes", "import ctypes", "import of 'ctypes' is not allowed"),
    ("os through a module's internals", "import random\nrandom._os.remove(SENTINEL)", "underscore"),
    ("os through getattr", "import random\ngetattr(random, '_os').remove(SENTINEL)", "underscore"),
    (
        "os through vars() (the audit hook stops it)",
        "import random\nvars(random)['_os'].remove(SENTINEL)",
        "'os.remove' is not allowed",
    ),
    (
        "a process through vars() (the audit hook stops it)",
        "import random\nvars(random)['_os'].system('touch ' + NEW_FILE)",
        "'os.system' is not allowed",
    ),
    (
        "a socket through vars()",
        "import random\nvars(random)['_os'].fork()",
        "'os.fork' is not allowed",
    ),
    ("the subclasses walk", "().__class__.__base__.__subclasses__()", "underscore"),
    ("__import__", "__import__('os')", "underscore"),
    ("exhaust memory", "block = bytearray(2**40)", "MemoryError"),
    (
        "grow memory step by step",
        "blocks = []\nwhile True:\n    blocks.append(' ' * 2**24)",
        "MemoryError",
    ),
    ("exhaust CPU", "n = 0\nwhile True:\n    n += 1", "timed out"),
    ("infinite output", "while True:\n    print('x' * 1000)", "Output limit exceeded"),
    ("a huge file inside", "open('big.txt', 'w').write('x' * (20 * 2**20))", "File too large"),
    ("infinite recursion", "def f():\n    return f()\nf()", "RecursionError"),
    ("exit the worker", "raise SystemExit(0)", "SystemExit"),
    ("read stdin", "input()", "NameError"),
    (
        "swallow the time-out",
        SWALLOW,
        "timed out",
    ),
]


@pytest.fixture(scope="module")
def env():
    env = RLMEnv(family="needle", length=2**13, timeout_s=5.0, memory_mb=512, max_steps=1000)
    env.reset(seed=0)
    yield env
    env.close()


@pytest.fixture(scope="module")
def outside(tmp_path_factory):
    folder = tmp_path_factory.mktemp("outside")
    # The sandbox runs as nobody when the tests run as root: make the target writable by
    # anyone, so that only the sandbox (not file permissions) stands in the way.
    os.chmod(folder, 0o777)
    sentinel = folder / "sentinel.txt"
    sentinel.write_text("untouched")
    os.chmod(sentinel, 0o666)
    return folder


# The attempts that wait for a time-out take seconds each: marked slow (they still run in CI).
_SLOW = {"exhaust CPU", "swallow the time-out (the worker is killed and restarted)"}
CASES = [
    pytest.param(*attempt, id=attempt[0], marks=pytest.mark.slow if attempt[0] in _SLOW else ())
    for attempt in ATTEMPTS
]


@pytest.mark.parametrize(("what", "code", "message"), CASES)
def test_escape_attempt_is_a_clear_error_and_changes_nothing_outside(
    env, outside, what, code, message
):
    env.reset(seed=0)  # a fresh REPL: what an earlier attempt kept must not decide this one
    sentinel, new_file = outside / "sentinel.txt", outside / "new.txt"
    setup = f"SENTINEL = {str(sentinel)!r}\nNEW_FILE = {str(new_file)!r}"
    env.step(f"```repl\n{setup}\n```")
    _, _, terminated, _, info = env.step(f"```repl\n{code}\n```")
    result = info["action_result"]
    assert not terminated
    assert result.success is False and result.action_type == "code"
    assert message in result.error
    assert sentinel.read_text() == "untouched"
    assert sorted(p.name for p in outside.iterdir()) == ["sentinel.txt"]
    # The env is alive: the next step runs code and sees the context.
    _, _, _, _, info = env.step("```repl\nprint(len(context))\n```")
    assert info["action_result"].success and info["action_result"].output == "8192\n"


def test_code_may_write_and_read_files_inside_its_folder(env):
    _, _, _, _, info = env.step(
        "```repl\nopen('notes.txt', 'w').write('kept')\nprint(open('notes.txt').read())\n```"
    )
    assert info["action_result"].output == "kept\n"


@pytest.mark.slow
def test_close_leaves_no_process_thread_or_folder():
    threads = threading.active_count()
    env = RLMEnv(family="needle", length=2**13, timeout_s=1.0)
    env.reset(seed=1)
    env.step("```repl\nopen('f.txt', 'w').write('x')\nx = 1\n```")
    env.step(f"```repl\n{SWALLOW}\n```")
    pid, folder = env.sandbox.process.pid, env.sandbox.folder
    assert os.path.isdir(folder)
    env.close()
    assert not os.path.exists(f"/proc/{pid}")
    assert not os.path.exists(folder)
    assert threading.active_count() == threads


@pytest.mark.slow
def test_a_killed_worker_is_restarted_and_says_the_variables_are_lost():
    env = RLMEnv(family="needle", length=2**13, timeout_s=0.5)
    env.reset(seed=1)
    env.step("```repl\nx = 41\n```")
    _, _, _, _, info = env.step(f"```repl\n{SWALLOW}\n```")
    assert "variables were lost" in info["action_result"].error
    _, _, _, _, info = env.step("```repl\nprint(len(context))\n```")
    assert info["action_result"].output == "8192\n"
    env.close()


def test_close_after_a_quiet_episode_leaves_nothing():
    env = RLMEnv(family="needle", length=2**13)
    env.reset(seed=1)
    env.step("```repl\nopen('f.txt', 'w').write('x')\n```")
    pid, folder = env.sandbox.process.pid, env.sandbox.folder
    env.close()
    assert not os.path.exists(f"/proc/{pid}") and not os.path.exists(folder)


@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs util-linux's unshare")
def test_network_namespace_sandbox_runs_code_and_refuses_the_same_attempts():
    env = RLMEnv(family="needle", length=2**13, sandbox="netns")
    env.reset(seed=0)
    _, _, _, _, info = env.step("```repl\nprint(len(context))\n```")
    assert info["action_result"].output == "8192\n"
    _, _, _, _, info = env.step("```repl\nimport random\nvars(random)['_os'].listdir('/')\n```")
    assert "'os.listdir' is not allowed" in info["action_result"].error
    env.close()


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap's bwrap")
def test_bubblewrap_sandbox_runs_code_sees_no_host_tmp_and_leaves_nothing(outside):
    env = RLMEnv(family="needle", length=2**13, sandbox="bwrap")
    env.reset(seed=0)
    _, _, _, _, info = env.step(
        "```repl\nopen('notes.txt', 'w').write('x')\nprint(len(context))\n```"
    )
    assert info["action_result"].output == "8192\n"
    # The audit hook refuses it (and in here the host's /tmp is an empty tmpfs anyway).
    _, _, _, _, info = env.step(f"```repl\nopen({str(outside / 'sentinel.txt')!r})\n```")
    assert "is not allowed" in info["action_result"].error
    pid, folder = env.sandbox.process.pid, env.sandbox.folder
    env.close()
    assert not os.path.exists(f"/proc/{pid}") and not os.path.exists(folder)
