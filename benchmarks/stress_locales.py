"""Valid values accepted across languages: a generated stress set, eight roles in every locale.

For every locale of Faker (pinned in the ``tables`` extra), ``ITEMS`` records are generated
with a fixed seed — a person's name, a company, an address, a city, a job title, a phone
number, a date and a price tag, each under an English field name — and judged as one crawl
result by ``check_items``. Every generated value is a real-world format of its locale, so each
rejection is a false positive of the judge; the share accepted is reported per locale, with
the rejected examples.

Usage:
    python benchmarks/stress_locales.py [--items N] [--save]

With ``--save`` the figures go to ``benchmarks/results.json`` under ``stress_locales``.
Needs ``faker`` (``pip install -e ".[tables]"``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import save_results

from rlm_gym.crawl import check_items

ITEMS = 30
"""Records per locale."""

SEED = 0
"""Faker's seed, so the stress set is the same on every run."""

FIELDS: dict[str, Callable[[Any], Any]] = {
    "name": lambda fake: fake.name(),
    "company": lambda fake: fake.company(),
    "address": lambda fake: ", ".join(fake.address().splitlines()),
    "city": lambda fake: fake.city(),
    "job_title": lambda fake: fake.job(),
    "phone": lambda fake: fake.phone_number(),
    "date": lambda fake: fake.date(),
    "price": lambda fake: fake.pricetag(),
}
"""Field name -> generator of one value (a locale without a provider skips the field)."""

BAR = 0.99
"""Issue 35's bar for each locale."""


def locale_items(locale: str, items: int = ITEMS) -> list[dict[str, Any]]:
    """``items`` generated records of ``locale`` (fields its providers lack are left out)."""
    from faker import Faker

    fake = Faker(locale)
    fake.seed_instance(SEED)
    usable = {}
    for field, make in FIELDS.items():
        try:
            make(fake)
        except (AttributeError, KeyError):  # no provider, or one that fails in this locale
            continue
        usable[field] = make
    fake.seed_instance(SEED)
    return [{field: make(fake) for field, make in usable.items()} for _ in range(items)]


def measure_locale(locale: str, items: int = ITEMS) -> dict[str, Any]:
    """The share of a locale's generated values ``check_items`` accepts, and the rejected."""
    data = locale_items(locale, items)
    fields = list(data[0])
    result = {
        "success": True,
        "data": data,
        "extraction_schema": {"required": fields},
        "navigation_result": {"pages_collected": 1, "strategy_used": "single_page"},
        "execution_time_ms": 1000.0,
        "errors": [],
    }
    verdicts = check_items(result)
    accepted = total = 0
    rejected: dict[str, list[str]] = {}
    for item, verdict in zip(data, verdicts, strict=True):
        for field in fields:
            valid, reason = verdict[field]
            total += 1
            accepted += valid
            if not valid:
                rejected.setdefault(field, []).append(f"{item[field]!r} ({reason})")
    return {
        "locale": locale,
        "values": total,
        "valid_accepted": round(accepted / total, 4),
        "rejected": {field: examples[:3] for field, examples in rejected.items()},
        "rejected_counts": {field: len(examples) for field, examples in rejected.items()},
    }


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=ITEMS, help="records per locale")
    parser.add_argument("--save", action="store_true", help="write benchmarks/results.json")
    args = parser.parse_args(argv)
    import faker

    rows = [measure_locale(locale, args.items) for locale in sorted(faker.config.AVAILABLE_LOCALES)]
    for row in rows:
        mark = "ok" if row["valid_accepted"] >= BAR else "BELOW"
        print(f"{row['locale']:<8} {row['valid_accepted']:.3f} {mark}")
        for field, examples in row["rejected"].items():
            print(f"    {field} ({row['rejected_counts'][field]}): {'; '.join(examples)[:150]}")
    below = [row["locale"] for row in rows if row["valid_accepted"] < BAR]
    accepted = sum(row["valid_accepted"] * row["values"] for row in rows)
    values = sum(row["values"] for row in rows)
    field_misses: dict[str, int] = {}
    for row in rows:
        for field, count in row["rejected_counts"].items():
            field_misses[field] = field_misses.get(field, 0) + count
    report = {
        "faker": faker.VERSION,
        "seed": SEED,
        "items_per_locale": args.items,
        "locales": len(rows),
        "values": values,
        "valid_accepted": round(accepted / values, 4),
        "bar": BAR,
        "locales_below_bar": below,
        "rejected_by_field": dict(sorted(field_misses.items(), key=lambda kv: -kv[1])),
        "per_locale": rows,
    }
    print(
        f"\n{len(rows)} locales, {values} values: valid accepted {report['valid_accepted']:.3f}; "
        f"{len(below)} locales below {BAR}; rejected by field {report['rejected_by_field']}"
    )
    if args.save:
        save_results("stress_locales", report)
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
