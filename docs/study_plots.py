"""Draw the ablation's pictures from ``results/ablation.json`` into ``docs/img/``.

* ``ablation_trade_off.png``: job done (%) against time per valid item (s), one point per
  variant with 95 % CI bars on both (``ablation_blocks.trade_off_points``);
* ``ablation_curves.png``: the true crawl score of the evaluations during training, mean over
  seeds per variant, with the heuristic on the same episodes.

``make readme`` runs it after ``docs/render.py``; ``tests/test_readme_numbers.py`` checks that
the points drawn are the JSON's.

Usage:
    python docs/study_plots.py
"""

from __future__ import annotations

import sys

from ablation_blocks import ablation_results, trade_off_points
from block_tools import ROOT
from study_blocks import all_baselines

IMAGES = ROOT / "docs" / "img"


def curves() -> dict[tuple[str, int], list[tuple[int, float]]]:
    """(variant, seed) -> the (timestep, true score) evaluations during training."""
    results = ablation_results()
    if results is None:
        return {}
    return {
        (name, run["seed"]): [(point["timestep"], point["score"]) for point in run["curve"]]
        for name, row in results["variants"].items()
        for run in row["per_seed"]
        if "curve" in run
    }


def main() -> int:
    from rlm_gym.training.plots import plot_ablation_curves, plot_trade_off

    results = ablation_results()
    if results is None:
        print("results/ablation.json does not exist: nothing to draw", file=sys.stderr)
        return 0
    plot_trade_off(trade_off_points(), IMAGES / "ablation_trade_off.png")
    by_env = all_baselines(results)
    bars = {}  # the heuristic on the curves' episodes, of each env the variants use
    for env_id, baselines in by_env.items():
        if "curve_score" in baselines.get("heuristic", {}):
            version = f" ({env_id.split('/')[-1]})" if len(by_env) > 1 else ""
            bars[f"heuristic, same episodes{version}"] = baselines["heuristic"]["curve_score"]
    plot_ablation_curves(
        list(results["variants"]),
        curves(),
        IMAGES / "ablation_curves.png",
        ylabel="true crawl score (evaluations, mean of seeds)",
        baselines=bars or None,
    )
    print(f"wrote {IMAGES}/ablation_trade_off.png, ablation_curves.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
