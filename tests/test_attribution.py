"""Attributions found as a careful reader finds them (issue 19; claims/attribution.py).

Every sentence here was written for this file (none is copied from the labelled corpus); each
case failed before the rules it tests were written: credits to organisations, papers, teams and
author-year groups, and the false alarms of pronouns, venues, releases, reading pointers, thanks,
reference-list entries, products and system results."""

from __future__ import annotations

import pytest

from claims.attribution import credits, possessive_credits
from claims.extract import extract_claims


def _row(text: str):
    rows = [r for r in extract_claims(text) if r.kind != "table value"]
    assert len(rows) == 1, [r.text for r in rows]
    return rows[0]


def _attributed(row) -> bool:
    """The bench's reading (bench/bench_claims_quality.py ``is_attributed``)."""
    return row.kind == "attribution" or "credited to" in row.cue


CREDITED = [
    # (sentence, a cited name it must give)
    ("Hybrid search improves recall on long queries (Lin, 2021; Ma et al., 2022).", "Lin"),
    ("Reranking helps most on short queries (see Okafor, 2019).", "Okafor"),
    ("Sparse models were strong baselines (okafor and al., 2019).", "okafor"),
    ("The weighting was tuned later by quispe et al. for short passages.", "quispe et al."),
    ("The reranker was developed by Microsoft Research for web search.", "Microsoft Research"),
    ("The benchmark was released by Meta together with a leaderboard.", "Meta"),
    ("Engineers at Spotify traced the regression to the tokenizer.", "Spotify"),
    ("Anthropic researchers argue that interpretability matters.", "Anthropic"),
    ("The Qdrant team reported a large drop in memory use.", "Qdrant"),
    ("This result was reported by the DeepMind team.", "DeepMind"),
    ("The numbers below are quoted from “Scaling Retrieval”.", "Scaling Retrieval"),
    ("Following BEIR, we report the mean over every dataset.", "BEIR"),
    ("As Voorhees puts it, a test collection is a reusable instrument.", "Voorhees"),
    ("Zaharia's group showed that late interaction scales.", "Zaharia"),
    ("Salton's method shaped decades of retrieval.", "Salton"),
    ("OpenAI's scaling laws predict the loss from compute.", "OpenAI"),
]


@pytest.mark.parametrize("sentence, name", CREDITED)
def test_credits_name_the_source(sentence: str, name: str) -> None:
    row = _row(sentence)
    assert _attributed(row), row.cue
    assert name in row.cited_names, row.cited_names


def _none_credited(sentences: list[str]) -> None:
    credited = [(s, _row(s).cue) for s in sentences if _attributed(_row(s))]
    assert credited == []


def test_a_numbered_reference_is_a_citation_but_an_interval_or_an_index_is_not() -> None:
    assert _attributed(_row("Dense retrievers transfer poorly to new domains [12]."))
    assert _attributed(_row("This was shown for several rerankers [3, 7]."))
    _none_credited(["Every judge gives a grade in the range [1, 5] per answer.",
                    "The slice `tokens[1]` skips the first token."])
    assert credits("The value x[1] is the first position.") is None


def test_pronouns_and_quantifiers_name_no_source() -> None:
    _none_credited(["They proposed a small change to the loss.",
                    "All proposed in the same year, these encoders differ in size.",
                    "Benchmarks show that the new kernel is faster.",
                    "AI researchers often disagree on terminology."])


def test_venues_and_releases_are_no_sources() -> None:
    _none_credited(["The encoder was published in ICLR 2021 and is widely used.",
                    "The encoder was published on arXiv before the workshop.",
                    "Streaming output was introduced in Python 3.12.",
                    "Sparse vectors were introduced in Sentence Transformers v3."])
    assert _attributed(_row("The encoder was published by Google with its weights."))


def test_reading_pointers_and_thanks_credit_nothing() -> None:
    _none_credited(["To learn more about pruning, read the blog post by Weaviate.",
                    "For further details, see the paper by the Cohere team.",
                    "More details are in the original paper.",
                    "We thank the authors of SPLADE for sharing their checkpoints.",
                    "Huge thanks to Priya Raman and Tomás Ortega for their reviews."])
    # a citation role inside a pointer still cites
    credit = credits("For the derivation, see :cite:`Ferreira.Lopes.2019`.")
    assert credit is not None and credit.names == ("Ferreira 2019",)


