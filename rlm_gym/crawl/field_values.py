# ruff: noqa: RUF001 - multilingual word tables and mojibake patterns are the point
"""Value rules of the crawl field checks: is this value a usable price, rating, count, date,
email, phone, url or text, and if not, why not.

:func:`check_value` returns ``""`` for a valid value, else a short reason from
:data:`REASONS`; :func:`value_kind` says what a value looks like on its own (a *bare* rating,
count, price or date). Strings are judged once and cached; numbers take a fast path. The rules
are SPEC §5 "Field checks" and the real-data labelling rules; the word tables are in
:mod:`rlm_gym.crawl.field_vocab`.

Example:
    >>> check_value("price", "US $12.99"), check_value("price", "Â£51.77")
    ('', 'mis-encoded text')
    >>> check_value("rating", "4.5 out of 5 stars"), check_value("rating", "45")
    ('', 'out of range')
    >>> value_kind("197 đánh giá"), value_kind("Nguyễn Văn A")
    ('count', None)
"""

from __future__ import annotations

import math
import re
from datetime import date
from functools import lru_cache
from typing import Any

from rlm_gym.crawl import field_vocab as vocab

__all__ = [
    "FIELD_TYPES",
    "REASONS",
    "check_value",
    "value_kind",
    "parse_number",
    "text_junk",
]

FIELD_TYPES = ("price", "rating", "count", "date", "email", "phone", "url", "text")
"""The field types of SPEC §5, in the order the name rules try them."""

REASONS: dict[str, str] = {
    "empty": "None, an empty or blank string, an empty list or dict",
    "placeholder": "a stand-in for missing data: N/A, null, none, unknown, -, NaN, Non renseigné…",
    "too short": "text of one character",
    "markup residue": "HTML tags or entities left in the value",
    "code residue": "template, script, style or program text ({{…}}, function(){, <built-in …>)",
    "stringified container": "a list or dict written as a string: \"['a', 'b']\"",
    "error page text": "an error, anti-bot or loading page: Access Denied, 404 Not Found, Loading…",
    "mis-encoded text": "mojibake: Â£, Ã©, C1 controls, U+FFFD, '?' for lost letters",
    "truncated": "text cut off right after an opening quotation mark («, », „) it never closes",
    "not a price": "no positive amount, or too much text around it",
    "zero amount": "a price of 0 that is not stated as free",
    "not a rating": "no score on a known scale",
    "not a count": "no number, or a sentence, date, price or notice holding digits",
    "not a date": "no parseable absolute or relative date",
    "not an email": "not an address of the form name@domain.tld",
    "not a phone": "not 7-15 digits with the usual punctuation",
    "not a url": "neither an absolute http(s) URL nor a site-relative /path",
    "negative": "a negative amount or count",
    "out of range": "a number outside its scale (rating > 5 with no scale, year outside 1900-2100)",
    "not a number": "a boolean or another non-numeric value where a number is needed",
}
"""Every reason :func:`check_value` can return, with what it means (the keys are stable)."""


class _LazyPattern:
    """A regular expression compiled on first use: the module's patterns cost ~20 ms to
    compile, which `import rlm_gym` should not pay (its budget is 0.5 s)."""

    _METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "split")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        compiled = re.compile(*self._args)
        for method in self._METHODS:  # later calls find plain attributes, no __getattr__
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


def _lazy(pattern: str, flags: int = 0) -> _LazyPattern:
    return _LazyPattern(pattern, flags)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_MAX_DEPTH = 6  # nested containers deeper than this are not looked into
_MAX_ELEMENTS = 64  # elements of a list / dict checked (the first ones)
_MAX_SCAN = 20_000  # characters of a long text scanned for junk
_CACHE_LIMIT = 600  # strings longer than this are judged uncached

# --------------------------------------------------------------------------------------------
# numbers
# --------------------------------------------------------------------------------------------
# A written number: grouped thousands (1,299 / 1.299.000 / 2 000 000 / 1,09,900) with an
# optional decimal part, or plain digits with an optional decimal part.
_NUMBER = r"\d{1,3}(?:[ ,.'\u00a0\u202f\u2009]\d{2,3})*(?:[.,]\d+)?(?!\d)|\d+(?:[.,]\d+)?"
_NUMBER_RE = _lazy(_NUMBER)
_SPACES_RE = _lazy(r"[ '\u00a0\u202f\u2009]")


def parse_number(text: str) -> float | None:
    """The value of one written number in either decimal convention, or None.

    A single separator before exactly three digits is a thousands separator ("1.299", "2,920"),
    except after a lone 0 ("0.125"); repeated separators always are ("1.299.000", "1,09,900").

    Example:
        >>> parse_number("1.299,99"), parse_number("1,299.99"), parse_number("2 000 000")
        (1299.99, 1299.99, 2000000.0)
        >>> parse_number("4,7"), parse_number("1,09,900"), parse_number("12a")
        (4.7, 109900.0, None)
    """
    text = _SPACES_RE.sub("", text.strip())
    if not text or not text[0].isdecimal() or not text[-1].isdecimal():
        return None
    if text.isdecimal():
        return float(text)
    last_dot, last_comma = text.rfind("."), text.rfind(",")
    if last_dot >= 0 and last_comma >= 0:
        decimal = "." if last_dot > last_comma else ","
        thousands = "," if decimal == "." else "."
        integer, fraction = text.rsplit(decimal, 1)
        integer = integer.replace(thousands, "")
    else:
        sep = "." if last_dot >= 0 else ","
        head, tail = text.rsplit(sep, 1)
        if text.count(sep) > 1 or (len(tail) == 3 and head != "0"):
            integer, fraction = text.replace(sep, ""), ""
        else:
            integer, fraction = head, tail
    if not integer.isdecimal() or (fraction and not fraction.isdecimal()):
        return None
    try:
        return float(f"{integer}.{fraction or '0'}")
    except (OverflowError, ValueError):
        return None


