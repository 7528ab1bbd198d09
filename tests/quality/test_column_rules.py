"""Values judged against the rest of their column (generated and hand-written examples)."""

from __future__ import annotations

import random

import pytest

from rlm_gym.quality import column_rules
from rlm_gym.quality.column_rules import COLUMN_RULE_REASONS, COLUMN_RULES, mark_column_rules
from rlm_gym.quality.judge import judge_items
from rlm_gym.quality.junk import negated


def _reasons(rows: list[dict], name: str) -> list[str]:
    return judge_items(rows).reasons[name]


def _listing(count: int = 20, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    return [
        {
            "title": f"Flat {n} near the park",
            "price": f"{rng.randint(60, 400) * 1000} €",
            "rooms": str(rng.randint(1, 5)),
        }
        for n in range(count)
    ]


def test_a_range_bounded_by_nines_is_a_sentinel():
    rows = _listing()
    rows[3]["price"] = "25000-99999999"
    rows[4]["price"] = "12000-20000"
    reasons = _reasons(rows, "price")
    assert reasons[3] == "sentinel bound"
    assert reasons[4] == ""


def test_prices_with_one_digit_after_a_decimal_comma_are_thousands_misread():
    rng = random.Random(1)
    rows = [
        {"model": f"Car {n}", "preco": f"{rng.randint(30, 90)},{rng.randint(0, 9)}"}
        for n in range(12)
    ]
    rows += [
        {"model": f"Car {n}b", "preco": f"{rng.randint(30, 90)},{rng.randint(10, 99)}"}
        for n in range(6)
    ]
    assert set(_reasons(rows, "preco")) == {"thousands read as a decimal"}


def test_prices_written_as_floats_with_a_point_are_left_alone():
    rng = random.Random(2)
    rows = [
        {"ad": f"Flat {n}", "rent": f"{rng.randint(300, 900)}.{rng.randint(0, 9)}"}
        for n in range(20)
    ]
    assert set(_reasons(rows, "rent")) == {""}


def test_shop_prices_with_cents_are_left_alone():
    rng = random.Random(3)
    rows = [
        {"item": f"Item {n}", "price": f"{rng.randint(1, 99)},{rng.randint(10, 99)}"}
        for n in range(20)
    ]
    assert set(_reasons(rows, "price")) == {""}


def test_a_one_digit_number_in_an_area_column_is_a_room_count():
    rng = random.Random(4)
    rows = [{"ad": f"Flat {n}", "metros_cuadrados": str(rng.randint(45, 250))} for n in range(20)]
    rows[5]["metros_cuadrados"] = "2"
    reasons = _reasons(rows, "metros_cuadrados")
    assert reasons[5] == "room count in an area column"
    assert reasons.count("") == 19


def test_small_numbers_in_a_column_not_named_for_an_area_are_left_alone():
    rng = random.Random(5)
    rows = [{"ad": f"Flat {n}", "views": str(rng.randint(45, 250))} for n in range(20)]
    rows[5]["views"] = "2"
    assert _reasons(rows, "views")[5] == ""


def test_numbers_that_end_in_two_small_digits_are_glued():
    rng = random.Random(6)
    rows = [
        {"ad": f"Flat {n}", "size": f"{rng.randint(40, 300)}{rng.randint(1, 4)}{rng.randint(1, 3)}"}
        for n in range(20)
    ]
    assert set(_reasons(rows, "size")) == {"glued numbers"}


def test_measured_numbers_are_not_glued():
    rng = random.Random(7)
    rows = [{"ad": f"Flat {n}", "size": str(rng.randint(100, 9999))} for n in range(40)]
    assert set(_reasons(rows, "size")) == {""}


def test_the_home_page_and_repeated_menu_links_in_a_links_column_are_navigation():
    rows = [{"title": f"Room {n}", "link": f"/room-in-town.{n}.html"} for n in range(12)]
    rows += [
        {"title": "Home", "link": "https://www.rooms.example/"},
        {"title": "About", "link": "/info/about-us"},
        {"title": "About again", "link": "/info/about-us"},
    ]
    reasons = _reasons(rows, "link")
    assert reasons[12:] == ["navigation link"] * 3
    assert set(reasons[:12]) == {""}


def test_other_sites_home_pages_and_repeated_entity_links_are_kept():
    rows = [{"name": f"Firm {n}", "website": f"https://firm{n}.example/"} for n in range(10)]
    rows += [{"name": "Bank branch 1", "website": "https://bank.example"}] * 1
    rows += [{"name": "Bank branch 2", "website": "https://bank.example"}]
    assert set(_reasons(rows, "website")) == {""}
    authors = [
        {"book": f"Book {n}", "author_url": f"https://books.example/author/{n % 3}"}
        for n in range(12)
    ]
    assert set(_reasons(authors, "author_url")) == {""}


def test_words_repeated_among_the_numbers_of_a_column_are_its_own():
    rng = random.Random(8)
    floors = [str(rng.randint(1, 9)) for _ in range(20)] + ["PR", "PR", "VPR", "VPR"]
    rows = [{"ad": f"Flat {n}", "floor": floor} for n, floor in enumerate(floors)]
    rows.append({"ad": "Flat x", "floor": "Contact"})
    reasons = _reasons(rows, "floor")
    assert reasons[20:24] == [""] * 4
    assert reasons[24] == "not a count"  # once: no word of the column


def test_single_letters_in_a_column_of_letters_are_classes():
    letters = "ABCDEFG"
    rows = [{"ad": f"Flat {n}", "energy_class": letters[n % 7]} for n in range(20)]
    assert set(_reasons(rows, "energy_class")) == {""}


def test_a_lone_letter_among_words_is_still_too_short():
    rows = [{"ad": f"Flat {n}", "note": f"Quiet street {n}"} for n in range(20)]
    rows[0]["note"] = "x"
    assert _reasons(rows, "note")[0] == "too short"


def test_a_value_equal_to_its_field_name_alone_in_its_record_is_content():
    rows = [
        {"title": f"Car {n}", "Used": "Used", "fuel": ("Diesel", "Petrol")[n % 2], "km": f"{n}000"}
        for n in range(10)
    ]
    assert set(_reasons(rows, "Used")) == {""}


def test_a_record_of_field_names_is_a_header_row():
    rows = [{"title": f"Car {n}", "fuel": "Diesel", "km": f"{n}000"} for n in range(10)]
    rows.append({"title": "title", "fuel": "fuel", "km": "km"})
    judgement = judge_items(rows)
    assert judgement.reasons["title"][-1] == judgement.reasons["fuel"][-1] == "header row"


def test_negated_missing_information_with_a_modifier_is_a_placeholder():
    assert negated("informasi tambahan tidak tersedia")
    assert negated("no further details")
    assert not negated("no time to die")


@pytest.mark.parametrize("rule", sorted(COLUMN_RULES))
def test_every_rule_can_be_switched_off(rule, monkeypatch):
    rows = _listing()
    rows[3]["price"] = "25000-99999999"
    monkeypatch.setitem(column_rules.COLUMN_RULES, rule, False)
    reasons = _reasons(rows, "price")
    assert reasons[3] == ("" if rule == "sentinel_bound" else "sentinel bound")


def test_the_rules_reasons_are_described():
    reasons = {"salary": ["", ""]}
    mark_column_rules([{"salary": "1-999999"}, {"salary": "5"}], reasons, {"salary": "price"}, 5)
    assert set(reasons["salary"]) - {""} <= set(COLUMN_RULE_REASONS)


def test_a_short_decimal_with_the_columns_grouping_mark_is_thousands_misread():
    rng = random.Random(9)
    rows = [
        {"ad": f"Car {n}", "price": f"{rng.randint(20, 90)}.{rng.randint(100, 999)}"}
        for n in range(15)
    ]
    rows.append({"ad": "Car x", "price": "51.9"})
    rows.append({"ad": "Car y", "price": "51,90"})  # the other mark: a decimal of its own
    reasons = _reasons(rows, "price")
    assert reasons[15] == "thousands read as a decimal"
    assert reasons[16] == "" and set(reasons[:15]) == {""}


def test_us_prices_with_cents_among_grouped_thousands_are_left_alone():
    rng = random.Random(10)
    rows = [
        {"item": f"TV {n}", "price": f"{rng.randint(1, 9)},{rng.randint(100, 999)}"}
        for n in range(12)
    ]
    rows += [{"item": f"Cable {n}", "price": f"{rng.randint(5, 60)}.99"} for n in range(5)]
    assert set(_reasons(rows, "price")) == {""}