def test_a_reference_entry_credits_nothing() -> None:
    assert credits("Moreau, I. and Haddad, O. (2023). Lessons from the BEIR paper. In Proceedings.") is None
    assert credits('Lena Park, Omar Haddad and Ines Moreau, "Lessons from the ColBERT paper", 2023.') is None
    assert credits("As Moreau and Haddad (2023) found in the BEIR paper, recall varies.") is not None


def test_an_owners_product_and_a_systems_result_are_no_credits() -> None:
    _none_credited(["Cohere's models are served through an API.",
                    "Apple's Vision Pro framework renders the results.",
                    "BM25 found many relevant passages in the first page.",
                    "The option can be found on Hugging Face.",
                    "The following paper describes our system in more detail."])
    assert _attributed(_row("Okonkwo found that shorter chunks hurt recall."))
    sentence = "Robertson’s probabilistic framework and Apple’s Vision Pro framework differ."
    assert possessive_credits(sentence, sentence.index("’s") + 2)
    assert not possessive_credits(sentence, sentence.index("Apple’s") + len("Apple’s"))


def test_the_name_inside_the_x_team_is_the_cited_name() -> None:
    credit = credits("This result was reported by the DeepMind team.")
    assert credit is not None and credit.names == ("DeepMind",)
    credit = credits("Late chunking was described in the following paper:")
    assert credit is not None and credit.names == ()


def test_bylines_and_pointers_with_a_possessive_credit_nothing() -> None:
    _none_credited(["This notebook was created by the Weaviate team.",
                    "Written by Jane Okafor and Li Wei.",
                    "Check out Jina's blog post for more.",
                    "You can read Lilian Weng's excellent post on this."])
    assert _attributed(_row("Lilian Weng's post argues that chunk size matters."))


@pytest.mark.parametrize("sentence, name", [
    ("Inspired by ColBERT, we add a late-interaction head.", "ColBERT"),
    ("Per the MTEB paper, the average is unweighted.", "MTEB"),
    ("Per Google, the model handles long inputs.", "Google"),
    ("The approach was popularised by Karpathy's nanoGPT.", "Karpathy"),
])
def test_inspired_by_per_and_popularised_by_credit(sentence: str, name: str) -> None:
    row = _row(sentence)
    assert _attributed(row) and name in row.cited_names, (row.cue, row.cited_names)


def test_per_a_unit_is_a_rate() -> None:
    _none_credited(["Per GPU, throughput is much higher.", "Per query, we retrieve a hundred passages."])
    assert _attributed(_row("Per Google, the model handles long inputs."))


def test_scores_models_comparisons_and_unnamed_teams_are_no_sources() -> None:
    _none_credited(["Answers were graded by an evaluation by GPT-4.",
                    "Passages are ranked according to BM25 scores.",
                    "A model similar to BERT encodes each passage.",
                    "Like BERT, the model uses WordPiece.",
                    "After BM25, we rerank the top hits.",
                    "The team found that customers prefer shorter answers."])
    for sentence, name in (("We use a training setup similar to ANCE.", "ANCE"),
                           ("According to Pinecone, most users pick cosine.", "Pinecone"),
                           ("The Cohere team found that longer chunks hurt.", "Cohere")):
        row = _row(sentence)
        assert _attributed(row) and name in row.cited_names, (sentence, row.cited_names)


def test_a_list_value_ending_a_line_is_no_numbered_reference() -> None:
    _none_credited(["topic 17: soil moisture — grade 2, judged [1, 3]"])
    assert _attributed(_row("As [4] showed, the judged pool is shallow."))


def test_credits_to_unnamed_papers_authors_and_quoted_speakers() -> None:
    for sentence in ("According to the paper, recall saturates early.",
                     "According to a recent study, most users skip the second page.",
                     "The original authors report a small gain."):
        assert _attributed(_row(sentence)), sentence
    for sentence, name in (("This is based on the work of Karpukhin on dense retrieval.", "Karpukhin"),
                           ("Credit goes to Okafor for the idea.", "Okafor"),
                           ("“Chunking matters more than the model,” says Okafor.", "Okafor")):
        row = _row(sentence)
        assert _attributed(row) and name in row.cited_names, (sentence, row.cited_names)
    _none_credited(["According to our benchmarks, recall saturates.",
                    "The authors of this post answer questions on the forum."])


