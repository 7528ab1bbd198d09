"""The learned value roles and the judge's rule for a value of another role in its column."""

from __future__ import annotations

import numpy as np
import pytest

from rlm_gym.crawl import check_items
from rlm_gym.quality import value_roles
from rlm_gym.quality.value_roles import (
    ROLE_GROUPS,
    ROLES,
    group_probabilities,
    ngram_hashes,
    normalise,
    role_outliers,
)

COMPANIES = [
    "Nordic Timber AB",
    "Acme Logistics GmbH",
    "Blue River Foods Ltd",
    "Kowalski i Synowie Sp. z o.o.",
    "Soluciones Andinas S.A.",
    "Meridian Health Partners",
    "Tanaka Shoji",
    "Groupe Lemoine SARL",
    "Vista Analytics Inc.",
    "Holmberg Consulting",
]


def test_probabilities_are_one_row_per_text_summing_to_one():
    probabilities = value_roles.value_roles(["Anna", "Anna", "https://example.org", "4.5/5"])
    assert probabilities.shape == (4, len(ROLES))
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, rtol=1e-5)
    np.testing.assert_array_equal(probabilities[0], probabilities[1])


def test_group_probabilities_sum_the_roles_of_each_group():
    probabilities = value_roles.value_roles(["Berlin", "€ 12,50"])
    grouped = group_probabilities(probabilities)
    assert grouped.shape == (2, len(ROLE_GROUPS))
    np.testing.assert_allclose(grouped.sum(axis=1), 1.0, rtol=1e-5)


def test_ngrams_never_cross_from_one_text_into_the_next():
    alone = ngram_hashes([normalise("ab")])[0]
    together, owners = ngram_hashes([normalise("ab"), normalise("cd")])
    assert sorted(together[owners == 0].tolist()) == sorted(alone.tolist())


def test_digits_of_every_script_read_alike():
    assert normalise("١٢٣ ريال") == normalise("456 ريال")


@pytest.mark.parametrize(
    ("value", "group"),
    [
        ("https://www.example.com/jobs/123", "url"),
        ("kontakt@firma.pl", "email"),
        ("Price: 3,7 mld", "labelled"),
        ("$1,299.99", "numeric"),
        ("<div class='x'>y</div>", "markup"),
        ("Ingrid Svensson", "words"),
    ],
)
def test_plain_values_read_as_their_group(value, group):
    grouped = group_probabilities(value_roles.value_roles([value]))[0]
    assert tuple(ROLE_GROUPS)[int(grouped.argmax())] == group


def test_an_amount_among_companies_is_an_outlier_naming_both_roles():
    found = role_outliers([*COMPANIES, "45 000 - 60 000 zł"])
    assert found is not None
    assert found.roles == {"45 000 - 60 000 zł": "amount"}
    reason = found.reason("company", "45 000 - 60 000 zł")
    assert reason == "an amount in the `company` column of organisations: 1 of 11 rows"


def test_a_clean_column_of_companies_has_no_outlier():
    assert role_outliers(COMPANIES) is None


def test_a_column_of_two_roles_is_mixed_not_a_defect():
    links = [f"https://example.com/{index}" for index in range(10)]
    assert role_outliers(COMPANIES[:5] + links) is None


def test_a_column_whose_values_agree_on_another_role_is_left_alone():
    blobs = [
        f"{goals} gol: Player {name} (Club {name})"
        for goals, name in zip(range(9, 19), "ABCDEFGHIJ", strict=True)
    ]
    assert role_outliers(blobs) is None


def test_bare_whole_numbers_among_names_are_left_to_the_shifted_column_rule():
    assert role_outliers([*COMPANIES, "320"]) is None


def test_too_few_values_say_nothing():
    assert role_outliers([*COMPANIES[:3], "https://example.com"]) is None


def test_check_items_rejects_a_value_of_another_role_with_both_roles_named():
    rows = [{"company": name, "salary": "5 000 zł"} for name in COMPANIES]
    rows.append({"company": "https://jobs.example.com/offer/991", "salary": "6 000 zł"})
    result = {
        "success": True,
        "data": rows,
        "extraction_schema": {"required": ["company", "salary"]},
    }
    verdicts = check_items(result)
    valid, reason = verdicts[-1]["company"]
    assert not valid
    assert reason.startswith("a url in the `company` column of organisations")
    assert all(verdict["company"] == (True, "") for verdict in verdicts[:-1])


def test_the_model_names_the_roles_it_was_built_with():
    weights, bias = value_roles._model()
    assert weights.shape == (2**value_roles.HASH_BITS, len(ROLES))
    assert bias.shape == (len(ROLES),)


def test_a_full_cache_is_emptied_without_losing_the_rows_asked_for(monkeypatch):
    monkeypatch.setattr(value_roles, "_CACHE_LIMIT", 3)
    value_roles._CACHE.clear()
    value_roles.value_roles(["Anna", "Berlin"])
    probabilities = value_roles.value_roles(["Anna", "Berlin", "Oslo", "Kyiv"])
    assert probabilities.shape == (4, len(ROLES))
    np.testing.assert_allclose(probabilities[0], value_roles.value_roles(["Anna"])[0])
