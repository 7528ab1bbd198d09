"""Values before names (SPEC §11): a column's values decide its type where they are clear;
the name breaks ties. Every column here is hand-written or generated, never a corpus value."""

from __future__ import annotations

from rlm_gym.quality.column_roles import type_from_values
from rlm_gym.quality.judge import SECTION_HEADING, judge_items

CAST = [
    "Anna Kowalska, Jan Nowak, Ewa Lis",
    "Maria Lis, Piotr Wójcik",
    "Ewa Zając, Adam Bąk, Olga Sowa",
    "Ola Kot, Igor Ptak",
    "Zofia Dąb, Tomasz Lew, Iga Mak",
    "Marek Wilk, Ada Kruk",
]
EXPERIENCE = ["1-3 yrs", "3-5 yrs", "any", "graduate", "5-10 yrs", "under 1 yr"] * 3
AREAS = ["85 m²", "120 m²", "64 m²", "99 m²", "45 m²", "72 m²"]


def test_people_under_a_rating_name_are_text():
    assert type_from_values("rating", CAST) == "text"


def test_scores_under_a_rating_name_stay_ratings():
    assert type_from_values("rating", ["4.5", "3.9", "8.7", "9", 7, "2.5"]) == "rating"


def test_a_repeated_handful_of_requirements_under_a_date_name_is_text():
    assert type_from_values("date", EXPERIENCE) == "text"


def test_areas_under_a_title_name_are_counts():
    assert type_from_values("text", AREAS) == "count"


def test_mostly_prices_with_a_few_words_stay_prices():
    prices = [f"{n} 000 €" for n in range(10, 19)] + ["Call us"]
    assert type_from_values("price", prices) == "price"


def test_too_few_distinct_values_do_not_decide():
    assert type_from_values("count", ["Private seller"] * 25) == "count"
    assert type_from_values("rating", CAST[:3]) == "rating"


def test_labelled_values_do_not_read_as_words():
    labelled = [f"Price: ${n},980${n}5/mo est." for n in range(1, 9)]
    assert type_from_values("price", labelled) == "price"


def test_a_role_another_column_plays_is_not_given_twice():
    stars = [f"{n}.5 out of 5 stars" for n in range(5)] + ["2 out of 5 stars"]
    assert type_from_values("price", stars) == "rating"
    assert type_from_values("price", stars, taken=["text", "rating"]) == "price"


def test_the_judge_reads_a_cast_column_as_text_and_scores_as_ratings():
    rows = [
        {"title": f"Film {n}", "star": cast, "score": f"{9 - n / 10:.1f}"}
        for n, cast in enumerate(CAST)
    ]
    judgement = judge_items(rows, ("title", "star", "score"))
    assert judgement.types["star"] == "text" and judgement.types["score"] == "rating"
    assert judgement.reasons["star"] == [""] * len(CAST)


def test_a_column_copying_its_neighbour_keeps_its_name():
    # A selector that grabbed the next column: the price holds the availability of each row.
    stock = ["in stock", "out of stock", "pre-order", "limited stock", "back soon", "in store"]
    rows = [{"name": f"Lamp {n}", "price": s, "availability": s} for n, s in enumerate(stock)]
    judgement = judge_items(rows, ("name", "price", "availability"))
    assert judgement.types["price"] == "price"
    assert all(judgement.reasons["price"])


def test_a_title_of_areas_is_not_a_shifted_column():
    rows = [{"title": area, "price": f"{n}50 000 €"} for n, area in enumerate(AREAS)]
    assert judge_items(rows, ("title", "price")).reasons["title"] == [""] * len(AREAS)


def test_a_city_heading_alone_in_its_record_is_a_heading_row():
    rows = [{"job_title": "Berlin", "salary": "", "experience": ""}]
    rows += [
        {"job_title": f"Backend developer {n}", "salary": f"{n}k-{n + 5}k", "experience": "1-3"}
        for n in range(3, 11)
    ]
    reasons = judge_items(rows, ("job_title", "salary", "experience")).reasons["job_title"]
    assert reasons[0] == SECTION_HEADING and reasons[1:] == [""] * 8


def test_a_record_missing_its_other_fields_keeps_a_long_title():
    rows = [{"title": "Quarterly report on regional trade", "url": "", "body": ""}]
    rows += [{"title": f"Report {n} on trade", "url": f"/r/{n}", "body": "Text."} for n in range(6)]
    assert judge_items(rows, ("title", "url", "body")).reasons["title"][0] == ""


def test_company_names_under_a_price_name_are_text():
    shops = [
        "Nordic Books AB",
        "Kindle Store",
        "Kobo Inc.",
        "Amazon Europe",
        "Libris Oy",
        "Adlibris",
    ]
    assert type_from_values("price", shops * 2) == "text"


def test_categories_under_a_count_name_are_text():
    kinds = ["apartment", "house", "studio", "loft", "villa", "cottage"]
    assert type_from_values("count", kinds * 4) == "text"


def test_people_under_a_date_name_are_text():
    people = ["Ana Souza", "Bruno Lima", "Carla Dias", "Davi Rocha", "Elisa Melo", "Fábio Reis"]
    assert type_from_values("date", people) == "text"
