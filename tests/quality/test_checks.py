"""The 0.1 API (one check per field name) reads the value rules."""

from __future__ import annotations

from rlm_gym.quality import check_field, field_check, is_empty, is_meaningful


def test_the_0_1_api_reads_the_new_rules():
    assert field_check("price").__name__ == "is_price"
    assert field_check("phone_number").__name__ == "is_phone"
    assert field_check("created_by").__name__ == "is_meaningful"
    assert check_field("rating", "4.5 out of 5 stars") and not check_field("rating", "45")
    assert check_field("published_date", "12 March 2024")
    assert not check_field("title", "N/A") and is_meaningful("iPhone 15")
    assert [is_empty(v) for v in (None, "", [], {})] == [True] * 4
    assert not any(is_empty(v) for v in (0, 0.0, False, " ", (), "0"))
