"""The text rule: a readable text is more than one letter and not cut off mid-quotation.

Junk (placeholders, markup, mojibake…) is :mod:`rlm_gym.quality.junk`'s, shared by every type.
"""

from __future__ import annotations

from rlm_gym.quality import vocab
from rlm_gym.quality.lazy_regex import lazy

__all__ = ["text_reason"]

_ONE_CHAR_WORD_RE = lazy(f"^[{vocab.CJK_CHARS}]$")


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


def text_reason(text: str) -> str:
    """The reason a stripped, junk-free text is no usable text ("too short", "truncated"), or
    ``""``.

    Example:
        >>> text_reason("x"), text_reason("南"), text_reason("Streit um Tempolimit: »Wir")
        ('too short', '', 'truncated')
    """
    # One ideograph, kana or hangul syllable is a word (南 "south-facing", 有 "yes"); one
    # letter of an alphabet ("x") or one digit is not.
    if len(text) == 1:
        return "" if _ONE_CHAR_WORD_RE.match(text) else "too short"
    if ("«" in text or "»" in text or "„" in text) and _cut_at_quote(text):
        return "truncated"
    return ""
