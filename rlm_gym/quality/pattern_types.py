"""Pattern types: what kind of extraction a crawl result is (a product list, an article, a job
listing...), from the roles of its field names and the value types of its columns.

The crawl reward keys its tier thresholds and quantity targets by these names
(``rlm_gym.crawl.patterns``); the names are defined here, once.

Example:
    >>> classify_pattern_type([{"title": "Data engineer", "company": "Acme", "salary": "$90k"}])
    'job_listing'
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from rlm_gym.quality.column_roles import judged_type, value_role
from rlm_gym.quality.columns import column_type
from rlm_gym.quality.roles import field_roles

__all__ = [
    "PATTERN_TYPES",
    "BASE_PATTERN_TYPES",
    "DEFAULT_PATTERN_TYPE",
    "LISTING_TYPES",
    "classify_columns",
    "classify_pattern_type",
    "column_types",
    "value_roles",
]

DEFAULT_PATTERN_TYPE = "generic_extraction"
"""The pattern type of a result no rule recognises (and of an empty one)."""

BASE_PATTERN_TYPES: tuple[str, ...] = (
    "article_extraction",
    "contact_info",
    "price_extraction",
    "product_list",
    "review_extraction",
    "product_with_reviews",
    DEFAULT_PATTERN_TYPE,
)
"""The pattern types other than listings (the seven the crawl reward started with)."""

LISTING_TYPES = ("job_listing", "event_listing", "real_estate_listing", "business_listing")
"""The pattern types of listings (many similar items with a name, a place and a price or date)."""

PATTERN_TYPES: tuple[str, ...] = BASE_PATTERN_TYPES + LISTING_TYPES
"""Every pattern type :func:`classify_pattern_type` returns."""


# What each column role (:func:`rlm_gym.quality.column_roles.value_role`) means to the rules.
_PATTERN_ROLES: dict[str | None, frozenset[str]] = {
    "area": frozenset({"property"}),
    "property_text": frozenset({"property"}),
    "engine": frozenset({"vehicle"}),
    "category": frozenset({"category"}),
    "long_text": frozenset({"body"}),
    "title": frozenset({"title"}),
    "name": frozenset({"name"}),
}


def value_roles(column_type: str, values: Sequence[Any]) -> frozenset[str]:
    """What a column's values say it is, whatever its name (a machine-made CSS class, a word
    of a language the tables do not hold): sentence-long texts are titles (headlines, with a
    date), longer ones bodies, short texts names, a few short values repeated a category,
    amounts with an area unit a property's size, with an engine unit a vehicle's
    (:func:`rlm_gym.quality.column_roles.value_role`).

    Example:
        >>> sorted(value_roles("text", ["Markets rally as rates fall again"] * 3))
        ['title']
        >>> sorted(value_roles("count", ["85 m²", "120 m²"])), sorted(value_roles("text", ["Aino"]))
        (['property'], ['name'])
        >>> sorted(value_roles("text", ["669243738", "665381183"]))  # identifiers: no role
        []
    """
    return _PATTERN_ROLES.get(value_role(column_type, values), frozenset())


def _column_roles(name: str, column_type: str) -> frozenset[str]:
    """Roles from the name, adjusted by the column's value type: a ``reviews`` column of counts
    is not review text, and the value type itself (price, rating, date, ...) is a role."""
    roles = set(field_roles(name))
    if column_type != "text":
        roles.discard("review")
        roles.discard("body")
    roles.add(column_type)
    return frozenset(roles)


def _overruled_roles(kind: str, values: Sequence[Any]) -> frozenset[str]:
    """The roles of a column whose values overruled its name (SPEC §11, values before names):
    its type and what its values show (areas among counts: a property's size)."""
    return frozenset({kind}) | _PATTERN_ROLES.get(value_role(kind, values), frozenset())


def classify_columns(
    column_types: Mapping[str, str],
    columns: Mapping[str, Sequence[Any]] | None = None,
    overruled: Collection[str] = (),
) -> str:
    """The pattern type of a result whose fields have these value types: the first rule that
    matches decides (jobs, events, vehicles, real estate, businesses, groups, products,
    prices, rated catalogues, articles, reviews, contacts), else :data:`DEFAULT_PATTERN_TYPE`.

    Args:
        column_types: Field name -> value type (price, rating, count, date, email, phone, url
            or text), as :func:`rlm_gym.quality.columns.column_type` gives them.
        columns: Field name -> its values: a field whose name gives no role takes the roles
            its values show (:func:`value_roles`), so a crawl keyed by machine-made class
            names ("sc-1x2y3z") is still read as articles, events or real estate.
        overruled: Fields whose values overruled their names' type
            (:func:`rlm_gym.quality.column_roles.judged_type`: a cast list under ``star``,
            areas under ``title``): their names' roles are dropped and their values speak.

    Returns:
        One of :data:`PATTERN_TYPES`.

    Example:
        >>> classify_columns({"title": "text", "company": "text", "salary": "price"})
        'job_listing'
        >>> classify_columns({"Precio": "price", "Superficie": "count"})
        'real_estate_listing'
        >>> classify_columns({"title": "text", "price": "price", "mileage": "count"})
        'product_list'
    """
    per_field = [
        _overruled_roles(kind, columns[str(name)])
        if columns and str(name) in overruled and str(name) in columns
        else _column_roles(str(name), kind)
        for name, kind in column_types.items()
    ]
    if not columns:
        return _classify(per_field, len(column_types))
    silent = not any(field_roles(str(name)) for name in column_types)
    if silent:  # no name says anything: the values speak for every field
        return _classify(_with_value_roles(column_types, columns, per_field), len(per_field))
    found = _classify(per_field, len(per_field))
    # The fields whose names say nothing speak by their values, where these plainly show a
    # more specific shape than the names found: a dated article or event, a priced property,
    # goods or a directory where the names led nowhere; a directory of businesses where they
    # found only contacts (a category column beside a name and an address).
    by_values = _classify(_with_value_roles(column_types, columns, per_field), len(per_field))
    dated = "date" in column_types.values()
    if found == DEFAULT_PATTERN_TYPE and (
        by_values in _PLAIN_SHAPES
        or (dated and by_values in ("article_extraction", "event_listing"))
    ):
        return by_values
    if found == "contact_info" and by_values == "business_listing":
        return by_values
    return found


_PLAIN_SHAPES = frozenset(
    {"real_estate_listing", "product_list", "price_extraction", "business_listing", "job_listing"}
)


def _classify(per_field: list[frozenset[str]], columns: int) -> str:
    """The first rule that matches the fields' roles (see :func:`classify_columns`)."""
    roles: set[str] = set().union(*per_field)
    has = roles.__contains__
    price_like = has("price") or has("discount")
    name_like = has("name")
    product = has("product") and name_like
    person = has("author") or has("person")
    place = has("address") or has("place")
    if _is_job(has, name_like, per_field):
        return "job_listing"
    if _is_event(has, name_like, place, price_like, person):
        return "event_listing"
    # Cars, vans and motorbikes for sale are products, whatever place or size they list (and
    # a named car with its engine's size and power is one, its price missing or not).
    if has("vehicle") and (price_like or (name_like and not has("property"))):
        return "product_list"
    business_signals = has("phone") or has("category") or has("rating") or has("hours")
    if has("rent") or (price_like and has("property")):
        return "real_estate_listing"
    if price_like and has("address") and not business_signals:
        return "real_estate_listing"
    # A name with a business category (cuisine, industry) and a rating is a business listing
    # even when a fee is listed: delivery sites show minimum order and delivery costs; so is
    # a named place with a category or opening hours (restaurants with a price level).
    if name_like and has("business_category") and has("rating"):
        return "business_listing"
    if name_like and place and (has("category") or has("hours")):
        return "business_listing"
    # Organisations with their trade or industry, nothing priced: a directory of businesses.
    if (has("employer") or has("business")) and has("category") and not price_like:
        return "business_listing"
    if has("group"):  # clubs, teams, societies: a directory, not goods
        return "contact_info" if has("email") or has("phone") else DEFAULT_PATTERN_TYPE
    if (price_like or product) and name_like:
        return "product_with_reviews" if has("review") else "product_list"
    if price_like:
        return "price_extraction"
    # Books (or films, albums) with their creator (or cast) and an average rating, and no
    # review text: a rated catalogue, not reviews; so are named, rated and dated things with
    # no reviewer (films with their release date).
    unreviewed = name_like and has("rating") and not (has("review") or has("body"))
    if unreviewed and (person or (has("date") and not has("author"))):
        return "product_list"
    if _is_plain_article(per_field, has, person):
        return "article_extraction"
    if has("review") or (has("rating") and (person or has("date")) and not product):
        return "review_extraction"
    article = has("headline") or has("author") or has("published")
    if article or (has("title") and (has("body") or has("date"))):
        return "article_extraction"
    # Prose with a link per item, nothing priced, rated, counted, placed or to contact: the
    # pages of articles (a repository's readme comes with its stars and forks).
    figures = price_like or has("rating") or has("count") or place or has("email")
    if has("body") and has("url") and not (figures or has("phone") or person):
        return "article_extraction"
    # Dated prose with its link is an article, its word count or views notwithstanding.
    unpriced = not (price_like or has("rating") or place or has("email") or has("phone"))
    if has("body") and has("url") and has("date") and unpriced and not person:
        return "article_extraction"
    # A list of titles and nothing else is a list of headlines.
    if has("title") and columns == 1:
        return "article_extraction"
    if (has("business") or name_like) and place and (has("category") or has("rating")):
        return "business_listing"
    if has("email") or has("phone") or has("address") or has("contact"):
        return "contact_info"
    return DEFAULT_PATTERN_TYPE


def _with_value_roles(
    column_types: Mapping[str, str],
    columns: Mapping[str, Sequence[Any]],
    per_field: list[frozenset[str]],
) -> list[frozenset[str]]:
    """The fields whose names give no role take the roles their values show; a second
    short-text column beside a name is a place (title + date + place: an event)."""
    out = []
    named = False
    for (name, kind), roles in zip(column_types.items(), per_field, strict=True):
        if roles - {kind} or str(name) not in columns:
            out.append(roles)
            continue
        role = value_role(kind, columns[str(name)])
        if role == "identifier" and kind == "count":  # a row number is no count
            roles = roles - {kind}
        found = _PATTERN_ROLES.get(role, frozenset())
        if "name" in found:
            found = frozenset({"place"}) if named else found
            named = True
        out.append(roles | found)
    return out


def _is_job(has: Callable[[str], bool], name_like: bool, per_field: list[frozenset[str]]) -> bool:
    """A job title with a company, salary or employment field; or a named post with a salary
    or its skills and experience, or beside its employer's column, and nothing of a product,
    a review, a place to live or a contact."""
    job_detail = has("employer") or has("salary") or has("employment")
    if (has("job") or has("employer")) and (has("job") or has("title")) and job_detail:
        return True
    other = ("product", "rating", "review", "vehicle", "property", "rent")
    if any(map(has, other)):
        return False
    if name_like and (has("salary") or has("employment")):
        return True
    # A named thing beside a column of its organisations (not the organisations' own names),
    # with no contact to reach: posts at employers ("Data Analyst" at "Acme Ltd").
    post = any(roles & {"name", "title"} and not roles & _ORGANISATION for roles in per_field)
    return has("employer") and post and not (has("email") or has("phone"))


_ORGANISATION = frozenset({"employer", "business"})


def _is_event(
    has: Callable[[str], bool], name_like: bool, place: bool, price_like: bool, person: bool
) -> bool:
    """An event name with a venue or a start; or a named thing with a date and a place and
    nothing of a review, an article or a sale (a city guide's "what's on")."""
    if ((has("event") or name_like) and has("venue")) or (
        has("event") and (has("date") or has("start"))
    ):
        return True
    other = has("rating") or has("review") or has("body") or price_like or person
    return name_like and has("date") and place and not other


def _is_plain_article(
    per_field: list[frozenset[str]], has: Callable[[str], bool], person: bool
) -> bool:
    """A title and a body that are not a review's, with a date, publication or author, and no
    rated reviewer: a news article, its comment threads notwithstanding."""
    title = any("title" in roles and "review" not in roles for roles in per_field)
    body = any("body" in roles and "review" not in roles for roles in per_field)
    dated = has("date") or has("published") or has("author")
    return title and body and dated and not (has("rating") and person)


def classify_pattern_type(data: Iterable[Any] | None) -> str:
    """The pattern type of extracted items, from their field names and value types.

    Every field of every dict item is typed by :func:`rlm_gym.quality.columns.column_type` (a
    column of "4.5 out of 5 stars" is a rating whatever its name; a ``reviews`` column of counts
    is a count, not review text) and the roles of the names and types are matched in order
    (:func:`classify_columns`). Non-dict items are ignored; no items (or none with fields)
    give ``generic_extraction``.

    Args:
        data: The extracted items.

    Returns:
        One of :data:`PATTERN_TYPES`.

    Example:
        >>> classify_pattern_type([{"product_name": "iPhone 15", "price": 999.99, "rating": 4.5}])
        'product_list'
        >>> classify_pattern_type([{"headline": "N/A", "author": None, "content": ""}])
        'article_extraction'
        >>> classify_pattern_type([{"title": "Ốp lưng", "price": "99.000đ", "reviews": ["Tốt"]}])
        'product_with_reviews'
        >>> classify_pattern_type([{"email": "a@b.vn"}]), classify_pattern_type([])
        ('contact_info', 'generic_extraction')
    """
    columns: dict[str, list[Any]] = {}
    for item in data or ():
        if isinstance(item, dict):
            for name, value in item.items():
                columns.setdefault(str(name), []).append(value)
    records = [item for item in data or () if isinstance(item, dict)]
    named = {name: column_type(name, values) for name, values in columns.items()}
    types = {name: judged_type(name, kind, columns, records) for name, kind in named.items()}
    overruled = {name for name, kind in types.items() if kind != named[name]}
    return classify_columns(types, columns, overruled)


def column_types(data: Iterable[Any]) -> dict[str, str]:
    """Field name -> value type over the dict items of ``data`` (first-seen field order).

    Example:
        >>> column_types([{"name": "Pho 24", "rating": "4.5 out of 5 stars"}, "junk"])
        {'name': 'text', 'rating': 'rating'}
    """
    columns: dict[Any, list[Any]] = {}
    for item in data:
        if isinstance(item, dict):
            for name, value in item.items():
                columns.setdefault(name, []).append(value)
    return {str(name): column_type(str(name), values) for name, values in columns.items()}
