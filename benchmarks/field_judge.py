"""Field typing and value checks against the labelled real-data corpus (issue 10, item 1).

For every labelled value of ``realdata/labels.json``:

* typing: ``column_type(field, that crawl's column)`` against the label's ``field_types``;
* judging: ``check_value(label type, value)`` against the label's ``valid`` — context-free, so
  the invalid values that are wrong only *where they stand* (a shifted column, a heading caught
  by a broad selector, a truncated summary, a date range in an experience slot: the lead's
  column checks or the labeller's hand calls) are counted apart.

With ``--libraries`` it also measures the candidate parsing libraries (price-parser,
dateparser, ftfy, phonenumbers, number-parser) against the hand rules on the values of their
type, when they are importable (``--lib-path`` adds a directory to ``sys.path``).

Run: ``.venv/bin/python benchmarks/field_judge.py [--data DIR] [--libraries] [--quiet]``
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

from rlm_gym.quality import FIELD_TYPES, check_value, column_type
from rlm_gym.quality.corpora import CorporaUnavailable, corpus_dir, read_crawls

ROOT = Path(__file__).resolve().parents[1]

# Labels whose reason says the value is wrong for where it stands, not for what it is: the
# lead's column-context checks or the labeller's hand calls (README "How the rules were applied").
CONTEXT_WHY = re.compile(
    r"section heading|cut off|walk-in|shifted|header row|page-wide|duplicate|wrong content",
    re.IGNORECASE,
)


def find_data(explicit: str | None) -> Path:
    """``explicit``, else the ``realdata`` corpus (``../shared/corpora``, ``$RLM_GYM_CORPORA``)."""
    if explicit:
        return Path(explicit)
    try:
        return corpus_dir("realdata")
    except CorporaUnavailable as error:
        raise SystemExit(f"field_judge: {error}") from None


def load(data: Path) -> tuple[list[dict], list[dict]]:
    crawls = read_crawls(data)  # split on "\n" only: values hold U+2028
    labels = json.loads((data / "labels.json").read_text(encoding="utf-8"))
    return crawls, labels


def short(value: object, width: int = 70) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 1] + "…"


def typing_report(crawls: list[dict], labels: list[dict], quiet: bool) -> tuple[int, int]:
    agree = total = 0
    for crawl, label in zip(crawls, labels, strict=True):
        items = [item for item in crawl["data"] if isinstance(item, dict)]
        for field, expected in label["field_types"].items():
            got = column_type(field, [item.get(field) for item in items])
            n_values = sum(1 for value in label["values"] if value["field"] == field)
            total += n_values
            if got == expected:
                agree += n_values
            elif not quiet:
                print(
                    f"  typing  {label['domain']:24s} {field!r:26s} label {expected:6s} got {got}"
                )
    return agree, total


def judging_report(labels: list[dict], quiet: bool) -> dict[str, list]:
    out: dict[str, list] = {"valid": [], "invalid": [], "context": []}
    for label in labels:
        for entry in label["values"]:
            field_type = label["field_types"][entry["field"]]
            reason = check_value(field_type, entry["value"])
            row = (
                label["domain"],
                entry["field"],
                field_type,
                entry["value"],
                reason,
                entry["why"],
            )
            if entry["valid"]:
                out["valid"].append((not reason, row))
            elif CONTEXT_WHY.search(entry["why"]):
                out["context"].append((bool(reason), row))
            else:
                out["invalid"].append((bool(reason), row))
    if not quiet:
        for group, title in (("valid", "valid rejected"), ("invalid", "invalid accepted")):
            for ok, (domain, field, ftype, value, reason, why) in out[group]:
                if not ok:
                    print(
                        f"  {title:16s} {domain:20s} {field!r:18s} {ftype:6s} {short(value)}"
                        f"  [{reason or 'accepted'}] label: {why[:50]}"
                    )
        for ok, (domain, field, _type, value, _reason, why) in out["context"]:
            print(
                f"  context ({'rejected' if ok else 'accepted'}) {domain:20s} {field!r:16s} "
                f"{short(value, 50)}  label: {why[:60]}"
            )
    return out


def share(pairs: list) -> tuple[float, int, int]:
    good = sum(1 for ok, _ in pairs if ok)
    return (good / len(pairs) if pairs else 1.0), good, len(pairs)


# --------------------------------------------------------------------------------------------
# libraries
# --------------------------------------------------------------------------------------------
def _timed(function, values) -> tuple[list[bool], float]:
    started = time.perf_counter()
    verdicts = [function(value) for value in values]
    elapsed = time.perf_counter() - started
    return verdicts, elapsed / max(1, len(values)) * 1e6


def _hand(field_type: str):
    from rlm_gym.quality.values import check_string_uncached

    def judge(value):
        if isinstance(value, str):
            return not check_string_uncached(field_type, value)
        return not check_value(field_type, value)

    return judge


def library_candidates() -> dict[str, tuple[str, object]]:
    candidates: dict[str, tuple[str, object]] = {}
    try:
        from price_parser import Price

        def price_parser(value):
            if not isinstance(value, str):
                return not check_value("price", value)
            amount = Price.fromstring(value).amount
            return amount is not None and amount > 0

        candidates["price-parser"] = ("price", price_parser)
    except ImportError:
        pass
    try:
        import dateparser

        def date_parser(value):
            if not isinstance(value, str) or not value.strip():
                return False
            parsed = dateparser.parse(value, settings={"STRICT_PARSING": False})
            return parsed is not None and 1900 <= parsed.year <= 2100

        candidates["dateparser"] = ("date", date_parser)
    except ImportError:
        pass
    try:
        import ftfy

        def mojibake(value):
            text_ok = not check_value("text", value)
            if not isinstance(value, str):
                return text_ok
            from rlm_gym.quality.junk import MOJIBAKE_RE

            # The hand text rule with ftfy.badness in place of the mojibake pattern.
            if MOJIBAKE_RE.search(value) and check_value("text", value) == "mis-encoded text":
                text_ok = True
            return text_ok and not ftfy.badness.is_bad(value)

        candidates["ftfy"] = ("text", mojibake)
    except ImportError:
        pass
    try:
        import phonenumbers

        def phone(value):
            if not isinstance(value, str):
                return False
            try:
                return phonenumbers.is_possible_number(phonenumbers.parse(value, None))
            except phonenumbers.NumberParseException:
                return False

        candidates["phonenumbers"] = ("phone", phone)
    except ImportError:
        pass
    try:
        from number_parser import parse_number as words_number

        def count(value):
            if not isinstance(value, str):
                return not check_value("count", value)
            return words_number(value) is not None or not check_value("count", value)

        candidates["number-parser"] = ("count", count)
    except ImportError:
        pass
    return candidates


def world_values() -> dict[str, list[tuple[object, bool]]]:
    """The worldwide value tables of tests/quality/test_values.py, as (value, valid)."""
    sys.path.insert(0, str(ROOT))
    try:
        from tests.quality.test_values import INVALID, VALID
    except ImportError:
        return {}
    return {
        kind: [(value, True) for value in VALID[kind]]
        + [(value, False) for value, _ in INVALID[kind]]
        for kind in VALID
    }


def library_report(labels: list[dict]) -> None:
    corpus: dict[str, list[tuple[object, bool]]] = {kind: [] for kind in FIELD_TYPES}
    for label in labels:
        for entry in label["values"]:
            if entry["valid"] or not CONTEXT_WHY.search(entry["why"]):
                corpus[label["field_types"][entry["field"]]].append(
                    (entry["value"], entry["valid"])
                )
    candidates = library_candidates()
    if not candidates:
        print("no candidate library importable (use --lib-path)")
        return
    for title, table in (("corpus", corpus), ("worldwide test values", world_values())):
        if table:
            print(f"-- {title} (µs per call after one warm-up pass)")
            _library_table(candidates, table)


def _library_table(candidates: dict, by_type: dict) -> None:
    print(f"{'library':14s} {'type':6s} {'valid acc.':>12s} {'invalid rej.':>13s} {'µs/call':>9s}")
    for name, (field_type, function) in candidates.items():
        values = by_type[field_type]
        for label_name, judge in (("hand rule", _hand(field_type)), (name, function)):
            _timed(judge, [value for value, _ in values])  # warm-up: imports, data loading
            verdicts, micros = _timed(judge, [value for value, _ in values])
            valid = [ok for ok, (_, good) in zip(verdicts, values, strict=True) if good]
            invalid = [not ok for ok, (_, good) in zip(verdicts, values, strict=True) if not good]
            print(
                f"{label_name:14s} {field_type:6s} {sum(valid):4d}/{len(valid):<4d} "
                f"{sum(valid) / max(1, len(valid)):.2f}  {sum(invalid):3d}/{len(invalid):<3d} "
                f"{sum(invalid) / max(1, len(invalid)):.2f}  {micros:9.1f}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", help="realdata directory (labels.json, crawls.jsonl)")
    parser.add_argument("--quiet", action="store_true", help="figures only")
    parser.add_argument("--libraries", action="store_true", help="measure candidate libraries")
    parser.add_argument("--lib-path", help="extra sys.path entry holding the libraries")
    args = parser.parse_args(argv)
    crawls, labels = load(find_data(args.data))
    agree, total = typing_report(crawls, labels, args.quiet)
    judged = judging_report(labels, args.quiet)
    valid, valid_ok, valid_n = share(judged["valid"])
    invalid, invalid_ok, invalid_n = share(judged["invalid"])
    context, context_ok, context_n = share(judged["context"])
    print(f"typing agreement        {agree / total:.3f}  ({agree}/{total} labelled values)")
    print(f"valid accepted          {valid:.3f}  ({valid_ok}/{valid_n})")
    print(f"invalid rejected        {invalid:.3f}  ({invalid_ok}/{invalid_n}, context-free)")
    print(
        f"context/hand invalids   {context:.3f}  ({context_ok}/{context_n} rejected here; "
        "the lead's column checks)"
    )
    if args.libraries:
        if args.lib_path:
            sys.path.insert(0, args.lib_path)
        library_report(labels)
    return 0


if __name__ == "__main__":
    sys.exit(main())