def test_causal_thanks_to_keeps_its_credit() -> None:
    row = _row("Thanks to the approach introduced in the ColBERT paper, latency drops.")
    assert _attributed(row) and "ColBERT" in row.cited_names
    _none_credited(["Thanks to Priya Raman for the notes from the ColBERT paper reading group."])


def test_a_platform_is_no_source_but_a_leaderboard_on_it_is() -> None:
    _none_credited(["The full steps are shown on GitHub.", "The bug was first reported on Reddit."])
    row = _row("Our score is higher than reported on the MTEB leaderboard.")
    assert _attributed(row) and "MTEB" in row.cited_names


def test_code_nouns_and_function_words_are_no_credits() -> None:
    """Shapes of our own docs: code holding brackets, a name before a noun that is also a verb,
    'the same authors', a function word before 'et al.' or after 'the method'."""
    assert credits("It accepts `RR[@k]` and `AP[@k]` as measures.") is None
    assert credits("The marker `[3]` is a numbered reference.") is None
    _none_credited(["Lengths are uniform in [50, 1,500] characters.",
                    "Bundled claims files are listed below.",
                    "It writes a JUnit XML report for CI.",
                    "Two papers by the same authors share a surname.",
                    "It is named after the method and the metric."])
    assert credits("A reference lists two surnames, then et al. in italics.") is None
    assert credits("As the BEIR authors found, zero-shot transfer is hard.") is not None


@pytest.mark.parametrize("sentence, name", [
    ("We sample queries with the Datasets library by Hugging Face.", "Hugging Face"),
    ("Two runs were submitted, one by Intel and the other by Lenovo.", "Lenovo"),
    ('The filter follows Section 4 of "Deduplicating Training Data".', "Deduplicating Training Data"),
    ("Anthropic defined a harmful reply as one that helps an attacker.", "Anthropic"),
])
def test_products_by_an_author_parts_of_a_work_and_definitions_credit(sentence: str, name: str) -> None:
    row = _row(sentence)
    assert _attributed(row) and name in row.cited_names, (row.cue, row.cited_names)


def test_a_value_of_the_paper_beside_ours_credits_the_paper() -> None:
    assert _attributed(_row("Our rerun gives 0.412 on FiQA (paper 0.418)."))
    assert _attributed(_row("We measure 0.361 vs. reported 0.368 on the dev set."))
    _none_credited(["The calibration set required by MLCommons is small.",
                    "Since released, the encoder has been reused widely.",
                    "Last May, Cohere developed a multilingual reranker.",
                    "The plan (phase 2) starts next year."])


def test_a_company_domain_is_one_cited_name() -> None:
    row = _row("A recent post from Mixedbread.ai explains the trade-off between size and recall.")
    assert _attributed(row) and "Mixedbread.ai" in row.cited_names, row.cited_names


# The reporting grammar (a named source as the subject of a verb of saying or finding) and its
# guards; every sentence written for this file.

@pytest.mark.parametrize("sentence, name", [
    ("Okafor and Lindqvist recommend a held-out split per domain.", "Okafor and Lindqvist"),
    ("Quispe has argued that the metric rewards long answers.", "Quispe"),
    ("Engineers at Zalando benchmarked the new index on real traffic.", "Zalando"),
    ("Cloudflare's engineers measured a large drop in cold starts.", "Cloudflare"),
    ("Ramos and colleagues found a simpler schedule.", "Ramos"),
    ("Postgres' own benchmark shows that the index fits in memory.", "Postgres"),
    ("A study by Mozilla found that most pages load lazily.", "Mozilla"),
    ("As the Turso team explains, replicas are read-only.", "Turso"),
    ("This heuristic, due to Okafor and Mensah, halves the candidates.", "Okafor and Mensah"),
    ("The idea goes back to Luhn, who weighted words by frequency.", "Luhn"),
    ("Hybrid ranking is now common (Mensah et al. 2022; Osei 2023).", "Osei"),
    ("Ibarra, Mensah and Osei (2021) expand every passage.", "Ibarra"),
    ("A Grace Hopper paper that proposes a compiler changed the field.", "Grace Hopper"),
    ("Expert routing by Mensah et Al ( 2022 ) balances the load.", "Mensah et al."),
])
def test_a_named_source_that_says_or_finds_is_credited(sentence: str, name: str) -> None:
    row = _row(sentence)
    assert _attributed(row) and name in row.cited_names, (row.cue, row.cited_names)


