"""results/rlm_agents.json (docs/rlm.md's agents table) is what the programs do today: a
sample of its episodes replays to the same outcome and the same policy returns."""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

import pytest

from rlm_gym.envs.rlm import RLMEnv
from rlm_gym.envs.rlm.agents import PROGRAMS

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "benchmarks"))

from rlm_agents import play  # noqa: E402  (the benchmark's own episode runner)

DATA = json.loads((ROOT / "results" / "rlm_agents.json").read_text(encoding="utf-8"))
COLUMNS = DATA["episode_columns"]
ROWS = [dict(zip(COLUMNS, row, strict=True)) for row in DATA["episodes"]]
# Every program on every family at the smallest length and at 2^16, first two seeds.
SAMPLE = [r for r in ROWS if r["length"] in (2**13, 2**16) and r["seed"] < 2]


@pytest.fixture(scope="module")
def envs():
    made: dict[tuple[str, int], RLMEnv] = {}
    yield made
    for env in made.values():
        env.close()


@pytest.mark.parametrize(
    "row", SAMPLE, ids=[f"{r['family']}-{r['length']}-{r['program']}-{r['seed']}" for r in SAMPLE]
)
def test_a_recorded_episode_replays_to_the_same_numbers(envs, row):
    key = (row["family"], row["length"])
    if key not in envs:
        envs[key] = RLMEnv(family=row["family"], length=row["length"])
    episode = play(envs[key], PROGRAMS[row["program"]], row["seed"])
    for name in ("score", "correct", "sub_calls", "chars_read", "steps"):
        assert episode[name] == row[name], name
    for policy in DATA["policies"]:
        assert episode["returns"][policy]["return"] == pytest.approx(row[policy], abs=1e-9)


def test_each_cell_is_the_mean_of_its_episodes():
    for cell in DATA["cells"]:
        rows = [
            r
            for r in ROWS
            if (r["family"], r["length"], r["program"])
            == (cell["family"], cell["length"], cell["program"])
        ]
        assert len(rows) == cell["episodes"] == DATA["seeds"]
        assert cell["solved"] == pytest.approx(statistics.fmean(r["correct"] for r in rows))
        for policy in DATA["policies"]:
            mean = statistics.fmean(r[policy] for r in rows)
            assert cell["returns"][policy]["mean"] == pytest.approx(mean)
