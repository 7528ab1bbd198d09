"""Numbers mangled by the scraper, read from the column and the record they stand in — no
language needed: digit counts, magnitudes and the digits of the record's other amounts.

- **cut at the thousands mark**: a price column whose amounts fall into two groups a hundred
  times apart with nothing between them, the low group bare whole numbers of one to three
  digits ("1", "2", "3" among "800", "850"): a ``\\d+`` pattern stopped at the thousands dot
  of "1.250 €", keeping only the digits before it. The low group read as thousands
  (``head * 1000`` to ``head * 1000 + 999``) must land within ten times the high group's
  range, so a column of cheap goods beside a few cars is read as what it is only when the
  heads make sense as cut amounts.
- **two decimal marks**: an amount grouped in thousands with the same mark that then sets off
  one or two decimals ("2.299.99", "1,399,99"): no numbering system writes one mark for both,
  so a decimal comma was turned into a point with the thousands point kept.
- **joined amounts**: a price whose digits are another price of the same record with at least
  two more digits glued on, and a hundred times that price or more ("4200002000" beside
  "420000": the current price and the price drop concatenated as strings).

The rules read only values the value checks accepted and can be switched off in
``column_rules.COLUMN_RULES`` (``cut_thousands``, ``two_decimal_marks``, ``joined_amounts``)
to be measured apart.

Example:
    >>> rents = ["850", "1", "900", "2", "800", "3", "850"]
    >>> verdicts = [""] * len(rents)
    >>> mark_cut_thousands(rents, verdicts, "price", 5)
    >>> verdicts
    ['', 'cut at the thousands mark', '', 'cut at the thousands mark', '', \
'cut at the thousands mark', '']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rlm_gym.quality.joined import JOINED_VALUES
from rlm_gym.quality.lazy_regex import lazy
from rlm_gym.quality.numbers import ascii_digits

__all__ = [
    "CUT_AT_THOUSANDS",
    "MANGLED_SETTINGS",
    "TWO_DECIMAL_MARKS",
    "mark_cut_thousands",
    "mark_joined_amounts",
    "mark_two_decimal_marks",
]

CUT_AT_THOUSANDS = "cut at the thousands mark"
TWO_DECIMAL_MARKS = "two decimal marks"

MANGLED_SETTINGS: dict[str, float] = {
    "gap_ratio": 100.0,
    "min_high_values": 3,
    "min_low_values": 2,
    "scale_slack": 10.0,
    "joined_ratio": 100.0,
    "min_glued_digits": 2,
    "min_amount_digits": 3,
}
"""The rules' bounds: how far apart the two groups of a cut column lie (``gap_ratio``), how many
amounts the high group and the low group need (one lone low amount may be a price of
another unit), how far from it the cut heads read as thousands may land
(``scale_slack``); how much larger a joined amount is than the record's amount it starts with,
how many digits are glued on, and how many digits that amount needs (shorter ones start many
numbers by chance)."""

# A whole amount: bare digits or digits grouped in thousands ("1.250", "2 000"), no decimals.
_WHOLE_AMOUNT_RE = lazy(r"^\d{1,3}(?:([.,\u00a0\u202f ])\d{3})(?:\1\d{3})*$|^\d+$")
# A bare whole number of one to three digits on a line of its own: a cut head, perhaps.
_SHORT_WHOLE_RE = lazy(r"^\s*\d{1,3}\s*$", re.MULTILINE)
# One mark grouping thousands and then setting off decimals: "2.299.99", "1,399,9".
_TWO_MARKS_RE = lazy(r"(?<![\d.,])\d{1,3}([.,])\d{3}(?:\1\d{3})*\1\d{1,2}(?![\d]|[.,]\d)")
# What such an amount holds, searched for in the whole column first (a literal mark is fast).
_TWO_DOTS_RE = lazy(r"\.\d{3}\.\d")
_TWO_COMMAS_RE = lazy(r",\d{3},\d")
# The digits of an amount with its currency and spaces around it ("4200002000 €", "$ 420000").
_AMOUNT_DIGITS_RE = lazy(r"^\D{0,4}?(\d[\d.,\u00a0\u202f ]*\d|\d)\D{0,4}$")


def _whole_amount(value: Any) -> tuple[int, bool] | None:
    """A bare whole amount and whether it was written without separators, or None."""
    if type(value) is not str:
        return None
    text = ascii_digits(value.strip())
    if not text or len(text) > 15 or not _WHOLE_AMOUNT_RE.match(text):
        return None
    return int("".join(char for char in text if char.isdigit())), text.isdigit()


def mark_cut_thousands(
    values: Sequence[Any], verdicts: list[str], kind: str, min_items: int
) -> None:
    """Mark the accepted amounts of a price column cut at their thousands mark (in place).

    Args:
        values: The column's values, one per distinct item.
        verdicts: One verdict per value ("" accepted); changed in place.
        kind: The column's value type (only ``price`` columns are read).
        min_items: Fewer whole amounts than this prove nothing about the column.
    """
    if kind != "price":
        return
    column = ascii_digits("\n".join(value for value in values if type(value) is str))
    if len(_SHORT_WHOLE_RE.findall(column)) < MANGLED_SETTINGS["min_low_values"]:
        return  # one search of the whole column first: no cut heads to find
    amounts = {
        index: amount
        for index, value in enumerate(values)
        if not verdicts[index] and (amount := _whole_amount(value)) is not None
    }
    if len(amounts) < min_items:
        return
    settings = MANGLED_SETTINGS
    distinct = sorted({number for number, _ in amounts.values() if number > 0})
    if len(distinct) < 2:
        return
    ratio, cut = max((distinct[i + 1] / distinct[i], i) for i in range(len(distinct) - 1))
    low, high = distinct[: cut + 1], distinct[cut + 1 :]
    if ratio < settings["gap_ratio"] or low[-1] > 999:
        return
    highs = sum(1 for number, _ in amounts.values() if number >= high[0])
    lows = sum(1 for number, bare in amounts.values() if 0 < number <= low[-1] and bare)
    if highs < settings["min_high_values"] or lows < settings["min_low_values"]:
        return
    slack = settings["scale_slack"]
    if low[0] * 1000 * slack < high[0] or (low[-1] * 1000 + 999) > high[-1] * slack:
        return  # read as thousands, the heads would not be amounts of this column
    for index, (number, bare) in amounts.items():
        if 0 < number <= low[-1] and bare:
            verdicts[index] = CUT_AT_THOUSANDS


def mark_two_decimal_marks(values: Sequence[Any], verdicts: list[str], kind: str) -> None:
    """Mark the accepted amounts of a price column written with one mark for thousands and
    decimals (in place; ``kind`` other than ``price`` leaves the column alone)."""
    if kind != "price":
        return
    column = ascii_digits("\n".join(value for value in values if type(value) is str))
    if _TWO_DOTS_RE.search(column) is None and _TWO_COMMAS_RE.search(column) is None:
        return  # two searches of the whole column first: such amounts are rare
    for index, value in enumerate(values):
        if verdicts[index] or type(value) is not str:
            continue
        if _TWO_MARKS_RE.search(ascii_digits(value)):
            verdicts[index] = TWO_DECIMAL_MARKS


def _digits(value: Any) -> str | None:
    """The digits of a whole amount with up to four characters of currency around it, or None
    (amounts with decimals are left alone: their digits run on past the whole part)."""
    if type(value) is not str:
        return None
    match = _AMOUNT_DIGITS_RE.match(ascii_digits(value.strip()))
    if match is None or not _WHOLE_AMOUNT_RE.match(match.group(1)):
        return None
    return "".join(char for char in match.group(1) if char.isdigit())


def mark_joined_amounts(
    distinct: Sequence[Any], reasons: dict[Any, list[str]], types: dict[Any, str]
) -> None:
    """Mark accepted prices that are another price of their record with digits glued on.

    Args:
        distinct: The crawl's distinct items; ``reasons[name][i]`` judges ``distinct[i][name]``.
        reasons: Field -> one verdict per distinct item; changed in place.
        types: Field -> value type (only ``price`` columns are read).
    """
    prices = [name for name in reasons if types.get(name) == "price"]
    if len(prices) < 2:
        return
    settings = MANGLED_SETTINGS
    shortest = int(settings["min_amount_digits"])
    glued = int(settings["min_glued_digits"])
    for row, item in enumerate(distinct):
        if type(item) is not dict:
            continue
        digits = {name: _digits(item.get(name)) for name in prices}
        for name in prices:
            whole = digits[name]
            if whole is None or reasons[name][row]:
                continue
            for other in prices:
                part = digits[other]
                if other == name or part is None or len(part) < shortest:
                    continue
                tail = whole[len(part) :]
                if (
                    whole.startswith(part)
                    and len(tail) >= glued
                    and tail[0] != "0"
                    and int(whole) >= settings["joined_ratio"] * int(part)
                ):
                    reasons[name][row] = JOINED_VALUES
                    break
