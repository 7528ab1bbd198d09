"""README.md's and docs/*.md's numbers are the ones their committed JSON files hold.

``docs/render.py`` renders every generated block of those pages from ``results/*.json``,
``benchmarks/results.json`` or a deterministic command over committed data; a page that
disagrees with its source fails here, so no number goes stale.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs"))

import ablation_blocks  # noqa: E402
import render  # noqa: E402

PAGES = render.pages()


def test_the_pages_are_the_readme_and_every_docs_page():
    assert PAGES[0] == ROOT / "README.md"
    assert {page.name for page in PAGES[1:]} >= {
        "environment.md",
        "crawl-reward.md",
        "training.md",
        "clients.md",
        "reliability.md",
        "performance.md",
    }


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_generated_block_of_a_page_matches_its_source(page: Path):
    current = page.read_text(encoding="utf-8")
    assert render.render(current) == current, f"{page.name} is stale: run `make readme`"


def test_every_block_renderer_is_used_on_some_page():
    used = {
        match.group("name")
        for page in PAGES
        for match in render._BLOCK.finditer(page.read_text(encoding="utf-8"))
    }
    assert used == set(render.BLOCKS)


def test_the_readme_shows_the_headline_results():
    readme = PAGES[0].read_text(encoding="utf-8")
    used = {match.group("name") for match in render._BLOCK.finditer(readme)}
    assert used >= {"demo_table", "ablation_verdict", "real_data_figures", "performance_headline"}


def test_a_block_marker_names_the_renderer_of_this_repository():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        markers = text.count("<!-- generated: ")
        assert markers == len(render._BLOCK.findall(text)), (
            f"{page.name}: a `<!-- generated: NAME (python docs/render.py) -->` block is malformed"
        )


def test_the_trade_off_plot_draws_the_ablation_json():
    results = json.loads((ROOT / "results" / "ablation.json").read_text(encoding="utf-8"))
    points = {point["label"]: point for point in ablation_blocks.trade_off_points()}
    assert set(points) == set(results["variants"])
    for name, row in results["variants"].items():
        task = row["task"]
        assert points[name]["y"] == pytest.approx(100 * task["job_done"]["mean"])
        assert points[name]["y_ci"] == pytest.approx(100 * task["job_done"]["ci95"])
        assert points[name]["x"] == pytest.approx(task["time_per_valid_item_ms"]["mean"] / 1000)
    for image in ("ablation_trade_off.png", "ablation_curves.png"):
        assert (ROOT / "docs" / "img" / image).stat().st_size > 10_000


def test_the_demo_table_shows_the_baselines_of_the_env_the_demo_trains_on():
    import study_blocks

    from rlm_gym.training.demo import DEMO_ENV_ID, DEMO_STUDY, DEMO_VARIANT
    from rlm_gym.training.studies.summary import variant_baselines

    path = ROOT / "results" / f"{DEMO_STUDY}.json"
    results = json.loads(path.read_text(encoding="utf-8"))
    name = DEMO_VARIANT
    assert results["variants"][name].get("env_id", results["env_id"]) == DEMO_ENV_ID
    baselines = variant_baselines(results, name)
    rows = {
        line.split("|")[1].strip(): [cell.strip() for cell in line.split("|")[2:-1]]
        for line in study_blocks.demo_table().splitlines()
        if line.startswith("| ") and not line.startswith("| agent")
    }
    low, high = baselines["random"]["score"], baselines["oracle"]["score"]
    assert rows["oracle"][0] == f"{high:.3f}"
    seed0 = next(run for run in results["variants"][name]["per_seed"] if run["seed"] == 0)
    assert rows["trained"][2] == f"{(seed0['score'] - low) / (high - low):.2f}"


def test_a_study_tables_baseline_rows_are_those_of_each_env_on_its_own_scale():
    import study_blocks

    def scale(oracle: float) -> dict:
        return {"random": {"score": 0.2}, "oracle": {"score": oracle}, "heuristic": {"score": 0.6}}

    results = {
        "env_id": "rlm_gym/Crawl-v1",
        "baselines": scale(1.0),
        "baselines_by_env": {"rlm_gym/Crawl-v2": scale(0.8)},
    }
    rows = {row[0]: row[2:4] for row in study_blocks.baseline_rows(results, 0)}
    assert rows["*heuristic* (Crawl-v1)"] == ["0.600", "0.50"]
    assert rows["*heuristic* (Crawl-v2)"] == ["0.600", "0.67"]
    assert rows["*oracle* (Crawl-v2)"] == ["0.800", "1.00"]
    del results["baselines_by_env"]  # one env: rows as they always were
    assert [row[0] for row in study_blocks.baseline_rows(results, 0)] == [
        "*random*",
        "*heuristic*",
        "*oracle*",
    ]


@pytest.mark.parametrize("name", ["ablation", "ablation-16envs"])
def test_the_cost_check_compares_the_classes_the_verdict_sentence_names(name):
    results = json.loads((ROOT / "results" / f"{name}.json").read_text(encoding="utf-8"))
    classes = list(ablation_blocks.verdict_classes(results).values())
    sentence = ablation_blocks.ablation_verdict(name)

    def names(found):
        return ", ".join(f"`{variant}`" for variant in found)

    _, costs, quiet, free, better = classes
    for variant in costs:
        component = variant.removeprefix("no_")
        if component == "value_checks":
            assert "Switching the three value checks off together costs:" in sentence
        else:
            assert f"Switching `{component}` off costs:" in sentence
    if quiet:
        labels = [f"`{variant.removeprefix('no_')}`" for variant in quiet]
        assert f"Switching off {', '.join(labels)} costs nothing measurable" in sentence
    if free:
        assert f"time per valid item: {names(free)}" in sentence
    if better:
        assert f"of those, {names(better)} finish the job more often" in sentence
