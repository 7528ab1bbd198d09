# ruff: noqa: RUF001 - values of other scripts are the point
"""Candidate libraries for the value judge, measured on the labelled corpus with and without
each (issue 28, item 3).

For every candidate the four corpus figures of ``benchmarks/real_data.py`` (realdata +
devcorpus; never a sealed batch) are measured twice — the judge as it is, and the judge with
the library wired in the way it could help — plus the library's cost per value and its import
time. A library is adopted only where it measures better. The wirings:

- **babel** (Unicode CLDR): build time only; "without" is the package with the generated
  ``tables/cldr.json`` emptied (the curated tables alone), "with" the package as committed;
- **dateparser**: a fallback for date values the rules reject (accepted when it parses them
  to a year in 1900-2100);
- **price-parser**: a fallback for price values the rules reject (accepted when it finds a
  positive amount);
- **phonenumbers**: a fallback for phone values the rules reject (accepted when
  ``is_possible_number`` holds for the number read without a region);
- **ftfy**: an extra check on text the rules accept (rejected as mis-encoded when
  ``ftfy.badness.is_bad``).

Besides the corpus (whose languages the curated tables already cover), a small set of values
in other scripts and calendars, written for the unit tests (``MULTILINGUAL``; not a held-out
set), shows what each wiring changes beyond it.

Usage:
    python benchmarks/judge_libraries.py [--save]

On demand, not part of ``make bench``: it needs the candidates installed
(``pip install babel==2.18.0 dateparser==1.5.0 price-parser==0.5.1 phonenumbers==9.0.43
ftfy==6.3.1``); a missing one is reported as skipped.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import save_results

ROOT = Path(__file__).resolve().parent.parent

MULTILINGUAL: list[tuple[str, str, bool]] = [
    ("price", "۱۲۰٬۰۰۰ تومان", True),
    ("price", "๑,๒๙๐ บาท", True),
    ("price", "1 290 Kč", True),
    ("price", "12 990 Ft", True),
    ("price", "₪ 99.90", True),
    ("price", "299 грн", True),
    ("price", "Cena na dotaz", False),
    ("count", "1,2 tis.", True),
    ("count", "3,4 млн", True),
    ("count", "12억", True),
    ("date", "26 พ.ย. 2567", True),
    ("date", "۱۴۰۳/۰۹/۰۶", True),
    ("date", "令和6年11月26日", True),
    ("date", "11/26(火)", True),
    ("date", "2024.11.26 (화)", True),
    ("date", "26. marraskuuta 2024", True),
    ("date", "26 Νοεμβρίου 2024", True),
    ("date", "3 päivää sitten", True),
    ("date", "לפני 3 ימים", True),
    ("date", "tegnap", True),
    ("date", "9999-12-31", False),
    ("date", "Hello world", False),
    ("phone", "+420 777 123 456", True),
    ("phone", "050 123 4567", True),
    ("phone", "12", False),
    ("text", "keine Angabe", False),
    ("text", "ไม่มีข้อมูล", False),
    ("text", "Tämä sivusto käyttää evästeitä", False),
    ("text", "Shakespeareâ\x80\x99s", False),
    ("text", "Café Olé", True),
]


# --------------------------------------------------------------------------------------------
# wirings
# --------------------------------------------------------------------------------------------
def _dateparser_fallback() -> Callable[[str, Any, str], str]:
    import dateparser

    settings = {"PREFER_DAY_OF_MONTH": "first", "RETURN_AS_TIMEZONE_AWARE": False}

    def wire(kind: str, value: Any, reason: str) -> str:
        if kind != "date" or not reason or type(value) is not str or len(value) > 80:
            return reason
        parsed = dateparser.parse(value, settings=settings)
        return "" if parsed is not None and 1900 <= parsed.year <= 2100 else reason

    return wire


def _price_parser_fallback() -> Callable[[str, Any, str], str]:
    from price_parser import Price

    def wire(kind: str, value: Any, reason: str) -> str:
        if kind != "price" or not reason or type(value) is not str:
            return reason
        amount = Price.fromstring(value).amount
        return "" if amount is not None and amount > 0 else reason

    return wire


def _phonenumbers_fallback() -> Callable[[str, Any, str], str]:
    import phonenumbers

    def wire(kind: str, value: Any, reason: str) -> str:
        if kind != "phone" or not reason or type(value) is not str:
            return reason
        try:
            number = phonenumbers.parse(value, None)
        except phonenumbers.NumberParseException:
            return reason
        return "" if phonenumbers.is_possible_number(number) else reason

    return wire


def _ftfy_check() -> Callable[[str, Any, str], str]:
    from ftfy.badness import is_bad

    def wire(kind: str, value: Any, reason: str) -> str:
        if reason or type(value) is not str:
            return reason
        return "mis-encoded text" if is_bad(value) else reason

    return wire


WIRINGS: dict[str, tuple[str, Callable[[], Callable[[str, Any, str], str]]]] = {
    "dateparser": ("dateparser", _dateparser_fallback),
    "price-parser": ("price_parser", _price_parser_fallback),
    "phonenumbers": ("phonenumbers", _phonenumbers_fallback),
    "ftfy": ("ftfy", _ftfy_check),
}


def _figures(report: dict[str, Any]) -> dict[str, float]:
    return dict(report["figures"])


def _multilingual(check: Callable[[str, Any], str]) -> dict[str, float]:
    valid = [case for case in MULTILINGUAL if case[2]]
    invalid = [case for case in MULTILINGUAL if not case[2]]
    return {
        "valid_accepted": sum(check(k, v) == "" for k, v, _ in valid) / len(valid),
        "invalid_rejected": sum(check(k, v) != "" for k, v, _ in invalid) / len(invalid),
    }


def _library_us(module: str, wire: Callable[[str, Any, str], str]) -> float:
    """The wiring's cost per call on the multilingual values it applies to (µs)."""
    cases = [(kind, value) for kind, value, _ in MULTILINGUAL]
    start = time.perf_counter()
    for _ in range(20):
        for kind, value in cases:
            wire(kind, value, "not a " + kind)
    return (time.perf_counter() - start) / (20 * len(cases)) * 1e6


