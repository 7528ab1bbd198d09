"""ItemSample: a bounded, uniform sample of a stream's distinct items with exact counts."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rlm_gym.crawl import crawl_reward
from rlm_gym.crawl.item_sample import ItemSample, canonical_json
from rlm_gym.crawl.readers import crawl_result_from_items


def _product(number: int, bad_price: bool = False) -> dict[str, str]:
    return {"name": f"Chair no. {number}", "price": "N/A" if bad_price else f"£{number % 90 + 10}"}


def test_a_stream_within_capacity_scores_exactly_as_the_whole_crawl():
    stream = [_product(n % 30) for n in range(45)] + [{"name": "N/A", "price": "£3"}] * 3
    sample = ItemSample(capacity=100)
    for item in stream:
        sample.add(item)
    assert sample.complete
    assert sample.distinct() == 31
    rows = sample.rows()
    assert Counter(map(canonical_json, rows)) == Counter(map(canonical_json, stream))
    whole = crawl_reward(crawl_result_from_items(stream, ["name", "price"]))
    sampled = crawl_reward(crawl_result_from_items(rows, ["name", "price"]))
    assert sampled == whole


def test_memory_is_bounded_by_the_capacity():
    sample = ItemSample(capacity=64)
    for number in range(5000):
        sample.add(_product(number))
    assert len(sample) == 64
    assert sample.seen == 5000
    assert not sample.complete


def test_the_kept_items_do_not_depend_on_the_stream_order():
    stream = [_product(number) for number in range(2000)]
    shuffled = stream[:]
    random.Random(3).shuffle(shuffled)
    first, second = ItemSample(capacity=50), ItemSample(capacity=50)
    for item in stream:
        first.add(item)
    for item in shuffled:
        second.add(item)
    assert sorted(map(canonical_json, first.rows())) == sorted(map(canonical_json, second.rows()))


def test_counts_of_kept_items_are_exact_beyond_capacity():
    stream = [_product(number) for number in range(3000) for _ in range(number % 3 + 1)]
    sample = ItemSample(capacity=200)
    for item in stream:
        sample.add(item)
    truth = Counter(map(canonical_json, stream))
    for text, count in Counter(map(canonical_json, sample.rows())).items():
        assert count == truth[text]


def test_distinct_items_are_estimated_within_a_few_percent():
    sample = ItemSample(capacity=1000)
    for number in range(60_000):
        sample.add(_product(number % 30_000))
    assert sample.distinct() == pytest.approx(30_000, rel=0.1)  # KMV: about ±3 % at 1000 keys


def test_a_sample_measures_a_fields_invalid_share():
    stream = [_product(number, bad_price=number % 10 < 3) for number in range(20_000)]
    sample = ItemSample(capacity=800)
    for item in stream:
        sample.add(item)
    signal = crawl_reward(crawl_result_from_items(sample.rows(), ["name", "price"]))
    price = signal.details["fields"]["price"]
    assert price["invalid"] / price["checked"] == pytest.approx(0.3, abs=0.05)
    assert any(defect.startswith("price:") for defect in signal.details["defects"])


def test_max_rows_scales_the_repeats_and_keeps_the_duplicate_share():
    sample = ItemSample(capacity=10)
    for number in range(10):
        for _ in range(100 if number < 5 else 300):
            sample.add(_product(number))
    rows = sample.rows(max_rows=200)
    assert len(rows) == 200
    assert 1 - 10 / len(rows) == pytest.approx(1 - 10 / 2000, abs=0.05)
    assert len(sample.rows()) == 2000


def test_rows_are_fresh_items():
    sample = ItemSample(capacity=4)
    sample.add({"name": "Chair"})
    sample.rows()[0]["name"] = "changed"
    assert sample.rows() == [{"name": "Chair"}]


@pytest.mark.parametrize("capacity", [0, -1, 2.5, True, "10"])
def test_capacity_must_be_a_positive_integer(capacity):
    with pytest.raises(ValueError, match=r"Expected `capacity` to be an integer >= 1, got"):
        ItemSample(capacity=capacity)
