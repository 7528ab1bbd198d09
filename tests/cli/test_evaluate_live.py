"""``rlm-gym evaluate --env rlm_gym/CrawlLive-v0 RUN``: a Crawl-v2 run plays its live twin."""

from __future__ import annotations

import argparse
import json
import zipfile

import pytest

from rlm_gym.cli.evaluate import _resolve_agents


@pytest.fixture
def v2_run(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "config.json").write_text(json.dumps({"env_id": "rlm_gym/Crawl-v2", "env_kwargs": {}}))
    with zipfile.ZipFile(run / "model.zip", "w") as archive:
        archive.writestr("data", "{}")
        archive.writestr("policy.pth", b"")
    return run


def _args(run, env):
    return argparse.Namespace(agents=[str(run)], env=env, env_kwarg=None, quiet=True)


def test_a_crawl_v2_run_is_evaluated_on_the_live_env(v2_run):
    agents, env_id, _ = _resolve_agents(_args(v2_run, "rlm_gym/CrawlLive-v0"))
    assert env_id == "rlm_gym/CrawlLive-v0"
    assert agents == [str(v2_run / "model.zip")]


def test_another_env_than_the_run_s_or_its_live_twin_is_refused(v2_run):
    with pytest.raises(ValueError, match="trained on 'rlm_gym/Crawl-v2'"):
        _resolve_agents(_args(v2_run, "rlm_gym/Crawl-v1"))
