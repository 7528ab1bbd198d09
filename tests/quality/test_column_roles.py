# ruff: noqa: RUF001 - the units and names of other scripts are the point
"""Column roles from values, and the pattern types they give when the names say nothing."""

from __future__ import annotations

from rlm_gym.quality.column_roles import COLUMN_ROLES, column_roles, value_role
from rlm_gym.quality.pattern_types import classify_columns, classify_pattern_type


def test_engine_units_in_any_language_make_an_engine_column():
    # (Polish horsepower, "KM", is left out: it is written like kilometres.)
    for unit in ("cm³", "cm3", "PS", "hp", "kW", "cv", "л. с.", "馬力"):
        values = [f"{size} {unit}" for size in (75, 110, 150, 1598, 2967)]
        assert value_role("text", values) == "engine", unit


def test_distances_are_no_engine():
    assert value_role("text", ["2 km", "5 km", "12 km"]) != "engine"


def test_few_short_values_repeated_are_a_category():
    assert value_role("text", ["Diesel", "Benzin", "Hybrid"] * 5) == "category"
    assert value_role("text", [f"Person {n}" for n in range(15)]) == "name"


def test_a_short_column_with_too_few_rows_is_no_category():
    assert value_role("text", ["Diesel", "Benzin"] * 3) == "name"


def test_descriptions_that_mention_an_area_describe_a_property():
    text = "{n},5 m², 3 rooms, built in 1990, second floor, quiet street near the park"
    assert value_role("text", [text.format(n=n) for n in range(40, 50)]) == "property_text"


def test_texts_without_letters_are_identifiers_and_prose_is_long_text():
    assert value_role("text", ["669243738", "665381183", "A-17/3"]) == "identifier"
    assert value_role("text", [" ".join(["word"] * 60)] * 3) == "long_text"


def test_a_column_that_numbers_the_rows_is_an_identifier():
    assert value_role("count", [str(n) for n in range(1, 13)]) == "identifier"
    assert value_role("count", ["12", "7", "40", "3", "9"]) == "count"


def test_value_types_are_their_own_role():
    assert value_role("price", ["$12"]) == "amount"
    assert value_role("date", ["2024-11-26"]) == "date"
    assert value_role("url", ["https://example.org/a"]) == "url"


def test_a_name_breaks_the_tie_of_a_short_text():
    roles = column_roles({"city": ["Lyon", "Nice"], "company": ["Acme SA", "Globex"]})
    assert roles == {"city": "place", "company": "organisation"}


def test_the_values_win_over_the_name():
    assert column_roles({"city": ["85 m²", "120 m²", "64 m²"]}) == {"city": "area"}


def test_every_role_given_is_listed():
    columns = {
        "a": ["85 m²", "64 m²"],
        "b": ["Diesel", "Benzin"] * 6,
        "c": ["12 €", "9 €"],
        "d": ["Aino", "Eero"],
        "city": ["Lyon", "Nice"],
    }
    assert set(column_roles(columns).values()) <= set(COLUMN_ROLES)


def _cars(count: int = 12) -> list[dict[str, str]]:
    makes = ("Audi", "Fiat", "Ford")
    return [
        {
            "k1": makes[n % 3],
            "model": f"A{n} 2.0 TDI",
            "k2": f"{1000 + 97 * n} cm3",
            "k3": f"{90 + n} KM",
            "k4": ("Diesel", "Benzyna")[n % 2],
        }
        for n in range(count)
    ]


def test_named_cars_with_engine_specifications_are_a_product_list():
    assert classify_pattern_type(_cars()) == "product_list"


def test_companies_with_an_industry_column_are_a_directory():
    industries = ("Food", "Construction", "Machinery")
    items = [{"No": str(n), "company": f"Firm {n} Ltd", "k": industries[n % 3]} for n in range(12)]
    assert classify_pattern_type(items) == "business_listing"


def test_prose_with_a_link_and_nothing_else_is_articles():
    items = [
        {
            "k0": str(n),
            "k1": ("Sport", "World", "Business")[n % 3],
            "k2": f"https://news.example/story-{n}",
            "k3": " ".join(["sentence words of a story"] * 12),
        }
        for n in range(12)
    ]
    assert classify_pattern_type(items) == "article_extraction"


