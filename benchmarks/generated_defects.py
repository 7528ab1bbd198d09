"""What the judge catches of each defect class on generated tables, in every other Faker locale.

A clean table of ``ITEMS`` records is generated per locale (Faker, pinned in the ``tables``
extra, fixed seed): a person, a company, a city, a job title, a phone number, a date, a price
and a summary. Each *defect generator* then spoils ``ROWS`` rows of one column of a fresh
copy, the way scrapers do (issue 35):

- ``cross``: values of another column's role (a price in the company column, a date in the
  city column, a link in the name column, an e-mail in the job column);
- ``label``: the value with a label glued before it ("Price: ...", "City: ...");
- ``glue``: two fields glued into one value without a separator;
- ``double``: the value written twice;
- ``truncate``: the value cut to a fifth of its length;
- ``mis-encode``: the value's UTF-8 bytes read as Latin-1 (values with non-ASCII letters);
- ``re-emit``: the previous record's value repeated (a parse error carried over);
- ``widget``: one label on every row of the title column.

Per class the share of spoiled values ``check_items`` rejects is reported (and, for ``cross``,
the share without the value-role rule of :mod:`rlm_gym.quality.value_roles`, to show what the
learned roles add), with the share of the untouched values it still accepts. Nothing here is
tuned on: the figures say which classes the judge sees on data no crawl taught it.

Usage:
    python benchmarks/generated_defects.py [--save]

With ``--save`` the figures go to ``benchmarks/results.json`` under ``generated_defects``.
Needs ``faker`` (``pip install -e ".[tables]"``).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import save_results

from rlm_gym.crawl import check_items
from rlm_gym.quality import value_roles

ITEMS = 20
"""Records per generated table."""

ROWS = 2
"""Rows spoiled per table (10 %: a defect of some rows, below the systematic-defect share)."""

SEED = 35

FIELDS: dict[str, Callable[[Any], str]] = {
    "name": lambda fake: fake.name(),
    "company": lambda fake: fake.company(),
    "city": lambda fake: fake.city(),
    "job_title": lambda fake: fake.job(),
    "phone": lambda fake: fake.phone_number(),
    "date": lambda fake: fake.date(),
    "price": lambda fake: fake.pricetag(),
    "summary": lambda fake: fake.paragraph(nb_sentences=3),
}

CROSSINGS = (("company", "price"), ("city", "date"), ("name", "url"), ("job_title", "email"))
"""(column spoiled, role whose value it receives)."""

LABELS = {"price": "Price", "city": "City", "phone": "Tel", "date": "Date"}


def _table(fake: Any) -> list[dict[str, str]]:
    return [{field: make(fake) for field, make in FIELDS.items()} for _ in range(ITEMS)]


def _spoil(kind: str, table: list[dict[str, str]], fake: Any, rng: random.Random) -> list[tuple]:
    """Spoil ``ROWS`` rows of ``table`` in place with defect ``kind``: the (row, field) spoiled."""
    rows = rng.sample(range(1, ITEMS), ROWS)
    spoiled = []
    for row in rows:
        record = table[row]
        if kind == "cross":
            field, role = CROSSINGS[row % len(CROSSINGS)]
            source = {"price": fake.pricetag, "date": fake.date, "url": fake.url}
            record[field] = source.get(role, fake.email)()
        elif kind == "label":
            field = rng.choice(sorted(LABELS))
            record[field] = f"{LABELS[field]}: {record[field]}"
        elif kind == "glue":
            field = "company"
            record[field] = record["company"] + record["city"]
        elif kind == "double":
            field = rng.choice(("company", "job_title", "city"))
            record[field] = record[field] + record[field]
        elif kind == "truncate":
            field = rng.choice(("company", "job_title", "name", "summary"))
            record[field] = record[field][: max(1, len(record[field]) // 5)].rstrip(".")
        elif kind == "mis-encode":
            field = rng.choice(sorted(FIELDS))
            text = record[field]
            record[field] = text.encode("utf-8").decode("latin-1")
            if record[field] == text:
                continue  # ASCII: nothing to mis-encode
        elif kind == "re-emit":
            field = rng.choice(("company", "city", "price"))
            record[field] = table[row - 1][field]
        else:
            raise ValueError(f"Unknown defect `{kind}`")
        spoiled.append((row, field))
    return spoiled


KINDS = ("cross", "label", "glue", "double", "truncate", "mis-encode", "re-emit", "widget")


def measure_locale(locale: str, kind: str) -> dict[str, int]:
    """Spoiled values rejected (with and without the role rule) and clean values accepted."""
    from faker import Faker

    fake = Faker(locale)
    fake.seed_instance(SEED)
    rng = random.Random(f"{SEED}-{locale}-{kind}")
    table = _table(fake)
    if kind == "widget":
        label = fake.word().capitalize()
        for record in table:
            record["job_title"] = label
        spoiled = [(row, "job_title") for row in range(ITEMS)]
    else:
        spoiled = _spoil(kind, table, fake, rng)
    result = {
        "success": True,
        "data": table,
        "extraction_schema": {"required": list(FIELDS)},
        "pattern_type": "generic_extraction",
    }
    verdicts = check_items(result)
    with mock.patch.dict(value_roles.OUTLIER_SETTINGS, {"max_probability": -1.0}):
        without = check_items(result)
    marked = set(spoiled)
    counts = {"spoiled": 0, "caught": 0, "caught_without_roles": 0, "clean": 0, "accepted": 0}
    for row, (verdict, before) in enumerate(zip(verdicts, without, strict=True)):
        for field in FIELDS:
            if (row, field) in marked:
                counts["spoiled"] += 1
                counts["caught"] += not verdict[field][0]
                counts["caught_without_roles"] += not before[field][0]
            else:
                counts["clean"] += 1
                counts["accepted"] += verdict[field][0]
    return counts


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", action="store_true", help="write benchmarks/results.json")
    args = parser.parse_args(argv)
    import faker

    locales = []
    for locale in sorted(faker.config.AVAILABLE_LOCALES)[::2]:
        try:
            _table(faker.Faker(locale))
        except (AttributeError, KeyError):  # a provider this locale lacks
            continue
        locales.append(locale)
    report: dict[str, Any] = {"faker": faker.VERSION, "seed": SEED, "locales": len(locales)}
    classes = {}
    print(f"{len(locales)} locales, {ITEMS} records, {ROWS} rows spoiled per table")
    print(f"{'defect':<11} {'caught':>7} {'without roles':>14} {'clean accepted':>15}")
    for kind in KINDS:
        total = {"spoiled": 0, "caught": 0, "caught_without_roles": 0, "clean": 0, "accepted": 0}
        for locale in locales:
            for key, value in measure_locale(locale, kind).items():
                total[key] += value
        row = {
            "spoiled": total["spoiled"],
            "caught": round(total["caught"] / total["spoiled"], 3),
            "caught_without_roles": round(total["caught_without_roles"] / total["spoiled"], 3),
            "clean_accepted": round(total["accepted"] / total["clean"], 4),
        }
        classes[kind] = row
        print(
            f"{kind:<11} {row['caught']:>7.3f} {row['caught_without_roles']:>14.3f} "
            f"{row['clean_accepted']:>15.4f}   ({row['spoiled']} spoiled values)"
        )
    report["classes"] = classes
    if args.save:
        save_results("generated_defects", report)
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
