"""Contact values: email addresses, phone numbers (7-15 digits with the usual punctuation,
labels and extensions) and URLs (absolute http(s) or site-relative).

Example:
    >>> email_reason("clutch@straightnorth.com"), phone_reason("+84 28 1234 5678")
    ('', '')
    >>> url_reason("/news/1"), url_reason("example.com"), phone_reason("12")
    ('', 'not a url', 'not a phone')
"""

from __future__ import annotations

import re

from rlm_gym.quality.lazy_regex import lazy

__all__ = ["email_reason", "phone_reason", "url_reason"]

_EMAIL_RE = lazy(r"^(?:mailto:)?[^@\s<>()\[\],;:\"]+@[^@\s<>()\[\],;:\"]+\.[^\W\d_]{2,}$")
_PHONE_LABEL_RE = lazy(r"^(?:tel|phone|ph|mob|mobile|cell|fax|t|m|p)\.?\s*[:.]?\s*", re.I)
# A country code may sit in brackets: "(+57) 601 230 98 91", "(+358) 769930024".
_PHONE_RE = lazy(r"^\(?\+?[\d\s().\-/]+(?:\s*(?:ext|x|#)\.?\s*\d{1,6})?$", re.IGNORECASE)
_URL_RE = lazy(
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


def phone_reason(text: str) -> str:
    """``""`` for one phone number, else "not a phone" (several numbers in one field are
    :mod:`rlm_gym.quality.joined`'s "joined values")."""
    return "" if _phone_one(text) else "not a phone"


def url_reason(text: str) -> str:
    """``""`` for an absolute http(s) URL or a site-relative ``/path``, else "not a url"."""
    if text.startswith("/") and not text.startswith("//"):
        return "" if not any(char.isspace() for char in text) else "not a url"
    return "" if _URL_RE.match(text) else "not a url"


def email_reason(text: str) -> str:
    """``""`` for an address ``name@domain.tld`` (``mailto:`` allowed), else "not an email"."""
    return "" if _EMAIL_RE.match(text) else "not an email"
