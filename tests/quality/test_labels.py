"""A value carrying its own label is rejected where it stands ("Price: 3,7 mld" under price)."""

from __future__ import annotations

import pytest

from rlm_gym.crawl import check_items
from rlm_gym.quality.labels import LABELLED_MAX_CHARS, LABELLED_VALUE, carried_label


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
