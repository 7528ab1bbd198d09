# ruff: noqa: RUF001 - multilingual dates are the point
"""The date rule: absolute, relative and CJK dates in the common scraping languages, with the
years a scraped date may name (1900-2100) and a calendar check (no 31 February).

Dates of other calendars (added in 0.4): a year outside 1900-2100 is still a date's year when
the text says which calendar it counts in — by its script or its digits' (Thai: Buddhist era;
Persian and Arabic: Solar Hijri or Islamic; Hebrew: Hebrew), an era mark (พ.ศ., هـ.ش, AH) or
a month of that calendar (آذر, جمادى, חשוון) — and converts into 1900-2100 there; Japanese era
and ROC years (令和6年, 民國113年, 113/11/26) are read with their era's offset. Month and
weekday names and relative-date patterns of 64 languages come from CLDR
(``tables/cldr.json``); a short date with a weekday mark ("11/26(火)", "11.26 (화)") is a date.
A date in the digits of a numbering system other than Latin with a month word of the same
script ("२०८०-असार-१५": Bikram Sambat) is a date of that script's local calendar, whose month
names CLDR does not hold.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date

from rlm_gym.quality import vocab
from rlm_gym.quality.lazy_regex import combining_marks, lazy

__all__ = ["EPOCH_SECONDS", "calendars_of", "date_reason", "date_words", "year_ok"]

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
# A word is letters with their combining marks (Thai and Indic vowel signs split it otherwise).
_DATE_TOKEN_RE = lazy(lambda: rf"(?:[^\W\d_]|[{combining_marks()}])+|\d+")
# A dot inside an abbreviation ("พ.ย.", "ม.ค.", "n.Chr."): read without it, as the tables hold.
_INNER_DOT_RE = lazy(r"(?<=[^\s\d.])\.(?=[^\W\d_])")
# Separators with spaces around them between digits ("2024. 11. 26.", Korean short dates).
_SPACED_SEPARATOR_RE = lazy(r"(?<=\d)\s*([./\-])\s+(?=\d)|(?<=\d)\s+([./\-])\s*(?=\d)")
_FIRST_NUMBER_RE = lazy(r"\d+(?:[.,]\d+)?")
# A weekday mark in brackets: "11/26(火)", "2024.11.26 (화)", "26.11. (Di)".
_WEEKDAY_MARK_RE = lazy(r"\s*[(（]\s*([^\W\d_][^\s()（）]{0,11})\s*[)）]\s*")
_MONTH_DAY_RE = lazy(r"^(\d{1,2})\s*[./\-]\s*(\d{1,2})\.?$")
_CJK_MONTH_DAY_RE = lazy(r"^(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]?$")
_ERA_DATE_RE = lazy(
    r"(令和|平成|昭和|大正|明治|民國|民国)\s*(\d{1,3}|元)\s*年"
    r"(?:\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*日)?)?"
)
_ROMAN_ERA_RE = lazy(r"^([RHS])\s?(\d{1,2})[./\-](\d{1,2})[./\-](\d{1,2})$", re.IGNORECASE)
_HEBREW_NUMERAL_RE = lazy(
    r"(?<![\u05d0-\u05ea])[\u05d0-\u05ea]{1,4}[\u05f3\u05f4\"'][\u05d0-\u05ea]?"
)

# Years of the other calendars, as Gregorian years (the Islamic year is about 0.97 of a solar one).
_TO_GREGORIAN = {
    "buddhist": lambda year: year - 543,
    "persian": lambda year: year + 621,
    "islamic": lambda year: round(year * 0.970229 + 621.5643),
    "hebrew": lambda year: year - 3760,
}


def calendars_of(source: str) -> frozenset[str]:
    """The calendars ``source`` may count its years in: by its script (digits included), its
    era marks and its months of other calendars.

    Example:
        >>> sorted(calendars_of("26 พ.ย. 2567")), sorted(calendars_of("۱۴۰۳/۰۹/۰۶"))
        (['buddhist'], ['islamic', 'persian'])
        >>> sorted(calendars_of("2567 B.E.")), sorted(calendars_of("26 Nov 2024"))
        (['buddhist'], [])
    """
    found = {
        calendar
        for low, high, calendar in vocab.CALENDAR_SCRIPTS
        if any(low <= char <= high for char in source)
    }
    words, _ = date_words(_INNER_DOT_RE.sub("", source))
    for word in words:
        calendar = vocab.ERA_MARKERS.get(word) or _calendar_month(word)
        if calendar:
            found.add(calendar)
    return frozenset(found)


def _weak_month(word: str) -> bool:
    """A month abbreviation of fewer than 5 letters that only CLDR's tables hold (not the
    curated ones, nor another calendar's): in another language it is often an ordinary word."""
    word = word.rstrip(".")
    return len(word) < 5 and word not in vocab.CURATED_MONTHS and not _calendar_month(word)


