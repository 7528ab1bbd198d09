"""The real-data blocks of the documentation pages (rendered by ``docs/render.py``): the
agreement of the crawl reward with the labelled real crawls of ``../shared/corpora``, per
corpus and per crawl, from ``benchmarks/results.json`` (``benchmarks/real_data.py --save``)."""

from __future__ import annotations

import json
from typing import Any

from block_tools import BENCHMARKS, table

GROUP_LABELS = {
    "realdata": "`realdata` (the original 30)",
    "devcorpus": "`devcorpus` (33, issue 22)",
    "kept": "`realdata` + `devcorpus`",
    "world_a": "`world_a` (21, 13 languages)",
    "world_b": "`world_b` (19, 13 languages): development (after first scoring)",
    "world_c": "`world_c` (20, defect-rich)",
    "overall": "overall",
}


def _report() -> dict[str, Any]:
    return json.loads(BENCHMARKS.read_text(encoding="utf-8"))["real_data"]


def _first_scorings() -> dict[str, Any]:
    """The kept first scorings of once-sealed corpora (``real_data.py --sealed --save``)."""
    return json.loads(BENCHMARKS.read_text(encoding="utf-8")).get("real_data_sealed", {})


def real_data_figures() -> str:
    """The four agreement figures on the whole labelled corpus, against their bars."""
    report = _report()
    names = {
        "valid_accepted": f"valid values accepted ({report['valid_values']} labelled valid)",
        "invalid_rejected": (
            f"invalid values rejected ({report['invalid_values']} labelled invalid)"
        ),
        "pattern_type": f"pattern type acceptable ({report['crawls']} crawls)",
        "tier_agreement": "tier follows the verdict (clean: good/excellent; flawed: not excellent; "
        "broken: acceptable/poor)",
    }
    rows = [
        [label, f"**{report['figures'][key]:.3f}**", f"≥ {report['bars'][key]:.2f}"]
        for key, label in names.items()
    ]
    return table(["agreement with the expert", "measured", "bar"], rows)


def real_data_groups() -> str:
    """The four figures per corpus (and the two the rules were written with, and overall), so
    overfitting shows."""
    report = _report()
    rows = []
    for group, label in GROUP_LABELS.items():
        row = report["groups"][group]
        figures = row["figures"]
        rows.append(
            [
                label,
                row["crawls"],
                f"{figures['valid_accepted']:.3f} ({row['valid_values']})",
                f"{figures['invalid_rejected']:.3f} ({row['invalid_values']})",
                f"{figures['pattern_type']:.3f}",
                f"{figures['tier_agreement']:.3f}",
            ]
        )
    for name, entry in _first_scorings().items():
        figures = entry["first"]["figures"]
        rows.append(
            [
                f"`{name}` first scoring (the honest estimate, {entry['first']['commit'][:7]})",
                entry["first"]["crawls"],
                f"{figures['valid_accepted']:.3f} ({entry['first']['valid_values']})",
                f"{figures['invalid_rejected']:.3f} ({entry['first']['invalid_values']})",
                f"{figures['pattern_type']:.3f}",
                f"{figures['tier_agreement']:.3f}",
            ]
        )
    bars = report["bars"]
    rows.append(
        [
            "bar (issues 22, 35)",
            "",
            f"≥ {bars['valid_accepted']:.2f}",
            f"≥ {bars['invalid_rejected']:.2f}",
            f"≥ {bars['pattern_type']:.2f}",
            f"≥ {bars['tier_agreement']:.2f}",
        ]
    )
    headers = [
        "corpus",
        "crawls",
        "valid accepted (values)",
        "invalid rejected (values)",
        "pattern type",
        "tier",
    ]
    return table(headers, rows)


def real_data_crawls() -> str:
    """One row per labelled crawl: verdict, reward, tier, type, valid share, defects."""
    rows = [
        [
            row["corpus"],
            row["line"],
            row["domain"],
            row["verdict"],
            f"{row['reward']:.3f}",
            row["tier"],
            row["pattern_type"],
            f"{row['valid_share']:.2f}",
            row["defects"],
        ]
        for row in _report()["per_crawl"]
    ]
    headers = [
        "corpus",
        "line",
        "site",
        "verdict",
        "reward",
        "tier",
        "type",
        "valid share",
        "defects",
    ]
    return table(headers, rows)


def real_data_disagreements() -> str:
    """Every disagreement with the expert labels, as a list."""
    return "".join(f"- {text}\n" for text in _report()["disagreements"])