def test_prose_with_links_and_counts_is_no_article():
    items = [
        {
            "name": f"tool-{n}",
            "stars": str(10 * n),
            "forks": str(n),
            "url": f"https://code.example/tool-{n}",
            "readme": " ".join(["install the tool and run it"] * 12),
        }
        for n in range(12)
    ]
    assert classify_pattern_type(items) != "article_extraction"


def test_named_places_with_an_address_and_a_category_are_a_business_listing():
    items = [
        {
            "name": f"Museum {n}",
            "address": f"{n} Harbour Road, Springfield",
            "k": ("museum", "park")[n % 2],
        }
        for n in range(12)
    ]
    assert classify_pattern_type(items) == "business_listing"


def test_priced_ads_whose_summary_gives_an_area_are_real_estate():
    items = [
        {
            "k1": f"Town {n}",
            "k2": f"{40 + n},5 m2, 2 rooms, built 1990, first floor, for sale now",
            "k3": f"{95000 + 1000 * n} €",
        }
        for n in range(12)
    ]
    assert classify_pattern_type(items) == "real_estate_listing"


def test_prices_tracked_for_one_shop_are_prices_not_products():
    items = [
        {
            "Link": f"https://compare.example/item/{n}",
            "Keyword": "myshop.example",
            "Status": ("Available", "Not-Available")[n % 2],
            "Our price": f"{80 + n},20 €",
            "Their price": f"{90 + n},20 €",
        }
        for n in range(12)
    ]
    assert classify_pattern_type(items) == "price_extraction"


def test_places_with_opening_hours_and_a_price_range_are_businesses_not_property():
    items = [
        {
            "Name": f"Noodle Bar {n}",
            "Address": f"{n} Queen's Road, Central",
            "Price Range": "$101-200",
            "Opening Hours": "Mon-Sun 11:00-22:00",
        }
        for n in range(12)
    ]
    assert classify_pattern_type(items) == "business_listing"


# Pattern types when a column's values overruled its name (SPEC §11, values before names);
# every row below is hand-written.
def test_priced_ads_whose_title_holds_their_area_are_real_estate():
    rows = [
        {"url": f"https://ads.example/{n}", "price": f"{n}50 €", "title": f"{60 + n} m²"}
        for n in range(1, 8)
    ]
    assert classify_pattern_type(rows) == "real_estate_listing"


def test_named_rated_and_dated_films_with_a_cast_are_a_catalogue_not_reviews():
    casts = ["Ann Lee, Bo Kim", "Cy Ray, Di Fox", "Ed Moss, Flo Ng", "Gus Hart, Hal Ito"]
    rows = [
        {"title": f"Film {n}", "score": f"9.{n}", "star": cast, "time": f"199{n}-05-01"}
        for n, cast in enumerate(casts * 2)
    ]
    assert classify_pattern_type(rows) == "product_list"


def test_a_rating_with_its_reviewer_and_date_stays_a_review():
    rows = [
        {"author": f"User {n}", "rating": f"{n % 5 + 1}", "date": f"2024-03-0{n + 1}"}
        for n in range(6)
    ]
    assert classify_pattern_type(rows) == "review_extraction"


def test_posts_beside_their_employers_are_jobs():
    rows = [
        {
            "jobname": f"Data analyst {n}",
            "company": f"Acme {n} Ltd",
            "location": "Bangkok",
            "time": f"2{n} Apr 2024",
        }
        for n in range(6)
    ]
    assert classify_pattern_type(rows) == "job_listing"


def test_people_with_their_company_and_a_phone_are_contacts_not_jobs():
    rows = [
        {"name": f"Ann Lee {n}", "company": f"Acme {n} Ltd", "phone": f"+1 555 010 {n:04d}"}
        for n in range(6)
    ]
    assert classify_pattern_type(rows) != "job_listing"


def test_dated_prose_with_its_link_and_a_word_count_is_an_article():
    types = {"source_url": "url", "access_datetime": "date", "content": "text", "count": "count"}
    assert classify_columns(types) == "article_extraction"
    assert classify_columns({**types, "price": "price"}) != "article_extraction"
