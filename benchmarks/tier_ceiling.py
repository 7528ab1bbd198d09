"""The tier agreement the crawl reward's tier formula reaches with a *perfect* value judge.

Each labelled corpus ships its labelling rules as code (``../shared/corpora/*/label.py``: the
``judge_*`` functions, the hand calls of ``OVERRIDES`` / ``ITEM_HOOKS`` and the pattern types of
``DATASETS``). This script puts those verdicts in place of the scorer's own — every distinct
value of every required field judged by the labeller's code, the pattern type the label's best
one — and runs the unchanged reward formula (validation, quantity, efficiency, defects, the
tier rules). The share of crawls whose tier then follows the verdict is the ceiling no value
judge can beat; the crawls it misses are listed with why.

Usage:
    python benchmarks/tier_ceiling.py [--data DIR ...]

By default ``realdata`` and ``devcorpus`` (the corpora whose rules are a ``label.py``).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))

from real_data import KEPT, TIERS_FOR_VERDICT

from rlm_gym.crawl import crawl_reward, memo
from rlm_gym.quality.corpora import corpus_dir, load_corpus
from rlm_gym.quality.judge import MISSING, NOT_AN_ITEM, Judgement, judge_items

# The labeller's reasons, as the judge's unusable reasons where they mean the same (so
# completeness counts them as the scorer would); every other label rejection is "invalid".
_UNUSABLE_WORDS = (
    ("null", "empty"),
    ("empty", "empty"),
    ("placeholder", "placeholder"),
    ("residue", "markup residue"),
    ("mis-encoded", "mis-encoded text"),
    ("stringified", "stringified container"),
    ("anti-bot", "error page text"),
)


def _labeller(data_dir: Path) -> ModuleType:
    """The corpus's ``label.py`` as a module (its own ``build.py`` first on the path)."""
    sys.path.insert(0, str(data_dir))
    sys.modules.pop("build", None)
    try:
        path = data_dir / "label.py"
        spec = importlib.util.spec_from_file_location(f"label_{data_dir.name}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.KEYS_IN_ORDER = [source["key"] for source in sys.modules["build"].SOURCES]
    finally:
        sys.path.remove(str(data_dir))
        sys.modules.pop("build", None)
    return module


def _reason(why: str) -> str:
    for word, reason in _UNUSABLE_WORDS:
        if why.startswith(word) or word in why.split(" ")[:3]:
            return reason
    return "invalid (label)"


def _label_verdict(labeller: ModuleType, key: str, field: str, item: Any) -> str:
    if not isinstance(item, dict):
        return NOT_AN_ITEM
    if field not in item:
        return MISSING
    field_type = labeller.FIELD_TYPES[key][field]
    value = item[field]
    try:
        valid, why = labeller.judge(key, field, field_type, value, item)
    except TypeError:  # the original corpus's judge takes no item
        valid, why = labeller.judge(key, field, field_type, value)
    return "" if valid else _reason(why)


def perfect_judgement(labeller: ModuleType, key: str, crawl: dict[str, Any]) -> Judgement:
    """The scorer's judgement of ``crawl`` with every value verdict the labeller's."""
    required = tuple(crawl["extraction_schema"]["required"])
    best = labeller.DATASETS[key][0][0]
    judgement = judge_items(crawl["data"], required, best)
    for field in required:
        judgement.reasons[field] = [
            _label_verdict(labeller, key, field, item) for item in judgement.distinct
        ]
    return judgement


def measure(data_dir: Path) -> dict[str, Any]:
    """Per crawl: the verdict and the tier the formula gives under the labeller's verdicts."""
    labeller = _labeller(data_dir)
    rows = []
    for key, (crawl, label) in zip(labeller.KEYS_IN_ORDER, load_corpus(data_dir), strict=True):
        judgement = perfect_judgement(labeller, key, crawl)
        with mock.patch.object(memo, "judge_items", return_value=judgement):
            signal = crawl_reward(crawl, pattern_type=judgement.pattern_type)
        details = signal.details
        rows.append(
            {
                "line": label["line"],
                "domain": label["domain"],
                "verdict": label["verdict"],
                "tier": details["tier"],
                "agrees": details["tier"] in TIERS_FOR_VERDICT[label["verdict"]],
                "reward": round(signal.value, 4),
                "valid_share": round(details["valid_share"], 4),
                "distinct": details["distinct_items"],
                "defects": details["defects"],
                "pattern_type": judgement.pattern_type,
            }
        )
    return {"corpus": data_dir.name, "rows": rows}


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, action="append", help="labelled corpus dir(s)")
    args = parser.parse_args(argv)
    reports = [measure(path) for path in (args.data or [corpus_dir(name) for name in KEPT])]
    total = agreed = 0
    for report in reports:
        rows = report["rows"]
        hits = sum(row["agrees"] for row in rows)
        total += len(rows)
        agreed += hits
        print(f"{report['corpus']}: ceiling {hits}/{len(rows)} = {hits / len(rows):.3f}")
        for row in rows:
            if not row["agrees"]:
                print(
                    f"  line {row['line']} {row['domain']} ({row['pattern_type']}): "
                    f"{row['verdict']} but tier {row['tier']} (reward {row['reward']:.3f}, "
                    f"valid share {row['valid_share']:.3f}, {row['distinct']} distinct items, "
                    f"defects {row['defects'] or 'none'})"
                )
    print(f"overall: ceiling {agreed}/{total} = {agreed / total:.3f}")
    return reports


if __name__ == "__main__":
    main(sys.argv[1:])