def _finite(value: Any) -> float | None:
    """``value`` as a finite float when it is an int or float (not a bool), else None."""
    kind = type(value)
    if kind is bool or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf
    return number


# --------------------------------------------------------------------------------------------
# junk common to all types
# --------------------------------------------------------------------------------------------
_TAGS = "|".join(sorted(vocab.HTML_TAGS, key=len, reverse=True))
_MARKUP_RE = _lazy(
    rf"</?(?:{_TAGS})(?:\s[^<>]*)?/?>|<!--|-->|<!doctype|<!\[cdata\[|"
    r"&(?:nbsp|amp|lt|gt|quot|apos|laquo|raquo|ndash|mdash|hellip|rsquo|lsquo|rdquo|ldquo|"
    r"eacute|egrave|agrave|ccedil|copy|reg|trade|euro|pound|#\d{2,6}|#x[0-9a-f]{2,5});|"
    # an entity cut off at the end of the value ("… Donnersmarck &n" of "&nbsp;")
    r"(?<=\s)&(?:n(?:b(?:sp?)?)?|amp?|qu(?:ot?)?|#x?[0-9a-f]{0,5})$",
    re.IGNORECASE,
)
# Code residue, as (substrings that must occur, pattern): the cheap substring test gates the
# pattern, so a long article body costs a few C-level scans instead of one slow alternation.
_CODE_RULES: tuple[tuple[tuple[str, ...], _LazyPattern], ...] = tuple(
    (triggers, _lazy(pattern, re.DOTALL))
    for triggers, pattern in (
        (("{{", "{%", "${"), r"\{\{.*?\}\}|\{%.*?%\}|\$\{[^}]*\}"),
        (("[object ",), r"\[object \w+\]"),
        (("function",), r"\bfunction\s*[\w$]*\s*\([^)]{0,80}\)\s*\{"),
        (("=>",), r"=>\s*\{"),
        (
            ("<built-in", "<bound method", "<function ", " at 0x"),
            r"<built-in (?:method|function)|<bound method|<function [\w.<>]+ at 0x|"
            r"\bobject at 0x[0-9a-f]+>",
        ),
        (
            ("document.", "window.", "googletag.", "datalayer.push"),
            r"\bdocument\.(?:cookie|write|getelementby|queryselector|createelement)|"
            r"\bwindow\.(?:location|datalayer|open|onload|addeventlistener|__)|googletag\.|"
            r"datalayer\.push",
        ),
        (("var ", "const ", "let "), r"\bvar\s+[\w$]+\s*=|\b(?:const|let)\s+[\w$]+\s*=\s*"),
        (("{",), r"\{\s*[\w-]+\s*:\s*[^;{}]{1,60};"),
        (("}",), r"\}\s*\)\s*;"),
        (("@media", "@font-face", "@import"), r"@media\s|@font-face|@import\s"),
        (
            ("traceback (most recent", "undefined is not", "$(document)", "jquery("),
            r"traceback \(most recent call last\)|\bundefined is not\b|\$\(document\)|jquery\(",
        ),
    )
)


def _code_residue(low: str) -> bool:
    """Whether lower-cased text holds template, script, style or program text."""
    return any(
        any(trigger in low for trigger in triggers) and pattern.search(low)
        for triggers, pattern in _CODE_RULES
    )


# Windows-1252 / Latin-1 renderings of UTF-8 continuation bytes.
_CONT = "\x80-\xbf€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ"
_CONT_NO_NBSP = _CONT.replace(
    "\x80-\xbf", "\x80-\x9f\xa1-\xbf"
)  # "é\xa0»" is French typography, not mojibake
_MOJIBAKE_RE = _lazy(
    rf"[ÂÃ][{_CONT}]|â[€\x80][{_CONT}]?|[ÐÑØÙ][{_CONT}]|[à-ï][{_CONT_NO_NBSP}][{_CONT}]|"
    r"ï»¿|[\x80-\x9f]|\ufffd"
)
# Every mojibake alternative starts with one of these characters: scan for them (one charset,
# fast) and try the full pattern only where they stand.
_MOJIBAKE_GATE_RE = _lazy("[ÂÃÐÑØÙà-ï\x80-\x9f\ufffd]")


def _mojibake(text: str) -> bool:
    match = _MOJIBAKE_RE.match
    return any(match(text, hit.start()) for hit in _MOJIBAKE_GATE_RE.finditer(text))


# '?' standing for lost non-ASCII letters (a cp1252 save with replacement): runs of '?' as
# words, '?' inside a word, or a leading '?' glued to the value ("? 1,199", "?3C"). Not looked
# for in URLs, whose '?' starts the query.
_LOST_LETTERS_RE = _lazy(
    r"(?:^|\s)\?{2,}(?=\s|$|[,.;:])|(?<=[^\W\d_])\?(?=[^\W\d_A-Z])|^\?\s*\d|^\?(?=[^\s?])"
)


def _lost_letters(text: str) -> bool:
    # The pattern, tried only at each '?' (and one before it, for the run rule's space).
    match = _LOST_LETTERS_RE.match
    index = text.find("?")
    while index >= 0:
        if match(text, max(0, index - 1)) or match(text, index):
            return True
        index = text.find("?", index + 1)
    return False


_CONTAINER_RE = _lazy(
    r"^\[\s*\]$|^\[.*(?:['\",]|https?:).*\]$|^\{\s*\}$|^\{\s*['\"]?[\w@$ -]+['\"]?\s*:.*\}$|"
    r"^\(\s*['\"].*,.*\)$|^(?:dict_(?:keys|values|items)|ordereddict|set|frozenset)\(",
    re.DOTALL | re.IGNORECASE,
)
_ERROR_PREFIXES = tuple(vocab.ERROR_PHRASES)
_ERROR_TEXTS = vocab.ERROR_TEXTS