def test_numbered_and_footnote_markers_cite_and_count_nothing() -> None:
    for sentence in ("[12] showed that the bound is tight.", "Recall drops beyond a million documents.[3]",
                     "The drift was reported for other tokenizers.[^2]", "The drift was observed before.² It grew."):
        row = [r for r in extract_claims(sentence) if r.kind != "table value"][0]
        assert _attributed(row), sentence
        assert all(q.role != "value" for q in row.quantities if q.text in ("12", "3", "2")), row.quantities
    row = _row("SPLADE [4] expands every passage.")
    assert _attributed(row) and "SPLADE" in row.cited_names
    # a glued marker closes the sentence before it, not the next one
    rows = [r.text for r in extract_claims("Lee saw the same drift.[^2] Smith did not. It grew.² Then it fell.")]
    assert rows == ["Lee saw the same drift.[^2]", "Smith did not.", "It grew.²", "Then it fell."]
    _none_credited(["The cost grows as O(n²) in the length.", "The (IA)³ adapters merge linearly.",
                    # a footnote is a note, a source only when the sentence reports
                    "The index is rebuilt every night.[^1]",
                    "I did not measure latency on a server, so it holds for my laptop.[^hw]"])
    row = _row("Okafor found the same effect [^okafor].")
    assert _attributed(row) and "Okafor" in row.cited_names


def test_systems_roles_and_nouns_that_look_like_verbs_are_no_sources() -> None:
    _none_credited(["RAG has shown to be useful for many tasks.",
                    "Milvus and Qdrant show similar tail latency.",
                    "Python developers report the error often.",
                    "Critics argue that the benchmark is saturated.",
                    "Experience has shown that caches help.",
                    "Bold claims are easy to make.",
                    "For SciFact claim 17, the positive survives.",
                    "Qdrant supports payload filtering during search.",
                    "LoRA insights by Mensah Osei: practical notes about ranks."])
    assert _attributed(_row("Milvus and Qdrant show that tail latency grows with k."))
    # the page's own author, an infinitive, code
    _none_credited(["Eventually I realised that the cache was cold.",
                    "I've recently found that most models know the API.",
                    "To demonstrate that the model works, run the script.",
                    "The filter keeps the second field: .[2]"])
    row = _row("Inspired by Brad Okafor I tried the same trick.")
    assert _attributed(row) and "Brad Okafor" in row.cited_names, row.cited_names
    assert _attributed(_row("Meta claims the new tokenizer is faster."))


def test_a_work_the_page_names_credits_the_sentences_it_is_the_subject_of() -> None:
    text = ("Gopherine is an influential paper that fixed the data budget.\n\n"
            "Gopherine trained over 400 small transformers to fit the curve.\n\n"
            "Kubelet trained nothing and restarts the pods.\n")
    rows = {r.text: r for r in extract_claims(text)}
    row = rows["Gopherine trained over 400 small transformers to fit the curve."]
    assert _attributed(row) and "Gopherine" in row.cited_names, (row.cue, row.cited_names)
    assert not _attributed(rows["Kubelet trained nothing and restarts the pods."])


def test_own_parts_and_the_products_report_are_no_sources() -> None:
    _none_credited(["This does not repair the missing comparison from Part II.",
                    "It lists the searches the report shows, from the sources cache."])
    row = _row("Most recently, a pgvector vs Qdrant comparison by NirantK appeared.")
    assert _attributed(row) and "NirantK" in row.cited_names
    assert _attributed(_row("The blog post recommends a higher learning rate for LoRA."))


def test_a_numbered_marker_is_the_cited_name_as_written() -> None:
    """The corpus convention (tests/data/corpus/manifest.json): "[1, 2]" is one cited name, "[4]"
    and "[3]" in one sentence are two."""
    assert _row("Dense retrievers transfer poorly to new domains [12].").cited_names == ["[12]"]
    assert _row("This was shown for several rerankers [3, 7].").cited_names == ["[3, 7]"]
    assert _row("Sparse wins [4] and dense loses [3].").cited_names == ["[4]", "[3]"]
    assert _row("SPLADE [4] expands every passage.").cited_names == ["SPLADE", "[4]"]


