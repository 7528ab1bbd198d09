"""Column typing: the values decide where the name does not, and rating-ish and count-ish names
meet values they do not expect. Formats from real pages, written for these tests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym.quality import FIELD_TYPES, check_value, column_type, value_kind
from tests.quality.json_values import JSON


@pytest.mark.parametrize(
    ("name", "values", "expected"),
    [
        ("Ratings", ["4.5 out of 5 stars", "3.9 out of 5 stars", None], "rating"),
        ("reviews", ["(2,920)", "(15)", "(1.2K)"], "count"),
        ("reviews", ["Great kettle, boils fast.", "Stopped working after a week."], "text"),
        ("reviews", [[{"author": "A", "rating": 5, "text": "Good"}]], "text"),
        ("stars", ["46.3k", "882", "2.1k", "107k"], "count"),
        ("stars", ["4.49", "5", "4.22"], "rating"),
        ("score", ["1234", "45", "3456", "12,000"], "count"),
        ("score", ["5", "2", "1"], "rating"),
        ("rating", ["45", "43", "25"], "rating"),
        ("ratings", ["47", "9", "51"], "count"),
        ("data", ["2024-01-05", "2024-02-11"], "date"),
        ("data", ["Some scraped paragraph of text", "another one"], "text"),
        ("Title link", ["Jazz workshop", "Live acoustic night"], "text"),
        ("Title link_link", ["http://allevents.in/a/1", "http://allevents.in/b/2"], "url"),
        ("Most Read", ["Dibaca 34.743 kali", "Dibaca 28.001 kali"], "count"),
        ("mov", ["Min. 14,90 €", None, "Min. 17,90 €"], "price"),
        ("contact", ["info@example.com", "sales@example.org"], "email"),
        ("col_7", ["+84 28 1234 5678", "(212) 980-9099"], "phone"),
        ("when", [], "date"),
        ("whatever", [], "text"),
        ("whatever", ["N/A", "", None, "-"], "text"),
        ("price", ["Liên hệ", "N/A"], "price"),
        (7, ["a", "b"], "text"),
    ],
)
def test_column_type_reads_the_values_where_the_name_does_not_decide(name, values, expected):
    assert column_type(name, values) == expected


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30) | st.integers() | st.floats(), st.lists(JSON, max_size=8))
def test_column_type_and_value_kind_never_raise(name, values):
    assert column_type(name, values) in FIELD_TYPES
    for value in values:
        assert value_kind(value) in {None, "rating", "count", "price", "date"}


@pytest.mark.parametrize(
    ("name", "values", "expected"),
    [
        ("rate", ["9.7", "9.6", "9.5", "9.4"], "rating"),
        ("rates", [8.9, 9.1, 7.6], "rating"),
        ("stars", ["7.5", "8.0", "6.9"], "rating"),
        ("rate", ["4.5", "3.9"], "rating"),
        ("rate", ["$120 / night", "$95 / night"], "price"),
        ("rate", ["12.99", "15.49"], "price"),
        ("staff", ["Director: Sofia Coppola / Cast: Bill Murray", "Director: Wong Kar-wai"],
         "text"),
        ("staff", ["12", "250", "48"], "count"),
        ("employees", ["50 - 249", "10 - 49", "1,000 - 9,999"], "count"),
        ("members", ["Alice Martin, Bruno Costa and Chen Wei", "Dara Okafor, Eli Stern"], "text"),
        ("reviews_count", ["Be the first to review this product 1", "12 reviews"], "count"),
        ("建筑面积", ["89.5平米", "120平米"], "count"),
        ("挂牌价", ["325", "159"], "price"),
        ("单价", ["21048元/平米", "18000元/平米"], "price"),
        ("首付", ["98", "48"], "price"),
        ("挂牌时间", ["2024-03-01", "2024-02-11"], "date"),
        ("小区名", ["阳光花园", "锦绣城"], "text"),
        ("価格", ["¥3,980", "¥12,800"], "price"),
        ("평점", ["4.5", "3.8"], "rating"),
    ],
)  # fmt: skip
def test_rating_ish_and_count_ish_names_meet_their_values(name, values, expected):
    assert column_type(name, values) == expected


def test_a_rating_column_of_ten_point_scores_holds_out_of_range_values():
    assert column_type("rate", ["9.7", "9.6"]) == "rating"
    assert check_value("rating", "9.7") == "out of range"
    assert check_value("rating", "9.7/10") == ""
