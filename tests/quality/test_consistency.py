"""Column-level consistency (issue 22): a column judged by its values as a whole and a row
against its columns. Each class has an example from the labelled corpora and a synthetic one
of the same class that is in neither."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rlm_gym.crawl import check_items, crawl_reward
from rlm_gym.quality.columns import column_type
from rlm_gym.quality.consistency import copied_columns, crossed_columns, symbol_column

NAMES = ["Desk lamp", "Kettle", "Wireless earbuds", "Standing fan", "Office chair", "Yoga mat"]


def _result(data, required):
    return {"success": True, "data": data, "extraction_schema": {"required": required}}


def test_a_price_column_of_counts_beside_a_count_column_of_names_is_crossed():
    columns = {"reviews": NAMES, "price": [f"({n})" for n in range(3, 9)]}
    assert crossed_columns(columns) == {"price": "price", "reviews": "count"}


def test_a_rating_column_of_prices_beside_a_price_column_of_dates_is_crossed():
    columns = {
        "rating": [f"${n}.99" for n in range(10, 16)],
        "price": [f"2024-03-{n:02d}" for n in range(1, 7)],
    }
    assert crossed_columns(columns) == {"rating": "rating", "price": "price"}


def test_a_price_column_of_bracketed_counts_alone_is_shifted():
    data = [{"title": name, "price": f"({n})"} for n, name in enumerate(NAMES, 3)]
    verdicts = check_items(_result(data, ["title", "price"]))
    assert all(verdict["price"] == (False, "shifted column") for verdict in verdicts)


def test_a_fully_shifted_crawl_is_never_excellent():
    data = [
        {"name": f"https://shop.example/p/{i}", "reviews": n, "price": f"({i + 3})"}
        for i, n in enumerate(NAMES * 2)
    ]
    signal = crawl_reward(_result(data, ["name", "reviews", "price"]))
    assert signal.details["tier"] != "excellent"
    assert len(signal.details["defects"]) >= 2


def test_columns_of_bare_numbers_are_not_crossed():
    # loscoches (line 33): a year column and a peso price column of bare numbers
    columns = {"year": ["2013", "2010", "2008"] * 2, "Price": ["31.800.000", "86.900.000"] * 3}
    assert crossed_columns(columns) == {}


def test_a_rating_column_of_grouped_counts_is_a_count_column():
    # goodreads (line 39): "Rating" holds rating counts; synthetic: a film site's "Score"
    assert column_type("Rating", ["698,883", "1,002,966", "916,840"]) == "count"
    assert column_type("Score", ["1,204,331", "88,102", "3,455"]) == "count"


def test_a_field_repeating_the_items_name_is_a_copy():
    # openrice (line 57): the Address field holds the restaurant's name on every row
    rows = [{"Name": name, "Address": name} for name in NAMES]
    assert copied_columns(rows, ["Name", "Address"], 5) == {"Address": "Name"}
    verdicts = check_items(_result(rows, ["Name", "Address"]))
    assert all(v["Address"] == (False, "copy of another field") for v in verdicts)


def test_a_field_that_repeats_the_name_on_few_items_is_no_copy():
    rows = [{"name": name, "brand": "Kettle"} for name in NAMES]  # one item's brand = its name
    assert copied_columns(rows, ["name", "brand"], 5) == {}


def test_a_lone_currency_sign_in_a_currency_column_is_the_whole_value():
    # hh (line 46): "currency" holds "₽"; synthetic: a "Währung" column of "€"
    data = [{"name": n, "currency": sign} for n, sign in zip(NAMES, "₽$€₽€$", strict=True)]
    assert all(
        v["currency"] == (True, "") for v in check_items(_result(data, ["name", "currency"]))
    )
    assert symbol_column("text", frozenset({"currency"}), ["€"])


def test_a_lone_sign_in_a_column_of_price_levels_is_the_lowest_level():
    # beliapp (line 58): "$" among "$$", "$$$"; synthetic: a "€" among "€€", "€€€"
    levels = ["€€", "€", "€€€", "€€", "€", "€€€€"]
    data = [{"name": n, "price": level} for n, level in zip(NAMES, levels, strict=True)]
    assert all(v["price"] == (True, "") for v in check_items(_result(data, ["name", "price"])))


@given(
    st.dictionaries(
        st.sampled_from(["name", "price", "reviews", "rating", "date", "url"]),
        st.lists(st.text(max_size=12) | st.integers(), min_size=1, max_size=8),
    )
)
def test_crossed_columns_only_names_given_columns_with_their_named_type(columns):
    crossed = crossed_columns(columns)
    assert set(crossed) <= set(columns)
    assert set(crossed.values()) <= {"text", "price", "rating", "count", "date", "url"}
