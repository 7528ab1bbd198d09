# ruff: noqa: RUF001 - multilingual dates are the point
"""The date rule: absolute, relative and CJK dates in the common scraping languages, with the
years a scraped date may name (1900-2100) and a calendar check (no 31 February)."""

from __future__ import annotations

import re
from datetime import date

from rlm_gym.quality import vocab
from rlm_gym.quality.lazy_regex import lazy

__all__ = ["EPOCH_SECONDS", "date_reason", "date_words", "year_ok"]

_ISO_RE = lazy(
    r"^(\d{4})-(\d{1,2})(?:-(\d{1,2}))?(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?"
    r"\s*(?:z|utc|gmt|[+-]\d{2}(?::?\d{2})?)?$",
    re.IGNORECASE,
)
_NUMERIC_DATE_RE = lazy(r"(?<!\d)(\d{1,4})([/.\-])(\d{1,2})\2(\d{2,4})(?!\d)")
_TIME_RE = lazy(r"\b\d{1,2}[:h]\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?\b", re.IGNORECASE)
_TIME_ONLY_RE = lazy(r"^\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?$", re.IGNORECASE)
_TZ_RE = lazy(r"(?:gmt|utc)?\s*[+-]\d{2}:?\d{2}\b", re.IGNORECASE)
_VI_MONTH_RE = lazy(r"tháng\s*\d{1,2}|thg\s*\d{1,2}", re.IGNORECASE)
_DATE_TOKEN_RE = lazy(r"[^\W\d_]+|\d+")
_YEAR_MIN, _YEAR_MAX = 1900, 2100
EPOCH_SECONDS = (631_152_000, 4_102_444_800)  # 1990-01-01 .. 2100-01-01


def year_ok(year: int) -> bool:
    """Whether ``year`` is in the years a scraped date may name (1900-2100)."""
    return _YEAR_MIN <= year <= _YEAR_MAX


def _ymd(year: int, month: int, day: int) -> str:
    if not year_ok(year):
        return "out of range"
    try:
        date(year, month, day)
    except ValueError:
        return "not a date"
    return ""


def _numeric_date(a: str, b: str, c: str) -> str:
    if len(a) == 4:
        return _ymd(int(a), int(b), int(c))
    if len(c) not in (2, 4) or len(a) > 2:
        return "not a date"
    year = int(c) if len(c) == 4 else 2000 + int(c) if int(c) < 70 else 1900 + int(c)
    first, second = int(a), int(b)
    if not _ymd(year, second, first) or not _ymd(year, first, second):
        return ""
    return "out of range" if not year_ok(year) else "not a date"


def date_words(text: str) -> tuple[list[str], list[str]]:
    """The lower-cased words and the digit runs of ``text``, apart."""
    words, numbers = [], []
    for token in _DATE_TOKEN_RE.findall(text.lower()):
        (numbers if token.isdecimal() else words).append(token)
    return words, numbers


def _relative(words: list[str], numbers: list[str], low: str) -> bool:
    if low in vocab.RELATIVE_DAYS or low.rstrip(".") in vocab.RELATIVE_DAYS:
        return True
    units = [word for word in words if word in vocab.TIME_UNITS]
    markers = [word for word in words if word in vocab.RELATIVE_MARKERS]
    if units and markers and (numbers or any(word in vocab.NUMBER_WORDS for word in words)):
        return len(words) - len(units) - len(markers) <= 4
    # "posted today": a relative day inside a short text, as whole words (CJK ones are read by
    # _CJK_RELATIVE_RE: "今天天气很好", "today the weather is nice", is no date)
    return len(words) <= 3 and any(phrase in low for phrase in _SPACED_RELATIVE_DAYS)


_SPACED_RELATIVE_DAYS = tuple(day for day in vocab.RELATIVE_DAYS if day[0] < "\u3000")


_CJK_DATE_RE = lazy(r"(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(?:(\d{1,2})\s*[日일])?")


# CJK relative dates, written without spaces: "3天前", "10分钟前", "3時間前", "1일 전", "刚刚".
_CJK_NUMERAL = r"(?:\d{1,3}|[一二两兩三四五六七八九十半几幾数數]{1,3})"
_CJK_RELATIVE_RE = lazy(
    rf"{_CJK_NUMERAL}\s*(?:秒钟|秒鐘|秒|分钟|分鐘|分|个小时|個小時|小时|小時|時間|天|日|"
    r"周|週間|週|星期|个月|個月|ヶ月|か月|カ月|ケ月|年)\s*(?:以前|前)|"
    rf"{_CJK_NUMERAL}\s*(?:초|분|시간|일|주|주일|개월|달|년)\s*전|"
    r"刚刚|刚才|剛剛|剛才|今天|昨天|前天|今日|昨日|一昨日|おととい|오늘|어제|그저께|방금(?:\s*전)?"
)
# A date or time that opens a short text, and where it ends: at a run of spaces or a
# separator ("16:33  posted on …", "3 days ago · Easy Apply", "12.03.2024 | Berlin").
_LEADING_SPLIT_RE = lazy(r"^(.{1,40}?)(?:\s{2,}|\s*[|·•‧｜]\s*|\s+[-–—]\s+)(\S.*)$")
_LEADING_TIME_RE = lazy(r"^(\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?)\s+(\D.*)$", re.I)