_PLACEHOLDER_PREFIXES = tuple(
    sorted(vocab.PLACEHOLDER_PREFIXES, key=len, reverse=True)
)  # longest first: "pas de" before "pas", "không có" before "không"
_PLACEHOLDER_SUFFIXES = tuple(sorted(vocab.PLACEHOLDER_SUFFIXES, key=len, reverse=True))
_PLACEHOLDER_GATE = (
    frozenset(word.split()[0][:1] for word in vocab.PLACEHOLDER_PREFIXES)
    | {word[-1:] for word in vocab.PLACEHOLDER_SUFFIXES + vocab.CJK_PLACEHOLDER_SUFFIXES}
    | {word[:1] for word in vocab.CJK_PLACEHOLDER_PREFIXES}
)
_CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_WORD_RE = _lazy(f"^[{_CJK_CHARS}]{{1,4}}$")


def _is_data_noun(words: str) -> bool:
    words = words.strip(" .:!")
    if words in vocab.PLACEHOLDER_NOUNS:
        return True
    head, _, tail = words.rpartition(" ")  # "no image available", "no reviews yet"
    return bool(head) and tail in vocab.PLACEHOLDER_TAILS and head in vocab.PLACEHOLDER_NOUNS


def _placeholder_phrase(low: str) -> bool:
    """Whether a short lower-cased text says the value is missing in other words: a negated
    noun of scraped data ("No description", "sin datos", "暂无图片", "bilgi yok", "Image not
    available") or a CJK "no X yet" / "X unknown" form ("暂无数据", "未知结构", "地址不详")."""
    low = low.strip(" .!()[]")
    if not low or (low[0] not in _PLACEHOLDER_GATE and low[-1] not in _PLACEHOLDER_GATE):
        return False
    if low in vocab.PLACEHOLDERS:
        return True
    for prefix in _PLACEHOLDER_PREFIXES:
        if low.startswith(prefix):
            rest = low[len(prefix) :]
            bounded = rest[:1].isspace() or prefix[-1] in "'’" or not prefix.isascii()
            if bounded and _is_data_noun(rest):
                return True
    for suffix in _PLACEHOLDER_SUFFIXES:
        if low.endswith(suffix) and len(low) > len(suffix) and _is_data_noun(low[: -len(suffix)]):
            return True
    for prefix in vocab.CJK_PLACEHOLDER_PREFIXES:
        if low.startswith(prefix) and _CJK_WORD_RE.match(low[len(prefix) :]):
            return True
    for suffix in vocab.CJK_PLACEHOLDER_SUFFIXES:
        if low.endswith(suffix) and _CJK_WORD_RE.match(low[: -len(suffix)].rstrip()):
            return True
    return False


def text_junk(text: str) -> str:
    """The junk reason of a stripped, non-empty string, or ``""`` (checks every type shares).

    Example:
        >>> text_junk("<span>Price</span>"), text_junk("{{product.name}}"), text_junk("Ã©t")
        ('markup residue', 'code residue', 'mis-encoded text')
        >>> text_junk("['a', 'b']"), text_junk("Access Denied"), text_junk("Café Olé")
        ('stringified container', 'error page text', '')
    """
    low = text.lower()
    if low in vocab.PLACEHOLDERS or (len(low) <= 40 and _placeholder_phrase(low)):
        return "placeholder"
    scan = text if len(text) <= _MAX_SCAN else text[:_MAX_SCAN]
    if _CONTAINER_RE.search(scan[:2000] if len(scan) > 2000 else scan):
        return "stringified container"
    if ("<" in scan or "&" in scan) and _MARKUP_RE.search(scan):
        return "markup residue"
    if _code_residue(low[:_MAX_SCAN]):
        return "code residue"
    if _mojibake(scan):
        return "mis-encoded text"
    if "?" in scan and "://" not in scan and scan[0] != "/" and _lost_letters(scan):
        return "mis-encoded text"
    if len(low) <= 120 and (
        low.startswith(_ERROR_PREFIXES) or low.rstrip(" .…!") in _ERROR_TEXTS or low in _ERROR_TEXTS
    ):
        return "error page text"
    if (
        not any(char.isalnum() for char in text)
        and all(ord(char) < 0x2000 for char in text)
        and not _PRICE_LEVEL_RE.match(text)
    ):
        return "placeholder"
    return ""


# --------------------------------------------------------------------------------------------
# words of a value
# --------------------------------------------------------------------------------------------
_WORD_RE = _lazy(r"[^\W\d_]+(?:[.'’$][^\W\d_]*)?|[^\w\s]")
_STRIP_PUNCT = "()[]{}:;,|*~≈+!?\"'«»“”‘’•·–—-/\\."


def _leftover_words(text: str) -> list[str]:
    """The lower-cased words and symbols of ``text`` once its numbers are removed."""
    rest = _NUMBER_RE.sub(" ", text.lower())
    out = []
    for chunk in rest.split():
        if chunk in vocab.CURRENCY_WORDS or chunk in vocab.PRICE_QUALIFIERS:
            out.append(chunk)
            continue
        stripped = chunk.strip(_STRIP_PUNCT)
        if stripped:
            out.append(stripped)
        elif any(char in vocab.CURRENCY_SYMBOLS for char in chunk):
            out.append(chunk)
    return out


def _is_currency(word: str) -> bool:
    if word in vocab.CURRENCY_WORDS or word in vocab.CURRENCY_CODES:
        return True
    if word.rstrip(".") in vocab.CURRENCY_WORDS:
        return True
    # Symbols glued to letters or to each other ("us$", "$$", "r$", "€/mo" split earlier).
    letters = word.strip("".join(vocab.CURRENCY_SYMBOLS))
    return letters != word and (not letters or letters in vocab.CURRENCY_WORDS)


