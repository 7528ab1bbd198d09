"""A value carrying its own label is rejected where it stands ("Price: 3,7 mld" under price)."""

from __future__ import annotations

import pytest

from rlm_gym.crawl import check_items
from rlm_gym.quality.labels import (
    LABELLED_MAX_CHARS,
    LABELLED_VALUE,
    carried_label,
    minority_labels,
)


@pytest.mark.parametrize(
    ("value", "field", "kind"),
    [
        ("Price: 3,7 mld", "price", "price"),
        ("Preis: 12 €", "price", "price"),
        ("Area: 120 m2", "area", "text"),
        ("Cena\uff1a1.700 €", "cena", "price"),  # a full-width colon
        ("Powierzchnia: 54 m²", "Powierzchnia", "text"),
    ],
)
def test_a_label_naming_the_field_is_carried(value, field, kind):
    assert carried_label(value, field, kind) is not None


@pytest.mark.parametrize(
    ("value", "field", "kind"),
    [
        ("3,7 mld", "price", "price"),
        ("Tel: 030 1234567", "phone", "phone"),
        ("Atomic Habits: An Easy & Proven Way", "title", "text"),
        ("Location: Hempstead, NY", "price", "price"),
        ("Price: " + "x" * LABELLED_MAX_CHARS, "price", "text"),
    ],
)
def test_other_colons_are_no_carried_label(value, field, kind):
    assert carried_label(value, field, kind) is None


def test_check_items_gives_the_reason():
    rows = [{"title": f"Flat {index}", "price": f"{index + 1} 000 €"} for index in range(6)]
    rows.append({"title": "Flat 7", "price": "Price: 7 000 €"})
    result = {"success": True, "data": rows, "extraction_schema": {"required": ["title", "price"]}}
    assert check_items(result)[-1]["price"] == (False, LABELLED_VALUE)
    assert check_items(result)[0]["price"] == (True, "")


PHONES = [f"030 1234 {number:03d}" for number in range(12)]


def test_a_label_on_a_few_phones_of_a_bare_column_is_a_labelled_value():
    assert minority_labels([*PHONES, "Tel: 030 9876 543", "電話\uff1a030 9876 544"], "phone") == {
        "Tel: 030 9876 543",
        "電話\uff1a030 9876 544",
    }


def test_a_label_on_every_phone_is_the_sites_format():
    labelled = [f"Tel: {phone}" for phone in PHONES]
    assert minority_labels(labelled, "phone") == frozenset()


def test_free_text_columns_and_short_columns_are_not_read_for_rare_labels():
    notes = [f"Shipped on day {number}" for number in range(12)]
    assert minority_labels([*notes, "Note: fragile"], "text") == frozenset()
    assert minority_labels([*PHONES[:5], "Tel: 030 9876 543"], "phone") == frozenset()


def test_check_items_rejects_a_rare_phone_label():
    rows = [{"name": f"Office {number}", "phone": phone} for number, phone in enumerate(PHONES)]
    rows[4]["phone"] = "Tel: " + rows[4]["phone"]
    result = {"success": True, "data": rows, "extraction_schema": {"required": ["name", "phone"]}}
    verdicts = check_items(result)
    assert verdicts[4]["phone"] == (False, LABELLED_VALUE)
    assert verdicts[3]["phone"] == (True, "")
