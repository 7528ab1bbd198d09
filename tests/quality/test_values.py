"""Value checks: worldwide value formats per type with their reasons, robustness on arbitrary
JSON values, records and numbers.

The value tables are formats seen on real pages around the world (shops, classifieds, review
sites, news, job boards), written for these tests, not taken from the real-data corpus.
"""

from __future__ import annotations

import datetime as dt
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym.quality import FIELD_TYPES, REASONS, check_value, column_type, value_kind
from tests.quality.json_values import JSON

VALID: dict[str, list] = {
    "price": [
        "$19.99", "€1.299,00", "1 299,99 €", "£12", "¥3,980", "₹1,49,999", "₩25,000",
        "R$ 1.299,90", "CHF 49.90", "1.299 kr", "49,99 zł", "Rs. 2,499", "Rp 150.000",
        "RM 39.90", "HK$ 88", "US $12.99", "12.99 USD", "PEN 1,299", "S/ 129.90", "₦ 135,999",
        "৳ 1,199", "EGP 5,099", "TL 299,90", "₱1,299.00", "250.000đ", "From $19.99",
        "$19.99/mo", "£1,250 pcm", "approx. 500 €", "ab 19,99 €", "À partir de 29 €",
        "od 1 299 zł", "от 1 990 ₽", "Từ 99.000đ", "$10 - $20", "$1.2K", "Free", "Kostenlos",
        "Gratis", "Free shipping", "$$", "€€€", "$50,000 - $70,000 a year",
        "From $18 an hour", "12,50 €/kg", "Sale price $12.99", 12.5, 1099,
        {"value": 1099, "currency": "EUR"}, {"amountMin": 10, "amountMax": 20},
        {"@type": "Offer", "price": "12.99", "priceCurrency": "USD"}, ["$10", "$12"],
    ],
    "rating": [
        "4.5", "4,5", 4.5, 0, 5, "4.5/5", "4,5/5", "9/10", "8.5/10", "4.5 out of 5",
        "4.5 out of 5 stars", "Rated 4.5 out of 5", "4.5 stars", "1 star", "5 sao", "4 étoiles",
        "4,5 Sterne", "4,5 von 5 Sternen", "4 estrellas", "4,5 de 5 estrelas", "4.5★",
        "★★★★☆", "⭐⭐⭐⭐", "Three", "Five", "88%", "4.6 (1,234)", "Rating: 4.2", "4.5 из 5",
        {"ratingValue": "4.5", "bestRating": "5"}, "4.5 star rating", "4.5 of 5 bubbles",
        "4.5/5.0", "Note : 4,5/5",
    ],
    "count": [
        "2,920", "(2,920)", "(1.431)", "1.5K", "12K+", "1,000+ sold", "197 đánh giá",
        "1,234 ratings", "1 234", "0", 0, "1.2M", "46.3k", "10+", "50 - 249", "3 reviews",
        "Over 1,000", "3 тыс. отзывов", "2,5 mil", "1.2万", "500+ bought in past month",
        "45 mins", "1 hr 30 mins", "PT45M", "85 m²", "1,200 sq ft", "3 beds", "28 sold",
        "0 Votes for helpful, 0 Comments", "Mais de 200 candidaturas", 65.5, "3 bds", "123 points",
    ],
    "date": [
        "2024-01-05", "2024-01-05T10:00:00Z", "2024-01-05T10:00:00.000Z", "2024-01-05 10:00:00",
        "2024-01-05T10:00:00+07:00", "Tue, 12 Mar 2024 10:00:00 +0000", "05/13/2023",
        "13/05/2023", "13.05.2023", "2023/05/13", "12 March 2024", "March 12, 2024",
        "01 Mai 2023", "3 de marzo de 2024", "12. März 2024", "12 marca 2024",
        "30 марта в 19:00", "12 Maret 2024", "ngày 12 tháng 3 năm 2024", "2 days ago",
        "an hour ago", "just now", "yesterday", "Today", "Tomorrow", "Há 1 semana",
        "hace 2 días", "vor 3 Tagen", "il y a 3 jours", "3 giorni fa", "3 dni temu",
        "3 дня назад", "2 hari yang lalu", "2 ngày trước", "3 gün önce",
        "Dined on August 16, 2024", "Reviewed in the United States on March 3, 2024",
        "Posted 30+ days ago", "Jul 01", "Thursday, 30 June 2022", "2024", "19:00", "(1994)",
        "2024年3月12日", "Just posted",
        1710201600, "20240305", dt.date(2024, 3, 12),
    ],
    "email": [
        "a@b.co", "john.doe+tag@example.co.uk", "mailto:info@example.com", "contact@bücher.de",
    ],
    "phone": [
        "(212) 980-9099", "+84 28 1234 5678", "0612400977", "06 12 40 09 77", "+33 6 12 40 09 77",
        "+49 (0)30 1234567", "030/1234567", "+1-212-980-9099", "212.980.9099",
        "tel:+442071234567", "Tel: 020 7123 4567", "+91 98765 43210", "+7 (495) 123-45-67",
        "(11) 98765-4321", 612400977, "(+57) 601 230 98 91", "(+358) 769930024",
    ],
    "url": [
        "https://example.com", "http://example.com/a?b=c", "/news/world-1",
        "https://media.example.co.uk:443/dir/a.jpg", "https://exa-mple.co.uk/path/to#frag",
        "https://例え.jp/パス", "https://192.168.0.1/x", "https://f.cdn.com/p/45/_/1.jpg?w=800",
        "https://shop.example.com/list?page=2&amp;sort=price",
        ["https://a.com/1.jpg", "https://a.com/2.jpg"],
    ],
    "text": [
        "iPhone 15", "Áo thun nam", "Женский стендап", "إنفينيكس سمارت 10", "東京タワー",
        "Café Olé", "AT&T Wireless", "C++ programmer", "👍🏻👍🏻👍🏻highly recommended",
        "It's 4am", "Q&A", "What? Really?", "Como é?A empresa", "[Sponsored] Deal", "€5 off",
        "Nguyễn Văn A", "Straße 12", "São Paulo, SP", "Déjà vu…", "«\u00a0double discours\u00a0»",
        "OK", "<3 this product", "Loading dock available", "Forbidden City tour",
        "x > y and y < z", 0, True, ["sale", "new"],
        [{"Date": "Reviewed on 15 August 2024", "Stars": "5.0 out of 5 stars", "Text": "Good"}],
    ],
}  # fmt: skip

