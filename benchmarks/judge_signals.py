"""Each column-consistency signal of the value judge, measured apart, tuned by leave-one-corpus-out.

For every labelled value of the open corpora (``rlm_gym.quality.corpora.OPEN_CORPORA``; never a
sealed one) the judge's own verdict is taken *without* the signal, and the signal's flag beside
it. A signal's worth is what it adds:

- catches: labelled-invalid values the judge accepts and the signal flags;
- false positives: labelled-valid values the judge accepts and the signal flags.

Settings are chosen by leave-one-corpus-out: for each corpus, the setting with the best
``catches - PENALTY x false positives`` on the *other* corpora is scored on the one left out,
so the reported figures never rest on a setting tuned on the corpus they are measured on.

Signals: ``shift`` (:mod:`rlm_gym.quality.shapes`: a record whose values have their columns'
minority shape — a number among words, words among numbers, a URL — in several columns at
once is shifted) and ``glued`` (:mod:`rlm_gym.quality.joined`: a detail box's labelled fields
glued into one text, "Area 71 SQ. M.Room 2Floor"; no setting to tune, its length limit
``GLUED_FIELDS_MAX_CHARS`` was set by hand), and the constant-column rules of
:mod:`rlm_gym.quality.constant` (``stale_links``: one link on every record; ``widget_labels``:
one text on every record of several columns, rejected by one) and ``area_prices`` (a size with
no currency in a price column), each switched off alone against the whole judge (fixed rules:
nothing tuned). ``scale_words`` is no flag but a table (CLDR's
long compact forms, "Millionen", "miliar"): what it changes is counted — amounts it gives a
magnitude, verdicts it turns. ``roles`` (:mod:`rlm_gym.quality.value_roles`: a value of a
column of names whose learned role is another — "an amount in the `company` column") is
learned from generated data only; its thresholds (``max_probability``, ``dominant_share``) are
chosen by leave-one-corpus-out like ``shift``'s. ``truncated`` (:mod:`rlm_gym.quality.truncated`:
a text cut short mid-sentence in a column of sentences) flags values mostly unlabelled, so its
setting is chosen on the other corpora's labelled values *and tiers*. ``values_decide``
(:func:`rlm_gym.quality.column_roles.type_from_values`: a column's values overrule its name's
type where they clearly show another — a cast list under ``star``) turns verdicts both ways;
its setting is chosen on the other corpora's labelled values. ``world_b`` is among the
corpora since its first scoring was kept: its figures are development figures.

Usage:
    python benchmarks/judge_signals.py [--save]

With ``--save`` the figures go to ``benchmarks/results.json`` under ``judge_signals``.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import save_results

from rlm_gym.quality import (
    column_roles,
    column_rules,
    constant,
    joined,
    judge,
    kinds,
    prices,
    shapes,
    truncated,
    value_roles,
    values,
    vocab,
)
from rlm_gym.quality.corpora import OPEN_CORPORA, corpus_dir, load_corpus
from rlm_gym.quality.judge import judge_items
from rlm_gym.quality.numbers import amounts

PENALTY = 5
"""A false positive costs five catches: valid values must stay accepted (bar 0.97)."""

GRID = {"shift_columns": (2, 3, 4, 5), "min_values": (5, 10, 20)}
"""The settings tried for the ``shift`` signal."""

TRUNCATION_GRID = {
    "ended_share": (0.6, 0.7, 0.8, 0.9),
    "max_length_ratio": (0.25, 0.35, 0.5),
}
"""The settings tried for the ``truncated`` signal."""

ROLE_GRID = {
    "max_probability": (0.002, 0.005, 0.01, 0.02, 0.05, 0.1),
    "dominant_share": (0.6, 0.7, 0.8, 0.9),
    "max_share": (0.1, 0.25, 0.5),
}
"""The settings tried for the ``roles`` signal."""

VALUE_TYPE_GRID = {
    "min_distinct": (8, 6, 4, 3),
    "max_fit_share": (0.05, 0.1, 0.2),
    "min_words_probability": (0.7, 0.5, 0.3),
}
"""The settings tried for ``values_decide`` (a column's values overrule its name's type), the
most cautious first: settings that tie on the other corpora go to the most cautious."""

_ABSENT = object()


def _position(items: Sequence[Any], field: Any, value: Any) -> int | None:
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        held = item.get(field, _ABSENT)
        if (value is None and held is _ABSENT) or (held is not _ABSENT and held == value):
            return index
    return None


def labelled_rows(name: str) -> list[dict[str, Any]]:
    """One row per labelled value of corpus ``name``: its label, the judge's verdict without
    the shift signal, and the value's place among its crawl's accepted columns."""
    rows = []
    off = {"shift_columns": 10**9}
    # The value checks are cached per text: verdicts cached with the glued rule on (by an
    # earlier scoring in this process) would leak into the judge without it, and back.
    values._check_string.cache_clear()
    with (
        mock.patch.dict(shapes.SHAPE_SETTINGS, off),
        mock.patch.object(joined, "_glued_fields", return_value=False),
    ):
        for crawl, label in load_corpus(corpus_dir(name)):
            required = tuple(crawl.get("extraction_schema", {}).get("required", ()))
            judgement = judge_items(crawl["data"], required)
            checked = {
                name: verdicts
                for name, verdicts in judgement.reasons.items()
                if judgement.types[name] in shapes.SHIFT_TYPES
            }
            columns = shapes.accepted_columns(judgement.distinct, checked)
            names = list(checked)
            for entry in label["values"]:
                field, value = entry["field"], entry["value"]
                index = _position(judgement.distinct, field, value)
                if index is None or field not in judgement.reasons:
                    continue
                column = names.index(field) if field in checked else None
                rows.append(
                    {
                        "corpus": name,
                        "line": label["line"],
                        "field": field,
                        "value": value,
                        "valid": entry["valid"],
                        "accepted": judgement.reasons[field][index] == "",
                        "type": judgement.types[field],
                        "columns": columns,
                        "column": column,
                        "index": index,
                    }
                )
    values._check_string.cache_clear()
    return rows


def shift_flags(rows: Sequence[dict[str, Any]], setting: dict[str, Any]) -> list[bool]:
    """Whether the shift signal with ``setting`` flags each row's value."""
    cache: dict[int, list[set[int]]] = {}
    flags = []
    for row in rows:
        key = id(row["columns"])
        if key not in cache:
            cache[key] = shapes.shifted_records(
                row["columns"], setting["shift_columns"], setting["min_values"]
            )
        column = row["column"]
        flags.append(column is not None and row["index"] in cache[key][column])
    return flags


