# ruff: noqa: RUF001 - currency signs are the point
"""Joined values and interface text: a field that holds two values where it should hold one,
or the page's own link and button texts.

- **joined values**: two amounts glued into one price ("Price: $9,980$165/mo est."), two or
  more phone numbers or e-mail addresses in one field ("0101-555-0101, 0102-555-0102"), two
  clock-time ranges glued without a separator ("08:00 - 16:0017:30 - 22:00"), two URLs glued
  together, a relative link glued onto a site's search URL
  ("https://shop.example/search?q=lamp/item/12"), or a detail box's labelled fields glued
  into one text ("Area 71 SQ. M.Room 2Floor/Storeys 5/5");
- **ui text**: a value that is a link or button text of the page (``UI_PHRASES`` of
  ``tables/junk.json``: "READ MORE", "» Share your article …", "Xem thêm"), or content with
  one glued to its end ("…super fast processorREAD MORE").

Example:
    >>> joined_reason("price", "Price: $9,980$165/mo est."), joined_reason("price", "$10 - $20")
    ('joined values', '')
    >>> ui_text("Awesome camera 😍READ MORE"), ui_text("Read more about the harbour festival")
    (True, False)
"""

from __future__ import annotations

import re

from rlm_gym.quality import vocab
from rlm_gym.quality.lazy_regex import lazy

__all__ = [
    "GLUED_FIELDS_MAX_CHARS",
    "JOINED_VALUES",
    "UI_TEXT",
    "joined_reason",
    "repeated",
    "ui_text",
]

JOINED_VALUES = "joined values"
UI_TEXT = "ui text"

_SIGNS = "".join(re.escape(sign) for sign in sorted(vocab.CURRENCY_SYMBOLS) if len(sign) == 1)
_AMOUNT = r"\d[\d.,\u00a0 ]*\d|\d"
# Two amounts, each with its own sign, with nothing between the first and the second sign:
# "$9,980$165" or "9.980€165€" (a range writes a dash or a word between them).
_GLUED_AMOUNTS_RE = lazy(
    rf"[{_SIGNS}]\s?(?:{_AMOUNT})[{_SIGNS}]\s?\d|\d[{_SIGNS}](?:{_AMOUNT})\s?[{_SIGNS}]"
)
GLUED_FIELDS_MAX_CHARS = 80
"""Longest text read for glued fields: a detail-box blob is short; prose runs words into
numbers in headlines and lists."""

# Cased scripts only (Latin, Greek, Cyrillic): a capital letter is where a glued label starts.
_UPPER = "A-ZÀ-ÖØ-ÞΆΈ-ΊΌΎΏΑ-ΩА-ЯЁ"
_LOWER = "a-zß-öø-ÿά-ώа-яё"
_NUMBER_THEN_WORD_RE = lazy(rf"\d[{_UPPER}][{_LOWER}]")
_WORD_THEN_WORD_RE = lazy(rf"(?:[{_LOWER}]{{3}}|\.)[{_UPPER}][{_LOWER}]")
_GLUED_TIMES_RE = lazy(r"\b\d{1,2}:\d{2}\d{1,2}:\d{2}\b|\d:\d{2}(?:\s*[ap]m)?\d{1,2}:\d{2}", re.I)
_TWO_EMAILS_RE = lazy(r"@[^@]*[\s,;/|][^@]*@")
_PHONE_SPLIT_RE = lazy(r"\s*(?:[,;|\n]|\s/\s|\bor\b|\bou\b|\boder\b|\bo\b)\s*", re.I)
_PHONE_PART_RE = lazy(r"^\+?[\d\s().\-/]+$")
_GLUED_URL_RE = lazy(r"[^\s=/%]https?://", re.I)
_SEARCH_PATH_RE = lazy(r"[?&]([\w.-]+)=([^&#]*)")

_UI_PHRASES = tuple(sorted(vocab.UI_PHRASES, key=len, reverse=True))
_UI_MARKERS = "»›→▸▶•·|"
_UI_GATE = frozenset(phrase[-1] for phrase in _UI_PHRASES)


def _several_phones(text: str) -> bool:
    parts = [part for part in _PHONE_SPLIT_RE.split(text) if part.strip()]
    if len(parts) < 2:
        return False
    digits = [sum(char.isdecimal() for char in part) for part in parts]
    return all(_PHONE_PART_RE.match(part) for part in parts) and all(
        7 <= count <= 15 for count in digits
    )


def _search_url_with_path(text: str) -> bool:
    if "?" not in text:
        return False
    for match in _SEARCH_PATH_RE.finditer(text):
        name, value = match.group(1).lower(), match.group(2)
        if name in vocab.SEARCH_PARAMETERS and re.search(r"[^/]/[\w-]", value):
            return True
    return False


_REPEAT_SPLIT_RE = lazy(r"\s*(?:[|·•;\n]|\s{2,}|\s[-–—]\s)\s*")


