# ruff: noqa: RUF001 - marks of other scripts are the point
"""Junk of any language (SPEC §11, issue 28): placeholders phrased as a negation, a value
written twice and joined, and page chrome (consent banners, navigation labels, breadcrumbs).
Examples shaped like real pages' values, written for these tests."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rlm_gym.quality import check_value, judge_items
from rlm_gym.quality.joined import repeated
from rlm_gym.quality.junk import negated, page_chrome


@pytest.mark.parametrize(
    "value",
    [
        "keine Angabe", "нет данных", "Sin descripción", "ei tietoa", "nincs adat",
        "Ingen beskrivning", "brak danych", "δεν υπάρχουν δεδομένα", "אין מידע", "정보 없음",
        "情報なし", "ไม่มีข้อมูล", "توضیحات ندارد", "No data available", "No reviews yet",
        "nicht verfügbar", "Není k dispozici", "Nem elérhető", "no disponible",
    ],
)  # fmt: skip
def test_a_negated_noun_of_missing_data_is_a_placeholder_in_any_field(value):
    assert check_value("text", value) == "placeholder"


@pytest.mark.parametrize(
    "value", ["No Time to Die", "No Exit", "Without Walls", "Nie", "None Shall Pass"]
)
def test_titles_that_open_with_a_negation_are_text(value):
    assert check_value("text", value) == ""


def test_a_negation_of_a_content_fields_own_name_is_a_placeholder():
    rows = [
        {"title": "Aalto yliopisto", "abstract": "No abstract"},
        {"title": "Helsingin yliopisto", "abstract": "Tutkimus käsittelee energiaa"},
    ]
    assert judge_items(rows, ("title", "abstract")).reasons["abstract"] == ["placeholder", ""]
    rows = [{"rubrik": "Lägenhet", "beskrivning": "Ingen beskrivningen"}] * 2
    assert judge_items(rows, ()).reasons["beskrivning"][0] == "placeholder"


def test_a_negated_attribute_is_information_not_a_gap():
    rows = [{"name": "Sandal", "discount": "No discount"}, {"name": "Boot", "discount": "-20%"}]
    assert judge_items(rows, ("name", "discount")).reasons["discount"][0] == ""
    assert not negated("no parking")


@pytest.mark.parametrize(
    ("field_type", "value"),
    [("text", "Praha | Praha"), ("text", "Helsinki · Helsinki"), ("rating", "4.5 4.5"),
     ("text", "Galaxy S24Galaxy S24"), ("count", "1,234 1,234"), ("price", "$10 $10"),
     ("text", "Old Town Old Town")],
)  # fmt: skip
def test_a_value_written_twice_and_joined_is_a_joined_value(field_type, value):
    assert check_value(field_type, value) == "joined values"


@pytest.mark.parametrize(
    "value",
    [
        "Bora Bora",
        "Baden-Baden",
        "Duran Duran",
        "couscous",
        "bonbon",
        "7万円/7万円",
        "2020",
        "7575",
        "431431",
        "Everything, Everything",
        "Knightsbridge, Knightsbridge",
    ],
)
def test_names_that_repeat_a_word_are_not_joined_values(value):
    assert not repeated(value)


@given(
    st.text(alphabet="abcdefghij KLMNOP0123", min_size=2, max_size=20)
    .map(lambda text: " ".join(text.split()))
    .filter(lambda text: len(text) >= 2),
    st.sampled_from([" | ", " · ", "; ", "  "]),
)
def test_any_text_joined_to_itself_by_a_separator_is_repeated(text, separator):
    assert repeated(f"{text}{separator}{text}")


@pytest.mark.parametrize(
    "value",
    [
        "We use cookies to improve your experience", "Diese Website verwendet Cookies",
        "Tämä sivusto käyttää evästeitä", "Accept all cookies", "เว็บไซต์นี้ใช้คุกกี้",
        "Home › Phones › Apple", "Etusivu > Asunnot > Helsinki", "Skip to content",
        "Kirjaudu sisään", "로그인",
    ],
)  # fmt: skip
def test_page_chrome_in_a_data_field_is_junk(value):
    assert check_value("text", value) == "page chrome"


@pytest.mark.parametrize(
    "value", ["Chocolate chip cookies, 12 pack", "Cookie Monster plush", "Home", "Etusivu"]
)
def test_content_about_cookies_and_a_lone_home_category_are_not_chrome(value):
    assert not page_chrome(value.lower())
    assert check_value("text", value) == ""


def test_page_chrome_makes_a_value_incomplete():
    from rlm_gym.quality import UNUSABLE_REASONS

    assert "page chrome" in UNUSABLE_REASONS
