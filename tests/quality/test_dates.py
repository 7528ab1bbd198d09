"""Dates: CJK relative dates, a date opening a short text with a non-date tail, and prose that
merely holds a date. Formats from real pages, written for these tests."""

from __future__ import annotations

import pytest

from rlm_gym.quality import check_value

CJK_RELATIVE_DATES = [
    "1天前", "3小时前", "10分钟前", "30秒前", "2周前", "3个月前", "1年前", "刚刚", "今天",
    "昨天", "前天", "三天前", "半小时前", "2個月前", "1日前", "3時間前", "5分前", "2週間前",
    "昨日", "今日", "一昨日", "1일 전", "3시간 전", "5분 전", "2주 전", "어제", "오늘", "방금 전",
    "3天前发布", "发布于2天前",
]  # fmt: skip


@pytest.mark.parametrize("value", CJK_RELATIVE_DATES)
def test_cjk_relative_dates_are_dates(value):
    assert check_value("date", value) == ""


@pytest.mark.parametrize(
    "value",
    [
        "2天前  发布于智联招聘", "09:45  发布于前程无忧", "3時間前  Indeedで掲載",
        "1일 전 · 사람인",
        "3 days ago · Easy Apply", "Yesterday  Promoted", "12.03.2024 | Berlin",
        "14:05  via Twitter Web App", "2024-03-12  Updated",
    ],
)  # fmt: skip
def test_a_date_opening_a_short_text_with_a_non_date_tail_is_a_date(value):
    assert check_value("date", value) == ""


@pytest.mark.parametrize(
    "value",
    [
        "The festival on 12 March 2024 drew thousands of visitors to the old harbour district",
        "12 March 2024 - we finally moved into the new house and the kids love their rooms",
        "2024 | Toyota Corolla Hybrid", "45 | Posted", "今天天气很好", "Hello  world",
        "16:33  12 items left in stock", "Posted by admin", "前天花了很多钱买了这件衣服",
    ],
)  # fmt: skip
def test_prose_holding_a_date_is_not_a_date(value):
    assert check_value("date", value) == "not a date"


@pytest.mark.parametrize("text", ["२०८०-असार-१५", "१५ साउन २०८१", "২০৩১ বৈশাখ ৩২", "२०८१/माघ/१"])
def test_a_date_in_native_digits_with_a_month_word_of_their_script_is_a_date(text):
    assert check_value("date", text) == ""


@pytest.mark.parametrize(
    "text",
    [
        "2080-असार-15",  # Latin digits: the script of the digits names no calendar
        "२०८०-Haus-१५",  # a word of another script
        "२०८०-असार-४०",  # no month has 40 days
        "९९९९-असार-१५",  # no date's year
    ],
)
def test_native_digit_dates_need_their_scripts_month_a_day_and_a_year(text):
    assert check_value("date", text) != ""
