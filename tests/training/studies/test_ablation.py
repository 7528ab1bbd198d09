"""The ablation grid: every (variant, seed) row, the files, the same shape for both backends."""

from __future__ import annotations

import csv

import pytest

pytest.importorskip("stable_baselines3")

import rlm_gym.envs  # noqa: F401
from rlm_gym.policies import PolicyRegistry
from rlm_gym.training.studies.ablation import ablate, ablation_variants

# Tiny budgets on purpose (seconds per run): each cuts PPO's rollout to fit, which
# tests/training/test_short_budget.py asserts warns; here the warning is expected and silenced.
_SHORT_BUDGET = pytest.mark.filterwarnings("ignore::rlm_gym.training.run_config.ShortBudgetWarning")
pytestmark = [pytest.mark.slow, _SHORT_BUDGET]
TINY = {
    "components": ["validation"],
    "seeds": [0, 1],
    "total_timesteps": 128,
    "n_envs": 2,
    "n_eval_episodes": 4,
}
EXPECTED = {(variant, seed) for variant in ("full", "no_validation", "binary") for seed in (0, 1)}


def _check_result(result, out_dir):
    assert {(row["variant"], row["seed"]) for row in result.rows} == EXPECTED
    assert len(result.rows) == len(EXPECTED)
    assert [row["variant"] for row in result.summary] == ["full", "no_validation", "binary"]
    assert all(row["runs"] == 2 for row in result.summary)
    assert all(0.0 <= row["score"] <= 1.0 for row in result.rows)
    assert set(result.baselines) == {"random", "oracle"}
    for name in ("ablation.csv", "ablation.md", "ablation.json", "ablation.png", "curves.png"):
        assert (out_dir / name).exists(), name
    with open(out_dir / "ablation.csv") as handle:
        assert len(list(csv.DictReader(handle))) == len(EXPECTED)


def test_variants_are_full_each_component_disabled_and_binary():
    variants = ablation_variants("crawl")
    components = PolicyRegistry.get_reward_class("crawl").component_names
    assert {"success", "has_data", "validation", "quantity", "efficiency"} <= set(components)
    assert list(variants) == ["full", *(f"no_{name}" for name in components), "binary"]
    assert variants["no_quantity"] == {"policy": "crawl", "disable": ("quantity",)}
    assert variants["binary"] == {"policy": "binary", "disable": ()}


def test_local_backend_returns_every_variant_and_seed(tmp_path, capsys):
    result = ablate(policy="crawl", backend="local", n_workers=2, out_dir=tmp_path, **TINY)
    _check_result(result, tmp_path)
    lines = capsys.readouterr().err.strip().splitlines()
    assert sorted(line.split("]")[0] for line in lines) == [f"ablate: [{i}/6" for i in range(1, 7)]


def test_a_second_ablation_never_overwrites_the_first(tmp_path):
    (tmp_path / "ablation.csv").write_text("the first ablation")
    result = ablate(policy="crawl", n_workers=1, out_dir=tmp_path, progress=False, **{
        **TINY, "seeds": [0], "plots": False})  # fmt: skip
    assert result.out_dir == tmp_path.with_name(f"{tmp_path.name}-2")
    assert (tmp_path / "ablation.csv").read_text() == "the first ablation"


def test_a_policy_that_does_not_fit_fails_before_any_worker(tmp_path):
    with pytest.raises(ValueError, match="Policy 'crawl' does not fit env 'CartPole-v1'"):
        ablate("CartPole-v1", "crawl", out_dir=tmp_path, **TINY)
    assert not any(tmp_path.iterdir())


def test_unknown_backend_is_rejected_with_a_suggestion(tmp_path):
    with pytest.raises(ValueError, match="Did you mean 'local'"):
        ablate(backend="locl", out_dir=tmp_path, **TINY)


def test_ray_backend_returns_the_same_shape(tmp_path):
    pytest.importorskip("ray")
    import ray

    try:
        result = ablate(policy="crawl", backend="ray", n_workers=2, out_dir=tmp_path, **TINY)
    finally:
        ray.shutdown()
    _check_result(result, tmp_path)
