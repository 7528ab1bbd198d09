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


# Issue 22: each class with the corpus crawl it comes from and a synthetic example beside it.
@pytest.mark.parametrize(
    ("item", "expected"),
    [
        # vehicles for sale are products, not real estate (carfax line 32; synthetic German)
        ({"Title": "2008 Acura TL", "Cost": "$9,980", "Miles": "84,000 mi", "Body": "Sedan"},
         "product_list"),
        ({"titel": "VW Golf", "preis": "9.500 €", "kilometerstand": "85.000 km",
          "adresse": "Berlin"}, "product_list"),
        # a rated catalogue of books with their author: no reviews (goodreads lines 39, 41)
        ({"title": "To Kill a Mockingbird", " author": "Harper Lee", " rating": "4.28"},
         "product_list"),
        ({"album": "Blue", "name": "Blue", "author": "Joni Mitchell", "stars": "4.6"},
         "product_list"),
        # a named place with a category or opening hours (beliapp 58, openrice 57; synthetic)
        ({"Name": "4 Charles Prime Rib", "Price": "$$$", "Categories": "Steakhouse",
          "Neighborhood": "West Village", "Rating": "4.5"}, "business_listing"),
        ({"nombre": "Bar Pepe", "ubicación": "Madrid", "horario": "9-22",
          "precio": "€€"}, "business_listing"),
        # a club or team directory (transfermarkt 63; lehigh 59 with e-mails)
        ({"club_name": "Red Bull Salzburg", "avg_age": "31", "total_market_value": "€179.50m"},
         "generic_extraction"),
        ({"society": "Chess Society", "email": "chess@uni.example"}, "contact_info"),
        # a named post with a salary or its skills (hh 46, djinni 49; synthetic)
        ({"name": "Менеджер по продажам", "lower_salary": "150000", "currency": "₽"},
         "job_listing"),
        ({"title": "Junior Python Developer", "technologies": "Python, SQL"}, "job_listing"),
        # a city guide: a name with a date and a place (visitseattle 50; synthetic French)
        ({"Name": "Wayfinders", "Date & Time": "Now through 1/28/2024",
          "Location": "National Nordic Museum"}, "event_listing"),
        ({"nom": "Fête de la musique", "date": "2024-06-21", "ville": "Lyon"}, "event_listing"),
        # an article with comment threads or a search score (vnexpress 51, rbc 53)
        ({"title": "Hà Nội phân công", "body": "Bà Nguyễn ...", "date": "26/10/2020",
          "comment": "Hay quá", "user": "minh"}, "article_extraction"),
        ({"title": "«Известия» напомнили", "text": "Под налог ...",
          "publish_date": "2024-10-30T10:16:41+03:00", "_score": "1"}, "article_extraction"),
        # a rent in money and an area in metres (lianjia 44; synthetic)
        ({"title": "三花现代城 2室2厅", "money": "6400", "meters": "90平米"},
         "real_estate_listing"),
        ({"listing": "Flat in Leeds", "money": "£950", "metres": "64"}, "real_estate_listing"),
    ],
)  # fmt: skip
def test_issue_22_pattern_classes(item, expected):
    assert classify_pattern_type([item] * 3) == expected
