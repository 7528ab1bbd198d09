"""Field checks: a table of accepted and rejected values, chosen by field-name tokens."""

from __future__ import annotations

import datetime as dt

import pytest

from rlm_gym.crawl.fields import (
    check_field,
    field_check,
    field_tokens,
    is_empty,
    is_meaningful,
    parse_number,
)

ACCEPTED = [
    ("price", 999.99),
    ("price", 1),
    ("price", "$1,299.99"),
    ("price", "1.299.000đ"),
    ("price", "1 299,99 €"),
    ("price", "VND 250000"),
    ("price", "250.000 VNĐ"),
    ("price", "1,299"),
    ("price", "€12,50"),
    ("price", "US$ 5"),
    ("price", "1\u00a0299,99 €"),
    ("salePrice", "¥1000"),
    ("shipping_cost", "30.000₫"),
    ("amount", "1.299,99"),
    ("rating", 4.5),
    ("rating", 0),
    ("rating", 5),
    ("rating", "4.5"),
    ("rating", "4.5/5"),
    ("rating", "4,5"),
    ("stars", 3),
    ("rating_count", 1523),
    ("review_count", "1,523"),
    ("total", 0),
    ("published_date", "2024-03-12"),
    ("published_date", "2024-03-12T10:00:00Z"),
    ("published_date", "2024-03-12T10:00:00+07:00"),
    ("date", "Tue, 12 Mar 2024 10:00:00 +0000"),
    ("date", "12/03/2024"),
    ("date", "2024/03/12"),
    ("date", "12 March 2024"),
    ("date", "March 12, 2024"),
    ("updated", dt.date(2024, 3, 12)),
    ("timestamp", 1710201600),
    ("title", "iPhone 15"),
    ("title", "Áo thun nam"),
    ("price_currency", "VND"),
    ("product_id", "SKU-1"),
    ("created_by", "Nguyễn Văn A"),
    ("in_stock", True),
    ("tags", ["sale"]),
    ("description", 0),
]

REJECTED = [
    ("price", 0),
    ("price", -5),
    ("price", "Liên hệ"),
    ("price", "N/A"),
    ("price", "$"),
    ("price", "1,29,9"),
    ("price", True),
    ("price", float("nan")),
    ("price", None),
    ("price", ""),
    ("rating", 5.1),
    ("rating", -0.5),
    ("rating", "9/10"),
    ("rating", "five"),
    ("rating", False),
    ("rating_count", -1),
    ("review_count", "many"),
    ("date", "31/02/2024"),
    ("date", "yesterday"),
    ("date", "N/A"),
    ("date", "2024-13-01"),
    ("published", ""),
    ("title", "N/A"),
    ("title", "n/a"),
    ("title", " null "),
    ("title", "None"),
    ("title", "unknown"),
    ("title", "Undefined"),
    ("title", "NaN"),
    ("title", "-"),
    ("title", "   "),
    ("title", "x"),
    ("title", None),
    ("tags", []),
    ("specs", {}),
]


@pytest.mark.parametrize(("field", "value"), ACCEPTED)
def test_field_check_accepts(field, value):
    assert check_field(field, value) is True


@pytest.mark.parametrize(("field", "value"), REJECTED)
def test_field_check_rejects(field, value):
    assert check_field(field, value) is False


def test_the_table_covers_at_least_forty_values():
    assert len(ACCEPTED) + len(REJECTED) >= 40


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
    ],
)
def test_field_tokens_split_on_separators_and_camel_case(name, tokens):
    assert field_tokens(name) == tokens


@pytest.mark.parametrize(
    ("name", "check"),
    [
        ("rating_count", "is_count"),
        ("price_total", "is_count"),
        ("unitPrice", "is_meaningful"),
        ("price_type", "is_meaningful"),
        ("publishedDate", "is_date"),
        ("author_updated_by", "is_meaningful"),
        ("stars", "is_rating"),
        ("headline", "is_meaningful"),
    ],
)
def test_first_matching_row_of_the_table_picks_the_check(name, check):
    assert field_check(name).__name__ == check


def test_both_thousands_conventions_give_the_same_number():
    assert parse_number("1,299.99") == parse_number("1.299,99") == parse_number("1 299,99")


def test_single_separator_before_three_digits_is_thousands():
    assert parse_number("1.299") == 1299.0
    assert parse_number("0.125") == 0.125


def test_empty_values_are_exactly_none_empty_string_list_and_dict():
    assert [is_empty(v) for v in (None, "", [], {})] == [True] * 4
    assert not any(is_empty(v) for v in (0, 0.0, False, " ", (), "0"))


def test_booleans_are_not_numbers_but_are_meaningful_values():
    assert not check_field("price", True)
    assert not check_field("item_count", False)
    assert is_meaningful(False)