INVALID: dict[str, list[tuple]] = {
    "price": [
        ("", "empty"),
        ("N/A", "placeholder"),
        ("POA", "not a price"),
        ("Price on application", "not a price"),
        ("Call for price", "not a price"),
        ("-$5", "negative"),
        ("-5.00 €", "negative"),
        ("$0.00", "zero amount"),
        (0, "zero amount"),
        (-3, "negative"),
        (True, "not a number"),
        ("Â£51.77", "mis-encoded text"),
        ("? 1,199", "mis-encoded text"),
        ("<span>$12</span>", "markup residue"),
        ("{{price}}", "code residue"),
        ("Liên hệ", "not a price"),
        ("$", "placeholder"),
        ("Out of stock", "not a price"),
        ({"currency": "EUR"}, "not a price"),
        (float("nan"), "placeholder"),
        (None, "empty"),
        ([], "empty"),
    ],
    "rating": [
        ("45", "out of range"),
        (45, "out of range"),
        ("10", "out of range"),
        ("N/A", "placeholder"),
        ("None", "placeholder"),
        ("", "empty"),
        ("12 stars", "out of range"),
        ("6/5", "out of range"),
        ("120%", "out of range"),
        ("great", "not a rating"),
        (True, "not a number"),
        ("-1", "out of range"),
        ("8,2", "out of range"),
    ],
    "count": [
        ("© 1996-2024, Amazon.com, Inc.", "not a count"),
        ("-5", "negative"),
        (-1, "negative"),
        ("many", "not a count"),
        (True, "not a number"),
        ("2024-01-05", "not a count"),
        ("12:30", "not a count"),
        ("$12.99", "not a count"),
        ("Planta 2ª", "not a count"),
        ("3rd floor", "not a count"),
        ("NA", "placeholder"),
        ("<built-in method strip of str object at 0x7f74f1dad6b0>", "code residue"),
        (
            "Be the first to review this product and tell others what you think of it 1",
            "not a count",
        ),
    ],
    "date": [
        ("45", "not a date"),
        (45, "not a date"),
        ("Invalid Date", "not a date"),
        ("9999-12-31", "out of range"),
        ("1066-10-14", "out of range"),
        ("0000-00-00", "not a date"),
        ("31/02/2024", "not a date"),
        ("2024-13-01", "not a date"),
        ("last Tuesday", "not a date"),
        ("Hello world", "not a date"),
        ("13/13/2023", "not a date"),
        (True, "not a number"),
        (dt.date(1066, 10, 14), "out of range"),
    ],
    "email": [
        ("john.doe", "not an email"),
        ("john@", "not an email"),
        ("@example.com", "not an email"),
        ("john at example dot com", "not an email"),
        ("Non renseigné", "placeholder"),
    ],
    "phone": [
        ("Non renseigné", "placeholder"),
        ("12", "not a phone"),
        ("123-45", "not a phone"),
        ("call us", "not a phone"),
        ("+1234567890123456789", "not a phone"),
        ("(+57) 12", "not a phone"),
        # two numbers in one field: the labels' 7-15 digits rule (issue 22)
        ("0612400977 / 0647424442", "joined values"),
        ("0101-555-0101, 0102-555-0102", "joined values"),
    ],
    "url": [
        ("example.com", "not a url"),
        ("www.example.com", "not a url"),
        ("javascript:void(0)", "not a url"),
        ("#", "placeholder"),
        ("data:image/png;base64,iVBOR", "not a url"),
        ("[https://a.com/1.jpg, https://a.com/2.jpg]", "stringified container"),
        ("['https://a.com/1.jpg']", "stringified container"),
        ("//cdn.example.com/x.jpg", "not a url"),
        ("http://exa mple.com", "not a url"),
        ("undefined", "placeholder"),
    ],
    "text": [
        ("", "empty"),
        (" ", "empty"),
        ("N/A", "placeholder"),
        ("null", "placeholder"),
        ("Undefined", "placeholder"),
        ("NaN", "placeholder"),
        ("--", "placeholder"),
        ("TBD", "placeholder"),
        ("Not available", "placeholder"),
        ("Non renseigné", "placeholder"),
        ("x", "too short"),
        ("<span>Price</span>", "markup residue"),
        ("Tom &amp; Jerry", "markup residue"),
        ("{{product.name}}", "code residue"),
        ("[object Object]", "code residue"),
        ("function(){return 1}", "code residue"),
        ("googletag.cmd.push(function() { googletag.display('x'); });", "code residue"),
        ("['a', 'b']", "stringified container"),
        ('{"a": 1}', "stringified container"),
        ("Access Denied", "error page text"),
        ("404 Not Found", "error page text"),
        ("Loading...", "error page text"),
        ("Please enable JavaScript to continue", "error page text"),
        ("Just a moment...", "error page text"),
        ("Forbidden", "error page text"),
        ("Ã©tÃ©", "mis-encoded text"),
        ("Shakespeareâ\x80\x99s", "mis-encoded text"),
        ("??? ????", "mis-encoded text"),
        ("S?o Paulo", "mis-encoded text"),
        ("computaç\ufffd\ufffdo", "mis-encoded text"),
        ([], "empty"),
        ({}, "empty"),
        (None, "empty"),
        (["ok", "N/A"], "placeholder"),
    ],
}


