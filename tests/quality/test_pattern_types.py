"""Pattern-type classification: from the roles of field names and the value types of columns."""

from __future__ import annotations

import pytest

from rlm_gym.quality import classify_pattern_type


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        (["product_name", "price", "rating"], "product_list"),
        (["headline", "author", "content"], "article_extraction"),
        (["title", "price", "reviews"], "product_with_reviews"),
        (["product_title", "cost", "review_text"], "product_with_reviews"),
        (["name", "amount", "feedback"], "product_with_reviews"),
        (["name", "price", "review_count"], "product_list"),
        (["productName", "imageUrl"], "product_list"),
        (["sku", "price"], "price_extraction"),
        (["sku", "discount"], "price_extraction"),
        (["reviewer", "rating", "comment"], "review_extraction"),
        (["stars"], "generic_extraction"),
        (["title", "body"], "article_extraction"),
        (["published", "url"], "article_extraction"),
        (["email", "phone", "address"], "contact_info"),
        (["contact_person"], "contact_info"),
        (["url", "image"], "generic_extraction"),
        (["Job Title", "Company Name", "Location"], "job_listing"),
        (["title", "company", "location", "job_type"], "job_listing"),
        (["position", "salary"], "job_listing"),
        (["event_name", "venue", "start_date"], "event_listing"),
        (["Название", "Дата", "Место"], "event_listing"),
        (["event", "starts_at"], "event_listing"),
        (["cena", "powierzchnia", "dzielnica"], "real_estate_listing"),
        (["Precio", "Superficie", "Descripcion"], "real_estate_listing"),
        (["title", "price", "address", "seller"], "real_estate_listing"),
        (["kaltmiete", "zimmer"], "real_estate_listing"),
        (["business_name", "address", "phone", "category"], "business_listing"),
        (["name", "rating_score", "cuisines", "cost"], "business_listing"),
        (["name", "phone", "address"], "contact_info"),
        (["title"], "article_extraction"),
        (["Product Name", "Brand", "Reviews"], "product_with_reviews"),
    ],
)
def test_classify_pattern_type(fields, expected):
    assert classify_pattern_type([dict.fromkeys(fields, "x")]) == expected


def test_classify_uses_the_union_of_all_items_fields():
    data = [{"product_name": "A"}, {"price": 10}, {"comments": ["ok"]}, "not a dict"]
    assert classify_pattern_type(data) == "product_with_reviews"


@pytest.mark.parametrize("data", [[], None, ["text", 3], [{}]])
def test_classify_without_fields_is_generic(data):
    assert classify_pattern_type(data) == "generic_extraction"


def test_a_reviews_column_of_counts_is_not_review_text():
    data = [{"name": f"Ấm {i}", "price": "199.000đ", "reviews": f"({i + 1},920)"} for i in range(5)]
    assert classify_pattern_type(data) == "product_list"


def test_a_rating_with_a_reviewer_and_a_date_is_a_review():
    data = [{"reviewer": "Ana", "stars": 4, "date": f"2024-03-0{i}"} for i in range(1, 4)]
    assert classify_pattern_type(data) == "review_extraction"


def test_a_column_of_star_ratings_is_a_rating_whatever_its_name():
    data = [{"reviewer": "Ana", "x": f"{i}.5 out of 5 stars"} for i in range(1, 4)]
    assert classify_pattern_type(data) == "review_extraction"