def _amounts(text: str) -> list[tuple[float, int]]:
    """The numbers of ``text`` (K/M suffixes applied) with their end offsets."""
    out = []
    low = text.lower()
    for match in _NUMBER_RE.finditer(text):
        number = parse_number(match.group())
        if number is None:
            continue
        end = match.end()
        tail = low[end : end + 8].lstrip(" ")
        for suffix in _SUFFIX_ORDER:
            if tail.startswith(suffix) and not tail[len(suffix) : len(suffix) + 1].isalpha():
                number *= vocab.NUMBER_SUFFIXES[suffix]
                break
        out.append((number, end))
    return out


_SUFFIX_ORDER = tuple(sorted(vocab.NUMBER_SUFFIXES, key=len, reverse=True))
_NEGATIVE_RE = _lazy(
    r"^[^\w\d]{0,3}[-−‑]\s*[^\W\d_]{0,3}\s*[^\w\s]?\s*\d|^\(\s*[^\w\s]?\s*\d[^)]*\)$"
)


# --------------------------------------------------------------------------------------------
# price
# --------------------------------------------------------------------------------------------
_PRICE_LEVEL_RE = _lazy(r"^([$€£¥₹₩₽₦₫৳₺])\1{1,3}$")  # "$$" .. "$$$$"; a lone "$" is no level


def _price_text(text: str) -> str:
    low = text.lower()
    if _PRICE_LEVEL_RE.match(text):
        return ""
    words = _leftover_words(text)
    amounts = _amounts(text)
    if not amounts:
        return "" if words and any(word in vocab.FREE_WORDS for word in words) else "not a price"
    if _NEGATIVE_RE.match(text) and not low.startswith("("):
        return "negative"
    unknown = [
        word
        for word in words
        if not _is_currency(word)
        and word not in vocab.PRICE_QUALIFIERS
        and word not in vocab.FREE_WORDS
        and word not in vocab.NUMBER_SUFFIXES
    ]
    if len(unknown) > 2 or len(amounts) > 4 or len(text) > 80:
        return "not a price"
    if any(number <= 0 for number, _ in amounts):
        return "zero amount"
    return ""


# --------------------------------------------------------------------------------------------
# rating
# --------------------------------------------------------------------------------------------
_SCORE = r"(\d{1,3}(?:[.,]\d{1,2})?)"
_SCALE_WORDS = "|".join(
    re.escape(word).replace(r"\ ", r"\s+")
    for word in sorted(vocab.SCALE_WORDS, key=len, reverse=True)
)
_UNITS = "|".join(re.escape(word) for word in sorted(vocab.RATING_UNITS, key=len, reverse=True))
_PREFIX = r"(?:[^\W\d_]+\s*[:.]?\s+){0,2}"
_SUFFIX = r"(?:\s+(?:rating|ratings|average|avg|overall|note|bewertung))?"
_SCALED_RE = _lazy(
    rf"^{_PREFIX}{_SCORE}\s*(?:{_SCALE_WORDS})\s*(\d{{1,3}})(?:[.,]0{{1,2}})?"
    rf"(?:\s*(?:{_UNITS})\.?)?{_SUFFIX}(?:\s*\(\s*[\d.,\s]+[^\W\d_]*\s*\))?$",
    re.IGNORECASE,
)
_UNIT_RE = _lazy(
    rf"^{_PREFIX}{_SCORE}\s*(?:{_UNITS}|[★⭐☆])+\.?{_SUFFIX}"
    r"(?:\s*\(\s*[\d.,\s]+[^\W\d_]*\s*\))?$",
    re.IGNORECASE,
)
_PERCENT_RE = _lazy(rf"^{_PREFIX}(\d{{1,3}}(?:[.,]\d{{1,2}})?)\s*%$")
_BARE_SCORE_RE = _lazy(rf"^{_PREFIX}{_SCORE}(?:\s*\(\s*[\d.,\s]+[^\W\d_]*\s*\))?$")
_STAR_WORD_RE = _lazy(
    rf"^(?:star[- ]rating\s+)?({'|'.join(vocab.STAR_WORDS)})(?:\s+(?:{_UNITS}))?$",
    re.IGNORECASE,
)


def _score(text: str) -> float:
    return float(text.replace(",", "."))


def _rating_text(text: str) -> str:
    if all(char in vocab.STAR_GLYPHS or char.isspace() for char in text):
        return ""
    if _STAR_WORD_RE.match(text):
        return ""
    match = _SCALED_RE.match(text)
    if match:
        score, scale = _score(match.group(1)), int(match.group(2))
        if not 3 <= scale <= 100:
            return "not a rating"
        return "" if 0 <= score <= scale else "out of range"
    match = _PERCENT_RE.match(text)
    if match:
        return "" if 0 <= _score(match.group(1)) <= 100 else "out of range"
    match = _UNIT_RE.match(text) or _BARE_SCORE_RE.match(text)
    if match:
        return "" if 0 <= _score(match.group(1)) <= 5 else "out of range"
    if _NEGATIVE_RE.match(text):
        return "out of range"
    return "not a rating"


# --------------------------------------------------------------------------------------------
# count
# --------------------------------------------------------------------------------------------
_NOT_COUNT_RE = _lazy(
    r"©|®|™|copyright|all rights reserved|https?://|www\.|\.(?:com|org|net)\b|@|"
    r"\b(?:19|20)\d\d\s*[-–]\s*(?:19|20)\d\d\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}:\d{2}\b|"
    r"\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b|"
    # ordinals are positions, not counts ("Planta 2ª", "3rd floor", "1er étage")
    r"\d\s*[ªº°]|\b\d+(?:st|nd|rd|th|er|e|ème|eme)\b",
    re.IGNORECASE,
)
_ISO_DURATION_RE = _lazy(r"^P(?:\d+[YMWD])*(?:T(?:\d+(?:\.\d+)?[HMS])+)?$", re.IGNORECASE)


