"""Valid values accepted across languages: a generated stress set, eight roles in every locale.

For every locale of Faker (pinned in the ``tables`` extra), ``ITEMS`` records are generated
with a fixed seed — a person's name, a company, an address, a city, a job title, a phone
number, a date and a price tag, each under an English field name — and judged as one crawl
result by ``check_items``.

Each value is first labelled by SPEC §5's own rule for its type, independently of the judge
(:func:`spec_label`): a phone holds 7-15 digits, a text is longer than one character, a price
states a positive amount, a date's year lies in 1900-2100. Faker prints some values SPEC calls
invalid (de_LU's 6-digit phone numbers, ar_AE's 3-digit service numbers, a zero price); those
are kept out of the valid-accepted share and reported apart per locale (count, examples, and
how many of them the judge rejects), with the share over every generated value beside it. Each
rejection of a SPEC-valid value is a false positive of the judge.

Usage:
    python benchmarks/stress_locales.py [--items N] [--save]

With ``--save`` the figures go to ``benchmarks/results.json`` under ``stress_locales``.
Needs ``faker`` (``pip install -e ".[tables]"``).
"""

from __future__ import annotations

import argparse
import re
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

PHONE_DIGITS = (7, 15)
"""SPEC §5: a phone holds 7-15 digits (any script's decimal digits)."""

DATE_YEARS = (1900, 2100)
"""SPEC §5: a date's year lies in 1900-2100."""

TEXT_FIELDS = frozenset({"name", "company", "address", "city", "job_title"})

_ISO_DATE = re.compile(r"(\d{4})-\d{2}-\d{2}")
_EXTENSION = re.compile(r"\s*(?:x|ext\.?)\s*\d+$", re.IGNORECASE)
"""An extension after the number ("555-0100x123"): SPEC counts the number's digits."""


def spec_label(field: str, value: str) -> str:
    """Why SPEC §5's rule for the type of ``field`` calls ``value`` invalid ("" if valid).

    The rule is read from SPEC, not from the judge: phones by their digit count, texts by
    their stripped length, prices by whether their digits state a positive amount, ISO dates
    by their year (a date in another form may be of a §11 calendar and is left valid). An
    extension after a phone number is not counted. Only the generator's formats are read
    (every value is a string).

    Example:
        >>> spec_label("phone", "25 48 41"), spec_label("phone", "+352 25 48 41")
        ('6 digits (SPEC: 7-15)', '')
    """
    if field == "phone":
        digits = sum(char.isdecimal() for char in _EXTENSION.sub("", value))
        low, high = PHONE_DIGITS
        return "" if low <= digits <= high else f"{digits} digits (SPEC: {low}-{high})"
    if field in TEXT_FIELDS:
        return "" if len(value.strip()) > 1 else "one character (SPEC: longer than one)"
    if field == "price":
        digits = [char for char in value if char.isdecimal()]
        return "" if any(char != "0" for char in digits) else "no positive amount (SPEC)"
    if field == "date":
        iso = _ISO_DATE.fullmatch(value.strip())
        low, high = DATE_YEARS
        inside = iso is None or low <= int(iso.group(1)) <= high
        return "" if inside else f"year outside {low}-{high} (SPEC)"
    raise ValueError(f"No SPEC label for field `{field}`")


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
    accepted = total = accepted_all = spec_invalid_rejected = 0
    rejected: dict[str, list[str]] = {}
    spec_invalid: dict[str, list[str]] = {}
    for item, verdict in zip(data, verdicts, strict=True):
        for field in fields:
            valid, reason = verdict[field]
            accepted_all += valid
            spec_reason = spec_label(field, item[field])
            if spec_reason:
                spec_invalid.setdefault(field, []).append(f"{item[field]!r} ({spec_reason})")
                spec_invalid_rejected += not valid
                continue
            total += 1
            accepted += valid
            if not valid:
                rejected.setdefault(field, []).append(f"{item[field]!r} ({reason})")
    values = len(data) * len(fields)
    return {
        "locale": locale,
        "values": values,
        "spec_valid": total,
        "valid_accepted": round(accepted / total, 4),
        "valid_accepted_unfiltered": round(accepted_all / values, 4),
        "rejected": {field: examples[:3] for field, examples in rejected.items()},
        "rejected_counts": {field: len(examples) for field, examples in rejected.items()},
        "spec_invalid": {field: examples[:3] for field, examples in spec_invalid.items()},
        "spec_invalid_counts": {field: len(examples) for field, examples in spec_invalid.items()},
        "spec_invalid_rejected": spec_invalid_rejected,
    }


