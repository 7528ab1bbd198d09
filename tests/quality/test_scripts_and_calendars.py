# ruff: noqa: RUF001 - digits and marks of other scripts are the point
"""Values in any script and calendar (SPEC §11, issue 28): digits of every script, dates of
non-Gregorian calendars and eras, short dates with a weekday mark, CLDR's month names and
relative-date patterns. Examples are shaped like values of real pages in those languages,
written for these tests (none is taken from a held-out or sealed set)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rlm_gym.quality import check_value, column_type, parse_number, value_kind
from rlm_gym.quality.dates import calendars_of
from rlm_gym.quality.numbers import ascii_digits

# The zero of every decimal digit block Python knows (Arabic-Indic, Persian, Devanagari,
# Bengali, Thai, Lao, Tibetan, Myanmar, Khmer, full-width, mathematical...).
ZEROS = sorted(
    {
        code - unicodedata.decimal(chr(code))
        for code in range(0x10000)
        if unicodedata.decimal(chr(code), None) is not None
    }
)


def _in_script(text: str, zero: int) -> str:
    return "".join(chr(zero + int(char)) if char.isdecimal() else char for char in text)


# --------------------------------------------------------------------------------------------
# digits of every script
# --------------------------------------------------------------------------------------------
def test_every_decimal_digit_is_read_as_its_ascii_digit():
    for zero in ZEROS:
        assert ascii_digits("".join(chr(zero + n) for n in range(10))) == "0123456789"


@given(st.integers(min_value=0, max_value=10**12), st.sampled_from(ZEROS))
def test_a_number_in_any_script_parses_as_in_ascii(number, zero):
    assert parse_number(_in_script(str(number), zero)) == float(number)


@given(
    st.sampled_from(ZEROS),
    st.sampled_from(
        [
            ("price", "1 290 Kč"),
            ("price", "₪ 99.90"),
            ("count", "1,234"),
            ("count", "2 345 678 901"),
            ("date", "2024-11-26"),
            ("date", "26/11/2024"),
            ("rating", "4.5/5"),
        ]
    ),
)
def test_a_value_in_any_script_is_judged_like_its_ascii_form(zero, case):
    field_type, value = case
    assert check_value(field_type, _in_script(value, zero)) == check_value(field_type, value)


@pytest.mark.parametrize(
    ("field_type", "value"),
    [
        ("price", "۱۲۰٬۰۰۰ تومان"),  # Persian digits, Arabic grouping mark, toman
        ("price", "١٢٠ ريال"),
        ("price", "๑,๒๙๐ บาท"),
        ("price", "२,४९९ रुपये"),
        ("price", "１２,８００円"),
        ("count", "۱۲۳۴"),
        ("count", "1,2 tis."),  # CLDR compact suffixes: Czech thousand
        ("count", "3,4 млн"),
        ("count", "1,5 Mrd."),
        ("count", "12억"),
        ("rating", "۴٫۵"),
    ],
)
def test_values_in_other_scripts_and_their_number_words_are_valid(field_type, value):
    assert check_value(field_type, value) == ""


def test_column_shapes_read_digits_of_other_scripts():
    assert column_type("x", ["๑๒๓", "๔๕๖", "๗๘๙"]) == "count"
    assert column_type("x", ["۱۲۰٬۰۰۰ تومان", "۹۵٬۰۰۰ تومان"]) == "price"
    assert value_kind("۱۲۰٬۰۰۰ تومان") == "price"


def test_very_large_counts_are_valid_but_infinity_is_not():
    assert check_value("count", 10**16) == ""
    assert check_value("count", "12 345 678 901 234 567") == ""
    assert check_value("count", float("inf")) == "out of range"


# --------------------------------------------------------------------------------------------
# calendars and eras
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "value",
    [
        "26 พ.ย. 2567",  # Thai abbreviated month, Buddhist-era year
        "๒๖ พฤศจิกายน ๒๕๖๗",  # Thai digits and month name
        "2567 พ.ศ.",
        "۱۴۰۳/۰۹/۰۶",  # Solar Hijri, Persian digits
        "۵ آذر ۱۴۰۳",  # Solar Hijri month name
        "24 جمادى الأولى 1446 هـ",  # Islamic month and era
        "כ״ד בחשוון תשפ״ה",  # Hebrew date in Hebrew numerals
        "26 בנובמבר 2024",  # Gregorian month with the Hebrew ב- prefix of CLDR's pattern
        "令和6年11月26日",  # Japanese era
        "R6.11.26",
        "民國113年11月26日",  # ROC era
        "113/11/26",
    ],
)
def test_dates_of_other_calendars_are_dates(value):
    assert check_value("date", value) == ""


def test_a_year_out_of_range_stays_out_of_range_without_a_calendar_saying_otherwise():
    assert check_value("date", "2567") == "out of range"
    assert check_value("date", "9999-12-31") == "out of range"
    assert check_value("date", "๙๙๙๙-01-01") == "out of range"  # no calendar reaches 9999


def test_calendars_of_reads_script_digits_era_marks_and_months():
    assert calendars_of("26 พ.ย. 2567") == {"buddhist"}
    assert calendars_of("۱۴۰۳/۰۹/۰۶") == {"persian", "islamic"}
    assert calendars_of("2567 B.E.") == {"buddhist"}
    assert calendars_of("tishrei 5785") == {"hebrew"}
    assert calendars_of("26 Nov 2024") == frozenset()


@pytest.mark.parametrize(
    "value",
    ["11/26(火)", "11.26(화)", "2024.11.26 (화)", "11.26(화) 14:00", "11月26日(火)",
     "26.11. (Di)", "11/26 (Tue)", "11月26日", "2024. 11. 26."],
)  # fmt: skip
def test_short_dates_with_a_weekday_mark_are_dates(value):
    assert check_value("date", value) == ""


def test_a_weekday_mark_does_not_make_any_text_a_date():
    assert check_value("date", "13/45(火)") == "not a date"
    assert check_value("date", "Pizza night (Tue)") == "not a date"


# --------------------------------------------------------------------------------------------
# CLDR month names and relative dates
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "value",
    [
        "26. marraskuuta 2024", "26 Νοεμβρίου 2024", "26. listopadu 2024", "26 листопада 2024",
        "2024. november 26.", "26 november 2024", "kedd, 2024. november 26.",
        "3 päivää sitten", "לפני 3 ימים", "3 napja", "před 2 dny", "för 3 dagar sedan",
        "eilen", "tegnap", "igår", "вчора", "χθες",
        "2 ώρες πριν", "3 dagar sedan",  # CLDR's unit and "ago" words in another order
    ],
)  # fmt: skip
def test_month_names_and_relative_dates_of_cldr_languages_are_dates(value):
    assert check_value("date", value) == ""


def test_short_cldr_month_abbreviations_need_a_whole_date():
    # Czech "pro" (December) and "lis" (November) are words elsewhere.
    assert check_value("date", "26. pro 2024") == ""
    assert check_value("date", "MacBook Pro (2)") == "not a date"
    assert value_kind("MacBook Pro (2)") is None
    assert check_value("date", "last Tuesday") == "not a date"
    assert check_value("date", "for 3 days") == "not a date"  # "for" is no "ago"


def test_a_column_of_numbers_with_one_same_unit_is_a_count_in_any_language():
    assert column_type("x", ["3 ห้องนอน", "2 ห้องนอน", "4 ห้องนอน"]) == "count"
    assert column_type("x", ["12 arvostelua", "3 arvostelua", "1 arvostelu"]) == "count"
    assert column_type("x", ["Item 3", "Item 4", "Item 5"]) == "text"  # a name with a number
    assert column_type("x", ["5 USD", "6 USD", "7 USD"]) == "price"
    assert value_kind("85 ตร.ม.") == "count"  # CLDR's Thai square metre


@pytest.mark.parametrize(
    "value",
    ["4.5점", "4,5 hvězdičky", "4 tähteä", "4,5 av 5", "4.5 από 5", "4.5 מתוך 5", "4.5 จาก 5",
     "4,5 з 5", "4.5 stjärnor", "4,5 csillag", "۴.۵ از ۵", "8 av 10"],
)  # fmt: skip
def test_a_score_with_one_word_of_any_language_is_a_rating_in_a_rating_column(value):
    assert check_value("rating", value) == ""


def test_a_score_with_a_foreign_word_keeps_its_range_and_is_no_rating_alone():
    assert check_value("rating", "45 tähteä") == "out of range"
    assert check_value("rating", "4 reviews") == "not a rating"  # a count word: shifted
    assert check_value("rating", "4.5 USD") == "not a rating"
    assert value_kind("1.0 Petrol") is None  # column typing keeps to the known words