def _count_text(text: str) -> str:
    if _ISO_DURATION_RE.match(text) and len(text) > 1:
        return ""
    amounts = _amounts(text)
    if not amounts:
        return "not a count"
    if _NEGATIVE_RE.match(text) and not text.startswith("("):
        return "negative"
    if _NOT_COUNT_RE.search(text) or any(char in vocab.CURRENCY_SYMBOLS for char in text):
        return "not a count"
    words = [word for word in _leftover_words(text) if word.isalpha()]
    if len(words) > 8 or len(text) > 80 or len(amounts) > 4:
        return "not a count"
    return ""


# --------------------------------------------------------------------------------------------
# date
# --------------------------------------------------------------------------------------------
_ISO_RE = _lazy(
    r"^(\d{4})-(\d{1,2})(?:-(\d{1,2}))?(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?"
    r"\s*(?:z|utc|gmt|[+-]\d{2}(?::?\d{2})?)?$",
    re.IGNORECASE,
)
_NUMERIC_DATE_RE = _lazy(r"(?<!\d)(\d{1,4})([/.\-])(\d{1,2})\2(\d{2,4})(?!\d)")
_TIME_RE = _lazy(r"\b\d{1,2}[:h]\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?\b", re.IGNORECASE)
_TIME_ONLY_RE = _lazy(r"^\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?$", re.IGNORECASE)
_TZ_RE = _lazy(r"(?:gmt|utc)?\s*[+-]\d{2}:?\d{2}\b", re.IGNORECASE)
_VI_MONTH_RE = _lazy(r"tháng\s*\d{1,2}|thg\s*\d{1,2}", re.IGNORECASE)
_DATE_TOKEN_RE = _lazy(r"[^\W\d_]+|\d+")
_CONNECTORS = _words(
    "on in at the of de du del da do la le el à a um am в во г г. года год y e et и о o"
)
_YEAR_MIN, _YEAR_MAX = 1900, 2100
_EPOCH_S = (631_152_000, 4_102_444_800)  # 1990-01-01 .. 2100-01-01


def _year_ok(year: int) -> bool:
    return _YEAR_MIN <= year <= _YEAR_MAX


def _ymd(year: int, month: int, day: int) -> str:
    if not _year_ok(year):
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
    return "out of range" if not _year_ok(year) else "not a date"


def _date_words(text: str) -> tuple[list[str], list[str]]:
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


_CJK_DATE_RE = _lazy(r"(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(?:(\d{1,2})\s*[日일])?")


# CJK relative dates, written without spaces: "3天前", "10分钟前", "3時間前", "1일 전", "刚刚".
_CJK_NUMERAL = r"(?:\d{1,3}|[一二两兩三四五六七八九十半几幾数數]{1,3})"
_CJK_RELATIVE_RE = _lazy(
    rf"{_CJK_NUMERAL}\s*(?:秒钟|秒鐘|秒|分钟|分鐘|分|个小时|個小時|小时|小時|時間|天|日|"
    r"周|週間|週|星期|个月|個月|ヶ月|か月|カ月|ケ月|年)\s*(?:以前|前)|"
    rf"{_CJK_NUMERAL}\s*(?:초|분|시간|일|주|주일|개월|달|년)\s*전|"
    r"刚刚|刚才|剛剛|剛才|今天|昨天|前天|今日|昨日|一昨日|おととい|오늘|어제|그저께|방금(?:\s*전)?"
)
# A date or time that opens a short text, and where it ends: at a run of spaces or a
# separator ("16:33  posted on …", "3 days ago · Easy Apply", "12.03.2024 | Berlin").
_LEADING_SPLIT_RE = _lazy(r"^(.{1,40}?)(?:\s{2,}|\s*[|·•‧｜]\s*|\s+[-–—]\s+)(\S.*)$")
_LEADING_TIME_RE = _lazy(r"^(\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?)\s+(\D.*)$", re.I)


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


def _date_text(text: str) -> str:
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
    if low in ("invalid date", "nan-nan-nan", "0000-00-00", "00/00/0000", "date"):
        return "not a date"
    match = _ISO_RE.match(text)
    if match:
        year, month, day = match.group(1), match.group(2), match.group(3)
        return _ymd(int(year), int(month), int(day or 1))
    if text.isdecimal():
        if len(text) > 13:
            return "not a date"
        if len(text) == 4:
            return "" if _year_ok(int(text)) else "out of range"
        if len(text) == 8 and text[:2] in ("19", "20"):  # compact ISO 8601: 20240305
            return _ymd(int(text[:4]), int(text[4:6]), int(text[6:]))
        number = int(text)
        if _EPOCH_S[0] <= number <= _EPOCH_S[1] or _EPOCH_S[0] <= number / 1000 <= _EPOCH_S[1]:
            return ""
        return "not a date"
    if _TIME_ONLY_RE.match(text):
        return ""
    match = _CJK_DATE_RE.search(text)
    if match:
        return _ymd(int(match.group(1)), int(match.group(2)), int(match.group(3) or 1))
    words, numbers = _date_words(text)
    if len(words) > 10:
        return "not a date"
    match = _NUMERIC_DATE_RE.search(text)
    if match and len(words) <= 4:
        return _numeric_date(match.group(1), match.group(3), match.group(4))
    months = [word for word in words if word in vocab.MONTHS or word.rstrip(".") in vocab.MONTHS]
    if months or _VI_MONTH_RE.search(text):
        rest = _TZ_RE.sub(" ", _TIME_RE.sub(" ", low))
        _, numbers = _date_words(rest)
        for number in numbers:
            if len(number) == 4 and not _year_ok(int(number)):
                return "out of range"
            if len(number) > 2 and len(number) != 4:
                return "not a date"
        others = [
            word
            for word in words
            if word not in vocab.MONTHS
            and word.rstrip(".") not in vocab.MONTHS
            and word not in vocab.WEEKDAYS
            and word not in _CONNECTORS
            and word not in ("am", "pm", "h", "uhr", "hrs", "gmt", "utc", "năm", "ngày", "st")
            and word not in ("nd", "rd", "th", "er", "de", "of", "г")
        ]
        return "" if len(others) <= 5 else "not a date"
    if _relative(words, numbers, low):
        return ""
    match = _CJK_RELATIVE_RE.fullmatch(text)
    return "" if match else "not a date"


