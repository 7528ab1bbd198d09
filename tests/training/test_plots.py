"""Plots draw from plain rows: no ablation or training object needed."""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

from rlm_gym.training.plots import plot_ablation, plot_ablation_curves

SUMMARY = [
    {"variant": "full", "score": 0.8, "score_ci95": 0.02},
    {"variant": "binary", "score": 0.6, "score_ci95": 0.03},
]


def test_the_ablation_bar_chart_takes_summary_rows_and_baselines(tmp_path):
    path = plot_ablation(SUMMARY, {"random": 0.3, "oracle": 0.9}, tmp_path / "ablation.png")
    assert path.read_bytes().startswith(b"\x89PNG")


def test_the_learning_curves_take_points_per_variant_and_seed(tmp_path):
    curves = {("full", 0): [(100, 0.5), (200, 0.7)], ("full", 1): [(100, 0.4), (200, 0.8)]}
    path = plot_ablation_curves(["full", "binary"], curves, tmp_path / "curves.png")
    assert path.read_bytes().startswith(b"\x89PNG")
