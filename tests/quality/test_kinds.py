"""What a value looks like on its own: bare ratings, counts, prices and dates, and none of prose."""

from __future__ import annotations

import pytest

from rlm_gym.quality import value_kind


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("5 sao", "rating"),
        ("4.5 out of 5 stars", "rating"),
        ("★★★★☆", "rating"),
        ("4.5", "rating"),
        ("197 đánh giá", "count"),
        ("(2,920)", "count"),
        ("1.5K", "count"),
        ("45", "count"),
        ("$12.99", "price"),
        ("₦ 135,999", "price"),
        ("12.99", "price"),
        ("2024-01-05", "date"),
        ("2 days ago", "date"),
        ("March 4, 2024", "date"),
        ("iPhone 15", None),
        ("Nguyễn Văn A", None),
        ("Great phone, 5 stars!", None),
        ("Echo Presents Vagia Thursday 30 June Starts at 22:00", None),
        ("Apollo 13", None),
        ("Model 3", None),
        ("B4A", None),
        ("Mais de 200 candidaturas", None),
        ("https://x.com/1", None),
        (4.5, "rating"),
        (12, "count"),
        (12.99, "price"),
        (True, None),
        (None, None),
        (-3, None),
    ],
)
def test_value_kind_names_bare_ratings_counts_prices_and_dates(value, kind):
    assert value_kind(value) == kind


@pytest.mark.parametrize(
    "value",
    ["Item 3", "Product 12", "Artikel 7", "商品 5", "Test Product 14", "2008 Acura TL"],
)
def test_a_generic_name_with_a_number_is_no_count_or_price(value):
    # "2008 Acura TL" is carfax's (line 32) title: the lira code TL is the model's name there.
    assert value_kind(value) is None


@pytest.mark.parametrize("value", ["12 reviews", "Reviews: 12", "(12)", "Dibaca 34.743 kali"])
def test_a_count_with_its_unit_or_label_stays_a_count(value):
    assert value_kind(value) == "count"