# --------------------------------------------------------------------------------------------
# email, phone, url
# --------------------------------------------------------------------------------------------
_EMAIL_RE = _lazy(r"^(?:mailto:)?[^@\s<>()\[\],;:\"]+@[^@\s<>()\[\],;:\"]+\.[^\W\d_]{2,}$")
_PHONE_LABEL_RE = _lazy(r"^(?:tel|phone|ph|mob|mobile|cell|fax|t|m|p)\.?\s*[:.]?\s*", re.I)
_PHONE_RE = _lazy(r"^\+?[\d\s().\-/]+(?:\s*(?:ext|x|#)\.?\s*\d{1,6})?$", re.IGNORECASE)
_PHONE_SPLIT_RE = _lazy(r"\s*(?:[,;|]|\s/\s|\bor\b|\bou\b|\boder\b|\bo\b)\s*", re.I)
_URL_RE = _lazy(
    r"^https?://(?:[^\s/@]+@)?(?:[^\s/:?#.]+\.)+[^\s/:?#.]+\.?(?::\d{1,5})?(?:[/?#]\S*)?$|"
    r"^https?://(?:localhost|\[[0-9a-f:]+\])(?::\d{1,5})?(?:[/?#]\S*)?$",
    re.IGNORECASE,
)


def _phone_one(text: str) -> bool:
    text = _PHONE_LABEL_RE.sub("", text.strip())
    if text.lower().startswith("tel:"):
        text = text[4:]
    if not _PHONE_RE.match(text):
        return False
    main = re.split(r"(?:ext|x|#)", text, flags=re.IGNORECASE)[0]
    digits = sum(char.isdecimal() for char in main)
    return 7 <= digits <= 15


def _phone_text(text: str) -> str:
    if _phone_one(text):
        return ""
    parts = [part for part in _PHONE_SPLIT_RE.split(text) if part.strip()]
    if len(parts) > 1 and all(_phone_one(part) for part in parts):
        return ""
    return "not a phone"


def _url_text(text: str) -> str:
    if text.startswith("/") and not text.startswith("//"):
        return "" if not any(char.isspace() for char in text) else "not a url"
    return "" if _URL_RE.match(text) else "not a url"


def _email_text(text: str) -> str:
    return "" if _EMAIL_RE.match(text) else "not an email"


_ONE_CHAR_WORD_RE = _lazy(f"^[{_CJK_CHARS}]$")


# Opening quotation marks and their closers: « » (French), » « (German), „ “ (German, Polish).
_QUOTE_PAIRS = (("«", "»"), ("»", "«"), ("„", "“"))


def _cut_at_quote(text: str) -> bool:
    """Whether ``text`` stops right after an opening quotation mark it never closes, with at
    most a short fragment after it ("… se prépare à « ", "Corona-Kurs der Regierung: »Na"): the
    scraper cut the value at an inline element or a CSV comma."""
    if len(text) < 12:
        return False
    for opener, closer in _QUOTE_PAIRS:
        index = text.rfind(opener)
        if index < 0 or closer in text[index + 1 :]:
            continue
        if text.count(opener) <= text.count(closer) or (index and not text[index - 1].isspace()):
            continue  # a closing mark of the other convention ("»Tempolimit«", "werden«")
        rest = text[index + 1 :].strip()
        if len(rest) <= 3 and " " not in rest:
            return True
    return False


def _text_text(text: str) -> str:
    # One ideograph, kana or hangul syllable is a word (南 "south-facing", 有 "yes"); one
    # letter of an alphabet ("x") or one digit is not.
    if len(text) == 1:
        return "" if _ONE_CHAR_WORD_RE.match(text) else "too short"
    if ("«" in text or "»" in text or "„" in text) and _cut_at_quote(text):
        return "truncated"
    return ""


_STRING_RULES = {
    "price": _price_text,
    "rating": _rating_text,
    "count": _count_text,
    "date": _date_text,
    "email": _email_text,
    "phone": _phone_text,
    "url": _url_text,
    "text": _text_text,
}


def _string_verdict_uncached(field_type: str, value: str) -> str:
    text = value.strip()
    if not text:
        return "empty"
    junk = text_junk(text)
    if junk == "markup residue" and field_type == "url" and "<" not in text:
        junk = ""  # "&amp;" between query parameters: the URL still works as scraped
    if junk:
        return junk
    return _STRING_RULES[field_type](text)


_string_verdict = lru_cache(maxsize=65536)(_string_verdict_uncached)


