"""Every `rlm-gym` command in the fenced shell blocks of README.md and docs/*.md runs.

The rule, so a documented command can never rot unnoticed:

1. A command is a line of a ```bash / ```sh / ```shell / ```console block that starts with
   ``rlm-gym`` (in console blocks: ``$ rlm-gym``); ``# comments`` are dropped and ``\\``
   continuations joined. ``make`` lines are the Makefile's business, not this test's.
2. Budgets shrink, nothing else changes: ``--timesteps`` becomes 256, ``--episodes`` and
   ``--eval-episodes`` 2, ``--seeds`` one seed; ``train``, ``ablate``, ``study`` and ``demo`` get
   ``--quiet``, ``demo`` ``--quick``, and ``study`` those three budgets (its own are a study's).
3. A command with a placeholder (an UPPERCASE word such as ``RUN_DIR`` or ``FILE.jsonl``) or
   optional ``[...]`` syntax runs as ``rlm-gym <subcommand> --help``; so does ``farm serve``,
   a server in the foreground that only a signal stops.
4. Commands run in page order (the README, then ``docs/*.md`` by name) and in each page's
   order, in one temporary directory (so ``runs/...`` written by one command is there for the
   next); an argument naming a file of the repository points to it.
5. In a console block, an example whose shown output has an ``error:`` line must fail with exit
   code 2 and no traceback; every other command must exit 0.
6. A path under ``$RLM_GYM_CORPORA/`` names a file of the labelled corpora, found as
   ``rlm_gym.quality.corpora`` finds them; without them the command is skipped, saying why.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from rlm_gym.quality.corpora import CORPORA_ENV, CorporaUnavailable, corpus_dir

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_BLOCKS = ("bash", "sh", "shell", "console")
TRAINING = ("train", "ablate", "study", "demo")
BUDGETS = {"--timesteps": "256", "--episodes": "2", "--eval-episodes": "2", "--seeds": "0"}
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*(\.[a-z]+)?$")


@dataclass(frozen=True)
class Command:
    """One documented command: its words, whether its shown output is an error, where it is."""

    words: tuple[str, ...]
    expects_error: bool
    line: int
    page: str = "README.md"

    @property
    def id(self) -> str:
        return f"{self.page}:L{self.line}: {' '.join(self.words)}"[:80]


def readme_commands(text: str, page: str = "README.md") -> list[Command]:
    """The ``rlm-gym`` commands of the fenced shell blocks of ``text`` (rule 1 and 5)."""
    commands: list[Command] = []
    block: str | None = None
    pending: list[str] = []
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        fence = re.match(r"^\s*```(\w*)", line)
        if fence:
            block = None if block is not None else (fence.group(1) or "text")
            continue
        if block not in SHELL_BLOCKS:
            continue
        stripped = line.strip()
        if block == "console":
            if not stripped.startswith("$ "):
                continue
            stripped = stripped[2:]
        if pending:
            stripped = pending.pop() + " " + stripped
        if stripped.endswith("\\"):
            pending.append(stripped[:-1].strip())
            continue
        words = shlex.split(stripped, comments=True)
        if not words or words[0] != "rlm-gym":
            continue
        shown = _shown_output(lines, number) if block == "console" else []
        expects_error = any("error:" in out for out in shown)
        commands.append(Command(tuple(words[1:]), expects_error, number, page))
    return commands


def _shown_output(lines: list[str], number: int) -> list[str]:
    shown = []
    for line in lines[number:]:
        if line.strip().startswith(("$ ", "```")):
            break
        shown.append(line)
    return shown


def runnable_argv(words: tuple[str, ...]) -> list[str]:
    """The argv to run for a documented command (rules 2 and 3).

    Example:
        >>> runnable_argv(("ablate", "--seeds", "0-4", "--timesteps", "60000"))
        ['ablate', '--seeds', '0', '--timesteps', '256', '--quiet']
        >>> runnable_argv(("evaluate", "RUN_DIR", "--episodes", "300"))
        ['evaluate', '--help']
        >>> runnable_argv(("farm", "serve", "--port", "8765"))
        ['farm', 'serve', '--help']
        >>> runnable_argv(("study", "defaults"))  # doctest: +NORMALIZE_WHITESPACE
        ['study', 'defaults', '--quiet', '--timesteps', '256', '--eval-episodes', '2',
         '--seeds', '0']
    """
    if any(PLACEHOLDER.match(word) or word.startswith("[") for word in words):
        return [words[0], "--help"]
    if words[:2] == ("farm", "serve"):  # a server in the foreground never exits by itself
        return ["farm", "serve", "--help"]
    argv = list(words)
    for index, word in enumerate(argv[:-1]):
        if word in BUDGETS:
            argv[index + 1] = BUDGETS[word]
    argv = [_repo_path(word) for word in argv]
    if argv and argv[0] in TRAINING and "--quiet" not in argv:
        argv.append("--quiet")
    if argv and argv[0] == "demo" and "--quick" not in argv:
        argv.append("--quick")
    if argv and argv[0] == "study":
        for flag, budget in BUDGETS.items():
            if flag in ("--timesteps", "--eval-episodes", "--seeds") and flag not in argv:
                argv += [flag, budget]
    return argv


def _corpora_path(word: str) -> str:
    """``word`` with a leading ``$RLM_GYM_CORPORA/`` resolved (rule 6)."""
    prefix = f"${CORPORA_ENV}/"
    if not word.startswith(prefix):
        return word
    try:
        root = corpus_dir(word[len(prefix) :].split("/", 1)[0]).parent
    except CorporaUnavailable as error:
        pytest.skip(f"needs the labelled corpora: {error}")
    return str(root / word[len(prefix) :])


def _repo_path(word: str) -> str:
    if word.startswith("-") or "/" not in word:
        return word
    path = ROOT / word
    return str(path) if path.exists() else word


COMMANDS = [
    command
    for page in PAGES
    for command in readme_commands(page.read_text(encoding="utf-8"), str(page.relative_to(ROOT)))
]


def test_the_readme_has_rlm_gym_commands_in_shell_blocks():
    assert any(c.page == "README.md" for c in COMMANDS), (
        "README.md shows no `rlm-gym ...` command in a fenced shell block"
    )


def test_the_extraction_follows_the_rule():
    text = "\n".join(
        [
            "```bash",
            "make demo",
            "rlm-gym train --timesteps 9000 \\",
            "    --policy crawl   # a comment",
            "```",
            "```console",
            "$ rlm-gym score bad.jsonl",
            "rlm-gym score: error: 2 invalid line(s)",
            "$ rlm-gym policies",
            "default [-1, 1]",
            "```",
            "```python",
            "rlm-gym not a shell line",
            "```",
        ]
    )
    commands = readme_commands(text)
    assert [c.words for c in commands] == [
        ("train", "--timesteps", "9000", "--policy", "crawl"),
        ("score", "bad.jsonl"),
        ("policies",),
    ]
    assert [c.expects_error for c in commands] == [False, True, False]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("readme")


def _marks(command: Command) -> list[pytest.MarkDecorator]:
    argv = runnable_argv(command.words)
    return [pytest.mark.slow] if argv[0] in (*TRAINING, "evaluate") and "--help" not in argv else []


@pytest.mark.parametrize(
    "command",
    [pytest.param(c, id=c.id, marks=_marks(c)) for c in COMMANDS],
)
def test_a_readme_command_runs(command: Command, workdir: Path):
    argv = [_corpora_path(word) for word in runnable_argv(command.words)]
    if argv[0] in TRAINING and "--help" not in argv:
        pytest.importorskip("stable_baselines3")
    done = subprocess.run(
        [sys.executable, "-m", "rlm_gym.cli", *argv],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert "Traceback" not in done.stderr, done.stderr
    if command.expects_error:
        assert done.returncode == 2, (argv, done.stderr)
        assert "error:" in done.stderr.strip().splitlines()[-1]
    else:
        assert done.returncode == 0, (argv, done.stderr)