def repeated(text: str) -> bool:
    """Whether ``text`` is one value written twice or more and joined: "Praha | Praha",
    "4.5 4.5", "Samsung Galaxy S24Samsung Galaxy S24", "Old Town Old Town". What repeats a
    word is often a name, and is left alone: one word doubled by a space, hyphen or comma
    ("Bora Bora", "Baden-Baden", "Everything, Everything"), a syllable doubled ("couscous"),
    digits doubled ("2020", "7575"); a slash joins the parts of a composite field (deposit /
    key money "7万円/7万円").

    Example:
        >>> repeated("Praha | Praha"), repeated("Galaxy S24Galaxy S24"), repeated("Bora Bora")
        (True, True, False)
    """
    if len(text) < 4:
        return False
    parts = [part for part in _REPEAT_SPLIT_RE.split(text) if part]
    if len(parts) >= 2:
        first = parts[0].casefold()
        readable = len(first) >= 2 and any(ch.isalnum() for ch in first)
        if readable and all(part.casefold() == first for part in parts[1:]):
            return True
    half = len(text) // 2
    for skip in (0, 1):
        head, tail = text[:half], text[half + skip :]
        if head != tail or len(head) < 2 or (skip and text[half] != " "):
            continue
        letters = any(ch.isalpha() for ch in head)
        words = len(head.split())
        if not letters:  # "4.5 4.5", "$10 $10"; never "2020" or "7575"
            return bool(skip) and not head.isdecimal() and any(ch.isdecimal() for ch in head)
        if skip:
            return words >= 2  # "Old Town Old Town"; not "Bora Bora"
        # glued: "Galaxy S24Galaxy S24", "ZaraZara"; not "couscous", "bonbon"
        return words >= 2 or any(ch.isdecimal() for ch in head) or head[0].isupper()
    return False


def joined_reason(field_type: str, text: str) -> str:
    """``"joined values"`` when a stripped, junk-free text of ``field_type`` holds several
    values glued or listed where one belongs, else ``""``.

    Example:
        >>> joined_reason("phone", "0101-555-0101, 0102-555-0102")
        'joined values'
        >>> joined_reason("text", "08:00 - 16:0017:30 - 22:00"), joined_reason("text", "8-22")
        ('joined values', '')
    """
    if field_type == "price":
        return JOINED_VALUES if _GLUED_AMOUNTS_RE.search(text) or repeated(text) else ""
    if field_type == "phone":
        return JOINED_VALUES if _several_phones(text) else ""
    if field_type == "email":
        return JOINED_VALUES if text.count("@") > 1 and _TWO_EMAILS_RE.search(text) else ""
    if field_type == "url":
        if _GLUED_URL_RE.search(text) or _search_url_with_path(text):
            return JOINED_VALUES
        return ""
    if ":" in text and _GLUED_TIMES_RE.search(text):
        return JOINED_VALUES
    if len(text) <= GLUED_FIELDS_MAX_CHARS and _glued_fields(text):
        return JOINED_VALUES
    return JOINED_VALUES if len(text) <= 300 and repeated(text) else ""


def _glued_fields(text: str) -> bool:
    """Labelled fields of a detail box glued without separators ("Area 71 SQ. M.Room 2Floor/
    Storeys 5/5"): a number running into a capitalised word, and one more capitalised word
    glued to the end of another or to a full stop. One join alone is a name ("iPhone 15Pro")."""
    glued_to_number = len(_NUMBER_THEN_WORD_RE.findall(text))
    if not glued_to_number:
        return False
    return glued_to_number + len(_WORD_THEN_WORD_RE.findall(text)) >= 2


def _clean_start(text: str) -> str:
    return text.lstrip(_UI_MARKERS + " \u00a0").lower()


def ui_text(text: str) -> bool:
    """Whether a stripped text is a page's link or button text, starts with one after a UI
    marker ("» Share your article …"), or has one glued to its end ("…processorREAD MORE",
    "… great value. Read more").

    Example:
        >>> ui_text("READ MORE"), ui_text("» Share your article with us"), ui_text("Xem thêm")
        (True, True, True)
        >>> ui_text("We oversee more than 40 projects"), ui_text("Learn more about Python")
        (False, False)
    """
    low = text.lower().rstrip(" .…:>»›")
    if not low:
        return False
    marked = text[0] in _UI_MARKERS
    start = _clean_start(text).rstrip(" .…:>»›")
    if start in vocab.UI_PHRASES:
        return True
    if marked and start.startswith(_UI_PHRASES):
        return True
    if low[-1] not in _UI_GATE:
        return False
    for phrase in _UI_PHRASES:
        if not low.endswith(phrase) or len(low) == len(phrase):
            continue
        cut = len(low) - len(phrase)
        written = text[cut : cut + len(phrase)]
        before = low[:cut].rstrip()
        glued = cut > 0 and not low[cut - 1].isspace() and written[:1].isupper()
        separated = bool(before) and before[-1] in ".…!?|»›\n"
        if glued or separated or written.isupper():
            return True
    return False