@pytest.mark.parametrize(
    ("field_type", "value"), [(kind, value) for kind, values in VALID.items() for value in values]
)
def test_valid_values_of_each_type_pass(field_type, value):
    assert check_value(field_type, value) == ""


@pytest.mark.parametrize(
    ("field_type", "value", "reason"),
    [(kind, value, reason) for kind, rows in INVALID.items() for value, reason in rows],
)
def test_invalid_values_fail_with_their_reason(field_type, value, reason):
    assert check_value(field_type, value) == reason


def test_every_reason_is_documented_and_each_type_has_about_thirty_values():
    reasons = {reason for rows in INVALID.values() for _, reason in rows}
    assert reasons <= set(REASONS)
    assert all(len(VALID[kind]) + len(INVALID[kind]) >= 20 for kind in ("price", "date", "text"))
    assert set(VALID) == set(INVALID) == set(FIELD_TYPES)


ODD = [
    10**400, -(10**400), "²", "½", float("nan"), float("inf"), -float("inf"), "x" * 200_000,
    "<" * 5000, b"bytes \xff", b"caf\xc3\xa9", {1: "a", (2, 3): "b"}, {None: None},
    dt.date(1, 1, 1), dt.datetime(9999, 12, 31), "9" * 5000, "1" + "0" * 400, "\u0663\u066b\u0665",
    "\x00\x01", "\ud800", [[[[[[[[[["deep"]]]]]]]]]], {"a": {"b": {"c": {"d": {"e": {}}}}}},
]  # fmt: skip