def _calendar_month(word: str) -> str | None:
    """The calendar of a month name of another calendar, Hebrew ב-/ל- prefixes allowed."""
    calendar = vocab.CALENDAR_MONTHS.get(word)
    if calendar is None and len(word) > 2 and word[0] in "בל":
        calendar = vocab.CALENDAR_MONTHS.get(word[1:])
    return calendar


def _calendar_year_ok(year: int, source: str | None) -> bool:
    """``year`` is in 1900-2100, or in another calendar ``source`` points to and converts there."""
    if year_ok(year):
        return True
    if source is None:
        return False
    return any(year_ok(_TO_GREGORIAN[name](year)) for name in calendars_of(source))


_YEAR_MIN, _YEAR_MAX = 1900, 2100
EPOCH_SECONDS = (631_152_000, 4_102_444_800)  # 1990-01-01 .. 2100-01-01


def year_ok(year: int) -> bool:
    """Whether ``year`` is in the years a scraped date may name (1900-2100)."""
    return _YEAR_MIN <= year <= _YEAR_MAX


def _ymd(year: int, month: int, day: int, source: str | None = None) -> str:
    if not year_ok(year):
        if _calendar_year_ok(year, source):  # months of other calendars: 12 (13 in Hebrew)
            return "" if 1 <= month <= 13 and 1 <= day <= 31 else "not a date"
        return "out of range"
    try:
        date(year, month, day)
    except ValueError:
        return "not a date"
    return ""


def _numeric_date(a: str, b: str, c: str, source: str | None = None) -> str:
    if len(a) == 4:
        return _ymd(int(a), int(b), int(c), source)
    if len(a) == 3 and 1 <= int(a) <= 200:  # a ROC year (Taiwan): 113/11/26 is 2024-11-26
        return _ymd(int(a) + 1911, int(b), int(c))
    if len(c) not in (2, 4) or len(a) > 2:
        return "not a date"
    year = int(c) if len(c) == 4 else 2000 + int(c) if int(c) < 70 else 1900 + int(c)
    first, second = int(a), int(b)
    if not _ymd(year, second, first, source) or not _ymd(year, first, second, source):
        return ""
    return "out of range" if not _calendar_year_ok(year, source) else "not a date"


def _month_day(first: int, second: int) -> bool:
    """A day and month in either order (a short date has no year to check against)."""
    return (1 <= first <= 12 and 1 <= second <= 31) or (1 <= second <= 12 and 1 <= first <= 31)


def _is_weekday(word: str) -> bool:
    word = word.lower().rstrip(".")
    return word in vocab.WEEKDAY_MARKS or word in vocab.WEEKDAYS


def _era_date(text: str) -> str | None:
    """A Japanese-era or ROC date ("令和6年11月26日", "民國113年", "R6.11.26"), or None."""
    match = _ERA_DATE_RE.search(text)
    if match:
        era, year, month, day = match.groups()
        number = 1 if year == "元" else int(year)
        gregorian = vocab.JAPANESE_ERAS[era] + number
        return _ymd(gregorian, int(month or 1), int(day or 1))
    match = _ROMAN_ERA_RE.match(text)
    if match:
        era, year, month, day = match.groups()
        return _ymd(vocab.JAPANESE_ERAS[era.lower()] + int(year), int(month), int(day))
    return None


def _calendar_words(words: list[str], numbers: list[str], text: str) -> tuple[list[str], list[str]]:
    """Words of another calendar's date read as the Gregorian rules read theirs: its months as
    months, the second words of two-word month names and era marks as fillers, Hebrew
    letter-numerals ("כ״ד", "תשפ״ה") as numbers."""
    if not any(_calendar_month(word) for word in words):
        return words, numbers
    hebrew = _HEBREW_NUMERAL_RE.findall(text)
    if hebrew:
        words, _ = date_words(_HEBREW_NUMERAL_RE.sub(" ", text))
        numbers = numbers + ["1"] * len(hebrew)
    kept = [
        word
        for word in words
        if word not in vocab.CALENDAR_FILLERS and word not in vocab.ERA_MARKERS
    ]
    return kept, numbers


