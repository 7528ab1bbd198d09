"""Field names: the tokens of a name and the type it decides or only hints at."""

from __future__ import annotations

import pytest

from rlm_gym.quality import field_tokens, name_hint, name_type

NAMES = {
    "price": [
        "price", "prices", "salePrice", "total_price", "price_total", "unit_price", "Preis", "prix",
        "precio", "preço", "giá", "Giá bán", "цена", "cena", "Kaltmiete", "rent", "salary",
        "delivery_fee", "shipping_cost", "amount", "Price (NGN)", "precio_total", "harga",
        "价格", "price_per_m2",
    ],
    "rating": [
        "rating", "star_rating", "averageRating", "rating_score", "score", "sao", "Bewertung",
        "ratingValue", "puntuación", "рейтинг", "Average Star", "sellers_score",
    ],
    "count": [
        "review_count", "reviewCount", "rating_count", "numberOfReviews", "num_reviews",
        "number_of_reviews", "votes", "quantity", "qty", "superficie", "powierzchnia",
        "prep_time", "total_time", "minutes", "views", "followers", "sold", "số lượng",
        "bedrooms", "servings", "thumbsUpCount", "image_count", "reviews_number",
    ],
    "date": [
        "date", "published", "published_at", "publishedDate", "date_published", "posted_on",
        "created_at", "time", "Time value", "time_of_posting ", "ngày", "ngày đăng", "datum",
        "fecha", "fecha_publicacion", "дата", "timestamp", "at", "stayDate", "Review Date",
    ],
    "email": ["email", "e-mail", "E-Mail", "email_address", "emailAddress", "correo"],
    "phone": [
        "phone", "phone_number", "phoneNumber", "tel", "telefon", "telephone", "mobile",
        "teléfono", "số điện thoại", "телефон", "phone_no",
    ],
    "url": [
        "url", "link", "href", "website", "website_url", "product_url", "img_link", "image",
        "imageUrl", "Photo URL", "logo", "src", "Ссылка", "Clean URL",
    ],
    "text": [
        "title", "name", "product_name", "description", "created_by", "posted_by", "product_id",
        "sku", "model_number", "order_number", "price_currency", "price_type", "review_text",
        "author", "Unique Key", "zip_code", "address", "category", "discount", "experience",
        "stock_status", "rating_text", "Descripcion", "tytul", "Название",
    ],
}  # fmt: skip


@pytest.mark.parametrize(
    ("name", "expected"), [(name, kind) for kind, names in NAMES.items() for name in names]
)
def test_name_decides_the_type(name, expected):
    assert name_type(name) == expected


@pytest.mark.parametrize(
    ("name", "hint"),
    [("reviews", "count"), ("Ratings", "rating"), ("stars", "rating"), ("data", "date"),
     ("note", "rating"), ("total", "count"), ("number", "count"), ("Rev_Rate", "rating"),
     ("Title link", None), ("Most Read", None), ("Product", None)],
)  # fmt: skip
def test_undecided_names_leave_the_values_to_decide(name, hint):
    assert name_type(name) is None
    assert name_hint(name) == hint


@pytest.mark.parametrize(
    ("name", "tokens"),
    [
        ("product_name", ("product", "name")),
        ("productName", ("product", "name")),
        ("ProductTitle", ("product", "title")),
        ("review-text", ("review", "text")),
        ("HTTPStatus", ("http", "status")),
        ("item2Price", ("item2", "price")),
        ("  price  ", ("price",)),
        ("Giá bán", ("giá", "bán")),
        ("Название", ("название",)),
        ("Wohnfläche (m²)", ("wohnfläche", "m²")),
        ("Gia\u0301", ("giá",)),
        (12, ("12",)),
        (("a", "b"), ("a", "b")),
    ],
)
def test_field_tokens_split_on_separators_and_camel_case_keeping_accents(name, tokens):
    assert field_tokens(name) == tokens