def _nested(depth: int):
    value: object = "leaf"
    for _ in range(depth):
        value = {"k": [value]}
    return value


@pytest.mark.parametrize("value", [*ODD, _nested(3000)])
@pytest.mark.parametrize("field_type", FIELD_TYPES)
def test_odd_values_never_raise(field_type, value):
    assert check_value(field_type, value) in {"", *REASONS}
    assert value_kind(value) in {None, "rating", "count", "price", "date"}
    assert column_type("field", [value, value]) in FIELD_TYPES


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FIELD_TYPES), JSON)
def test_check_value_never_raises_and_returns_a_documented_reason(field_type, value):
    assert check_value(field_type, value) in {"", *REASONS}


def test_unknown_field_type_names_the_argument_and_suggests_the_closest():
    with pytest.raises(ValueError, match=r"`field_type`.*'pricee'.*Did you mean 'price'"):
        check_value("pricee", 1)


def test_nested_review_records_are_checked_by_the_type_of_their_keys():
    good = {"Date": "Reviewed on 15 August 2024", "Stars": "5.0 out of 5 stars", "Text": "Nice"}
    assert check_value("text", [good, good]) == ""
    assert check_value("text", [good, {**good, "Stars": "45"}]) == "out of range"
    assert check_value("text", [good, {**good, "Date": "Invalid Date"}]) == "not a date"


def test_structured_prices_need_a_positive_amount():
    assert check_value("price", {"value": "12,50", "currency": "EUR"}) == ""
    assert check_value("price", {"amountMin": 10, "amountMax": -1}) == "negative"
    assert check_value("price", {"value": 0, "currency": "EUR"}) == "zero amount"


def test_a_size_without_a_currency_is_no_price_in_any_language():
    # the area units come from CLDR (tools/build_tables.py): "m²", "㎡", "ft²", "hektar"
    for size in ("13 m²", "45 ㎡", "1,200 ft²", "85 m2", "3 hektar"):
        assert check_value("price", size) == "not a price", size


def test_a_price_per_area_is_a_price():
    for price in ("1.200 €/m²", "€ 12/m²", "Rp 2 jt/m2", "3 500 Kč/m²", "$2.10 / sq ft"):
        assert check_value("price", price) == "", price


def test_booleans_are_not_numbers_but_are_text():
    assert check_value("price", True) == "not a number"
    assert check_value("count", False) == "not a number"
    assert check_value("text", False) == ""


def test_numbers_outside_float_range_are_out_of_range_not_errors():
    assert check_value("price", 10**400) == "out of range"
    assert check_value("count", 10**400) == "out of range"
    assert check_value("text", math.inf) == "out of range"
