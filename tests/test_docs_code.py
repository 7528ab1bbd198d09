"""Every ```python block of README.md and docs/*.md runs, and meets no Gymnasium deprecation.

The rule, like ``test_readme_commands.py``'s for shell blocks:

1. Each ```python block is a whole program (the pages keep them self-contained) and runs in its
   own interpreter, in a temporary directory, with Gymnasium's deprecation warnings as errors
   (``tests/deprecations.py``): a page that makes an out-of-date env id fails here.
2. Budgets shrink, nothing else changes: ``.learn(N`` and ``total_timesteps=N`` become 256,
   ``n_episodes=N`` becomes 2, ``.rollout(N`` becomes 8, and ``PPO("MlpPolicy", env`` gets
   64-step rollouts (SB3 collects at least one whole rollout, 2,048 steps per env by default).
3. A block that imports a library this venv does not have (RLlib, TorchRL, EnvPool and
   MO-Gymnasium live in the clients venv) is skipped here, naming the library;
   ``tests/clients`` runs those blocks where the libraries are installed.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deprecations import met_deprecation, run_strict

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from docs_blocks import python_blocks  # noqa: E402  (one reader of the pages' blocks)

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_BUDGETS = (
    (re.compile(r"\.learn\(\s*[\d_]+"), ".learn(256"),
    (re.compile(r"total_timesteps=[\d_]+"), "total_timesteps=256"),
    (re.compile(r"n_episodes=[\d_]+"), "n_episodes=2"),
    (re.compile(r"\.rollout\(\s*[\d_]+"), ".rollout(8"),
    (re.compile(r'PPO\("MlpPolicy", (\w+)'), r'PPO("MlpPolicy", \1, n_steps=64, batch_size=64'),
)


def shrink_budgets(code: str) -> str:
    """Rule 2: the same program with small training and evaluation budgets."""
    for pattern, replacement in _BUDGETS:
        code = pattern.sub(replacement, code)
    return code


def missing_modules(code: str) -> list[str]:
    """Top-level packages the block imports that this interpreter cannot find."""
    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return sorted(name for name in names if importlib.util.find_spec(name) is None)


BLOCKS = [(page, line, code) for page in PAGES for line, code in python_blocks(page)]


def run_block(code: str, workdir: Path) -> subprocess.CompletedProcess[str]:
    """Rule 1: the block, budgets shrunk, in its own interpreter with deprecations as errors."""
    script = workdir / "block.py"
    script.write_text(shrink_budgets(code), encoding="utf-8")
    return run_strict("script", script, [], workdir, timeout=600)


def assert_page_block_runs(page: str, line: int, code: str, workdir: Path, venv: str) -> None:
    """Run one block of ``docs/<page>`` in the extra suite's ``venv``: it imports nothing that
    venv lacks, exits 0 and meets no deprecation (the suites of tests/clients and
    tests/trainers run their pages' blocks with it)."""
    missing = missing_modules(code)
    assert not missing, f"{page}:{line} needs {missing}, which the {venv} venv must install"
    done = run_block(code, workdir)
    assert done.returncode == 0, f"{page}:{line} failed:\n{done.stderr[-3000:]}"
    assert not met_deprecation(done)


def test_the_pages_have_python_blocks():
    assert len(BLOCKS) >= 8
    assert any(page.name == "recipes.md" for page, _, _ in BLOCKS)


def test_budgets_shrink_and_nothing_else():
    code = 'PPO("MlpPolicy", env).learn(200_000, callback=cb)\ntrain("x", total_timesteps=5)\n'
    assert shrink_budgets(code) == (
        'PPO("MlpPolicy", env, n_steps=64, batch_size=64).learn(256, callback=cb)\n'
        'train("x", total_timesteps=256)\n'
    )


def test_an_out_of_date_env_id_fails_the_rule(tmp_path: Path):
    done = run_block(
        'import gymnasium as gym\nimport rlm_gym\ngym.make("rlm_gym/Crawl-v1")\n', tmp_path
    )
    assert done.returncode != 0 and met_deprecation(done)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("page", "line", "code"),
    BLOCKS,
    ids=[f"{page.name}:L{line}" for page, line, _ in BLOCKS],
)
def test_a_python_block_runs_without_deprecation(page: Path, line: int, code: str, tmp_path):
    missing = missing_modules(code)
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (the clients venv runs it)")
    done = run_block(code, tmp_path)
    assert done.returncode == 0, f"{page.name}:{line} failed:\n{done.stderr[-3000:]}"
    assert not met_deprecation(done)