def glued_flags(rows: Sequence[dict[str, Any]]) -> list[bool]:
    """Whether the glued-fields rule flags each row's value (as the judge: in every column but
    price, phone, e-mail and URL columns, which have their own joined-value rules)."""
    return [
        row["type"] not in ("price", "phone", "email", "url")
        and isinstance(row["value"], str)
        and len(row["value"].strip()) <= joined.GLUED_FIELDS_MAX_CHARS
        and joined._glued_fields(row["value"].strip())
        for row in rows
    ]


def role_rows(name: str) -> list[dict[str, Any]]:
    """One row per labelled value of corpus ``name``: its label, the judge's verdict without
    the roles signal, and its column (values and type)."""
    rows = []
    _clear_value_caches()
    with mock.patch.dict(value_roles.OUTLIER_SETTINGS, {"max_probability": -1.0}):
        for crawl, label in load_corpus(corpus_dir(name)):
            required = tuple(crawl.get("extraction_schema", {}).get("required", ()))
            judgement = judge_items(crawl["data"], required)
            for entry in label["values"]:
                field, value = entry["field"], entry["value"]
                index = _position(judgement.distinct, field, value)
                if index is None or field not in judgement.reasons:
                    continue
                rows.append(
                    {
                        "corpus": name,
                        "line": label["line"],
                        "field": field,
                        "value": value,
                        "valid": entry["valid"],
                        "accepted": judgement.reasons[field][index] == "",
                        "type": judgement.types[field],
                        "column": judgement.columns.get(field, []),
                    }
                )
    _clear_value_caches()
    return rows


