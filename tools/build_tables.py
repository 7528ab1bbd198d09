# ruff: noqa: RUF001 - the marks of other scripts are the point
"""Build ``rlm_gym/quality/tables/cldr.json`` from maintained multilingual data (issue 28).

The judge's knowledge of month and weekday names, relative dates, compact number suffixes,
currency signs and names, area units and number marks comes from Unicode CLDR (through
``babel``) and from ``dateparser``'s language data (CLDR plus its maintainers' additions:
inflected month forms, "today" / "yesterday" words), for the languages ``dateparser``
supports — the languages dates are written in on the web. The curated tables beside it
(``dates.json``, ``money.json``...) keep what these sources do not hold, each entry saying why.

The sources are pinned (``PINNED``); the script refuses other versions, so a re-run reproduces
the committed file byte for byte (``tests/quality/test_tables_build.py`` checks it). Install
them with the ``tables`` extra (``pip install -e ".[tables]"``; the dev extra includes it).

Usage:
    python tools/build_tables.py            # write the file
    python tools/build_tables.py --check    # exit 1 when the committed file differs
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any

PINNED = {"babel": "2.18.0", "dateparser": "1.5.0"}
"""The source libraries and the exact versions the committed tables were built from."""

OUTPUT = Path(__file__).resolve().parent.parent / "rlm_gym" / "quality" / "tables" / "cldr.json"

# Currencies in use: legal tender in some territory on this (fixed) day. A fixed day keeps the
# build reproducible; move it with the pins.
TENDER_ON = datetime.date(2026, 1, 1)
RELATIVE_UNITS = ("second", "minute", "hour", "day", "week", "month", "year")
AREA_UNITS = (
    "area-square-meter",
    "area-square-foot",
    "area-square-yard",
    "area-square-kilometer",
    "area-hectare",
    "area-acre",
)
# The units of an engine's size and power: a column of them is a vehicle's specification
# ("1 598 cm³", "150 KM", "110 kW").
ENGINE_UNITS = ("volume-cubic-centimeter", "power-horsepower", "power-kilowatt")
# Lengths written like an engine unit are left out: Polish horsepower is "KM", and a column
# of "2 km" is a distance, no engine.
LENGTH_UNITS = ("length-kilometer", "length-meter", "length-mile")
_PATTERN_LITERAL_RE = re.compile(r"'[^']*'")
_MONTH_KEYS = tuple(
    [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ]
)
_DAY_KEYS = tuple(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
_RELATIVE_KEY_RE = re.compile(r"^(?:in )?\d (?:second|minute|hour|day|week|month|year)(?: ago)?$")


def _versions() -> dict[str, str]:
    import babel
    import dateparser

    return {"babel": babel.__version__, "dateparser": dateparser.__version__}


def check_pins() -> None:
    """Raise SystemExit unless the installed sources are the pinned versions."""
    found = _versions()
    if found != PINNED:
        raise SystemExit(f"tools/build_tables.py needs {PINNED}, found {found}")


def _norm(text: str) -> str:
    return unicodedata.normalize("NFC", text).strip().lower()


def _word(text: str) -> str | None:
    """A name as one lower-cased word (trailing dots and gereshes off), or None when it holds
    digits or spaces (CJK "11月" forms are read by the CJK date pattern)."""
    word = _norm(text).strip("()（）").rstrip(".׳'’")
    if not word or any(char.isdecimal() or char.isspace() for char in word):
        return None
    return word


def _forms(word: str) -> set[str]:
    """A word and, when dots sit inside it ("พ.ย", "n.chr"), the form without them (the judge
    reads dates with inner dots removed)."""
    return {word, word.replace(".", "")} - {""}


LANGUAGE_COUNT = 64
"""How many of dateparser's languages, in its order (by use: en, ru, es, fr, de, ja ... ms), the
tables cover: the languages of the web's pages, without the rarer ones whose short month and
day abbreviations ("abe", "ace") would read ordinary words as dates."""


def languages() -> list[str]:
    """The first ``LANGUAGE_COUNT`` languages of dateparser's data that CLDR (babel) also knows,
    in dateparser's order."""
    from babel import Locale, UnknownLocaleError
    from dateparser.data import languages_info

    out = []
    for code in languages_info.language_order[:LANGUAGE_COUNT]:
        try:
            Locale.parse(code.replace("-", "_"))
        except (UnknownLocaleError, ValueError):
            continue
        out.append(code)
    return out


