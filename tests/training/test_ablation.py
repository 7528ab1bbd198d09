"""The ablation grid: every (variant, seed) row, the files, the same shape for both backends."""

from __future__ import annotations

import csv

import pytest

pytest.importorskip("stable_baselines3")

import rlm_gym.envs  # noqa: F401
from rlm_gym.training.ablation import ablate, ablation_variants

pytestmark = pytest.mark.slow
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
    assert list(variants) == [
        "full", "no_success", "no_has_data", "no_validation", "no_quantity", "no_efficiency",
        "binary",
    ]  # fmt: skip
    assert variants["no_quantity"] == {"policy": "crawl", "disable": ("quantity",)}
    assert variants["binary"] == {"policy": "binary", "disable": ()}


def test_local_backend_returns_every_variant_and_seed(tmp_path):
    result = ablate(policy="crawl", backend="local", n_workers=2, out_dir=tmp_path, **TINY)
    _check_result(result, tmp_path)


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
