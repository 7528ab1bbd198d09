"""Package-level contracts: the public API and a light core."""

from __future__ import annotations

import subprocess
import sys

import gymnasium as gym


def test_public_api_names():
    import rlm_gym

    for name in (
        "RewardPolicy", "RewardSignal", "ActionResult", "PolicyContext", "PolicyRegistry",
        "RewardPolicyWrapper", "crawl_reward", "CrawlRewardPolicy", "KnowledgeStore",
        "classify_pattern_type", "CrawlEnv", "make",
    ):  # fmt: skip
        assert hasattr(rlm_gym, name), name


def test_import_registers_policies_and_env():
    import rlm_gym

    names = [entry["name"] for entry in rlm_gym.PolicyRegistry.list_reward_policies()]
    assert {"default", "strict", "lenient", "research", "binary", "crawl"} <= set(names)
    assert "rlm_gym/Crawl-v1" in gym.registry


def test_core_and_cli_import_no_training_dependencies():
    code = (
        "import sys, rlm_gym, rlm_gym.cli; "
        "heavy = {'torch', 'stable_baselines3', 'sb3_contrib', 'matplotlib', 'ray', 'rich', "
        "'scrapy', 'twisted', 'aiohttp', 'parsel', 'urllib3'}; "
        "print(sorted(heavy & set(sys.modules)))"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == "[]"


def test_make_resolves_env_id_with_module_prefix():
    code = "import gymnasium as gym; print(gym.make('rlm_gym:rlm_gym/Crawl-v1').spec.id)"
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == "rlm_gym/Crawl-v1"


def test_one_version_read_from_the_package_metadata():
    from importlib.metadata import version

    import rlm_gym

    installed = version("rlm-gym")
    assert rlm_gym.__version__ == installed
    output = subprocess.run(
        [sys.executable, "-m", "rlm_gym.cli", "--version"], capture_output=True, text=True
    ).stdout
    assert output.strip() == f"rlm-gym {installed}"
