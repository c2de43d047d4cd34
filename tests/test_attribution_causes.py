"""Attribution causes fixed at stop 29 (issue 19; claims/attribution.py, the page pass of
claims/extract.py, and the reader's Distill citation tag in audit/document.py).

Every sentence here was written for this file (none is copied from the labelled corpus)."""

from __future__ import annotations

from claims.extract import TABLE_VALUE, extract_claims


def _rows(text: str):
    """The sentence rows of a Markdown text (the block rule, as a page is read)."""
    return [r for r in extract_claims(text, "block") if r.kind != TABLE_VALUE]


def _attributed(row) -> bool:
    """The bench's reading (bench/bench_claims_quality.py ``is_attributed``)."""
    return row.kind == "attribution" or "credited to" in row.cue


def test_a_distill_citation_tag_is_a_citation_of_its_key() -> None:
    rows = _rows('Dense retrieval beats sparse retrieval on most benchmarks <d-cite key="okafor2020dense"></d-cite>.')
    assert len(rows) == 1 and _attributed(rows[0])
    assert rows[0].cited_names == ["okafor 2020"]


def test_a_distill_citation_glued_to_a_word_and_inside_an_html_block_still_cites() -> None:
    rows = _rows('<span style="font-weight:800">Quokka Net<d-cite key="7"/>:</span> trained on noisy labels.\n')
    assert [r.cited_names for r in rows if _attributed(r)] == [["7"]]
    rows = _rows('The labels were checked with Quokka-L<d-cite key="12"/> predictions only.')
    assert len(rows) == 1 and _attributed(rows[0]) and "12" in rows[0].cited_names


def test_a_distill_citation_after_the_full_stop_cites_the_sentence_before() -> None:
    rows = _rows('First a baseline is trained. The agent never recovers from the warm start. '
                 '<d-cite key="Mbeki"></d-cite>\n\nNext paragraph here.')
    assert [r.text for r in rows][1].startswith("The agent never recovers")
    assert len(rows) == 3
    assert [_attributed(r) for r in rows] == [False, True, False]
    assert rows[1].cited_names == ["Mbeki"]
    assert [q.text for r in rows for q in r.quantities] == []  # a key is no number


def test_a_numbered_marker_is_the_cited_name_not_the_metric_or_the_compared_system() -> None:
    rows = _rows("Our reranker reaches 0.482 nDCG@10, 12% better than BM25 [4].")
    assert len(rows) == 1 and _attributed(rows[0])
    assert rows[0].cited_names == ["[4]"]
    rows = _rows("Dense retrieval with DPR holds up on long queries :cite:`okafor2021`.")
    assert rows[0].cited_names == ["okafor 2021"]


def test_a_named_person_beside_a_marker_stays_cited() -> None:
    rows = _rows("In 2019, Okafor restated Okafor's law for larger indexes [3].")
    assert _attributed(rows[0]) and "Okafor" in rows[0].cited_names and "[3]" in rows[0].cited_names


def test_a_metric_glued_to_its_cutoff_is_never_a_cited_name() -> None:
    rows = _rows("MRR@10 rose to 0.41 on the dev queries, as reported by Okafor et al. (2022).")
    assert _attributed(rows[0]) and "MRR" not in rows[0].cited_names


NOT_CREDITED = [
    "The next release will fold in every idea discussed in this article.",
    "We expect the run to take a few seconds, as shown in the profile output below:",
    "The value is in seconds, and the default value suggested by Kestrel is 30.",
    "@mbeki recently posted about the indexing speed-ups and suggested that we write a blog post about it:",
]


def test_the_page_itself_a_product_default_and_an_errand_credit_nothing() -> None:
    for sentence in NOT_CREDITED:
        rows = _rows(sentence)
        assert not any(_attributed(r) for r in rows), sentence


def test_another_work_named_beside_those_words_still_credits() -> None:
    for sentence, name in (("As demonstrated in this blog post by Okafor, int8 halves the latency.", "Okafor"),
                           ("The heuristic was suggested by Okafor in 2019.", "Okafor"),
                           ("Okafor suggested that the index be rebuilt nightly [2].", "[2]")):
        rows = _rows(sentence)
        assert _attributed(rows[0]) and name in rows[0].cited_names, sentence


def test_a_named_maker_who_built_a_work_is_credited_and_a_generic_one_is_not() -> None:
    rows = _rows("@mbeki and others who designed the task API.")
    assert _attributed(rows[0]) and rows[0].cited_names == ["@mbeki"]
    for sentence in ("Everyone who worked on the release deserves a break.",
                     "Users who built their own index saw no change."):
        assert not any(_attributed(r) for r in _rows(sentence)), sentence


def test_an_unnamed_paper_said_of_the_pages_own_system_is_a_self_reference() -> None:
    sentence = "Note that the paper describes an early version of Gridnet that no longer matches the code."
    own_page = _rows(f"# Gridnet\n\nGridnet finds banding in video frames.\n\n{sentence}\n")
    assert [_attributed(r) for r in own_page if r.text == sentence] == [False]
    other_page = _rows(f"# Banding metrics\n\nSeveral metrics find banding in video frames.\n\n{sentence}\n")
    assert [_attributed(r) for r in other_page if r.text == sentence] == [True]