def date_words(text: str) -> tuple[list[str], list[str]]:
    """The lower-cased words and the digit runs of ``text``, apart."""
    words, numbers = [], []
    for token in _DATE_TOKEN_RE.findall(text.lower()):
        (numbers if token.isdecimal() else words).append(token)
    return words, numbers


def _relative(words: list[str], numbers: list[str], low: str) -> bool:
    if low in vocab.RELATIVE_DAYS or low.rstrip(".") in vocab.RELATIVE_DAYS:
        return True
    if low in vocab.RELATIVE_WHOLE:  # CLDR / dateparser: "eilen", "tegnap", "어제"
        return True
    if numbers and len(numbers) == 1:  # "3 päivää sitten", "לפני 3 ימים": CLDR's patterns
        pattern = " ".join(_FIRST_NUMBER_RE.sub("{0}", low, count=1).split())
        if pattern in vocab.RELATIVE_PATTERNS:
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


def date_reason(text: str, source: str | None = None) -> str:
    """The reason a stripped, junk-free text is no usable date, or ``""``.

    Dates are absolute (ISO 8601, numeric day-month orders, month names, CJK 年月日, epoch
    seconds, a year), relative ("2 days ago", "hôm qua", "3天前") or a time of day, alone or
    opening a short text whose tail holds no number ("3 days ago · Easy Apply").

    ``source`` is the text as written when ``text`` has had its digits made ASCII: the
    digits' script can say which calendar the year counts in.

    Example:
        >>> date_reason("Há 1 semana"), date_reason("13 Déc 2019"), date_reason("3天前发布")
        ('', '', '')
        >>> date_reason("31/02/2024"), date_reason("9999-12-31"), date_reason("Hello world")
        ('not a date', 'out of range', 'not a date')
        >>> date_reason("26 พ.ย. 2567"), date_reason("令和6年11月26日"), date_reason("11/26(火)")
        ('', '', '')
    """
    source = text if source is None else source
    reason = _date_core(text, source)
    if reason == "not a date":
        mark = _WEEKDAY_MARK_RE.search(text)
        if mark and _is_weekday(mark.group(1)):
            rest = (text[: mark.start()] + " " + text[mark.end() :]).strip()
            if rest and _short_date(rest, source):
                return ""
        if _leading_date(text):
            return ""
        if not source.isascii() and _native_month_date(text, source):
            return ""
        if text[:1] in _UNTIL_MARKS and len(text) > 1:  # "~ 11/14(금)": open until that day
            return date_reason(text[1:].strip(), source[1:].strip())
    return reason


_UNTIL_MARKS = frozenset("~〜～")
"""Marks before a date that say "until" (a closing date): the tilde and its wave forms."""

# A year, a month word and a day, either way round, one separator between them.
_WORD_MONTH_DATE_RE = lazy(
    r"^(?:(\d{4})([-/. ])\s*([^\W\d_][^\s\d./-]*)\s*\2(\d{1,2})"
    r"|(\d{1,2})([-/. ])\s*([^\W\d_][^\s\d./-]*)\s*\6(\d{4}))$"
)
_MAX_MONTH_DAYS = 32
"""The longest month of the calendars in use (Bikram Sambat months run to 32 days)."""


def _script(char: str) -> str:
    """The script a character's Unicode name opens with ("DEVANAGARI", "BENGALI"), or ""."""
    return unicodedata.name(char, "").split(" ", 1)[0]


def _native_month_date(text: str, source: str) -> bool:
    """A date written in the digits of a numbering system other than Latin with a month word
    of the same script ("२०७८-जेठ-१०", "१० जेठ २०७८"): the local calendar's month (Bikram
    Sambat, Bengali, Tamil ...), whose names CLDR does not hold but whose script the digits
    name. The year must be a date's year, in 1900-2100 or a calendar the text points to."""
    match = _WORD_MONTH_DATE_RE.match(text)
    if match is None:
        return False
    if match.group(1):
        year, word, day = match.group(1), match.group(3), match.group(4)
    else:
        day, word, year = match.group(5), match.group(7), match.group(8)
    digits = {_script(char) for char in source if char.isdecimal()}
    script = digits.pop() if len(digits) == 1 else ""
    if script in ("", "DIGIT"):  # Latin digits ("DIGIT ONE"), or several scripts
        return False
    letters = {_script(char) for char in word if not unicodedata.category(char).startswith("M")}
    if letters != {script}:
        return False
    return 1 <= int(day) <= _MAX_MONTH_DAYS and _calendar_year_ok(int(year), source)


