"""A rating scale a crawl states once, and pattern types from what the values show when the
field names say nothing (SPEC §11, issue 28). Data shaped like real crawls, written for these
tests."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rlm_gym.quality import classify_pattern_type, judge_items
from rlm_gym.quality.judge import rating_scale
from rlm_gym.quality.pattern_types import value_roles


def _ratings(name, values):
    rows = [{"name": f"Ravintola {index}", name: value} for index, value in enumerate(values)]
    return judge_items(rows, ("name", name)).reasons[name]


def test_bare_scores_within_a_scale_stated_once_in_a_value_are_valid():
    assert _ratings("rating", ["8.5/10", "7.2", "9", "10", "6.1"]) == [""] * 5


@pytest.mark.parametrize("name", ["score_10", "Rating (/10)", "Note sur 10", "hodnocení (z 10)"])
def test_bare_scores_within_a_scale_stated_in_the_field_name_are_valid(name):
    assert _ratings(name, ["8", "9.5", "7"]) == [""] * 3


def test_bare_scores_of_a_column_within_0_to_10_are_on_the_10_point_scale():
    # SPEC §11 (revised 2026-11-27): IMDb's and Booking's bare 1-10 scores are valid.
    assert _ratings("rating", ["9", "10", "8", "4"]) == [""] * 4
    assert _ratings("Rating", ["10.0", "9.99590570719603", "7.5"]) == [""] * 3


@given(
    st.lists(st.floats(min_value=0, max_value=10).map(lambda x: round(x, 2)), min_size=1),
    st.floats(min_value=5.01, max_value=10).map(lambda x: round(x, 2)),
)
def test_any_column_within_0_to_10_with_a_score_above_5_is_valid_with_no_scale_stated(scores, high):
    values = [str(score) for score in [*scores, high]]
    assert _ratings("rating", values) == [""] * len(values)


def test_a_column_beyond_10_with_no_scale_stated_stays_on_0_to_5():
    assert _ratings("rating", ["9", "4", "11"]) == ["out of range", "", "out of range"]


def test_scores_scraped_x10_and_scores_beyond_the_stated_scale_stay_invalid():
    assert _ratings("rating", ["45", "43", "25"]) == ["out of range"] * 3
    assert _ratings("score_10", ["8", "45"]) == ["out of range"] * 2  # 45 is no score of 10
    assert rating_scale("score_100", [87, 92, 150]) == 5.0


@given(st.lists(st.floats(min_value=0, max_value=10).map(lambda x: round(x, 1)), min_size=1))
def test_any_column_within_a_stated_0_to_10_scale_is_valid(scores):
    values = ["7/10", *[str(score) for score in scores]]
    assert set(_ratings("rating", values)) == {""}


def test_value_roles():
    assert value_roles("text", ["Markets rally as rates fall again"] * 3) == {"title"}
    assert value_roles("count", ["85 m²", "120 m²", "64 m²"]) == {"property"}
    assert value_roles("text", ["Aino", "Eero"]) == {"name"}
    assert value_roles("text", [" ".join(["sana"] * 60)]) == {"body"}
    assert value_roles("date", ["2024-11-26"]) == frozenset()


def test_machine_made_keys_are_typed_by_what_their_values_show():
    articles = [
        {
            "sc-a1b2": f"Hallitus esittää uutta lakia energian hinnoista vuodelle {2020 + n}",
            "sc-d3": f"2024-11-{10 + n}",
            "sc-x9": f"https://yle.fi/a/74-{n}",
        }
        for n in range(6)
    ]
    events = [
        {"css-1": f"Jazzkväll {n}", "css-2": f"2024-12-0{n + 1}", "css-3": "Göteborg, Pustervik"}
        for n in range(6)
    ]
    homes = [
        {"k1": f"Byt {n}+kk", "k2": f"{3_500_000 + n * 100_000} Kč", "k3": f"{50 + n} m²"}
        for n in range(6)
    ]
    assert classify_pattern_type(articles) == "article_extraction"
    assert classify_pattern_type(events) == "event_listing"
    assert classify_pattern_type(homes) == "real_estate_listing"


def test_sentences_without_a_date_are_no_articles():
    rows = [
        {"repo_name": f"tool-{n}", "stars": n * 10, "about_info": "A fast tool for parsing logs"}
        for n in range(6)
    ]
    assert classify_pattern_type(rows) == "generic_extraction"


def test_fields_whose_names_say_nothing_speak_when_the_named_ones_lead_nowhere():
    rows = [
        {
            "id": f"a{n}",
            "otsikko": f"Hallitus esittää uutta lakia energian hinnoista vuodelle {2020 + n}",
            "päivämäärä": f"2024-11-{10 + n}",
        }
        for n in range(6)
    ]
    assert classify_pattern_type(rows) == "article_extraction"


def test_an_identifier_column_is_no_name_and_no_place():
    assert value_roles("text", ["669243738", "665381183", "679824659"]) == frozenset()
    listing = [{"id": f"66{n}243738", "price": f"{180 + n}000"} for n in range(6)]
    assert classify_pattern_type(listing) != "product_list"  # an id is not a product's name
    posts = [
        {
            "entry": f"a long forum post about topic {n} and more",
            "yazar": f"user{n % 3}a",
            "tarih": f"1999-06-{10 + n}",
            "entry_id": str(10204 + 7 * n),
        }
        for n in range(6)
    ]
    assert classify_pattern_type(posts) != "event_listing"  # an id is not an event's place
