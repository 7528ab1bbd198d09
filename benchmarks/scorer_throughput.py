"""``crawl_reward`` cost against the number of items: 1, 10, 100 and 1 000 product items.

Prints µs per call, items/s and the cost ratio 1 000 vs 100 items (linear cost gives 10x).

Run: ``.venv/bin/python benchmarks/scorer_throughput.py [--repetitions 7]``
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import interleaved_medians, print_table, save_results, time_per_call_us

from rlm_gym.crawl import crawl_reward

SIZES = (1, 10, 100, 1000)


def product_result(n_items: int) -> dict:
    """A realistic two-page product listing with a mix of clean and messy fields."""
    items = []
    for index in range(n_items):
        item = {
            "product_name": f"Product {index}",
            "price": "$1,299.99" if index % 3 == 0 else 19.5 + index,
            "rating": "4.5/5" if index % 4 == 0 else 3.5,
            "rating_count": index,
        }
        if index % 7 == 0:
            item["price"] = "N/A"
        items.append(item)
    return {
        "success": True,
        "data": items,
        "navigation_result": {"pages_collected": 2, "strategy_used": "url_navigation"},
        "execution_time_ms": 18_000.0,
        "errors": [],
        "extraction_schema": {"required": ["product_name", "price", "rating"]},
        "pattern_type": "product_list",
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=7)
    args = parser.parse_args(argv)

    results = {size: product_result(size) for size in SIZES}
    calls = {size: max(5, 20_000 // size) for size in SIZES}
    variants = {
        size: (lambda r=results[size], c=calls[size]: time_per_call_us(lambda: crawl_reward(r), c))
        for size in SIZES
    }
    medians = interleaved_medians(variants, args.repetitions)
    rows, payload = [], {}
    for size, micros in medians.items():
        items_per_s = size / micros * 1e6
        rows.append([size, f"{micros:,.1f}", f"{items_per_s:,.0f}"])
        payload[str(size)] = {"us_per_call": micros, "items_per_s": items_per_s}
    ratio = medians[1000] / medians[100]
    payload["ratio_1000_vs_100"] = ratio
    print(f"crawl_reward on product_list results, {args.repetitions} interleaved repetitions")
    print_table(["items", "us/call", "items/s"], rows)
    print(f"cost ratio 1000 vs 100 items: {ratio:.2f}x (linear = 10x, target <= 12x)")
    save_results("scorer_throughput", payload)
    return payload


if __name__ == "__main__":
    main()