def test_a_bare_narrative_pandoc_key_cites_and_a_month_is_no_author() -> None:
    row = _row("Similarly, @Okonjo2021 discuss how a word list filtered the crawl.")
    assert _attributed(row) and row.cited_names == ["Okonjo 2021"]
    assert _row("As @quispe2018bayes shows, the interval is wide.").cited_names == ["quispe 2018"]
    _none_credited(["Write to jane@host2020.org for access.", "See @fig-2020 for the plot.",
                    "The model (2022) is fast."])
    # a work named with its date as the subject is cited, the month never is
    row = _row("Gridblocks (Nov 2022) ships new GPU kernels for sparse layers.")
    assert _attributed(row) and row.cited_names == ["Gridblocks"]


def test_researchers_of_a_list_of_organisations_are_one_cited_name() -> None:
    row = _row("The index was built by researchers from Lagos University, Kyoto University and Delft University.")
    assert _attributed(row)
    assert row.cited_names == ["Lagos University, Kyoto University and Delft University"]


def test_batch_8_shapes_of_our_own() -> None:
    """Shapes the rules missed on batch 8 (development, before tuning; docs/audit.md), each in a
    sentence of our own: building on a work named by its address, a report by an organisation,
    journalists of an organisation, an unnamed study that identifies, thanks to makers for making."""
    for sentence, names in (
            ("This project builds on the excellent previous record https://github.com/ana-lab/fast-cifar (6 s).",
             ["ana-lab/fast-cifar"]),
            ("Which itself builds on the series https://quick.ai/learn/resnets/ (26 seconds).", ["quick.ai"]),
            ("In 2019, an investigative report by the Lagos Herald uncovered a scandal.", ["Lagos Herald"]),
            ("The Lagos Herald journalists found that the model was regressive.", ["Lagos Herald"]),
            ("The study identifies duplicate images in the validation set.", []),
            ("We are especially grateful to the Ollama and Lemur teams for creating fast tooling.",
             ["Ollama and Lemur"]),
            ("We also thank the teams at OpenMaths, Prime Lab, and Deep Works for creating datasets.",
             ["OpenMaths, Prime Lab, and Deep Works"])):
        row = _row(sentence)
        assert _attributed(row), sentence
        assert all(n in row.cited_names for n in names), (sentence, row.cited_names)
    _none_credited(["The docs are built on https://readthedocs.org for hosting.",
                    "We thank our reviewers for building trust.", "Thanks to Ana for reviewing drafts."])


def test_a_work_summarised_under_its_title_and_an_institution_with_of() -> None:
    row = _row("Fresh Labels: authors used a large model to reannotate the set.")
    assert _attributed(row) and row.cited_names == ["Fresh Labels"]
    assert _row("Label Shift Study: the authors reannotated a fifth of the images.").cited_names == ["Label Shift Study"]
    _none_credited(["Note: the authors of this post tested it.", "Setup: we trained it."])
    row = _row("The GridLens system was introduced by the University of Lagos in 1994.")
    assert _attributed(row) and "University of Lagos" in row.cited_names


def test_batch_8_attribution_figures_hold() -> None:
    """Batch 8 (development, 21 documents labelled 2026-12-02 by two engineers who never ran the
    reader): scored once before anything was tuned on it (branch attribution-recall, at the merge
    d331a1c): attribution precision 0.891 (41/46), recall 0.500 (41/82), cited names 0.584 (59/101),
    Markdown. The floors are the figures after this branch's rules (tuned on it: in sample), so that
    a later change cannot lose them."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "bench" / "bench_claims_quality.py"
    spec = importlib.util.spec_from_file_location("bench_claims_quality_b8", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    c = bench.score_corpus("development", "markdown", frozenset({8}))["counts"]
    assert (c["attribution_gold"], c["names_gold"]) == (79, 96)
    # 48 and 6 since the stop-28 label conventions (a self-reference and a thanks for help are no credits)
    assert c["attribution_correct"] >= 48 and c["attribution_predicted"] - c["attribution_correct"] <= 6
    assert c["names_found"] >= 68  # 70 of 101 before the stop-28 conventions, 68 of 96 after