def _short_date(text: str, source: str) -> bool:
    """A date once its weekday mark is taken off: a full date, or a day and month alone
    ("11/26", "26.11.", "11月26日"), perhaps followed by a time ("11.26 19:00")."""
    time = _TIME_RE.search(text)
    if time and time.end() == len(text) and time.start() > 0:
        text = text[: time.start()].strip()
    match = _MONTH_DAY_RE.match(text) or _CJK_MONTH_DAY_RE.match(text)
    if match:
        return _month_day(int(match.group(1)), int(match.group(2)))
    return _date_core(text, source) == ""


def _date_core(text: str, source: str | None = None) -> str:
    if text[0] == "(" and text[-1] == ")":  # "(1994)", "(12 March 2024)"
        text = text[1:-1].strip()
        if not text:
            return "not a date"
    if " " in text and any(char in text for char in "./-"):
        text = _SPACED_SEPARATOR_RE.sub(lambda m: m.group(1) or m.group(2), text)
    low = text.lower()
    if low in vocab.NOT_DATE_TEXTS:
        return "not a date"
    match = _ISO_RE.match(text)
    if match:
        year, month, day = match.group(1), match.group(2), match.group(3)
        return _ymd(int(year), int(month), int(day or 1), source)
    if text.isdecimal():
        if len(text) > 13:
            return "not a date"
        if len(text) == 4:
            return "" if _calendar_year_ok(int(text), source) else "out of range"
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
    if text[0] > "\u3000" or text[0] in "RHSrhs":
        era = _era_date(text)
        if era is not None:
            return era
    match = _CJK_MONTH_DAY_RE.match(text)
    if match:
        return "" if _month_day(int(match.group(1)), int(match.group(2))) else "not a date"
    if "." in text:
        text = _INNER_DOT_RE.sub("", text)
        low = text.lower()
    words, numbers = date_words(text)
    if not text.isascii():
        words, numbers = _calendar_words(words, numbers, text)
    if len(words) > 10:
        return "not a date"
    match = _NUMERIC_DATE_RE.search(text)
    if match and len(words) <= 4:
        return _numeric_date(match.group(1), match.group(3), match.group(4), source)
    months = [word for word in words if word in vocab.MONTHS or word.rstrip(".") in vocab.MONTHS]
    if not months and not text.isascii():
        months = [word for word in words if _calendar_month(word)]
    if months or _VI_MONTH_RE.search(text):
        rest = _TZ_RE.sub(" ", _TIME_RE.sub(" ", low))
        _, numbers = date_words(rest)
        for number in numbers:
            if len(number) == 4 and not _calendar_year_ok(int(number), source or text):
                return "out of range"
            if len(number) > 2 and len(number) != 4:
                return "not a date"
        others = [
            word
            for word in words
            if word not in vocab.MONTHS
            and word.rstrip(".") not in vocab.MONTHS
            and not _calendar_month(word)
            and word not in vocab.WEEKDAYS
            and word not in vocab.DATE_CONNECTORS
            and word not in vocab.DATE_FILLERS
            and word not in vocab.ERA_MARKERS
        ]
        if months and all(_weak_month(word) for word in months):
            # Only a short CLDR abbreviation ("pro", "led", "lis"): a whole date or nothing,
            # so that "MacBook Pro (2)" or "Led lamp 3" stay names.
            return "" if not others and len(numbers) >= 2 else "not a date"
        return "" if len(others) <= 5 else "not a date"
    era_year = len(numbers) == 1 and len(numbers[0]) == 4 and bool(words)
    if era_year and all(word in vocab.ERA_MARKERS for word in words):  # "2567 พ.ศ.", "1446 AH"
        return "" if _calendar_year_ok(int(numbers[0]), source or text) else "out of range"
    if _relative(words, numbers, low):
        return ""
    match = _CJK_RELATIVE_RE.fullmatch(text)
    return "" if match else "not a date"