def _dateparser_info(code: str) -> dict[str, Any]:
    import importlib.util

    import dateparser.data.date_translation_data as data

    path = Path(data.__file__).parent / f"{code}.py"
    spec = importlib.util.spec_from_file_location(f"_dateparser_{code}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.info


def _glued_prefixes(locale: Any) -> set[str]:
    """Letters a locale's date patterns glue before the month ("d בMMMM y": Hebrew ב-)."""
    prefixes: set[str] = set()
    for width in ("full", "long", "medium"):
        pattern = _PATTERN_LITERAL_RE.sub("", locale.date_formats[width].pattern)
        for match in re.finditer(r"([^\W\d_]+)M{3,4}", pattern):
            if not set(match.group(1)) & set("dyMEGLcQqwWeauHhKkmsSzZvVXxO"):
                prefixes.add(match.group(1).lower())
    return prefixes


def months_and_days(codes: list[str]) -> dict[str, set[str]]:
    from babel import Locale

    months: set[str] = set()
    weekdays: set[str] = set()
    marks: set[str] = set()
    for code in codes:
        locale = Locale.parse(code.replace("-", "_"))
        prefixes = _glued_prefixes(locale)
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                for name in locale.months[context][width].values():
                    word = _word(name)
                    if word and len(word) >= 3:
                        months |= _forms(word)
                        for prefix in prefixes:
                            months |= _forms(prefix + word)
            for width in ("wide", "abbreviated", "short", "narrow"):
                for name in locale.days[context][width].values():
                    word = _word(name)
                    if not word:
                        continue
                    if len(word) >= 2 and width != "narrow":
                        weekdays |= _forms(word)
                    if len(word) <= 2 and all(ord(char) >= 0x0590 for char in word):
                        marks.add(word)  # 火, 화, 二: the weekday a short CJK date carries
        info = _dateparser_info(code)
        for month in _MONTH_KEYS:
            for name in info.get(month, []):
                word = _word(name)
                if word and len(word) >= 3:
                    months |= _forms(word)
        for day in _DAY_KEYS:
            for name in info.get(day, []):
                word = _word(name)
                if word and len(word) >= 2:
                    weekdays |= _forms(word)
    return {"months": months, "weekdays": weekdays, "marks": marks}


def relative_dates(codes: list[str]) -> dict[str, set[str]]:
    """CLDR's "{0} days ago" patterns (every width, past and future) and dateparser's whole
    relative words ("today", "eilen", "어제")."""
    from babel import Locale

    patterns: set[str] = set()
    days: set[str] = set()
    units: set[str] = set()
    markers: set[str] = set()
    all_future: set[str] = set()
    for code in codes:
        locale = Locale.parse(code.replace("-", "_"))
        fields = locale._data["date_fields"]
        past_words: dict[str, set[str]] = {}
        future = {
            word.strip(".,()")
            for unit in RELATIVE_UNITS
            for width in ("", "-short")
            for pattern in fields.get(unit + width, {}).get("future", {}).values()
            for word in _norm(pattern).replace("{0}", " ").split()
        }
        all_future |= future
        for unit in RELATIVE_UNITS:
            for width in ("", "-short"):
                for pattern in fields.get(unit + width, {}).get("past", {}).values():
                    words = {
                        word.strip(".,()")
                        for word in _norm(pattern).replace("{0}", " ").split()
                        if not any(char.isdecimal() for char in word)
                    }
                    past_words.setdefault(unit, set()).update(word for word in words if word)
        # A word in the past patterns of 3 units or more says "ago" ("sitten", "πριν", "לפני");
        # the others name the unit ("päivää", "ώρες", "ימים").
        seen: dict[str, int] = {}
        for words in past_words.values():
            for word in words:
                seen[word] = seen.get(word, 0) + 1
        for word, count in seen.items():
            if count >= 3:
                # Not a word the future patterns use too ("de", "a"), and a word, not a
                # letter ("전" and "前" are words: CJK and hangul write one in a character).
                if word not in future and (len(word) >= 3 or ord(word[0]) >= 0x2E80):
                    markers.add(word)
            elif len(word) >= 2:
                units.add(word)
        for unit in RELATIVE_UNITS:
            for width in ("", "-short", "-narrow"):
                for direction in fields.get(unit + width, {}).values():
                    for pattern in direction.values():
                        text = " ".join(_norm(pattern).split())
                        words = re.sub(r"[\W\d_]", "", text.replace("{0}", ""))
                        # "{0} d", "+{0} h": too short to tell from a number with a unit
                        if "{0}" in text and len(words) >= 3 and text[0] not in "+-":
                            patterns.add(text)
        for key, words in _dateparser_info(code).get("relative-type", {}).items():
            if not _RELATIVE_KEY_RE.match(key):
                continue  # weekdays ("last tuesday"), decades, centuries: no date of a crawl
            for phrase in words:
                phrase = " ".join(_norm(phrase).split())
                if phrase and not any(char.isdecimal() for char in phrase) and len(phrase) >= 2:
                    days.add(phrase)
    # A marker no language uses for the future and long enough not to be a common short
    # word ("for", "ang", "sen" are dropped: Danish, Tagalog, Turkish read them otherwise).
    markers = {word for word in markers - all_future if len(word) >= 4 or ord(word[0]) >= 0x0370}
    units = {word for word in units - markers if len(word) >= 3 or ord(word[0]) >= 0x2E80}
    return {"patterns": patterns, "days": days, "units": units, "markers": markers}


def _compact_suffixes(locale: Any, width: str) -> dict[str, float]:
    """The scale words of one locale's compact decimal formats of ``width`` ("short": "Mio.",
    "万"; "long": "Millionen", "lakh", "nghìn tỷ") with their multipliers."""
    suffixes: dict[str, float] = {}
    for forms in locale.compact_decimal_formats.get(width, {}).values():
        for magnitude, pattern in sorted(forms.items(), key=lambda kv: int(kv[0])):
            text = _PATTERN_LITERAL_RE.sub(lambda m: m.group()[1:-1], pattern.pattern)
            zeros = text.count("0")
            if not zeros or "0" * zeros not in text:
                continue
            tail = text.split("0" * zeros, 1)[1]
            suffix = _norm(tail).strip("\u200f\u200e\xa0 ")
            if (
                not suffix
                or len(suffix) > LONGEST_SCALE_WORD[width]
                or any(c.isdecimal() for c in suffix)
            ):
                continue
            if len(suffix.rstrip(".")) < 3 and suffix.isascii():
                continue  # "a", "km", "mi": too short to tell from a unit after a number
            multiplier = float(int(magnitude) // 10 ** (zeros - 1))
            suffixes.setdefault(suffix, multiplier)
            if suffix.endswith("."):
                suffixes.setdefault(suffix.rstrip("."), multiplier)
    return suffixes


LONGEST_SCALE_WORD = {"short": 8, "long": 16}
"""The longest scale word kept per width: long forms hold two words ("nghìn tỷ", "mila
miliardi"); a longer tail is a phrase, not a scale word."""


def number_words(codes: list[str]) -> dict[str, Any]:
    """Compact-number scale words with their multipliers — the short forms ("Mio.", "万",
    "ล้าน") of every language first, then the long ones ("Millionen", "miliar", "crore"), a
    word keeping the reading of the first language (by web use) that writes it — and the
    decimal and grouping marks of every numbering system of the languages."""
    from babel import Locale

    suffixes: dict[str, float] = {}
    long_words: dict[str, float] = {}
    decimals: set[str] = set()
    groups: set[str] = set()
    for code in codes:
        locale = Locale.parse(code.replace("-", "_"))
        for suffix, multiplier in _compact_suffixes(locale, "short").items():
            suffixes.setdefault(suffix, multiplier)
        for suffix, multiplier in _compact_suffixes(locale, "long").items():
            long_words.setdefault(suffix, multiplier)
        for system, symbols in locale._data["number_symbols"].items():
            if system not in locale._data.get("numbering_systems", {}).values() and system not in (
                locale._data.get("default_numbering_system"),
                "latn",
            ):
                continue
            decimals.add(symbols.get("decimal", "."))
            groups.add(symbols.get("group", ","))
    scale_words = {word: value for word, value in long_words.items() if word not in suffixes}
    return {
        "suffixes": suffixes,
        "scale_words": scale_words,
        "decimals": decimals,
        "groups": groups,
    }


def currencies(codes: list[str]) -> dict[str, set[str]]:
    """Signs and one-word names of the currencies in use, in every language."""
    from babel import Locale
    from babel.core import get_global
    from babel.numbers import get_territory_currencies

    in_use: set[str] = set()
    for territory in sorted(get_global("territory_currencies")):
        in_use.update(get_territory_currencies(territory, TENDER_ON, tender=True))
    signs: set[str] = set()
    words: set[str] = set()
    for code in codes:
        locale = Locale.parse(code.replace("-", "_"))
        for currency in sorted(in_use):
            symbol = locale.currency_symbols.get(currency)
            if symbol and symbol != currency:
                symbol = _norm(symbol).strip("\u200b\u200e\u200f")
                if not symbol:
                    continue
                if len(symbol) == 1 and not symbol.isalnum():
                    signs.add(symbol)
                elif not any(char.isdecimal() or char.isspace() for char in symbol):
                    words.add(symbol)
            names = [locale.currencies.get(currency, "")]
            names += locale._data["currency_names_plural"].get(currency, {}).values()
            for name in names:
                word = _word(name) if name else None
                if word and len(word) >= 3:
                    words.add(word)
    return {"signs": signs, "words": words - {c.lower() for c in in_use}}


def area_units(codes: list[str]) -> set[str]:
    """How each language writes square metres, feet, hectares and acres ("m²", "ตร.ม.",
    "neliömetriä")."""
    return unit_words(codes, AREA_UNITS)


def unit_words(codes: list[str], unit_keys: tuple[str, ...]) -> set[str]:
    """How each language writes the units ``unit_keys`` (CLDR unit ids) after a number."""
    from babel import Locale

    units: set[str] = set()
    for code in codes:
        patterns = Locale.parse(code.replace("-", "_"))._data["unit_patterns"]
        for unit in unit_keys:
            for forms in patterns.get(unit, {}).values():
                for key, pattern in forms.items():
                    if key == "per" or "{0}" not in pattern:
                        continue
                    text = " ".join(_norm(pattern.replace("{0}", " ")).split())
                    if text and not any(char.isdecimal() for char in text):
                        units.add(text)
    return units


def build() -> dict[str, Any]:
    """The tables, in the form ``rlm_gym.quality.vocab`` reads."""
    codes = languages()
    names = months_and_days(codes)
    relative = relative_dates(codes)
    numbers = number_words(codes)
    money = currencies(codes)
    source = f"babel {PINNED['babel']} (Unicode CLDR), dateparser {PINNED['dateparser']}"

    def table(doc: str, words: set[str]) -> dict[str, Any]:
        return {"doc": doc, "phrases": sorted(words)}

    return {
        "_source": {
            "doc": f"Generated by tools/build_tables.py from {source}; do not edit by hand.",
            "languages": codes,
        },
        "CLDR_MONTHS": table(
            "Month names, wide and abbreviated, format and stand-alone, with the glued "
            "prepositions of the locale's date patterns (Hebrew ב-), plus dateparser's "
            "inflected forms.",
            names["months"],
        ),
        "CLDR_WEEKDAYS": table("Weekday names, every width but narrow.", names["weekdays"]),
        "CLDR_WEEKDAY_MARKS": table(
            "One- or two-character weekday names of non-Latin scripts, as a short CJK date "
            'carries them: "11/26(火)", "11.26(화)".',
            names["marks"],
        ),
        "CLDR_RELATIVE_PATTERNS": table(
            'Relative-time patterns, "{0}" standing for the number: "{0} days ago", '
            '"{0} päivää sitten", "לפני {0} ימים".',
            relative["patterns"],
        ),
        "CLDR_RELATIVE_DAYS": table(
            'Whole relative dates of dateparser\'s data ("today", "eilen", "어제"), read as '
            "whole values only.",
            relative["days"],
        ),
        "CLDR_TIME_UNITS": table(
            'The unit words of CLDR\'s past relative-time patterns ("päivää", "ώρες", "ימים"): '
            'with a marker and a number, in any order, a relative date ("2 ώρες πριν").',
            relative["units"],
        ),
        "CLDR_RELATIVE_MARKERS": table(
            'The words CLDR\'s past patterns of three units or more share: "ago" in each '
            'language ("sitten", "πριν", "לפני", "전").',
            relative["markers"],
        ),
        "CLDR_NUMBER_SUFFIXES": {
            "doc": 'Compact-number suffixes and their multipliers ("mio." 1e6, "万" 1e4).',
            "map": dict(sorted(numbers["suffixes"].items())),
        },
        "CLDR_SCALE_WORDS": {
            "doc": "Scale words of CLDR's long compact formats and their multipliers "
            '("millionen" 1e6, "miliar" 1e9, "crore" 1e7, "nghìn tỷ" 1e12), the short ones '
            "left to CLDR_NUMBER_SUFFIXES.",
            "map": dict(sorted(numbers["scale_words"].items())),
        },
        "CLDR_DECIMAL_MARKS": {
            "doc": "Decimal marks of the languages' numbering systems.",
            "chars": "".join(sorted(numbers["decimals"])),
        },
        "CLDR_GROUP_MARKS": {
            "doc": "Grouping marks of the languages' numbering systems.",
            "chars": "".join(sorted(numbers["groups"])),
        },
        "CLDR_CURRENCY_SIGNS": {
            "doc": "One-character signs of the currencies in use.",
            "chars": "".join(sorted(money["signs"])),
        },
        "CLDR_CURRENCY_WORDS": table(
            'Lower-cased multi-letter signs ("kč", "zł") and one-word names ("forint", '
            '"korun") of the currencies in use, in every language.',
            money["words"],
        ),
        "CLDR_AREA_UNITS": table(
            "Square metres, feet, yards, kilometres, hectares and acres as each language "
            "writes them after a number.",
            area_units(codes),
        ),
        "CLDR_ENGINE_UNITS": table(
            "Cubic centimetres, horsepower and kilowatts as each language writes them after a "
            'number ("cm³", "KM", "PS", "cv", "л. с.", "馬力"): the size and power of an engine.',
            unit_words(codes, ENGINE_UNITS) - unit_words(codes, LENGTH_UNITS),
        ),
    }


def render(tables: dict[str, Any]) -> str:
    return json.dumps(tables, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--output", type=Path, default=OUTPUT, help="the file to write")
    args = parser.parse_args(argv)
    check_pins()
    text = render(build())
    if args.check:
        same = args.output.exists() and args.output.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{args.output} differs from a fresh build")
        return 0 if same else 1
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output} ({len(text):,} characters)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
