"""Field roles: what a field name means to the pattern and item rules (a name, a title, a body,
an author, a price, a venue...), read off its tokens in many languages.

The role words are the tables ``FIELD_ROLES`` and ``FIELD_ROLES_CJK`` of ``tables/roles.json``;
``ITEM_CONTENT`` and ``ITEM_WORDS`` there say which names mean content specific to each item.

Example:
    >>> sorted(field_roles("Product Name")), is_item_content("Review Text")
    (['name', 'product'], True)
"""

from __future__ import annotations

from functools import lru_cache

from rlm_gym.quality import vocab
from rlm_gym.quality.names import field_tokens

__all__ = ["field_roles", "is_item_content"]


def _has_cjk(text: str) -> bool:
    return any(ord(char) >= 0x2E80 for char in text)


@lru_cache(maxsize=8192)
def field_roles(name: str) -> frozenset[str]:
    """The roles a field name's tokens give it (see ``FIELD_ROLES`` in ``tables/roles.json``,
    and ``FIELD_ROLES_CJK`` matched inside names in scripts without spaces).

    Example:
        >>> sorted(field_roles("Job Title")), sorted(field_roles("Название"))
        (['job', 'name', 'title'], ['name', 'title'])
        >>> sorted(field_roles("建筑面积")), sorted(field_roles("挂牌价"))
        (['property'], ['price'])
    """
    tokens = frozenset(field_tokens(name))
    roles = {role for role, words in vocab.FIELD_ROLES.items() if tokens & words}
    if _has_cjk(name):
        roles |= {
            role for role, parts in vocab.FIELD_ROLES_CJK.items() if any(p in name for p in parts)
        }
    return frozenset(roles)


def is_item_content(name: str) -> bool:
    """The name means content specific to each item: made only of item-content words
    (``title``, ``Product Name``, ``Review Text``) — not ``hotelName`` or ``Company Name``,
    which may rightly be the same on every item of one page.

    Example:
        >>> is_item_content("title"), is_item_content("hotelName"), is_item_content("Company Name")
        (True, False, False)
    """
    tokens = set(field_tokens(name))
    return bool(tokens & vocab.ITEM_CONTENT) and tokens <= vocab.ITEM_WORDS
