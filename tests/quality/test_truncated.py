"""A text cut short mid-sentence in a column of sentences is rejected (issue 35, *truncate*)."""

from __future__ import annotations

from rlm_gym.crawl import check_items
from rlm_gym.quality.truncated import TRUNCATED, ends_a_sentence, truncated_values

SUMMARY = "Le conseil municipal a voté la délibération numéro {} après un long débat public."
SUMMARIES = [SUMMARY.format(number) for number in range(12)]


def test_a_short_text_stopping_mid_sentence_is_cut_short():
    assert truncated_values([*SUMMARIES, "Il a réalisé «"]) == {"Il a réalisé «"}


def test_a_short_text_ending_its_sentence_is_kept():
    assert truncated_values([*SUMMARIES, "Vote reporté."]) == frozenset()


def test_columns_whose_texts_do_not_end_sentences_are_not_read():
    titles = [text.rstrip(".") for text in SUMMARIES]
    assert truncated_values([*titles, "Il a réalisé «"]) == frozenset()


def test_columns_of_short_texts_are_not_read():
    reviews = [f"Great product {number}." for number in range(12)]
    assert truncated_values([*reviews, "ok"]) == frozenset()


def test_too_few_texts_say_nothing():
    assert truncated_values([*SUMMARIES[:5], "Il a réalisé «"]) == frozenset()


def test_check_items_gives_the_reason():
    rows = [{"title": f"Séance {index}", "resume": text} for index, text in enumerate(SUMMARIES)]
    rows.append({"title": "Séance 13", "resume": "La 46"})
    result = {"success": True, "data": rows, "extraction_schema": {"required": ["title", "resume"]}}
    verdicts = check_items(result)
    assert verdicts[-1]["resume"] == (False, TRUNCATED)
    assert verdicts[0]["resume"] == (True, "")


def test_a_sentence_ending_on_a_dangling_space_or_number_is_cut_short():
    summary = "The council met on day {} and agreed on a new plan for the city."
    texts = [summary.format(n) for n in range(20)]
    cut = [
        "The festival opened on Friday in the old town, for the 18",
        "The minister announced the budget for next year, presented by ",
    ]
    assert truncated_values(texts + cut) == frozenset(cut)


def test_texts_that_rarely_end_a_sentence_are_left_alone_even_when_dangling():
    reviews = [
        f"Great service and friendly staff, thanks to all of you, see you {n} " for n in range(20)
    ]
    assert truncated_values(reviews) == frozenset()


def test_final_punctuation_of_other_scripts_ends_a_sentence():
    assert ends_a_sentence("यह ठीक है।") and ends_a_sentence("هل هذا صحيح؟")
    assert not ends_a_sentence("Organisé par") and not ends_a_sentence("Il a réalisé «")
