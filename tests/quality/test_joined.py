"""Joined values and interface text (issue 22): each class with a value from the labelled
corpora (``devcorpus``) and a synthetic one of the same class that is in neither."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rlm_gym.quality import check_value
from rlm_gym.quality.joined import joined_reason, ui_text


@pytest.mark.parametrize(
    "value",
    [
        "Price: $9,980$165/mo est.",  # carfax (line 32): price and monthly estimate glued
        "£12,500£199/mo",  # synthetic
        "9.980€165€",  # synthetic, signs after the amounts
    ],
)
def test_two_amounts_glued_into_one_price_are_joined_values(value):
    assert check_value("price", value) == "joined values"


@pytest.mark.parametrize("value", ["$10 - $20", "$10-$20", "From $19.99/mo", "12€50", "€1.299,00"])
def test_a_range_or_one_amount_is_no_joined_price(value):
    assert check_value("price", value) == ""


@pytest.mark.parametrize(
    "value",
    [
        "0101-555-0101, 0102-555-0102",  # synthetic (the shape)
        "(212) 980-9099; (212) 980-9100; (646) 555-0199",  # synthetic, three numbers
    ],
)
def test_several_phone_numbers_in_one_field_are_joined_values(value):
    assert check_value("phone", value) == "joined values"


def test_several_email_addresses_in_one_field_are_joined_values():
    assert check_value("email", "info@cafe-luna.example, events@cafe-luna.example") == (
        "joined values"
    )


@pytest.mark.parametrize(
    "value",
    [
        "08:00 - 16:0017:30 - 22:00",  # openrice (line 57): two opening-hour ranges glued
        "Mo-Fr 9:00-12:0014:00-18:00",  # synthetic
    ],
)
def test_clock_time_ranges_glued_without_a_separator_are_joined_values(value):
    assert check_value("text", value) == "joined values"


@pytest.mark.parametrize(
    "value",
    [
        "https://shop.example/search?q=desk+lamp/item/12-brass-lamp",
        "https://www.example.org/listingshttps://www.example.org/listing/42",
    ],
)
def test_a_link_glued_onto_a_search_url_or_another_url_is_joined_values(value):
    assert check_value("url", value) == "joined values"


@pytest.mark.parametrize(
    "value",
    [
        "https://adsrv.hh.ru/click?b=533104&c=7&place=35",  # hh (line 46): a redirect, valid
        "https://shop.example/search?q=desk+lamp&page=2",
        "https://example.org/login?next=/account/orders",
    ],
)
def test_a_search_or_redirect_url_without_a_glued_path_is_valid(value):
    assert check_value("url", value) == ""


@pytest.mark.parametrize(
    "value",
    [
        "Awesome 🔥🔥☺️READ MORE",  # flipkartrm (line 62): the collapsed review's link text
        "Just go for it.Amazing one.Beautiful camera with super fast processorREAD MORE",
        "» Share your article with our readers",  # synthetic (the shape)
        "Sản phẩm dùng tốt, giao hàng nhanh. Xem thêm",  # synthetic, Vietnamese
        "Weiterlesen",  # synthetic, German
    ],
)
def test_link_or_button_text_in_a_text_field_is_ui_text(value):
    assert check_value("text", value) == "ui text"


@pytest.mark.parametrize(
    "value",
    [
        "We oversee more than 40 projects",
        "Learn more about Python in ten days",
        "Read more books this year",
        "The council plans to expand",
    ],
)
def test_content_that_mentions_a_ui_word_is_not_ui_text(value):
    assert not ui_text(value)


@pytest.mark.parametrize(
    "value",
    [
        "Rock &#039 n roll",  # synthetic (the shape): entity without its semicolon
        "AT&amp T Stadium tour",
        "Honda Civic 95918&amp;amp;49982",  # olx (line 31) shape
    ],
)
def test_html_entity_residue_inside_text_is_markup_residue(value):
    assert check_value("text", value) == "markup residue"


def test_a_long_stringified_list_is_a_stringified_container_however_long():
    body = "['" + "Bà Nguyễn Thị Tuyến được phân công phụ trách. " * 80 + "']"  # vnexpress shape
    assert check_value("text", body) == "stringified container"


@given(st.text(max_size=60))
def test_joined_reason_never_raises_and_is_a_known_reason(text):
    for kind in ("price", "phone", "email", "url", "text"):
        assert joined_reason(kind, text) in ("", "joined values")
    assert ui_text(text) in (True, False)


@pytest.mark.parametrize(
    "value",
    [
        "Area 71 SQ. M.Room 2Floor/Storeys 5/5",  # myrealty.am (world_a): three fields glued
        "Size 54 m2.Rooms 3Floor 2/9",  # synthetic
        "Πλήθος 2Όροφος 3.Εμβαδόν 80",  # noqa: RUF001 - synthetic, Greek
    ],
)
def test_labelled_fields_glued_into_one_text_are_joined_values(value):
    assert check_value("text", value) == "joined values"


@pytest.mark.parametrize(
    "value",
    ["iPhone 15Pro Max", "Samsung Galaxy S23Ultra", "PlayStation 5 Digital", "Room 2, Floor 3"],
)
def test_one_join_or_separated_fields_are_no_glued_fields(value):
    assert check_value("text", value) == ""
