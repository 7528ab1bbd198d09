"""The generated tables: ``tools/build_tables.py`` re-run on its pinned sources reproduces the
committed ``rlm_gym/quality/tables/cldr.json`` byte for byte (issue 28). Skipped cleanly when
the pinned babel / dateparser are not installed (the dev extra installs them, so CI runs it)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "build_tables.py"
TABLE = ROOT / "rlm_gym" / "quality" / "tables" / "cldr.json"


def _load_script():
    spec = importlib.util.spec_from_file_location("build_tables", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_tables", module)
    spec.loader.exec_module(module)
    return module


build_tables = _load_script()


def _pinned_sources_installed() -> bool:
    try:
        return build_tables._versions() == build_tables.PINNED
    except ImportError:
        return False


def test_the_generated_file_says_where_it_comes_from():
    tables = json.loads(TABLE.read_text(encoding="utf-8"))
    source = tables["_source"]["doc"]
    for library, version in build_tables.PINNED.items():
        assert f"{library} {version}" in source
    assert len(tables["_source"]["languages"]) >= 60


def test_the_dev_extra_installs_the_pinned_sources():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for library, version in build_tables.PINNED.items():
        assert f'"{library}=={version}"' in text
    dev = tomllib.loads(text)["project"]["optional-dependencies"]["dev"]
    extras = {
        extra.strip()
        for entry in dev
        if entry.startswith("rlm-gym[")
        for extra in entry[len("rlm-gym[") : -1].split(",")
    }
    assert "tables" in extras


@pytest.mark.skipif(not _pinned_sources_installed(), reason="pinned babel/dateparser not installed")
def test_rebuilding_reproduces_the_committed_tables(tmp_path):
    output = tmp_path / "cldr.json"
    assert build_tables.main(["--output", str(output)]) == 0
    assert output.read_text(encoding="utf-8") == TABLE.read_text(encoding="utf-8")
    assert build_tables.main(["--check"]) == 0


def test_the_build_refuses_other_versions_of_its_sources(monkeypatch):
    monkeypatch.setattr(build_tables, "_versions", lambda: {"babel": "0.1", "dateparser": "0.1"})
    with pytest.raises(SystemExit, match="needs"):
        build_tables.check_pins()