def _by_field(rows: list[dict[str, Any]], key: str) -> dict[str, int]:
    """The per-locale counts under ``key`` summed by field, largest first."""
    totals: dict[str, int] = {}
    for row in rows:
        for field, count in row[key].items():
            totals[field] = totals.get(field, 0) + count
    return dict(sorted(totals.items(), key=lambda kv: -kv[1]))


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=ITEMS, help="records per locale")
    parser.add_argument("--save", action="store_true", help="write benchmarks/results.json")
    args = parser.parse_args(argv)
    import faker

    rows = [measure_locale(locale, args.items) for locale in sorted(faker.config.AVAILABLE_LOCALES)]
    for row in rows:
        mark = "ok" if row["valid_accepted"] >= BAR else "BELOW"
        print(
            f"{row['locale']:<8} {row['valid_accepted']:.3f} {mark}"
            f"  (all values {row['valid_accepted_unfiltered']:.3f})"
        )
        for field, examples in row["rejected"].items():
            print(f"    {field} ({row['rejected_counts'][field]}): {'; '.join(examples)[:150]}")
        for field, examples in row["spec_invalid"].items():
            count = row["spec_invalid_counts"][field]
            print(f"    SPEC-invalid {field} ({count}): {'; '.join(examples)[:150]}")
    below = [row["locale"] for row in rows if row["valid_accepted"] < BAR]
    below_unfiltered = [row["locale"] for row in rows if row["valid_accepted_unfiltered"] < BAR]
    values = sum(row["values"] for row in rows)
    spec_valid = sum(row["spec_valid"] for row in rows)
    accepted = sum(row["spec_valid"] - sum(row["rejected_counts"].values()) for row in rows)
    spec_invalid = sum(sum(row["spec_invalid_counts"].values()) for row in rows)
    spec_invalid_rejected = sum(row["spec_invalid_rejected"] for row in rows)
    accepted_all = accepted + spec_invalid - spec_invalid_rejected
    report = {
        "faker": faker.VERSION,
        "seed": SEED,
        "items_per_locale": args.items,
        "locales": len(rows),
        "values": values,
        "spec_valid": spec_valid,
        "valid_accepted": round(accepted / spec_valid, 4),
        "valid_accepted_unfiltered": round(accepted_all / values, 4),
        "bar": BAR,
        "locales_below_bar": below,
        "locales_below_bar_unfiltered": below_unfiltered,
        "rejected_by_field": _by_field(rows, "rejected_counts"),
        "spec_invalid_by_field": _by_field(rows, "spec_invalid_counts"),
        "spec_invalid_rejected": spec_invalid_rejected,
        "per_locale": rows,
    }
    print(
        f"\n{len(rows)} locales, {spec_valid} SPEC-valid values of {values}: valid accepted "
        f"{report['valid_accepted']:.4f} ({report['valid_accepted_unfiltered']:.4f} over every "
        f"value); {len(below)} locales below {BAR} ({len(below_unfiltered)} over every value); "
        f"rejected by field {report['rejected_by_field']}; SPEC-invalid by field "
        f"{report['spec_invalid_by_field']}, {report['spec_invalid_rejected']} of them rejected"
    )
    if args.save:
        save_results("stress_locales", report)
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
