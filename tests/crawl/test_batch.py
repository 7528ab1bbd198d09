"""``rlm_gym.crawl.batch.explain_lines``: ``score --explain`` names the rule that rejected each
field's values, the type the field was read as and the shape that was expected (issue 28)."""

from __future__ import annotations

from rlm_gym.crawl import crawl_reward
from rlm_gym.crawl.batch import explain_lines


def _explained(data, required):
    result = {"success": True, "data": data, "extraction_schema": {"required": required}}
    details = crawl_reward(result).details
    return details, "\n".join(explain_lines(details))


def test_each_rejected_fields_rules_are_named_with_the_expected_shape():
    data = [{"name": f"Phở {n}", "rating": "45", "price": "N/A"} for n in range(6)]
    details, text = _explained(data, ["name", "rating", "price"])
    assert details["fields"]["rating"]["reasons"] == {"out of range": 6}
    assert details["fields"]["price"]["reasons"] == {"placeholder": 6}
    assert "why values were rejected:" in text
    assert "rating (read as rating; expected a score on a known scale" in text
    assert "out of range (6 values): a score above 5" in text
    assert "price (read as price; expected a positive amount" in text
    assert "placeholder (6 values)" in text
    assert "name (read as" not in text  # nothing of it was rejected


def test_column_context_rules_are_explained_too():
    data = [
        {"title": "Weekly digest", "body": f"Story number {n} about the harbour"} for n in range(6)
    ]
    details, text = _explained(data, ["title", "body"])
    assert details["fields"]["title"]["reasons"] == {"page-wide value": 6}
    assert "page-wide value (6 values): one value on every item" in text


def test_a_clean_crawl_has_no_why_block():
    data = [{"name": f"Phở {n}", "price": f"{50 + n}.000đ"} for n in range(6)]
    _, text = _explained(data, ["name", "price"])
    assert "why values were rejected" not in text