def role_flags(rows: Sequence[dict[str, Any]], setting: dict[str, Any]) -> list[bool]:
    """Whether the roles signal with ``setting`` flags each row's value (as the judge: in
    columns of text only)."""
    cache: dict[int, Any] = {}
    flags = []
    for row in rows:
        if row["type"] != "text" or not isinstance(row["value"], str):
            flags.append(False)
            continue
        key = id(row["column"])
        if key not in cache:
            cache[key] = value_roles.role_outliers(row["column"], setting)
        found = cache[key]
        flags.append(found is not None and row["value"] in found.roles)
    return flags


def role_settings() -> list[dict[str, Any]]:
    keys = list(ROLE_GRID)
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*ROLE_GRID.values())]


def roles_leave_one_corpus_out(by_corpus: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """The roles signal: for each corpus, the setting best on the others, scored on it."""
    shipped = {key: value_roles.OUTLIER_SETTINGS[key] for key in ROLE_GRID}
    return grid_leave_one_corpus_out(by_corpus, role_settings(), role_flags, shipped)


def truncation_leave_one_corpus_out() -> dict[str, Any]:
    """The ``truncated`` signal (:mod:`rlm_gym.quality.truncated`): its flags fall mostly on
    values no label covers, so a setting is scored by what the whole judge gets right with it —
    labelled-invalid values rejected, less ``PENALTY`` per labelled-valid value rejected, plus
    crawls whose tier follows the verdict — on the other corpora; the left-out corpus's
    figures are reported against the judge without the signal."""
    import real_data

    keys = list(TRUNCATION_GRID)
    grid = [
        dict(zip(keys, combo, strict=True))
        for combo in itertools.product(*TRUNCATION_GRID.values())
    ]

    def figures(name: str, setting: dict[str, Any]) -> dict[str, int]:
        with mock.patch.dict(truncated.TRUNCATION_SETTINGS, setting):
            report = real_data.measure(corpus_dir(name))
        shares = report["figures"]
        return {
            "invalid_rejected": round(shares["invalid_rejected"] * report["invalid_values"]),
            "valid_rejected": round((1 - shares["valid_accepted"]) * report["valid_values"]),
            "tiers_agreed": round(shares["tier_agreement"] * report["crawls"]),
            "invalid_values": report["invalid_values"],
            "valid_values": report["valid_values"],
        }

    def score(counts: dict[str, int]) -> int:
        return (
            counts["invalid_rejected"] - PENALTY * counts["valid_rejected"] + counts["tiers_agreed"]
        )

    off = {name: figures(name, {"min_values": 10**9}) for name in OPEN_CORPORA}
    measured = {name: [figures(name, setting) for setting in grid] for name in OPEN_CORPORA}
    report: dict[str, Any] = {}
    for left_out in OPEN_CORPORA:
        others = [name for name in OPEN_CORPORA if name != left_out]
        best = max(range(len(grid)), key=lambda i: (sum(score(measured[n][i]) for n in others), -i))
        with_signal, without = measured[left_out][best], off[left_out]
        report[left_out] = {
            "setting": grid[best],
            "catches": with_signal["invalid_rejected"] - without["invalid_rejected"],
            "false_positives": with_signal["valid_rejected"] - without["valid_rejected"],
            "tiers_gained": with_signal["tiers_agreed"] - without["tiers_agreed"],
            "invalid_accepted": without["invalid_values"] - without["invalid_rejected"],
            "valid_accepted": without["valid_values"] - without["valid_rejected"],
        }
    return report


def values_decide_leave_one_corpus_out() -> dict[str, Any]:
    """``values_decide`` (:func:`rlm_gym.quality.column_roles.type_from_values`: a column's
    values overrule its name's type where they clearly show another) turns verdicts both
    ways, so a setting is scored by what the whole judge gets right with it — labelled-invalid
    values rejected, less ``PENALTY`` per labelled-valid value rejected — on the other
    corpora; the left-out corpus's figures are reported against the judge without it."""
    keys = list(VALUE_TYPE_GRID)
    grid = [
        dict(zip(keys, combo, strict=True))
        for combo in itertools.product(*VALUE_TYPE_GRID.values())
    ]

    def verdicts(name: str, setting: dict[str, Any]) -> list[tuple[dict[str, Any], bool]]:
        _clear_value_caches()
        with mock.patch.dict(column_roles.VALUE_TYPE_SETTINGS, setting):
            return _labelled_verdicts(name)

    def score(judged: list[tuple[dict[str, Any], bool]]) -> int:
        rejected = [entry["valid"] for entry, accepted in judged if not accepted]
        return rejected.count(False) - PENALTY * rejected.count(True)

    off = {name: verdicts(name, {"min_distinct": 10**9}) for name in OPEN_CORPORA}
    measured = {name: [verdicts(name, setting) for setting in grid] for name in OPEN_CORPORA}
    _clear_value_caches()
    report: dict[str, Any] = {}
    for left_out in OPEN_CORPORA:
        others = [name for name in OPEN_CORPORA if name != left_out]
        best = max(range(len(grid)), key=lambda i: (sum(score(measured[n][i]) for n in others), -i))
        report[left_out] = {
            "setting": grid[best],
            **_turned(off[left_out], measured[left_out][best]),
        }
    shipped = {key: column_roles.VALUE_TYPE_SETTINGS[key] for key in VALUE_TYPE_GRID}
    report["shipped"] = {
        "setting": shipped,
        **{name: _turned(off[name], verdicts(name, shipped)) for name in OPEN_CORPORA},
    }
    _clear_value_caches()
    return report


def _turned(
    without: list[tuple[dict[str, Any], bool]], judged: list[tuple[dict[str, Any], bool]]
) -> dict[str, Any]:
    """What a rule turns: against the judge ``without`` it, the labelled values it rejects
    (catches, false positives) and accepts (valid gained, invalid lost), with each named."""
    counts = {
        "catches": 0,
        "false_positives": 0,
        "invalid_accepted": 0,
        "valid_accepted": 0,
        "valid_gained": 0,
        "invalid_lost": 0,
    }
    flagged = []
    for (entry, was), (_, now) in zip(without, judged, strict=True):
        where = f"line {entry['line']} {entry['field']}={str(entry['value'])[:50]!r}"
        kind = "valid" if entry["valid"] else "invalid"
        if not was:
            if now:  # a rule that accepts: a valid value gained, or an invalid one let through
                counts["valid_gained" if entry["valid"] else "invalid_lost"] += 1
                flagged.append(f"{where} accepted ({kind})")
            continue
        counts["valid_accepted" if entry["valid"] else "invalid_accepted"] += 1
        if not now:
            counts["false_positives" if entry["valid"] else "catches"] += 1
            flagged.append(f"{where} ({kind})")
    return {**counts, "flagged": flagged}


def _clear_value_caches() -> None:
    values._check_string.cache_clear()
    kinds._value_kind_cached.cache_clear()


def _labelled_verdicts(name: str) -> list[tuple[dict[str, Any], bool]]:
    """Each labelled value of corpus ``name`` with whether the whole judge accepts it."""
    out = []
    for crawl, label in load_corpus(corpus_dir(name)):
        required = tuple(crawl.get("extraction_schema", {}).get("required", ()))
        judgement = judge_items(crawl["data"], required)
        for entry in label["values"]:
            field = entry["field"]
            index = _position(judgement.distinct, field, entry["value"])
            if index is not None and field in judgement.reasons:
                out.append(
                    ({**entry, "line": label["line"]}, judgement.reasons[field][index] == "")
                )
    return out


def _switched_off(rule: str) -> Any:
    """A context in which the judge runs without ``rule``."""
    if rule == "area_prices":  # no currency test passes: every size reads as before
        return mock.patch.object(prices, "_has_currency", return_value=True)
    if rule == "labels":
        return mock.patch.dict(judge.LABEL_RULE, {"enabled": False})
    if rule == "heading_rows":
        return mock.patch.object(judge, "heading_rows", return_value=set())
    if rule in column_rules.COLUMN_RULES:
        return mock.patch.dict(column_rules.COLUMN_RULES, {rule: False})
    return mock.patch.dict(constant.CONSTANT_RULES, {rule: False})


FIXED_RULES = (
    *constant.CONSTANT_RULES,
    "area_prices",
    "labels",
    "heading_rows",
    *column_rules.COLUMN_RULES,
)
"""The fixed rules measured apart: the constant-column rules of
:data:`rlm_gym.quality.constant.CONSTANT_RULES`, ``area_prices`` (a number with an area
unit and no currency is no price: :func:`rlm_gym.quality.prices.price_reason`), ``labels`` (a
value carrying its own label, "Price: 3,7 mld": :mod:`rlm_gym.quality.labels`),
``heading_rows`` (a section heading alone in its record: :mod:`rlm_gym.quality.headings`), and the
column rules of :data:`rlm_gym.quality.column_rules.COLUMN_RULES` (values judged against
their column: sentinel bounds, thousands read as decimals, room counts in an area column,
glued numbers, cut sentences, navigation links; and, accepting, a column's own words, class
letters and lone header values)."""


def fixed_rule(name: str, rule: str, judged: list[tuple[dict[str, Any], bool]]) -> dict[str, Any]:
    """The catches and false positives of the fixed ``rule`` (:data:`FIXED_RULES`) on corpus
    ``name``, against ``judged`` (its labelled values with the whole judge's verdicts)."""
    _clear_value_caches()
    with _switched_off(rule):
        without = _labelled_verdicts(name)
    _clear_value_caches()
    return _turned(without, judged)


def scale_words(name: str, judged: list[tuple[dict[str, Any], bool]]) -> dict[str, Any]:
    """What CLDR's long scale words (``CLDR_SCALE_WORDS``: "Millionen", "miliar", "crore")
    change on corpus ``name``: labelled values whose amount they give a magnitude, and verdicts
    they turn, valid or invalid (a fixed table: nothing tuned)."""
    tables = vocab.load_tables()
    only_long = set(tables["CLDR_SCALE_WORDS"]) - set(tables["CLDR_NUMBER_SUFFIXES"])
    only_long -= set(tables["NUMBER_SUFFIXES"])
    without = {
        word: value for word, value in vocab.NUMBER_SUFFIXES.items() if word not in only_long
    }
    _clear_value_caches()
    with mock.patch.object(vocab, "NUMBER_SUFFIXES", without):
        before = _labelled_verdicts(name)
        before_amounts = [
            amounts(e["value"]) if isinstance(e["value"], str) else None for e, _ in before
        ]
    _clear_value_caches()
    after = judged
    counts = {"read": 0, "valid_accepted_gained": 0, "valid_accepted_lost": 0}
    counts |= {"invalid_rejected_gained": 0, "invalid_rejected_lost": 0}
    examples = []
    for (entry, was), (_, now), old in zip(before, after, before_amounts, strict=True):
        if old is not None and amounts(entry["value"]) != old:
            counts["read"] += 1
            if len(examples) < 5:
                examples.append(f"line {entry['line']} {entry['field']}={entry['value'][:40]!r}")
        if was != now:
            valid = "valid_accepted" if entry["valid"] else "invalid_rejected"
            gained = now if entry["valid"] else was
            counts[f"{valid}_{'gained' if gained else 'lost'}"] += 1
    return {**counts, "values": len(after), "read_examples": examples}


def tally(rows: Sequence[dict[str, Any]], flags: Sequence[bool]) -> dict[str, int]:
    """Catches and false positives of a signal over rows the judge accepts."""
    counts = {"catches": 0, "false_positives": 0, "invalid_accepted": 0, "valid_accepted": 0}
    for row, flag in zip(rows, flags, strict=True):
        if not row["accepted"]:
            continue
        key = "valid_accepted" if row["valid"] else "invalid_accepted"
        counts[key] += 1
        if flag:
            counts["false_positives" if row["valid"] else "catches"] += 1
    return counts


def settings() -> list[dict[str, Any]]:
    keys = list(GRID)
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*GRID.values())]


