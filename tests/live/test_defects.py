"""Each extraction defect the farm writes into its markup reaches the extracted rows over real
HTTP, and the crawl reward sees it: in its ``defects`` (systematic: on every row) or in the
field's invalid values (sporadic: on 15 % of rows, below the 20 % defect threshold)."""

from __future__ import annotations

import pytest

from rlm_gym.crawl import crawl_reward
from rlm_gym.live import CrawlLiveEnv, SiteFarm
from tests.live.helpers import run

# A site with nothing else in the way: one static page, no protection, no faults.
PLAIN = {"pagination": "single", "protection": "none", "rendering": "static"}


def crawl_site(names: list[str], pattern_type: str, **profile: object) -> dict:
    """Crawl site 0 of a fault-free farm of ``pattern_type`` sites; the crawl result."""
    with SiteFarm(
        pattern_types=[pattern_type], timeout_rate=0.0, error_rate=0.0, **profile
    ) as farm:
        env = CrawlLiveEnv(
            farm_url=farm.url, pattern_types=[pattern_type], timeout_s=2.0, **profile
        )
        try:
            _, info = run(env, names, seed=0)
        finally:
            env.close()
    return info["crawl_result"]


def crawl(pattern_type: str, extractor: str, **profile: object) -> tuple[list, dict]:
    """Fetch the page of site 0 over HTTP, extract it, stop: the rows and the reward details."""
    names = ["fetch_http", f"extract_{extractor}", "stop"]
    result = crawl_site(names, pattern_type, **{**PLAIN, **profile})
    return result["data"], crawl_reward(result).details


def systematic(details: dict, field: str) -> bool:
    """The reward names a systematic defect of ``field`` (``"<field>: N% of ... invalid"``)."""
    return any(defect.startswith(f"{field}: ") for defect in details["defects"])


def invalid_examples(details: dict, field: str) -> list:
    return details["fields"][field]["examples"]


def test_lazy_placeholder_reaches_the_rows_and_the_invalid_values():
    rows, details = crawl("product_list", "heuristic", regular_markup=True, json_ld=False)
    assert [row["price"] for row in rows].count("N/A") == int(len(rows) * 0.15)
    assert details["fields"]["price"]["invalid"] > 0
    assert "N/A" in invalid_examples(details, "price")


def test_ui_text_reaches_the_rows_and_the_invalid_values():
    rows, details = crawl("product_list", "heuristic", regular_markup=True, json_ld=False)
    assert [row["rating"] for row in rows].count("Loading...") == int(len(rows) * 0.15)
    assert "Loading..." in invalid_examples(details, "rating")


def test_css_templates_read_attributes_past_the_placeholders():
    rows, details = crawl("product_list", "css", regular_markup=True, json_ld=False)
    assert "N/A" not in [row["price"] for row in rows]
    assert details["defects"] == []


def test_mislabelled_cell_breaks_the_css_field_on_every_row():
    rows, details = crawl("product_list", "css", regular_markup=False, json_ld=False)
    assert rows and all(row["rating"].startswith("/products/item-") for row in rows)
    assert systematic(details, "rating")
    assert details["defects"]


def test_wrong_charset_header_gives_mojibake_prices():
    rows, details = crawl("price_extraction", "heuristic", regular_markup=False, json_ld=False)
    prices = [row["price"] for row in rows if row["price"] not in ("N/A", "Loading...")]
    assert prices and all("Â" in price or "â" in price for price in prices)
    assert systematic(details, "price")


def test_the_llm_stand_in_reads_through_mojibake():
    rows, details = crawl("price_extraction", "llm", regular_markup=False, json_ld=False)
    assert not any(row["price"][0] in "ÂÃâ" for row in rows)
    assert not systematic(details, "price")


def test_double_escaped_description_is_entity_residue():
    rows, details = crawl(
        "generic_extraction", "heuristic", regular_markup=False, json_ld=False, items_per_page=12
    )
    assert rows and all(row["description"].startswith("&lt;p&gt;") for row in rows[2:])
    assert systematic(details, "description")


def test_rating_bubble_class_is_read_ten_times_too_high():
    rows, details = crawl("product_list", "heuristic", regular_markup=False, json_ld=False)
    ratings = [row["rating"] for row in rows if row["rating"] != "Loading..."]
    assert ratings and all(10 <= int(rating) <= 50 for rating in ratings)
    assert systematic(details, "rating")


def test_analytics_script_in_the_body_is_code_residue():
    rows, details = crawl(
        "article_extraction", "heuristic", regular_markup=False, json_ld=False, items_per_page=12
    )
    assert all("dataLayer" in row["content"] for row in rows[2:])
    assert systematic(details, "content")


def test_obfuscated_email_is_ui_text_of_the_cdn():
    rows, details = crawl(
        "contact_info", "heuristic", regular_markup=False, json_ld=False, items_per_page=12
    )
    assert all(row["email"] == "[email protected]" for row in rows)
    assert systematic(details, "email")


def test_json_ld_spares_the_heuristics_the_markup_traps():
    rows, details = crawl("product_list", "heuristic", regular_markup=False, json_ld=True)
    assert len(rows) == 24 or len(rows) in (12, 48)
    assert not systematic(details, "rating")


@pytest.mark.parametrize("extractor", ["css", "heuristic", "llm"])
def test_a_re_served_first_page_gives_duplicate_rows(extractor):
    page = ["fetch_http", f"extract_{extractor}", "url_navigation"]
    result = crawl_site(
        [*page, *page, "fetch_http", f"extract_{extractor}", "stop"],
        "product_list",
        **{**PLAIN, "pagination": "next_link", "url_replayable": False},
        regular_markup=True,
        json_ld=False,
    )
    details = crawl_reward(result).details
    assert details["distinct_items"] < len(result["data"])
    assert any("duplicate" in defect for defect in details["defects"])
