"""Field names: their tokens and the type they decide or hint at.

A field gets one of the field types from its **name** (:func:`name_type`: lower-case tokens,
multilingual, singular or plural, compounds resolved by meaning); where the name does not
decide, the values do (:mod:`rlm_gym.quality.columns`). The tokens are the tables of
``tables/names.json``.

How the name decides, first rule that applies:

1. an identifier token (``id``, ``sku``, ``code``, ``key``…) or ``by`` → text (``product_id``,
   ``created_by``, ``Unique Key``);
2. a count modifier (``count``, ``qty``, ``anzahl``…) → count (``review_count``); a leading
   ``number``/``num`` or ``number of`` → count (``numberOfReviews``), ``<singular>_number`` → text
   (``model_number``), ``phone_number`` → phone;
3. a clock token with a duration qualifier → count (``prep_time``, ``total_time``: minutes);
4. otherwise the *head*: the last token that names a type or a text kind, skipping
   descriptors (``email_address`` → email, ``Time value`` → date) and what follows ``per``;
   a CJK token, written without spaces, is typed by its ending (``挂牌价`` → price,
   ``建筑面积`` → count, ``挂牌时间`` → date, ``小区名`` → text);
   a text-kind head beats type tokens before it (``price_currency``, ``review_text``); a name
   that mixes a label and a link (``Title link``) does not decide;
5. weak tokens (``stars``, ``rate``, ``ratings``, ``reviews``, ``staff``, ``total``, ``data``,
   ``note``…) only hint: the values decide, the hint breaking ties.

Example:
    >>> name_type("phone_number"), name_type("total_price"), name_type("model_number")
    ('phone', 'price', 'text')
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Any

from rlm_gym.quality import vocab

__all__ = ["field_tokens", "name_rule", "name_type", "name_hint"]


@lru_cache(maxsize=8192)
def _tokens(name: str) -> tuple[str, ...]:
    name = unicodedata.normalize("NFC", name)
    tokens: list[str] = []
    current = ""
    previous = ""
    for index, char in enumerate(name):
        if not (char.isalnum() or unicodedata.category(char).startswith("M")):
            if current:
                tokens.append(current)
            current = previous = ""
            continue
        following = name[index + 1] if index + 1 < len(name) else ""
        starts_word = char.isupper() and (
            previous.islower() or previous.isdigit() or (previous.isupper() and following.islower())
        )
        if starts_word and current:
            tokens.append(current)
            current = ""
        current += char.lower()
        previous = char
    if current:
        tokens.append(current)
    return tuple(tokens)


def field_tokens(name: Any) -> tuple[str, ...]:
    """Lower-case tokens of a field name, split on non-alphanumerics and camelCase, accents
    kept; any hashable key works (non-strings are read as ``str(key)``).

    Example:
        >>> field_tokens("productName"), field_tokens("rating_count"), field_tokens("HTTPStatus")
        (('product', 'name'), ('rating', 'count'), ('http', 'status'))
        >>> field_tokens("Giá bán"), field_tokens("Дата"), field_tokens("Price (NGN)")
        (('giá', 'bán'), ('дата',), ('price', 'ngn'))
        >>> field_tokens(3), field_tokens("thumbsUpCount")
        (('3',), ('thumbs', 'up', 'count'))
    """
    if type(name) is not str:
        name = str(name)
    return _tokens(name)


_TYPE_OF_TOKEN: dict[str, str] = {}
for _type in ("text", "url", "price", "rating", "count", "date", "email", "phone"):
    for _token in vocab.NAME_TOKENS.get(_type, ()):
        _TYPE_OF_TOKEN[_token] = _type  # later types win: a phone/email token is never a text


_CJK_SUFFIXES = tuple(sorted(vocab.CJK_NAME_SUFFIXES, key=len, reverse=True))


@lru_cache(maxsize=4096)
def _cjk_type(token: str) -> str | None:
    """The type of a CJK name token by its ending (the head noun comes last: 挂牌价 → price)."""
    if not token or token[-1] < "\u3000":
        return None
    for suffix in _CJK_SUFFIXES:
        if token.endswith(suffix):
            return vocab.CJK_NAME_SUFFIXES[suffix]
    return None


def _merge_bigrams(tokens: tuple[str, ...]) -> tuple[tuple[str, ...], dict[int, str]]:
    merged: list[str] = []
    kinds: dict[int, str] = {}
    index = 0
    while index < len(tokens):
        pair = " ".join(tokens[index : index + 2])
        if index + 1 < len(tokens) and pair in vocab.NAME_BIGRAMS:
            kinds[len(merged)] = vocab.NAME_BIGRAMS[pair]
            merged.append(pair)
            index += 2
        else:
            merged.append(tokens[index])
            index += 1
    return tuple(merged), kinds


@lru_cache(maxsize=8192)
def name_rule(name: str) -> tuple[str | None, str | None]:
    """The type a field name decides (or None) and the type it only hints at (or None).

    Example:
        >>> name_rule("review_count"), name_rule("stars"), name_rule("Title link")
        (('count', None), (None, 'rating'), (None, None))
    """
    tokens, bigram_kinds = _merge_bigrams(_tokens(name))
    if not tokens:
        return None, None
    for index, token in enumerate(tokens):
        if token in vocab.CUT_TOKENS and index > 0:
            tokens = tokens[:index]
            break
    if any(token in vocab.ID_TOKENS or token == "by" for token in tokens):
        return "text", None
    types = [
        bigram_kinds.get(i) or _TYPE_OF_TOKEN.get(t) or _cjk_type(t) for i, t in enumerate(tokens)
    ]
    strong = {kind for kind in types if kind and not kind.endswith("?")}
    if "phone" not in strong and "email" not in strong:
        if any(token in vocab.STRONG_COUNT_MODIFIERS for token in tokens):
            return "count", None
        numbered = [i for i, token in enumerate(tokens) if token in vocab.NUMBER_MODIFIERS]
        if numbered and len(tokens) == 1:
            return None, "count"
        if numbered:
            first = numbered[0]
            if first == 0 or "of" in tokens:
                return "count", None
            before = tokens[first - 1]
            if before.endswith("s") and before not in vocab.TEXT_TOKENS:
                return "count", None
            return "text", None
    if any(t in vocab.CLOCK_TOKENS for t in tokens) and any(
        t in vocab.DURATION_TOKENS for t in tokens
    ):
        return "count", None
    if "total" in tokens and not strong - {"count"}:
        return None, "count"
    head_index = None
    for index in range(len(tokens) - 1, -1, -1):
        token = tokens[index]
        if token in vocab.SUBORDINATE_TOKENS and len(tokens) > 1:
            continue
        if types[index] and not types[index].endswith("?"):
            head_index = index
            break
        if token in vocab.TEXT_TOKENS:
            head_index = index
            break
        if index == len(tokens) - 1 and token in vocab.DATE_SUFFIX_TOKENS:
            return "date", None
    if head_index is not None:
        kind = types[head_index] or "text"
        labelled = any(token in vocab.NAME_LIKE_TOKENS for token in tokens)
        if (kind == "url" and labelled) or (kind == "text" and "url" in strong):
            return None, None
        return kind, None
    for index in range(len(tokens) - 1, -1, -1):
        token = tokens[index]
        if token in vocab.WEAK_NAME_TOKENS:
            return None, vocab.WEAK_NAME_TOKENS[token]
        if types[index] and types[index].endswith("?"):
            return None, types[index][:-1]
    return None, None


def name_type(name: Any) -> str | None:
    """The type of a field decided by its name alone, or None when the name does not decide.

    Example:
        >>> [name_type(n) for n in ("prices", "Preis", "giá", "цена", "Kaltmiete", "salary")]
        ['price', 'price', 'price', 'price', 'price', 'price']
        >>> [name_type(n) for n in ("star_rating", "sao", "review_count", "time_of_posting ")]
        ['rating', 'rating', 'count', 'date']
        >>> [name_type(n) for n in ("created_by", "product_id", "e-mail", "img_link")]
        ['text', 'text', 'email', 'url']
        >>> [name_type(n) for n in ("reviews", "Ratings", "stars", "data")]
        [None, None, None, None]
    """
    if type(name) is not str:
        name = str(name)
    return name_rule(name)[0]


def name_hint(name: Any) -> str | None:
    """The type a field name *suggests* without deciding it ("stars" → rating), or None.

    Example:
        >>> name_hint("stars"), name_hint("reviews"), name_hint("data"), name_hint("price")
        ('rating', 'count', 'date', None)
    """
    if type(name) is not str:
        name = str(name)
    return name_rule(name)[1]
