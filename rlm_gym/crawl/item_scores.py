"""What a judgement of a crawl's items scores: validation, its sub-scores and the defects.

Each distinct item scores presence (its required fields there), completeness (usable values)
and quality (valid values); validation mixes their means with ``validation_weights`` (or, with
no schema, ``schemaless_validation_weights`` over each item's own fields, capped). A checked
field invalid on a large share of the items, or many exact duplicate rows, is a *systematic
defect* (see ``docs/crawl-reward.md``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from rlm_gym.crawl.settings import CrawlSettings
from rlm_gym.quality.judge import MISSING, NOT_AN_ITEM, UNUSABLE_REASONS, Judgement

__all__ = ["ItemScores", "assess"]


@dataclass(slots=True)
class ItemScores:
    """The item-level scores of a judgement: validation and its sub-scores (means over the
    distinct items), the extracted items, the valid share of the checked values, the
    systematic defects (readable strings) and per-field diagnostics."""

    validation: float
    presence: float
    completeness: float
    quality: float
    extracted: int
    valid_share: float
    defects: list[str]
    fields: dict[str, dict[str, Any]]


def _invalid_examples(judgement: Judgement, name: Any, reasons: list[str]) -> list[Any]:
    """Up to 3 distinct invalid values of field ``name`` (absent values have none to show)."""
    shown: dict[str, Any] = {}
    for index, reason in enumerate(reasons):
        if reason and reason is not MISSING and reason is not NOT_AN_ITEM:
            value = judgement.distinct[index][name]
            shown.setdefault(repr(value), value)
            if len(shown) == 3:
                break
    return list(shown.values())


def _reason_counts(reasons: list[str], required: bool) -> dict[str, int]:
    """Why a field's values were rejected: reason -> how many distinct items, most first
    (absent values count as "missing" only under required fields)."""
    counts: dict[str, int] = {}
    for reason in reasons:
        if reason and (required or reason != MISSING):
            counts[reason] = counts.get(reason, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _item_scores(judgement: Judgement) -> tuple[float, float, float, int]:
    """Summed per-item presence, completeness and quality, and the extracted items."""
    fields = judgement.fields
    width = len(fields)
    rows = zip(*(judgement.reasons[name] for name in fields), strict=True)
    presence = completeness = quality = 0.0
    extracted = 0
    unusable = UNUSABLE_REASONS
    if not width:
        return presence, completeness, quality, extracted
    for row in rows:
        passed = row.count("")
        if passed == width:
            presence += 1.0
            completeness += 1.0
            quality += 1.0
            extracted += 1
            continue
        if passed:
            extracted += 1
        absent = row.count(MISSING)
        if judgement.required:
            present = width - absent - row.count(NOT_AN_ITEM)
            usable = passed + sum(1 for reason in row if reason and reason not in unusable)
            presence += present / width
            completeness += usable / width
            quality += passed / present if present else 0.0
        else:
            own = width - absent
            if own:
                usable = passed + sum(1 for reason in row if reason and reason not in unusable)
                completeness += usable / own
                quality += passed / own
    return presence, completeness, quality, extracted


def _defects(
    judgement: Judgement, core_invalid: dict[Any, int], rows: int, settings: CrawlSettings
) -> list[str]:
    """The systematic defects, as readable strings (none below ``defect_min_items``)."""
    count = len(judgement.distinct)
    if count < settings.defect_min_items:
        return []
    defects = []
    for name in judgement.core_fields:
        share = core_invalid[name] / count
        if share >= settings.defect_field_share:
            reasons = judgement.reasons[name]
            main = Counter(reason for reason in reasons if reason).most_common(1)[0][0]
            examples = _invalid_examples(judgement, name, reasons)
            shown = ", ".join(repr(value)[:40] for value in examples)
            defects.append(
                f"{name!s}: {share:.0%} of {count} distinct items invalid ({main})"
                + (f", e.g. {shown}" if shown else "")
            )
    # Rows repeating another exactly, and distinct rows repeating another in every field but
    # a column that only numbers the rows (a pandas index written out).
    duplicates = rows - count + judgement.index_duplicates
    if rows and duplicates / rows >= settings.defect_duplicate_share:
        but_for = judgement.index_column
        how = "exactly" if but_for is None else f"exactly or but for the row index {but_for!r}"
        defects.append(
            f"duplicate rows: {duplicates} of {rows} rows ({duplicates / rows:.0%}) repeat "
            f"another row {how}"
        )
    return defects


def assess(judgement: Judgement, rows: int, settings: CrawlSettings) -> ItemScores:
    """The item scores of ``judgement``, a judgement of ``rows`` rows (duplicates included).

    Example:
        >>> from rlm_gym.quality.judge import judge_items
        >>> from rlm_gym.crawl.settings import DEFAULT_SETTINGS
        >>> items = [{"title": "Giá vàng", "price": "N/A"}, {"title": "Phở", "price": "$5"}]
        >>> scores = assess(judge_items(items, ("title", "price")), 2, DEFAULT_SETTINGS)
        >>> scores.validation, scores.extracted, scores.valid_share
        (0.85, 2, 0.75)
    """
    count = len(judgement.distinct)
    presence, completeness, quality, extracted = _item_scores(judgement)
    if count:
        presence, completeness, quality = presence / count, completeness / count, quality / count
    if not judgement.required:
        presence = 1.0 if count else 0.0
        validation = min(
            settings.schemaless_cap,
            settings.schemaless_completeness_weight * completeness
            + settings.schemaless_quality_weight * quality,
        )
    else:
        validation = (
            settings.presence_weight * presence
            + settings.completeness_weight * completeness
            + settings.quality_weight * quality
        )
    core = judgement.core_fields
    # Absent from an item counts as invalid there, for the defects and the valid share.
    core_invalid = {name: count - judgement.reasons[name].count("") for name in core}
    checked_values = count * len(core)
    valid_share = 1.0 - sum(core_invalid.values()) / checked_values if checked_values else 0.0
    fields: dict[str, dict[str, Any]] = {}
    for name, reasons in judgement.reasons.items():
        checked = count if judgement.required else count - reasons.count(MISSING)
        fields[str(name)] = {
            "type": judgement.types[name],
            "checked": checked,
            "invalid": checked - reasons.count(""),
            "examples": _invalid_examples(judgement, name, reasons),
            "reasons": _reason_counts(reasons, judgement.required),
        }
    return ItemScores(
        validation,
        presence,
        completeness,
        quality,
        extracted,
        valid_share,
        _defects(judgement, core_invalid, rows, settings),
        fields,
    )
