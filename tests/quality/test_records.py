"""Record-level defects: fields glued into one value, values re-emitted from the previous record."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rlm_gym.crawl import check_items
from rlm_gym.quality.records import (
    GLUED_FIELDS,
    RE_EMITTED_VALUE,
    mark_glued_fields,
    mark_re_emitted_values,
)

FIRMS = ["Acme", "Borealis", "Cobalt", "Dunmore", "Elstree", "Fenwick", "Garnet", "Holloway"]
TOWNS = ["Ashford", "Bexley", "Crawley", "Dorking", "Epsom", "Frome", "Goole", "Hythe"]


def _rows(count: int = 12) -> list[dict[str, str]]:
    return [
        {
            "company": f"{FIRMS[n % 8]} Trading {n}",
            "city": f"{TOWNS[n % 8]} {n}",
            "job": f"Clerk grade {n}",
            "price": f"{100 + 7 * n} €",
        }
        for n in range(count)
    ]


def _columns(rows: list[dict[str, str]]) -> dict[str, list[str]]:
    return {name: [row[name] for row in rows] for name in rows[0]}


def _glued(rows: list[dict[str, str]]) -> list[str]:
    reasons = {name: [""] * len(rows) for name in rows[0]}
    mark_glued_fields(_columns(rows), reasons, dict.fromkeys(rows[0], "text"))
    return reasons["company"]


def test_a_company_with_its_city_glued_on_is_glued():
    rows = _rows()
    rows[4]["company"] += rows[4]["city"].replace(" ", "")
    rows[4]["city"] = rows[4]["city"].replace(" ", "")
    rows[7]["company"] = "Garnet S.A." + rows[7]["city"]
    assert [i for i, verdict in enumerate(_glued(rows)) if verdict] == [4, 7]
    assert GLUED_FIELDS in _glued(rows)


def test_a_neighbour_after_a_space_or_a_mark_is_no_glue():
    rows = _rows()
    rows[4]["company"] += " " + rows[4]["city"]
    rows[5]["company"] += ", " + rows[5]["city"]
    assert not any(_glued(rows))


def test_a_column_whose_values_mostly_end_with_a_neighbour_is_composite():
    rows = _rows()
    for row in rows:
        row["city"] = row["city"].replace(" ", "")
        row["company"] = "Office" + row["city"]
    assert not any(_glued(rows))


def test_scripts_written_without_spaces_are_not_read():
    rows = _rows()
    rows[3]["city"] = "新島村"
    rows[3]["company"] = "株式会社加藤食品新島村"
    assert not any(_glued(rows))


def _re_emitted(rows: list[dict[str, str]], field: str = "company") -> list[str]:
    reasons = {name: [""] * len(rows) for name in rows[0]}
    types = {"company": "text", "city": "text", "job": "text", "price": "price"}
    mark_re_emitted_values(rows, _columns(rows), reasons, types)
    return reasons[field]


def test_the_previous_records_value_in_a_column_that_never_repeats_is_re_emitted():
    rows = _rows(30)
    rows[6]["company"] = rows[5]["company"]
    rows[21]["company"] = rows[20]["company"]
    rows[9]["price"] = rows[8]["price"]
    rows[25]["price"] = rows[24]["price"]
    assert [i for i, verdict in enumerate(_re_emitted(rows)) if verdict] == [6, 21]
    assert _re_emitted(rows, "price")[9] == RE_EMITTED_VALUE


def test_one_repeat_on_the_next_row_is_as_likely_chance():
    # One repeat in 30 rows, on the row below, is chance with probability up to 0.025: a job
    # title or a short price drawn from a small pool repeats so; nothing tells it from a re-emit.
    rows = _rows(30)
    rows[6]["company"] = rows[5]["company"]
    assert not any(_re_emitted(rows))


def test_one_repeat_in_a_long_column_of_distinct_values_is_re_emitted():
    rows = _rows(250)
    rows[6]["company"] = rows[5]["company"]
    assert [i for i, verdict in enumerate(_re_emitted(rows)) if verdict] == [6]


def test_a_column_whose_values_repeat_elsewhere_is_left_alone():
    rows = _rows(30)
    rows[6]["company"] = rows[5]["company"]
    rows[21]["company"] = rows[20]["company"]
    rows[10]["company"] = rows[5]["company"]
    assert not any(_re_emitted(rows))


def test_two_records_of_one_entity_are_no_re_emission():
    rows = _rows(30)
    rows[6] = {**rows[5], "price": "999 €"}  # the same job at another price
    rows[21] = {**rows[20], "price": "998 €"}
    assert not any(_re_emitted(rows))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=12), min_size=10, max_size=30, unique=True))
def test_a_column_of_distinct_values_is_never_re_emitted(names):
    rows = [
        {"company": name, "city": f"T{n}", "job": f"J{n}", "price": "5 €"}
        for n, name in enumerate(names)
    ]
    assert not any(_re_emitted(rows))


def test_check_items_rejects_both_defects():
    rows = _rows(30)
    rows[6]["company"] = rows[5]["company"]
    rows[21]["company"] = rows[20]["company"]
    rows[3]["company"] += rows[3]["city"].replace(" ", "")
    rows[3]["city"] = rows[3]["city"].replace(" ", "")
    result = {"success": True, "data": rows, "extraction_schema": {"required": list(rows[0])}}
    verdicts = check_items(result)
    assert verdicts[6]["company"] == (False, RE_EMITTED_VALUE)
    assert verdicts[3]["company"] == (False, GLUED_FIELDS)
    assert verdicts[5]["company"] == (True, "")