def _score(counts: dict[str, int]) -> int:
    return counts["catches"] - PENALTY * counts["false_positives"]


def leave_one_corpus_out(by_corpus: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """For each corpus: the setting best on the others, and its figures on the one left out."""
    return grid_leave_one_corpus_out(by_corpus, settings(), shift_flags, {**shapes.SHAPE_SETTINGS})


def grid_leave_one_corpus_out(
    by_corpus: dict[str, list[dict[str, Any]]],
    grid: list[dict[str, Any]],
    flag: Callable[[Sequence[dict[str, Any]], dict[str, Any]], list[bool]],
    shipped: dict[str, Any],
) -> dict[str, Any]:
    """A tuned signal by leave-one-corpus-out: for each corpus, the setting of ``grid`` best
    on the others (``flag(rows, setting)`` flags rows), and its figures on the one left out;
    ``shipped`` is the setting the judge ships, scored on every corpus."""
    flags = {name: [flag(rows, setting) for setting in grid] for name, rows in by_corpus.items()}
    counts = {
        name: [tally(rows, flags[name][i]) for i in range(len(grid))]
        for name, rows in by_corpus.items()
    }
    report: dict[str, Any] = {}
    for left_out in by_corpus:
        others = [name for name in by_corpus if name != left_out]
        best = max(
            range(len(grid)),
            key=lambda i: (sum(_score(counts[name][i]) for name in others), -i),
        )
        report[left_out] = {
            "setting": grid[best],
            **counts[left_out][best],
            "flagged": [
                f"line {row['line']} {row['field']}={str(row['value'])[:50]!r} "
                f"({'valid' if row['valid'] else 'invalid'})"
                for row, flag_on in zip(by_corpus[left_out], flags[left_out][best], strict=True)
                if flag_on and row["accepted"]
            ],
        }
    report["shipped"] = {
        "setting": shipped,
        **{name: tally(rows, flag(rows, shipped)) for name, rows in by_corpus.items()},
    }
    return report


def _print_tuned(rows: dict[str, Any], title: str, shipped: str) -> None:
    """Print a tuned signal's leave-one-corpus-out rows, then its shipped setting's."""
    print(title)
    for name in OPEN_CORPORA:
        row = rows[name]
        print(
            f"  {name:<10} catches {row['catches']:>3} of {row['invalid_accepted']:>3} accepted "
            f"invalid; false positives {row['false_positives']:>2} of {row['valid_accepted']:>4} "
            f"accepted valid; setting {row['setting']}"
        )
        for text in row["flagged"]:
            print(f"      {text}")
    print(f"shipped {shipped} {rows['shipped']['setting']}:")
    for name in OPEN_CORPORA:
        row = rows["shipped"][name]
        print(f"  {name:<10} catches {row['catches']}, false positives {row['false_positives']}")


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", action="store_true", help="write benchmarks/results.json")
    args = parser.parse_args(argv)
    by_corpus = {name: labelled_rows(name) for name in OPEN_CORPORA}
    glued = {}
    for name, rows in by_corpus.items():
        flags = glued_flags(rows)
        glued[name] = {
            **tally(rows, flags),
            "flagged": [
                f"line {row['line']} {row['field']}={str(row['value'])[:50]!r} "
                f"({'valid' if row['valid'] else 'invalid'})"
                for row, flag in zip(rows, flags, strict=True)
                if flag and row["accepted"]
            ],
        }
    report = {"shift": leave_one_corpus_out(by_corpus), "glued": glued, "penalty": PENALTY}
    report["roles"] = roles_leave_one_corpus_out({name: role_rows(name) for name in OPEN_CORPORA})
    report["truncated"] = truncation_leave_one_corpus_out()
    report["values_decide"] = values_decide_leave_one_corpus_out()
    _clear_value_caches()
    judged = {name: _labelled_verdicts(name) for name in OPEN_CORPORA}
    for rule in FIXED_RULES:
        report[rule] = {name: fixed_rule(name, rule, judged[name]) for name in OPEN_CORPORA}
    report["scale_words"] = {name: scale_words(name, judged[name]) for name in OPEN_CORPORA}
    for signal, title, shipped in (
        (
            "shift",
            "shift signal, leave-one-corpus-out (setting tuned on the other corpora):",
            "setting",
        ),
        (
            "roles",
            "roles signal, leave-one-corpus-out (thresholds tuned on the other corpora):",
            "roles setting",
        ),
    ):
        _print_tuned(report[signal], title, shipped)
    print("truncated signal, leave-one-corpus-out (setting tuned on the other corpora's values")
    print("and tiers; figures against the judge without it):")
    for name in OPEN_CORPORA:
        row = report["truncated"][name]
        print(
            f"  {name:<10} catches {row['catches']:>3} of {row['invalid_accepted']:>3} accepted "
            f"invalid; false positives {row['false_positives']:>2} of {row['valid_accepted']:>4}; "
            f"tiers gained {row['tiers_gained']:+d}; setting {row['setting']}"
        )
    print("values_decide, leave-one-corpus-out (setting tuned on the other corpora's values;")
    print("figures against the judge without it):")
    for name in OPEN_CORPORA:
        row = report["values_decide"][name]
        print(
            f"  {name:<10} catches {row['catches']:>3}, "
            f"false positives {row['false_positives']:>2}, "
            f"accepts {row['valid_gained']} valid, {row['invalid_lost']} invalid; "
            f"setting {row['setting']}"
        )
        for text in row["flagged"]:
            print(f"      {text}")
    print("glued signal (no setting):")
    for name in OPEN_CORPORA:
        row = report["glued"][name]
        print(
            f"  {name:<10} catches {row['catches']:>3} of {row['invalid_accepted']:>3} accepted "
            f"invalid; false positives {row['false_positives']:>2} of {row['valid_accepted']:>4}"
        )
    for rule in FIXED_RULES:
        print(f"{rule} (a fixed rule; no setting):")
        for name in OPEN_CORPORA:
            row = report[rule][name]
            print(
                f"  {name:<10} catches {row['catches']:>3} of {row['invalid_accepted']:>3} "
                f"accepted invalid; false positives {row['false_positives']:>2} of "
                f"{row['valid_accepted']:>4}; accepts {row['valid_gained']} valid, "
                f"{row['invalid_lost']} invalid"
            )
            for text in row["flagged"]:
                print(f"      {text}")
    print("scale words (CLDR's long compact forms; a fixed table):")
    for name in OPEN_CORPORA:
        row = report["scale_words"][name]
        print(
            f"  {name:<10} amounts read with a scale word {row['read']:>3} of {row['values']}; "
            f"valid accepted +{row['valid_accepted_gained']} -{row['valid_accepted_lost']}, "
            f"invalid rejected +{row['invalid_rejected_gained']} -{row['invalid_rejected_lost']}"
        )
        for text in row["read_examples"]:
            print(f"      {text}")
    if args.save:
        save_results("judge_signals", report)
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
