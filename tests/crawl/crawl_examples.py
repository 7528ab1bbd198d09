"""Crawl results of the design document's worked examples, built so their sub-scores are known."""

from __future__ import annotations

from typing import Any

PRODUCT_SCHEMA = {"required": ["product_name", "price", "rating"]}
# Tolerance of the float comparisons with the worked examples' figures.
TOL = 1e-9


def _result(data, pages, time_ms, pattern_type, schema, **extra) -> dict[str, Any]:
    return {
        "success": True,
        "data": data,
        "navigation_result": {"pages_collected": pages, "strategy_used": "url_navigation"},
        "execution_time_ms": time_ms,
        "extraction_schema": schema,
        "pattern_type": pattern_type,
        "errors": [],
        **extra,
    }


def _product(index: int, rating: float = 4.5) -> dict[str, Any]:
    return {"product_name": f"Sản phẩm {index}", "price": 99.99 + index, "rating": rating}


def example_1_arithmetic() -> dict[str, Any]:
    """40 items, 2 pages, 18 s: presence 1, completeness 1, quality 0.95 (6 bad ratings)."""
    data = [_product(i) for i in range(34)] + [_product(i, rating=12.5) for i in range(34, 40)]
    return _result(data, 2, 18000, "product_list", PRODUCT_SCHEMA)


def example_1_document() -> dict[str, Any]:
    """The document's Example 1 data: 40 distinct, complete, valid products."""
    data = [
        {"product_name": f"iPhone 15 ({index})", "price": 999.99 + index, "rating": 4.5}
        for index in range(20)
    ]
    data += [
        {"product_name": f"MacBook Pro ({index})", "price": 2499.99 + index, "rating": 4.8}
        for index in range(20)
    ]
    return _result(data, 2, 18000, None, PRODUCT_SCHEMA)


def example_2_arithmetic() -> dict[str, Any]:
    """100 distinct items, 2 pages, 40 s: presence 0.67, completeness 0.53, quality 0.60.

    The all-null rows differ by a field outside the schema, so all 100 are distinct.
    """
    complete = [_product(i) for i in range(39)]
    two_fields = [{"product_name": f"Máy {i}", "price": 1299.99} for i in range(21)]
    all_null = [{"product_name": None, "price": None, "rating": None, "row": i} for i in range(14)]
    no_fields = [{"sku": f"SKU-{i}"} for i in range(26)]
    data = complete + two_fields + all_null + no_fields
    return _result(data, 2, 40000, "product_list", PRODUCT_SCHEMA, domain="shopee.vn")


def example_3_arithmetic() -> dict[str, Any]:
    """2 items x 50 required fields, 1 page, 45 s: presence 1, completeness 0.33, quality 0.25.

    Complete but invalid values are one-character texts (usable, yet too short to pass).
    """
    fields = [f"field_{index:02d}" for index in range(50)]

    def item(complete: int, invalid: int) -> dict[str, Any]:
        values = ["Nội dung"] * (complete - invalid) + ["x"] * invalid
        values += [None] * (50 - complete)
        return dict(zip(fields, values, strict=True))

    data = [item(17, 4), item(16, 4)]
    return _result(data, 1, 45000, "article_extraction", {"required": fields})


def example_3_document() -> dict[str, Any]:
    """The document's Example 3 data: two poor articles, 1 page, 45 s."""
    data = [
        {"headline": "N/A", "author": None, "content": ""},
        {"headline": "Some title", "author": "Unknown", "content": "Short"},
    ]
    return _result(data, 1, 45000, None, {"required": ["headline", "author", "content"]})


def picare_arithmetic() -> dict[str, Any]:
    """picare.vn: 40 items, 2 pages, 33 847 ms, validation 0.75 (30 valid, 10 without fields)."""
    data = [_product(i) for i in range(30)] + [{"url": f"/p/{i}"} for i in range(10)]
    return _result(data, 2, 33847, "product_list", PRODUCT_SCHEMA, domain="picare.vn")