# --------------------------------------------------------------------------------------------
# numbers, containers, dispatch
# --------------------------------------------------------------------------------------------
def _number_verdict(field_type: str, number: float) -> str:
    if number != number:  # NaN: pandas' missing value
        return "placeholder"
    if field_type == "price":
        if number < 0:
            return "negative"
        if number == 0:
            return "zero amount"
        return "" if number < 1e15 else "out of range"
    if field_type == "rating":
        return "" if 0 <= number <= 5 else "out of range"
    if field_type == "count":
        if number < 0:
            return "negative"
        return "" if number < 1e15 else "out of range"
    if field_type == "date":
        if number.is_integer() and _year_ok(int(number)):
            return ""
        if _EPOCH_S[0] <= number <= _EPOCH_S[1] or _EPOCH_S[0] <= number / 1000 <= _EPOCH_S[1]:
            return ""
        return "not a date"
    if field_type == "phone":
        if number.is_integer() and 0 < number < 1e16:
            return "" if 7 <= len(str(int(number))) <= 15 else "not a phone"
        return "not a phone"
    if field_type == "text":
        return "" if math.isfinite(number) else "out of range"
    return _NOT_A[field_type]


# Closed ranges of valid plain numbers per type: one comparison decides most env values.
_VALID_NUMBERS: dict[str, tuple[float, float]] = {
    "price": (5e-324, 1e15 - 1),
    "rating": (0.0, 5.0),
    "count": (0.0, 1e15 - 1),
    "text": (-1.7e308, 1.7e308),
}

_NOT_A = {
    "price": "not a price",
    "rating": "not a rating",
    "count": "not a count",
    "date": "not a date",
    "email": "not an email",
    "phone": "not a phone",
    "url": "not a url",
    "text": "out of range",
}

_PRICE_KEYS = _words(
    "value amount price amountmin amountmax min max low high lowprice highprice minprice "
    "maxprice minvalue maxvalue from to current sale regular original final total"
)
_SCORE_KEYS = ("ratingvalue", "rating", "value", "score", "average", "avg", "stars")
_SCALE_KEYS = ("bestrating", "scale", "max", "outof", "best")


def _structured_price(value: dict, depth: int) -> str:
    found = False
    for key, element in value.items():
        if str(key).replace("_", "").lower() not in _PRICE_KEYS:
            continue
        if element is None or element == "":
            continue
        reason = _verdict("price", element, depth + 1)
        if reason:
            return reason
        found = True
    return "" if found else "not a price"


def _structured_rating(value: dict, depth: int) -> str | None:
    keys = {str(key).replace("_", "").lower(): element for key, element in value.items()}
    score = next((keys[key] for key in _SCORE_KEYS if key in keys), None)
    if score is None:
        return None
    scale = next((keys[key] for key in _SCALE_KEYS if key in keys), None)
    number = _finite(score)
    if number is None and isinstance(score, str):
        number = parse_number(score.strip())
    if number is None:
        return _verdict("rating", score, depth + 1)
    top = _finite(scale)
    if top is None and isinstance(scale, str):
        top = parse_number(scale.strip())
    top = top if top is not None and 3 <= top <= 100 else 5.0
    return "" if 0 <= number <= top else "out of range"


def _dict_verdict(field_type: str, value: dict, depth: int) -> str:
    if field_type == "price":
        return _structured_price(value, depth)
    if field_type == "rating":
        reason = _structured_rating(value, depth)
        if reason is not None:
            return reason
    typed = field_type == "text"
    seen = False
    for index, (key, element) in enumerate(value.items()):
        if index >= _MAX_ELEMENTS:
            break
        if element is None or (type(element) in (str, list, dict) and not element):
            continue  # an absent optional part of a record
        seen = True
        element_type = field_type
        if typed:
            from rlm_gym.crawl.fields import name_hint, name_type  # the name rules live above

            # A hinted key ("Stars") types a bare rating/count/price/date, not prose.
            element_type = (
                name_type(key)
                or (name_hint(key) if value_kind(element) is not None else None)
                or "text"
            )
        reason = _verdict(element_type, element, depth + 1)
        if reason:
            return reason
    return "" if seen else "empty"


def _verdict(field_type: str, value: Any, depth: int = 0) -> str:
    kind = type(value)
    if kind is str:
        if len(value) <= _CACHE_LIMIT:
            return _string_verdict(field_type, value)
        return _string_verdict_uncached(field_type, value)
    if kind is float or kind is int:
        return _number_verdict(field_type, _finite(value))
    if value is None:
        return "empty"
    if kind is bool:
        return "" if field_type == "text" else "not a number"
    if depth >= _MAX_DEPTH:
        return "" if value else "empty"
    if isinstance(value, dict):
        if not value:
            return "empty"
        return _dict_verdict(field_type, value, depth)
    if isinstance(value, (list, tuple, set, frozenset)):
        if not value:
            return "empty"
        for index, element in enumerate(value):
            if index >= _MAX_ELEMENTS:
                break
            reason = _verdict(field_type, element, depth + 1)
            if reason:
                return reason
        return ""
    if isinstance(value, (bytes, bytearray)):
        try:
            text = bytes(value[:_MAX_SCAN]).decode("utf-8")
        except UnicodeDecodeError:
            return "mis-encoded text"
        return _verdict(field_type, text, depth + 1)
    if isinstance(value, date):  # datetime is a date too
        if field_type not in ("date", "text"):
            return _NOT_A[field_type]
        return "" if _year_ok(value.year) else "out of range"
    if isinstance(value, (int, float)):  # numpy scalars, int / float subclasses
        try:
            return _number_verdict(field_type, float(value))
        except (OverflowError, TypeError, ValueError):
            return "out of range"
    return _verdict(field_type, str(value), depth + 1)