def _import_s(module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return float(out.stdout.strip())


def measure_wired(name: str) -> dict[str, Any]:
    """The corpus figures with one library wired into the judge, against the judge alone."""
    import real_data

    from rlm_gym.quality import judge as judge_module
    from rlm_gym.quality import values

    module, make = WIRINGS[name]
    try:
        version = importlib.metadata.version(name)
        wire = make()
    except (ImportError, importlib.metadata.PackageNotFoundError) as error:
        return {"library": name, "skipped": f"not installed: {error}"}
    original = judge_module.check_value

    def wired(kind: str, value: Any) -> str:
        return wire(kind, value, original(kind, value))

    without = _figures(real_data.measure_groups())
    multilingual_without = _multilingual(values.check_value)
    judge_module.check_value = wired
    try:
        with_it = _figures(real_data.measure_groups())
    finally:
        judge_module.check_value = original
    return {
        "library": name,
        "version": version,
        "corpus_without": without,
        "corpus_with": with_it,
        "multilingual_without": multilingual_without,
        "multilingual_with": _multilingual(wired),
        "us_per_call": round(_library_us(module, wire), 2),
        "import_s": round(_import_s(module), 3),
    }


def _figures_of_package(package_root: Path) -> dict[str, Any]:
    code = (
        # An editable install's finder sits on sys.meta_path, ahead of PYTHONPATH: drop it so
        # that the package under test is the one at package_root.
        "import sys; sys.meta_path[:] = [f for f in sys.meta_path "
        "if 'editable' not in repr(f).lower()];"
        f"sys.path.insert(0, {str(package_root)!r});"
        "import json; sys.path.insert(1, 'benchmarks'); import real_data;"
        "import rlm_gym; print(rlm_gym.__file__, file=sys.stderr);"
        "from rlm_gym.quality import check_value;"
        "from judge_libraries import MULTILINGUAL;"
        "r = real_data.measure_groups();"
        "m = [check_value(k, v) == '' for k, v, ok in MULTILINGUAL];"
        "print(json.dumps({'figures': r['figures'], 'accepted': m}))"
    )
    env = {**os.environ, "PYTHONPATH": str(package_root)}
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    location = out.stderr.strip().splitlines()[-1]
    if not location.startswith(str(package_root)):
        raise RuntimeError(f"measured {location}, not the package at {package_root}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure_babel() -> dict[str, Any]:
    """The CLDR tables (built with babel) on and off: the package with cldr.json emptied."""
    try:
        import babel
    except ImportError as error:
        return {"library": "babel", "skipped": f"not installed: {error}"}

    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "rlm_gym"
        shutil.copytree(ROOT / "rlm_gym", copy, ignore=shutil.ignore_patterns("__pycache__"))
        table = copy / "quality" / "tables" / "cldr.json"
        tables = json.loads(table.read_text(encoding="utf-8"))
        for name, spec in tables.items():
            if name.startswith("_"):
                continue
            for form, empty in (("phrases", []), ("map", {}), ("chars", "")):
                if form in spec:
                    spec[form] = empty
        table.write_text(json.dumps(tables, ensure_ascii=False), encoding="utf-8")
        without = _figures_of_package(Path(folder))
    with_it = _figures_of_package(ROOT)

    def share(accepted: list[bool], want: bool) -> float:
        picks = [
            ok == want
            for ok, (_, _, label) in zip(accepted, MULTILINGUAL, strict=True)
            if label == want
        ]
        return sum(picks) / len(picks)

    def multilingual(result: dict[str, Any]) -> dict[str, float]:
        return {
            "valid_accepted": share(result["accepted"], True),
            "invalid_rejected": share(result["accepted"], False),
        }

    return {
        "library": "babel",
        "version": babel.__version__,
        "use": "build time (tools/build_tables.py); the core reads the generated JSON",
        "corpus_without": without["figures"],
        "corpus_with": with_it["figures"],
        "multilingual_without": multilingual(without),
        "multilingual_with": multilingual(with_it),
        "us_per_call": 0.0,
        "import_s": 0.0,
    }


def _line(row: dict[str, Any]) -> str:
    if "skipped" in row:
        return f"{row['library']:<13} skipped ({row['skipped']})"
    keys = ("valid_accepted", "invalid_rejected", "pattern_type", "tier_agreement")
    without = " / ".join(f"{row['corpus_without'][key]:.3f}" for key in keys)
    with_it = " / ".join(f"{row['corpus_with'][key]:.3f}" for key in keys)
    mw, mi = row["multilingual_without"], row["multilingual_with"]
    return (
        f"{row['library']:<13} corpus without {without} | with {with_it} | "
        f"multilingual valid/invalid {mw['valid_accepted']:.2f}/{mw['invalid_rejected']:.2f} -> "
        f"{mi['valid_accepted']:.2f}/{mi['invalid_rejected']:.2f} | "
        f"{row['us_per_call']:.1f} µs/value, import {row['import_s']:.3f} s"
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", action="store_true", help="write benchmarks/results.json")
    args = parser.parse_args(argv)
    rows = [measure_babel(), *(measure_wired(name) for name in WIRINGS)]
    print("figures: valid accepted / invalid rejected / pattern type / tier agreement")
    for row in rows:
        print(_line(row))
    payload = {"libraries": rows, "multilingual_values": len(MULTILINGUAL)}
    if args.save:
        save_results("judge_libraries", payload)
    return payload


if __name__ == "__main__":
    import importlib.metadata

    main(sys.argv[1:])
