"""Sentence boundaries the splitter guards got wrong on real pages (issue 19; claims/extract.py
``sentence_spans``). Sentences written for this file; each case failed before its guard."""

from __future__ import annotations

import pytest

from claims.extract import split_sentences

def test_et_al_before_a_capitalised_word_ends_the_sentence() -> None:
    assert split_sentences("The method was refined by Okafor et al. The next section compares it.") == [
        "The method was refined by Okafor et al.", "The next section compares it."]
    # before a year, a bracket or a verb "et al." continues the sentence
    assert split_sentences("Okafor et al. (2021) refined it. Okafor et al. showed more.") == [
        "Okafor et al. (2021) refined it.", "Okafor et al. showed more."]


def test_a_name_with_an_inner_capital_may_start_a_sentence() -> None:
    assert split_sentences("We ship a new server today. vLLM serves it on one GPU.") == [
        "We ship a new server today.", "vLLM serves it on one GPU."]
    assert split_sentences("It uses approx. two gigabytes, e.g. iPhone memory.") == [
        "It uses approx. two gigabytes, e.g. iPhone memory."]
    assert split_sentences("Xu and Lee. A study of sparse retrieval. arXiv:2301.00001, 2023.") == [
        "Xu and Lee.", "A study of sparse retrieval. arXiv:2301.00001, 2023."]


@pytest.mark.parametrize("paragraph, sentences", [
    ("Training took a weekend! 🚀", ["Training took a weekend! 🚀"]),
    ("Training took a weekend! 🚀 Then we evaluated.", ["Training took a weekend! 🚀", "Then we evaluated."]),
])
def test_an_emoji_stays_with_its_sentence(paragraph: str, sentences: list[str]) -> None:
    assert split_sentences(paragraph) == sentences


def test_a_one_letter_variable_ends_a_sentence() -> None:
    assert split_sentences("Each cell counts items of class j. The diagonal holds the hits.") == [
        "Each cell counts items of class j.", "The diagonal holds the hits."]
    assert split_sentences("See p. Kim for the proof.") == ["See p. Kim for the proof."]


def test_a_list_flattened_onto_one_line_gives_one_sentence_per_bullet() -> None:
    assert split_sentences("Pick a setting in which: * recall matters most * precision matters most") == [
        "Pick a setting in which:", "recall matters most", "precision matters most"]
    assert split_sentences("Features: • fast • small. Then more.") == ["Features:", "fast", "small.", "Then more."]
    assert split_sentences("The score is C * s with C = 20 here.") == ["The score is C * s with C = 20 here."]


def test_company_suffixes_end_a_sentence_and_short_labels_keep_their_number() -> None:
    assert split_sentences("It was built by Acme Inc. The team later released it.") == [
        "It was built by Acme Inc.", "The team later released it."]
    assert split_sentences("The model was built by Acme Corp. in 2020.") == ["The model was built by Acme Corp. in 2020."]
    assert split_sentences("See Tab. 1 for the numbers.") == ["See Tab. 1 for the numbers."]
    assert split_sentences("See Alg. 2 and Thm. 3 below.") == ["See Alg. 2 and Thm. 3 below."]
    assert split_sentences("We used BERT. 23 smaller models exist.") == ["We used BERT.", "23 smaller models exist."]


def test_a_url_ending_a_sentence_ends_it() -> None:
    assert split_sentences("See https://example.org/a.b. Then run it.") == ["See https://example.org/a.b.", "Then run it."]
    assert split_sentences("Visit https://example.org/A.B.html for more.") == ["Visit https://example.org/A.B.html for more."]


def test_a_numbered_list_flattened_onto_one_line_loses_its_markers() -> None:
    assert split_sentences("Two steps: 1) Index the corpus. 2) Query it.") == [
        "Two steps:", "Index the corpus.", "Query it."]
    assert split_sentences("The score was 3. Then it rose to 2. Fine.") == [
        "The score was 3.", "Then it rose to 2.", "Fine."]
