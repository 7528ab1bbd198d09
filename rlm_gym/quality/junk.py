# ruff: noqa: RUF001, RUF002 - mojibake patterns and multilingual placeholders are the point
"""Junk every field type shares: placeholders, markup and code residue, stringified containers,
mis-encoded text and error-page texts.

:func:`text_junk` gives the reason a stripped, non-empty string is junk, or ``""``; the value
rules of each type run only on what passes it. Long texts are scanned in their first
``MAX_SCAN`` characters, each pattern behind a cheap substring or character gate.

Example:
    >>> text_junk("<span>Price</span>"), text_junk("Â£51.77"), text_junk("暂无数据")
    ('markup residue', 'mis-encoded text', 'placeholder')
"""

from __future__ import annotations

import re
import unicodedata

from rlm_gym.quality import vocab
from rlm_gym.quality.lazy_regex import LazyPattern, lazy
from rlm_gym.quality.numbers import PRICE_LEVEL_RE

__all__ = ["MAX_SCAN", "MOJIBAKE_RE", "PAGE_CHROME", "negated", "page_chrome", "text_junk"]

MAX_SCAN = 20_000  # characters of a long text scanned for junk

# --------------------------------------------------------------------------------------------
# markup and code
# --------------------------------------------------------------------------------------------
_TAGS = "|".join(sorted(vocab.HTML_TAGS, key=len, reverse=True))
_MARKUP_RE = lazy(
    rf"</?(?:{_TAGS})(?:\s[^<>]*)?/?>|<!--|-->|<!doctype|<!\[cdata\[|"
    r"&(?:nbsp|amp|lt|gt|quot|apos|laquo|raquo|ndash|mdash|hellip|rsquo|lsquo|rdquo|ldquo|"
    r"eacute|egrave|agrave|ccedil|copy|reg|trade|euro|pound|#\d{2,6}|#x[0-9a-f]{2,5});|"
    # an entity that lost its semicolon before a space ("Rock &#039 n roll", "AT&amp T")
    r"&(?:#\d{2,6}|#x[0-9a-f]{2,5}|amp|quot|apos|nbsp|lt|gt)(?=\s)|"
    # an entity cut off at the end of the value ("… Donnersmarck &n" of "&nbsp;")
    r"(?<=\s)&(?:n(?:b(?:sp?)?)?|amp?|qu(?:ot?)?|#x?[0-9a-f]{0,5})$|"
    # a numeric entity cut off anywhere at the end ("avokeitti&#…" of "&#246;"): "&#" is no text
    r"&#x?[0-9a-f]{0,5}(?:\.{3}|…)?$",
    re.IGNORECASE,
)
# Code residue, as (substrings that must occur, pattern): the cheap substring test gates the
# pattern, so a long article body costs a few C-level scans instead of one slow alternation.
_CODE_RULES: tuple[tuple[tuple[str, ...], LazyPattern], ...] = tuple(
    (triggers, lazy(pattern, re.DOTALL))
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


# --------------------------------------------------------------------------------------------
# mis-encoded text
# --------------------------------------------------------------------------------------------
# Windows-1252 / Latin-1 renderings of UTF-8 continuation bytes.
_CONT = "\x80-\xbf€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ"
_CONT_NO_NBSP = _CONT.replace(
    "\x80-\xbf", "\x80-\x9f\xa1-\xbf"
)  # "é\xa0»" is French typography, not mojibake
MOJIBAKE_RE = lazy(
    rf"[ÂÃ][{_CONT}]|â[€\x80][{_CONT}]?|[ÐÑØÙ][{_CONT}]|[à-ï][{_CONT_NO_NBSP}][{_CONT}]|"
    r"ï»¿|[\x80-\x9f]|\ufffd|"
    # C0 controls other than tab and line breaks: a byte lost in decoding ("avokeitti\x02")
    r"[\x00-\x08\x0b\x0c\x0e-\x1f]"
)
# Every mojibake alternative starts with one of these characters: scan for them (one charset,
# fast) and try the full pattern only where they stand.
_MOJIBAKE_GATE_RE = lazy("[ÂÃÐÑØÙà-ï\x80-\x9f\ufffd\x00-\x08\x0b\x0c\x0e-\x1f]")


def _mojibake(text: str) -> bool:
    match = MOJIBAKE_RE.match
    return any(match(text, hit.start()) for hit in _MOJIBAKE_GATE_RE.finditer(text))


# '?' standing for lost non-ASCII letters (a cp1252 save with replacement): runs of '?' as
# words, '?' inside a word, or a leading '?' glued to the value ("? 1,199", "?3C"). Not looked
# for in URLs, whose '?' starts the query.
_LOST_LETTERS_RE = lazy(
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


# --------------------------------------------------------------------------------------------
# containers, error pages, placeholders
# --------------------------------------------------------------------------------------------
_CONTAINER_RE = lazy(
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
vocab.CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_WORD_RE = lazy(f"^[{vocab.CJK_CHARS}]{{1,4}}$")


def _is_data_noun(words: str) -> bool:
    words = words.strip(" .:!")
    if words in vocab.PLACEHOLDER_NOUNS:
        return True
    head, _, tail = words.rpartition(" ")  # "no image available", "no reviews yet"
    return bool(head) and tail in vocab.PLACEHOLDER_TAILS and head in vocab.PLACEHOLDER_NOUNS


_NEGATIONS_UNSPACED = tuple(
    sorted((word for word in vocab.NEGATION_WORDS if not word.isascii()), key=len, reverse=True)
)


def _stem_match(word: str, names: frozenset[str]) -> bool:
    """``word`` is one of ``names`` or shares its first 5 letters with one of at least 5
    ("beskrivningen" / "beskrivning", "descripción" / "descripcion" once accents are off)."""
    if word in names:
        return True
    if len(word) < 5:
        return False
    stem = _unaccent(word[:5])
    return any(len(name) >= 5 and _unaccent(name[:5]) == stem for name in names)


def _unaccent(text: str) -> str:
    return "".join(
        char for char in unicodedata.normalize("NFD", text) if not unicodedata.combining(char)
    )


def negated(low: str, nouns: frozenset[str] = frozenset()) -> bool:
    """Whether a short lower-cased text is a negation of a noun of missing data (``MISSING_NOUNS``)
    or of one of ``nouns`` (the field's own name tokens): "keine Angabe", "нет данных", "ei
    tietoa", "ingen beskrivning" under ``beskrivning``, "ไม่มีข้อมูล", "정보 없음". Verbs of
    existence around it are allowed ("no data available", "δεν υπάρχουν δεδομένα").

    Example:
        >>> negated("keine angabe"), negated("ei tietoa"), negated("ไม่มีข้อมูล")
        (True, True, True)
        >>> negated("no abstract", frozenset({"abstract"})), negated("no time to die")
        (True, False)
        >>> negated("informasi tambahan tidak tersedia"), negated("no further details")
        (True, True)
    """
    low = low.strip(" .!()[]-–—:")
    words = low.split()
    if not words or len(words) > 5:
        return False
    if len(words) == 1:  # scripts written without spaces: "ไม่มีข้อมูล", "情報なし"
        word = words[0]
        if word.isascii():
            return False
        for negation in _NEGATIONS_UNSPACED:
            if word.startswith(negation) and _is_missing(word[len(negation) :], nouns):
                return True
            if word.endswith(negation) and _is_missing(word[: -len(negation)], nouns):
                return True
        return False
    negations = [word for word in words if word in vocab.NEGATION_WORDS]
    # The negation opens or closes the value, verbs of existence aside ("... tidak tersedia").
    core = [
        word for word in words if word not in vocab.MISSING_FILLERS or word in vocab.NEGATION_WORDS
    ] or words
    if not negations or not (core[0] in negations or core[-1] in negations):
        return False
    rest = [
        word
        for word in words
        if word not in vocab.NEGATION_WORDS and word not in vocab.MISSING_FILLERS
    ]
    if not rest:  # "nicht verfügbar", "není k dispozici": the negation of being there
        return len(words) > len(negations) and len(words) <= 4
    # A noun of missing data with one word of its own ("informasi tambahan tidak tersedia",
    # "no further details"): the modifier of the noun, when the noun is there.
    missing = sum(1 for word in rest if _is_missing(word, nouns))
    return len(rest) <= 2 and missing >= 1 and (missing == len(rest) or len(words) >= 3)


def _is_missing(word: str, nouns: frozenset[str]) -> bool:
    word = word.strip(" .:!")
    return bool(word) and (word in vocab.MISSING_NOUNS or _stem_match(word, nouns))


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


_UNSPACED_COOKIES = tuple(word for word in vocab.CHROME_COOKIE_WORDS if not word.isascii())
_BREADCRUMB_RE = lazy(r"\s*[›»>/|]\s*|\s+[-–]\s+")
PAGE_CHROME = "page chrome"


def page_chrome(low: str) -> bool:
    """Whether a lower-cased text is the page's own chrome: a consent banner (a cookie word
    and a word of consent: "This site uses cookies", "Tämä sivusto käyttää evästeitä"), a
    navigation label ("Sign in", "Kirjaudu", "Skip to content") or a breadcrumb opening with
    the home link ("Home › Phones › Apple", "Etusivu > Asunnot > Helsinki").

    Example:
        >>> page_chrome("we use cookies to improve your experience"), page_chrome("kirjaudu")
        (True, True)
        >>> page_chrome("chocolate chip cookies, 12 pack"), page_chrome("home › phones › apple")
        (False, True)
    """
    if low in vocab.NAV_LABELS:
        return True
    words = frozenset(word.strip(".,:;!?()\"'«»") for word in low.split())
    cookie = bool(words & vocab.CHROME_COOKIE_WORDS) or (
        not low.isascii() and any(word in low for word in _UNSPACED_COOKIES)
    )
    if cookie and (words & vocab.CHROME_CONSENT_WORDS or _unspaced_consent(low)):
        return True
    if len(low) <= 200 and any(mark in low for mark in "›»>/|-–"):
        parts = [part for part in _BREADCRUMB_RE.split(low) if part]
        return len(parts) >= 3 and parts[0] in vocab.NAV_HOME
    return False


def _unspaced_consent(low: str) -> bool:
    return not low.isascii() and any(
        word in low for word in vocab.CHROME_CONSENT_WORDS if not word.isascii()
    )


def text_junk(text: str) -> str:
    """The junk reason of a stripped, non-empty string, or ``""`` (checks every type shares).

    Example:
        >>> text_junk("<span>Price</span>"), text_junk("{{product.name}}"), text_junk("Ã©t")
        ('markup residue', 'code residue', 'mis-encoded text')
        >>> text_junk("['a', 'b']"), text_junk("Access Denied"), text_junk("Café Olé")
        ('stringified container', 'error page text', '')
    """
    low = text.lower()
    if low in vocab.PLACEHOLDERS or (len(low) <= 40 and (_placeholder_phrase(low) or negated(low))):
        return "placeholder"
    scan = text if len(text) <= MAX_SCAN else text[:MAX_SCAN]
    # A long text is probed at both ends: a stringified list opens and closes there.
    if _CONTAINER_RE.search(text if len(text) <= 2000 else text[:1000] + text[-1000:]):
        return "stringified container"
    if ("<" in scan or "&" in scan) and _MARKUP_RE.search(scan):
        return "markup residue"
    if _code_residue(low[:MAX_SCAN]):
        return "code residue"
    if _mojibake(scan):
        return "mis-encoded text"
    if "?" in scan and "://" not in scan and scan[0] != "/" and _lost_letters(scan):
        return "mis-encoded text"
    if len(low) <= 120 and (
        low.startswith(_ERROR_PREFIXES) or low.rstrip(" .…!") in _ERROR_TEXTS or low in _ERROR_TEXTS
    ):
        return "error page text"
    if len(low) <= 600 and page_chrome(low):
        return PAGE_CHROME
    if (
        not any(char.isalnum() for char in text)
        and all(ord(char) < 0x2000 for char in text)
        and not PRICE_LEVEL_RE.match(text)
    ):
        return "placeholder"
    return ""