def check_value(field_type: str, value: Any) -> str:
    """``""`` when ``value`` is a valid value of ``field_type``, else a reason from
    :data:`REASONS`. Never raises on JSON-like values.

    Lists and dicts pass when non-empty and every element passes (the first 64 are looked at);
    structured prices (``{"value", "currency"}``, ``{"amountMin", "amountMax"}``) and ratings
    (``{"ratingValue", "bestRating"}``) are read as one amount; in a text field the values of a
    nested record are checked by the type of their own key (a review's ``Date``, ``Stars``).

    Args:
        field_type: One of :data:`FIELD_TYPES`.
        value: The raw value.

    Raises:
        ValueError: When ``field_type`` is not a field type.

    Example:
        >>> [check_value("price", v) for v in ("From $19.99/mo", "Kostenlos", -5, True)]
        ['', '', 'negative', 'not a number']
        >>> [check_value("date", v) for v in ("Há 1 semana", "13 Déc 2019", "45", "9999-01-01")]
        ['', '', 'not a date', 'out of range']
        >>> check_value("text", "N/A"), check_value("text", [{"Stars": "5.0 out of 5 stars"}])
        ('placeholder', '')
    """
    kind = type(value)
    if kind is float or kind is int:  # the fast path: env values and JSON numbers
        bounds = _VALID_NUMBERS.get(field_type)
        if bounds is not None and bounds[0] <= value <= bounds[1]:  # NaN fails both
            return ""
        if field_type not in _STRING_RULES:
            raise ValueError(_unknown_type(field_type))
        return _number_verdict(field_type, _finite(value))
    if field_type not in _STRING_RULES:
        raise ValueError(_unknown_type(field_type))
    if kind is str and len(value) <= _CACHE_LIMIT:
        return _string_verdict(field_type, value)
    try:
        return _verdict(field_type, value)
    except RecursionError:
        return ""


def _unknown_type(field_type: Any) -> str:
    import difflib

    hint = difflib.get_close_matches(str(field_type), FIELD_TYPES, n=1)
    suffix = f" Did you mean {hint[0]!r}?" if hint else ""
    return f"`field_type` must be one of {', '.join(FIELD_TYPES)}, got {field_type!r}.{suffix}"


# --------------------------------------------------------------------------------------------
# what a value looks like on its own
# --------------------------------------------------------------------------------------------
_BARE_INT_RE = _lazy(r"^\d+$")
_BARE_DEC_RE = _lazy(r"^\d+[.,]\d+$")
_COUNT_SHAPE_RE = _lazy(
    r"^\(?\s*\d[\d.,\s\u00a0]*\s*(?:[kmb]|mil|mio|mln|tys\.?|тыс\.?|млн|rb|jt|tsd\.?|万|千)?\+?\s*\)?\+?$",
    re.IGNORECASE,
)


_GLUED_RE = _lazy(r"[^\W\d_]\d")  # a digit inside a word: "B4A", "Galaxy A07"


def _value_kind_text(text: str) -> str | None:
    text = text.strip()
    if not text or len(text) > 80 or text_junk(text):
        return None
    if _BARE_INT_RE.match(text):
        return "count"
    if _BARE_DEC_RE.match(text):
        number = parse_number(text)
        if number is None:
            return None
        return "rating" if number <= 5 else "price"
    if text[0] != "-" and _COUNT_SHAPE_RE.match(text) and _amounts(text):
        return "count"
    if not _rating_text(text) and not _BARE_SCORE_RE.match(text) and not _STAR_WORD_RE.match(text):
        return "rating"
    words = _leftover_words(text)
    alpha = [word for word in words if word.isalpha() or not word.isascii()]
    if any(_is_currency(word) for word in words) and _amounts(text) and not _price_text(text):
        return "price" if len(alpha) <= 2 else None
    if not _date_text(text):
        _, numbers = _date_words(text)
        others = [
            word
            for word in _date_words(text)[0]
            if word not in vocab.MONTHS
            and word.rstrip(".") not in vocab.MONTHS
            and word not in vocab.WEEKDAYS
            and word not in vocab.TIME_UNITS
            and word not in vocab.RELATIVE_MARKERS
            and word not in _CONNECTORS
            and word not in vocab.NUMBER_WORDS
        ]
        bare_month = not numbers and not any(word in vocab.RELATIVE_MARKERS for word in words)
        if len(others) <= 1 and not (bare_month and text.lower() not in vocab.RELATIVE_DAYS):
            return "date"
    if (
        1 <= len(alpha) <= 3
        and len(_amounts(text)) == 1
        and not _GLUED_RE.search(text)
        and not _count_text(text)
    ):
        units = sum(word in vocab.COUNT_UNITS or word in vocab.NUMBER_SUFFIXES for word in alpha)
        if units == len(alpha) or (units and len(alpha) <= 2):
            return "count"
    return None


_value_kind_cached = lru_cache(maxsize=32768)(_value_kind_text)


def value_kind(value: Any) -> str | None:
    """What ``value`` looks like on its own: ``"rating"``, ``"count"``, ``"price"``,
    ``"date"``, or None (prose, names, URLs, junk, containers).

    Only *bare* values count: a number with at most a short unit ("5 sao", "197 đánh giá",
    "$12.99", "2024-01-05", "2 days ago"), not a sentence that mentions one. A bare integer
    ("45", 45) reads as a count; a bare decimal in [0, 5] ("4.5", 4.5) as a rating; a bare
    decimal above 5 ("12.99") as a price; booleans and negatives as nothing.

    Example:
        >>> [value_kind(v) for v in ("5 sao", "197 đánh giá", "$12.99", "2024-01-05", "4.5")]
        ['rating', 'count', 'price', 'date', 'rating']
        >>> [value_kind(v) for v in ("iPhone 15", "Great phone, 5 stars from me!", True, None)]
        [None, None, None, None]
    """
    kind = type(value)
    if kind is str:
        if len(value) > 80:
            return None
        return _value_kind_cached(value)
    if kind is int:
        return "count" if value >= 0 else None
    if kind is float:
        if value != value or value < 0 or value == math.inf:
            return None
        return "rating" if value <= 5 else "price"
    return None
