"""Constant columns read from their values: stale links and widget labels (issue 35)."""

from __future__ import annotations

from rlm_gym.quality.judge import PAGE_WIDE_VALUE, judge_items

TITLES = ["Kaksio Kallio", "Yksiö Töölö", "Kolmio Vallila", "Rivitalo Espoo", "Omakotitalo Vantaa"]


def _rows(**columns):
    return [{name: values[i] for name, values in columns.items()} for i in range(len(TITLES))]


def test_one_link_on_every_record_is_stale_whatever_the_field_is_called():
    stale = "https://job.example.jp//2022/company/r498200060/employ/"
    rows = _rows(会社名=TITLES, 採用情報URL=[stale] * len(TITLES))
    reasons = judge_items(rows).reasons
    assert reasons["採用情報URL"] == [PAGE_WIDE_VALUE] * len(TITLES)
    assert reasons["会社名"] == [""] * len(TITLES)


def test_links_that_differ_per_record_are_kept():
    links = [f"https://job.example.jp/company/r{i}/employ/" for i in range(len(TITLES))]
    assert judge_items(_rows(会社名=TITLES, 採用情報URL=links)).reasons["採用情報URL"] == [""] * 5


def test_a_short_page_with_one_link_proves_nothing():
    rows = _rows(会社名=TITLES, 採用情報URL=["https://job.example.jp/a"] * 5)[:4]
    assert judge_items(rows).reasons["採用情報URL"] == [""] * 4


def test_a_badge_shared_by_columns_one_of_which_rejects_it_is_a_widget_label():
    badge = ["Von Privat"] * len(TITLES)
    reasons = judge_items(_rows(title=TITLES, size=badge, rooms=badge)).reasons
    assert reasons["rooms"][0] != ""  # a room count column says it is no count
    assert reasons["size"] == ["widget label"] * len(TITLES)


def test_a_constant_two_columns_share_and_accept_is_kept():
    city = ["Wien"] * len(TITLES)
    reasons = judge_items(_rows(title=TITLES, state=city, district=city)).reasons
    assert reasons["state"] == reasons["district"] == [""] * len(TITLES)


def test_a_rejected_constant_in_one_column_alone_marks_nothing_else():
    reasons = judge_items(_rows(title=TITLES, rooms=["Von Privat"] * 5, size=["Top"] * 5)).reasons
    assert reasons["size"] == [""] * len(TITLES)
