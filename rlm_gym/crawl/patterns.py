"""Pattern types of crawl results, their thresholds, quality tiers and storage buckets."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from rlm_gym.crawl.fields import column_type, field_tokens

__all__ = [
    "PATTERN_TYPES",
    "FIELD_ROLES_CJK",
    "DEFAULT_PATTERN_TYPE",
    "PATTERN_THRESHOLDS",
    "QUANTITY_TARGETS",
    "LISTING_TYPES",
    "FIELD_ROLES",
    "field_roles",
    "classify_columns",
    "column_types",
    "TIERS",
    "BUCKETS",
    "classify_pattern_type",
    "pattern_thresholds",
    "classify_quality_tier",
    "storage_bucket",
]

DEFAULT_PATTERN_TYPE = "generic_extraction"

_LISTING = {"failure": 0.40, "success": 0.70, "excellent": 0.90, "min_items": 5}

PATTERN_THRESHOLDS: dict[str, dict[str, float]] = {
    "article_extraction": {"failure": 0.50, "success": 0.80, "excellent": 0.95, "min_items": 1},
    "contact_info": {"failure": 0.45, "success": 0.75, "excellent": 0.95, "min_items": 1},
    "price_extraction": {"failure": 0.45, "success": 0.75, "excellent": 0.90, "min_items": 3},
    "product_list": {"failure": 0.40, "success": 0.70, "excellent": 0.90, "min_items": 5},
    "review_extraction": {"failure": 0.35, "success": 0.65, "excellent": 0.85, "min_items": 5},
    "product_with_reviews": {"failure": 0.35, "success": 0.65, "excellent": 0.85, "min_items": 3},
    "generic_extraction": {"failure": 0.35, "success": 0.65, "excellent": 0.85, "min_items": 1},
    "job_listing": dict(_LISTING),
    "event_listing": dict(_LISTING),
    "real_estate_listing": dict(_LISTING),
    "business_listing": dict(_LISTING),
}
"""Per pattern type: tier thresholds on the reward and the item count below which the tier is
capped at "acceptable". The failure column is success - 0.30 (SPEC §5)."""

PATTERN_TYPES: tuple[str, ...] = tuple(PATTERN_THRESHOLDS)

LISTING_TYPES = ("job_listing", "event_listing", "real_estate_listing", "business_listing")

QUANTITY_TARGETS: dict[str, int] = {name: 5 for name in PATTERN_TYPES} | dict.fromkeys(
    ("product_list", *LISTING_TYPES), 10
)
"""Items needed for a full quantity score, per pattern type (unknown types: generic's)."""

TIERS = ("excellent", "good", "acceptable", "poor")
BUCKETS = ("successful", "acceptable", "failure")

FIELD_ROLES: dict[str, frozenset[str]] = {
    role: frozenset(words.split())
    for role, words in {
        "name": "name names title titles titel titulo título titre tytul tytuł nazwa nombre nom "
        "nome naam название наименование tên judul product produkt producto produit prodotto "
        "item model",
        "product": "product products produkt producto produto produit prodotto item items sku "
        "товар phẩm",
        "title": "title titles titel titulo título titre tytul tytuł headline headlines judul "
        "заголовок название",
        "headline": "headline headlines heading",
        "body": "body content contents text article description descriptions summary resume "
        "résumé excerpt teaser lead isi contenido contenu inhalt tresc treść descripcion "
        "descripción texto texte текст описание",
        "author": "author authors auth autor auteur autore writer byline автор verfasser",
        "person": "reviewer user username customer guest member buyer",
        "published": "published publish pubdate posted",
        "review": "review reviews comment comments feedback testimonial testimonials opinion "
        "opinions avis commentaire commentaires reseña reseñas opinión opiniones comentario "
        "comentarios recensione recensioni commento commenti rezension rezensionen kommentar "
        "kommentare recensie recenzja recenzje opinia opinie отзыв отзывы комментарий yorum "
        "yorumlar ulasan komentar luận",
        "job": "job jobs position vacancy vacancies career careers opening hiring stelle "
        "stellenangebot empleo emploi vaga vagas вакансия вакансии lowongan việc",
        "employer": "company employer firma empresa entreprise unternehmen arbeitgeber "
        "компания recruiter",
        "salary": "salary salaries wage wages pay compensation gehalt salario salaire salário "
        "lương зарплата gaji",
        "employment": "employment contract seniority experience remote applicants applications "
        "workplace jornada contrato",
        "event": "event events concert concerts show shows gig festival performance "
        "veranstaltung evento evenement événement событие концерт мероприятие",
        "venue": "venue venues место lieu veranstaltungsort spielstätte sede recinto điểm",
        "start": "start starts begin starts_at doors",
        "rent": "rent rental miete kaltmiete warmmiete alquiler loyer aluguel czynsz аренда thuê",
        "property": "area sqft sqm m2 surface superficie powierzchnia fläche wohnfläche "
        "rooms room bedrooms bedroom beds bathrooms baths pokoje habitaciones zimmer pièces "
        "floor etage planta piętro этаж площадь комнаты",
        "address": "address addresses addr street adresse dirección direccion endereço "
        "indirizzo adres адрес",
        "business": "business restaurant restaurants company agency shop store hotel clinic "
        "firm vendor merchant practice salon",
        "category": "category categories cuisine cuisines industry industries services "
        "specialty speciality specialties kategorie categoria categoría küche",
        "business_category": "cuisine cuisines industry industries specialty speciality "
        "specialties küche",
        "contact": "email mail phone telephone tel mobile contact address fax",
        "discount": "discount discounts sale rabatt descuento remise giảm",
    }.items()
}
"""Multilingual name tokens of the roles the pattern rules read (a field takes every role one of
its tokens names)."""


FIELD_ROLES_CJK: dict[str, tuple[str, ...]] = {
    "price": ("价", "価格", "値段", "料金", "가격", "요금"),
    "rent": ("租金", "月租", "家賃", "賃料", "월세"),
    "property": ("面积", "面積", "户型", "間取り", "楼层", "階数", "卧室", "면적", "층"),
    "address": ("地址", "住所", "所在地", "주소"),
    "name": ("名称", "名字", "小区名", "商品名", "名前", "이름", "상품명"),
    "title": ("标题", "題名", "タイトル", "見出し", "제목"),
    "headline": ("标题", "見出し", "제목"),
    "body": ("内容", "正文", "简介", "描述", "摘要", "本文", "概要", "내용", "본문"),
    "author": ("作者", "著者", "记者", "記者", "작성자", "기자"),
    "published": ("发布", "发表", "公開", "投稿", "게시"),
    "review": (
        "评论",
        "评价",
        "点评",
        "口碑",
        "口コミ",
        "レビュー",
        "リビュー",
        "리뷰",
        "후기",
        "평가",
    ),
    "job": ("职位", "岗位", "招聘", "求人", "職種", "채용", "직무"),
    "employer": ("公司", "企业", "会社", "企業", "회사", "기업"),
    "salary": ("薪资", "工资", "薪水", "月薪", "給与", "年収", "급여", "연봉"),
    "event": ("活动", "演出", "展览", "演唱会", "イベント", "公演", "행사", "공연"),
    "venue": ("场馆", "地点", "会場", "장소"),
    "contact": ("电话", "电邮", "邮箱", "電話", "メール", "전화", "이메일"),
}
"""Role words of scripts written without spaces (Chinese, Japanese, Korean): a name like
"建筑面积" is one token, so these are matched as substrings."""


def _has_cjk(text: str) -> bool:
    return any(ord(char) >= 0x2E80 for char in text)


@lru_cache(maxsize=8192)
def field_roles(name: str) -> frozenset[str]:
    """The roles a field name's tokens give it (see :data:`FIELD_ROLES`, and
    :data:`FIELD_ROLES_CJK` matched inside names in scripts without spaces).

    Example:
        >>> sorted(field_roles("Job Title")), sorted(field_roles("Название"))
        (['job', 'name', 'title'], ['name', 'title'])
        >>> sorted(field_roles("建筑面积")), sorted(field_roles("挂牌价"))
        (['property'], ['price'])
    """
    tokens = frozenset(field_tokens(name))
    roles = {role for role, words in FIELD_ROLES.items() if tokens & words}
    if _has_cjk(name):
        roles |= {role for role, parts in FIELD_ROLES_CJK.items() if any(p in name for p in parts)}
    return frozenset(roles)


def _column_roles(name: str, column_type: str) -> frozenset[str]:
    """Roles from the name, adjusted by the column's value type: a ``reviews`` column of counts
    is not review text, and the value type itself (price, rating, date, ...) is a role."""
    roles = set(field_roles(name))
    if column_type != "text":
        roles.discard("review")
        roles.discard("body")
    roles.add(column_type)
    return frozenset(roles)


def classify_columns(column_types: Mapping[str, str]) -> str:
    """The pattern type of a result whose fields have these value types (SPEC §5's order).

    Args:
        column_types: Field name -> value type (price, rating, count, date, email, phone, url
            or text), as :func:`rlm_gym.crawl.fields.column_type` gives them.

    Returns:
        One of :data:`PATTERN_TYPES`.

    Example:
        >>> classify_columns({"title": "text", "company": "text", "salary": "price"})
        'job_listing'
        >>> classify_columns({"Precio": "price", "Superficie": "count"})
        'real_estate_listing'
    """
    roles: set[str] = set()
    for name, kind in column_types.items():
        roles |= _column_roles(str(name), kind)
    has = roles.__contains__
    price_like = has("price") or has("discount")
    name_like = has("name")
    product = has("product") and name_like
    job_detail = has("employer") or has("salary") or has("employment")
    if (has("job") or has("employer")) and (has("job") or has("title")) and job_detail:
        return "job_listing"
    if ((has("event") or name_like) and has("venue")) or (
        has("event") and (has("date") or has("start"))
    ):
        return "event_listing"
    business_signals = has("phone") or has("category") or has("rating")
    if has("rent") or (price_like and has("property")):
        return "real_estate_listing"
    if price_like and has("address") and not business_signals:
        return "real_estate_listing"
    # A name with a business category (cuisine, industry) and a rating is a business listing
    # even when a fee is listed: delivery sites show minimum order and delivery costs.
    if name_like and has("business_category") and has("rating"):
        return "business_listing"
    if (price_like or product) and name_like:
        return "product_with_reviews" if has("review") else "product_list"
    if price_like:
        return "price_extraction"
    person = has("author") or has("person")
    if has("review") or (has("rating") and (person or has("date")) and not product):
        return "review_extraction"
    article = has("headline") or has("author") or has("published")
    if article or (has("title") and (has("body") or has("date"))):
        return "article_extraction"
    # A list of titles and nothing else is a list of headlines.
    if has("title") and len(column_types) == 1:
        return "article_extraction"
    if (
        (has("business") or name_like)
        and (has("address") or has("phone"))
        and (has("category") or has("rating"))
    ):
        return "business_listing"
    if has("email") or has("phone") or has("address") or has("contact"):
        return "contact_info"
    return DEFAULT_PATTERN_TYPE


def classify_pattern_type(data: Iterable[Any] | None) -> str:
    """The pattern type of extracted items, from their field names and value types.

    Every field of every dict item is typed by :func:`rlm_gym.crawl.fields.column_type` (a
    column of "4.5 out of 5 stars" is a rating whatever its name; a ``reviews`` column of counts
    is a count, not review text) and the roles of the names and types are matched in SPEC §5's
    order (:func:`classify_columns`). Non-dict items are ignored; no items (or none with fields)
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
    return classify_columns(column_types(data or ()))


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


def pattern_thresholds(
    pattern_type: str, table: Mapping[str, Mapping[str, float]] | None = None
) -> Mapping[str, float]:
    """The thresholds of ``pattern_type`` in ``table`` (default :data:`PATTERN_THRESHOLDS`);
    unknown types get ``generic_extraction``'s.

    Example:
        >>> pattern_thresholds("product_list")["success"], pattern_thresholds("recipes")["success"]
        (0.7, 0.65)
    """
    table = PATTERN_THRESHOLDS if table is None else table
    found = table.get(pattern_type)
    return found if found is not None else table[DEFAULT_PATTERN_TYPE]


def classify_quality_tier(
    reward: float, thresholds: Mapping[str, float], items: int | None = None
) -> str:
    """The quality tier of a reward: "excellent", "good", "acceptable" or "poor".

    ``reward >= excellent`` is excellent, ``>= success`` good, ``>= failure`` acceptable, else
    poor. Fewer than ``thresholds["min_items"]`` items cap the tier at "acceptable"; an unknown
    item count (None) caps nothing.

    Example:
        >>> product_list = pattern_thresholds("product_list")
        >>> classify_quality_tier(0.85, product_list), classify_quality_tier(0.95, product_list, 3)
        ('good', 'acceptable')
        >>> classify_quality_tier(0.90, product_list), classify_quality_tier(0.3999, product_list)
        ('excellent', 'poor')
    """
    if reward >= thresholds["failure"]:
        if items is not None and items < thresholds.get("min_items", 0):
            return "acceptable"
        if reward >= thresholds["excellent"]:
            return "excellent"
        if reward >= thresholds["success"]:
            return "good"
        return "acceptable"
    return "poor"


def storage_bucket(reward: float, thresholds: Mapping[str, float]) -> str:
    """Where a finished crawl is stored, from its reward alone.

    ``reward > success`` is "successful", ``reward < failure`` "failure", else "acceptable"
    (both boundaries are "acceptable").

    Example:
        >>> article = pattern_thresholds("article_extraction")
        >>> storage_bucket(0.7447, article), storage_bucket(0.81, article)
        ('acceptable', 'successful')
        >>> storage_bucket(0.80, article), storage_bucket(0.49, article)
        ('acceptable', 'failure')
    """
    if reward > thresholds["success"]:
        return "successful"
    if reward < thresholds["failure"]:
        return "failure"
    return "acceptable"
