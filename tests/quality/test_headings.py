"""Heading rows (:mod:`rlm_gym.quality.headings`), on hand-written records."""

from __future__ import annotations

from rlm_gym.quality.headings import heading_rows


def _jobs(count: int) -> list[dict[str, str]]:
    return [
        {"job": f"Data engineer {n}", "pay": f"{n}k-{n + 4}k", "years": "3-5"} for n in range(count)
    ]


def test_a_lone_short_title_among_filled_records_is_a_heading():
    rows = [{"job": "Lyon", "pay": "", "years": None}, *_jobs(6)]
    assert heading_rows(rows, "job", ("job", "pay", "years")) == {0}


def test_few_records_say_nothing():
    rows = [{"job": "Lyon", "pay": "", "years": ""}, *_jobs(3)]
    assert heading_rows(rows, "job", ("job", "pay", "years")) == set()


def test_a_title_with_a_digit_or_many_words_is_no_heading():
    fields = ("job", "pay", "years")
    assert heading_rows([{"job": "Block 7"}, *_jobs(6)], "job", fields) == set()
    long = {"job": "Senior platform engineer wanted", "pay": "", "years": ""}
    assert heading_rows([long, *_jobs(6)], "job", fields) == set()


def test_a_crawl_whose_records_mostly_lack_other_fields_has_no_headings():
    rows = [{"job": "Lyon"}, {"job": "Nice"}, {"job": "Paris"}, *_jobs(2), {"job": "Metz"}]
    assert heading_rows(rows, "job", ("job", "pay", "years")) == set()


def test_a_record_with_only_its_title_field_has_no_others_to_read():
    assert heading_rows([{"job": "Lyon"}, *_jobs(6)], "job", ("job",)) == set()