def _short_tail(tail: str) -> bool:
    """A tail a scraper captures after a date: short, and holding no number of its own."""
    tail = tail.strip()
    return len(tail) <= 40 and len(tail.split()) <= 6 and not any(c.isdecimal() for c in tail)


def _leading_date(text: str) -> bool:
    """Whether ``text`` is a date, relative date or time followed by a short non-date tail
    ("1天前  发布于拉勾网", "16:33  posted", "2 days ago · Easy Apply"): the date is what was
    meant, the tail is page furniture the selector caught with it. Prose that merely holds a
    date somewhere, or a date followed by a long text, is not."""
    if len(text) > 60:
        return False
    match = _CJK_RELATIVE_RE.search(text)
    if match and (match.start() == 0 or (match.start() <= 4 and text[0] > "\u3000")):
        before, after = text[: match.start()], text[match.end() :]
        separated = (
            not after
            or not after[0].isalnum()
            or match.start() > 0
            or after.startswith(vocab.CJK_POSTED_WORDS)
        )
        if separated and _short_tail(before) and _short_tail(after):
            return True
    match = _LEADING_TIME_RE.match(text) or _LEADING_SPLIT_RE.match(text)
    if match is None:
        return False
    head, tail = match.group(1).strip(), match.group(2)
    return (
        bool(head)
        and not head.isdecimal()  # a bare year or number opening a title is no date
        and _short_tail(tail)
        and _date_core(head) == ""
    )


def date_reason(text: str) -> str:
    """The reason a stripped, junk-free text is no usable date, or ``""``.

    Dates are absolute (ISO 8601, numeric day-month orders, month names, CJK 年月日, epoch
    seconds, a year), relative ("2 days ago", "hôm qua", "3天前") or a time of day, alone or
    opening a short text whose tail holds no number ("3 days ago · Easy Apply").

    Example:
        >>> date_reason("Há 1 semana"), date_reason("13 Déc 2019"), date_reason("3天前发布")
        ('', '', '')
        >>> date_reason("31/02/2024"), date_reason("9999-12-31"), date_reason("Hello world")
        ('not a date', 'out of range', 'not a date')
    """
    reason = _date_core(text)
    if reason == "not a date" and _leading_date(text):
        return ""
    return reason


def _date_core(text: str) -> str:
    if text[0] == "(" and text[-1] == ")":  # "(1994)", "(12 March 2024)"
        text = text[1:-1].strip()
        if not text:
            return "not a date"
    low = text.lower()
    if low in vocab.NOT_DATE_TEXTS:
        return "not a date"
    match = _ISO_RE.match(text)
    if match:
        year, month, day = match.group(1), match.group(2), match.group(3)
        return _ymd(int(year), int(month), int(day or 1))
    if text.isdecimal():
        if len(text) > 13:
            return "not a date"
        if len(text) == 4:
            return "" if year_ok(int(text)) else "out of range"
        if len(text) == 8 and text[:2] in ("19", "20"):  # compact ISO 8601: 20240305
            return _ymd(int(text[:4]), int(text[4:6]), int(text[6:]))
        number = int(text)
        if (
            EPOCH_SECONDS[0] <= number <= EPOCH_SECONDS[1]
            or EPOCH_SECONDS[0] <= number / 1000 <= EPOCH_SECONDS[1]
        ):
            return ""
        return "not a date"
    if _TIME_ONLY_RE.match(text):
        return ""
    match = _CJK_DATE_RE.search(text)
    if match:
        return _ymd(int(match.group(1)), int(match.group(2)), int(match.group(3) or 1))
    words, numbers = date_words(text)
    if len(words) > 10:
        return "not a date"
    match = _NUMERIC_DATE_RE.search(text)
    if match and len(words) <= 4:
        return _numeric_date(match.group(1), match.group(3), match.group(4))
    months = [word for word in words if word in vocab.MONTHS or word.rstrip(".") in vocab.MONTHS]
    if months or _VI_MONTH_RE.search(text):
        rest = _TZ_RE.sub(" ", _TIME_RE.sub(" ", low))
        _, numbers = date_words(rest)
        for number in numbers:
            if len(number) == 4 and not year_ok(int(number)):
                return "out of range"
            if len(number) > 2 and len(number) != 4:
                return "not a date"
        others = [
            word
            for word in words
            if word not in vocab.MONTHS
            and word.rstrip(".") not in vocab.MONTHS
            and word not in vocab.WEEKDAYS
            and word not in vocab.DATE_CONNECTORS
            and word not in vocab.DATE_FILLERS
        ]
        return "" if len(others) <= 5 else "not a date"
    if _relative(words, numbers, low):
        return ""
    match = _CJK_RELATIVE_RE.fullmatch(text)
    return "" if match else "not a date"