def judge_signals() -> str:
    """Each column-consistency signal's catches and false positives, by leave-one-corpus-out
    (``benchmarks/judge_signals.py --save``)."""
    report = json.loads(BENCHMARKS.read_text(encoding="utf-8"))["judge_signals"]
    rows = []
    for signal, folds in report.items():
        if not isinstance(folds, dict) or signal == "scale_words":
            continue  # the scale words are a table, not a flag: judge_scale_words shows them
        for corpus, fold in folds.items():
            if corpus == "shipped":
                continue
            tuned = fold.get("setting")
            setting = (
                ", ".join(f"{key} {value}" for key, value in tuned.items())
                if tuned
                else "none (a fixed rule)"
            )
            accepts = (
                f"{fold['valid_gained']} / {fold['invalid_lost']}"
                if "valid_gained" in fold
                else "-"
            )
            rows.append(
                [
                    f"`{signal}`",
                    f"`{corpus}`",
                    f"{fold['catches']} of {fold['invalid_accepted']}",
                    f"{fold['false_positives']} of {fold['valid_accepted']}",
                    accepts,
                    setting,
                ]
            )
    headers = [
        "signal",
        "left out",
        "catches (of the invalid values the judge accepts without it)",
        "false positives (of the valid values it accepts)",
        "values it accepts that the judge rejects without it: valid / invalid",
        "setting tuned on the other corpora",
    ]
    return table(headers, rows)


def judge_scale_words() -> str:
    """What CLDR's long scale words change per corpus: amounts given their magnitude and
    verdicts turned (``benchmarks/judge_signals.py --save``)."""
    report = json.loads(BENCHMARKS.read_text(encoding="utf-8"))["judge_signals"]["scale_words"]
    rows = [
        [
            f"`{corpus}`",
            f"{row['read']} of {row['values']}",
            f"+{row['valid_accepted_gained']} / -{row['valid_accepted_lost']}",
            f"+{row['invalid_rejected_gained']} / -{row['invalid_rejected_lost']}",
            ", ".join(f"`{text.split('=', 1)[1]}`" for text in row["read_examples"][:2]) or "—",
        ]
        for corpus, row in report.items()
    ]
    headers = [
        "corpus",
        "labelled values read with a scale word",
        "valid accepted (gained / lost)",
        "invalid rejected (gained / lost)",
        "e.g.",
    ]
    return table(headers, rows)


def stress_locales() -> str:
    """Valid values accepted on the generated stress set, per locale below the bar, and the
    generated values SPEC's own rules call invalid (``benchmarks/stress_locales.py --save``)."""
    report = json.loads(BENCHMARKS.read_text(encoding="utf-8"))["stress_locales"]
    locales = report["locales"]
    head = (
        f"Faker {report['faker']} (seed {report['seed']}), {locales} locales, "
        f"{report['items_per_locale']} records each, {report['values']:,} values, "
        f"{report['spec_valid']:,} of them valid by SPEC: **{report['valid_accepted']:.4f}** "
        f"of those accepted, {locales - len(report['locales_below_bar'])} of {locales} locales "
        f"at ≥ {report['bar']:.2f}. Over every generated value: "
        f"{report['valid_accepted_unfiltered']:.4f}, "
        f"{locales - len(report['locales_below_bar_unfiltered'])} of {locales} locales at "
        f"≥ {report['bar']:.2f}. SPEC-invalid values: "
        + ", ".join(f"{count} {field}" for field, count in report["spec_invalid_by_field"].items())
        + f", {report['spec_invalid_rejected']} of them rejected.\n\n"
    )
    rows = []
    for row in report["per_locale"]:
        if row["locale"] not in report["locales_below_bar"] and not row["spec_invalid"]:
            continue
        rejected = "; ".join(
            f"{field}: {', '.join(values[:2])}" for field, values in row["rejected"].items()
        )
        spec_invalid = "; ".join(
            f"{row['spec_invalid_counts'][field]} {field}: {', '.join(values[:2])}"
            for field, values in row["spec_invalid"].items()
        )
        rows.append(
            [
                f"`{row['locale']}`",
                f"{row['valid_accepted']:.3f}",
                f"{row['valid_accepted_unfiltered']:.3f}",
                rejected or "—",
                spec_invalid or "—",
            ]
        )
    headers = [
        "locale",
        "SPEC-valid accepted",
        "every value accepted",
        "SPEC-valid rejected (examples)",
        "SPEC-invalid (count: examples)",
    ]
    return head + table(headers, rows)


def generated_defects() -> str:
    """What the judge catches of each defect class on generated tables
    (``benchmarks/generated_defects.py --save``)."""
    report = json.loads(BENCHMARKS.read_text(encoding="utf-8"))["generated_defects"]
    head = (
        f"Faker {report['faker']} (seed {report['seed']}), {report['locales']} locales, one "
        "table per locale and defect class:\n\n"
    )
    rows = [
        [
            f"`{kind}`",
            str(row["spoiled"]),
            f"{row['caught']:.3f}",
            f"{row['caught_without_roles']:.3f}",
            f"{row['clean_accepted']:.4f}",
        ]
        for kind, row in report["classes"].items()
    ]
    headers = [
        "defect",
        "spoiled values",
        "rejected",
        "rejected without the value roles",
        "untouched values accepted",
    ]
    return head + table(headers, rows)
