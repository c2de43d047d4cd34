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
                    "The plan (phase 2) starts next year."])
    # label convention (d) (stop 28): an organisation that develops a work is credited with it
    row = _row("Last May, Cohere developed a multilingual reranker.")
    assert _attributed(row) and "Cohere" in row.cited_names


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
    # 48 and 6 since the stop-28 label conventions (a self-reference and a thanks for help are no credits);
    # 59 and 4 after branch attribution's rules for batches 7 and 8 (in sample)
    assert c["attribution_correct"] >= 59 and c["attribution_predicted"] - c["attribution_correct"] <= 4
    assert c["names_found"] >= 75  # 70 of 101 before the stop-28 conventions, 68 of 96 after, 75 after this branch


# Shapes the rules missed on batches 7 and 8 (development; batch 7 read after it was retired from
# held-out, stop 28) and the label conventions (d), (e), (g) of tests/data/corpus/manifest.json;
# every sentence written for this file.

def _names(text: str) -> list[str]:
    return [n for r in extract_claims(text) if r.kind != "table value" and _attributed(r) for n in r.cited_names]


@pytest.mark.parametrize("sentence, names", [
    # (d) a named system, model, method or paper other than the page's own as the doer of a contribution
    ("Quickattn v1 introduced a tiled kernel for exact attention.", ["Quickattn v1"]),
    ("Quickattn v2 improved how the work is split across warps.", ["Quickattn v2"]),
    ("Unlike earlier detectors, GridYOLO proposes a new label assignment.", ["GridYOLO"]),
    ("While Sparsekit proposes pruning the lower layers, DenseKV argues for the opposite.", ["Sparsekit"]),
    ("But LoRAX, which adds trainable weights to every layer, matches full tuning.", ["LoRAX"]),
    ("To price the houses, the CCPA created a model from past sales.", ["CCPA"]),
    ("Nimbus Transformers recently added the Gridnet retrieval model to its hub.", ["Nimbus Transformers"]),
    ("Recently, Nimbus partnered with Orbital AI to introduce a retrieval model.", ["Nimbus", "Orbital AI"]),
    ("The methods in the GRID.q8 paper were folded into the library.", ["GRID.q8"]),
    ('From @okafor: "a p-value is a probability about the data, not the hypothesis."', ["okafor"]),
    # (e) thanks for a named piece of work, each thanked name cited
    ("Thanks to Kestrel Labs and in particular Ana Ruiz for this contribution.", ["Kestrel Labs", "Ana Ruiz"]),
    ("Thanks to Bo Lindqvist from Nimbus Research for this contribution.", ["Bo Lindqvist", "Nimbus Research"]),
    ("Thanks to engineers from Orbital for this contribution.", ["Orbital"]),
    ("Thanks to @octo and @pixelated for the port.", ["@octo", "@pixelated"]),
    ("We would like to acknowledge the GridYOLO authors for their many contributions to detection.", ["GridYOLO"]),
    ("Messages are encoded in about 4 microseconds (thanks fastpack!) on one core.", ["fastpack"]),
    # (g) a credited issue number
    ("Source write-up: #311.", ["#311"]),
    # authorship, lineage, a person's work
    ("The simulator was created in 2015 by Ana Ruiz and Bo Li at the University of Lagos.", ["Ana Ruiz"]),
    ("The Quickattn series by Ana Ruiz looks at attention as a memory problem.", ["Ana Ruiz"]),
    ("Watch the lecture recording given by Professor Ana Ruiz to follow the argument.", ["Ana Ruiz"]),
    ("@octo's 03/02/2025 2.9-minute tokenizer-based record.", ["@octo"]),
    ("The target follows Ana Ruiz's GPT-2 replication in tiny.c, which took an hour.", ["Ana Ruiz"]),
    ("The trainer descends from TinyGPT, hence the name.", ["TinyGPT"]),
    ("Ana Ruiz (Nimbus) has an experimental implementation of Quickattn in Triton.", ["Ana Ruiz", "Nimbus"]),
    ("Under 2 minutes on 8 GPUs (the tiny.c GPT-2 replication needed 40 minutes)", ["tiny.c"]),
    ("Early on we were inspired by columnar append-only stores like kdb+ for their speed.", ["kdb+"]),
    ("Okafor attributes this to three causes:", ["Okafor"]),
    # works named by their titles
    ("A similar design was examined in Sparse Retrieval with Learned Vocabularies to rank passages.",
     ["Sparse Retrieval with Learned Vocabularies"]),
    ("Gridnet Sec. 4 and Rethinking Sparse Search both found that judges favour long answers.",
     ["Gridnet Sec. 4", "Rethinking Sparse Search"]),
    ("Small Rerankers Suffice: the study finds that size matters little.", ["Small Rerankers Suffice"]),
    ("The repository builds on earlier work, including Skip Vectors, Deep Contexts and ULMNet, but differs.",
     ["Skip Vectors", "Deep Contexts", "ULMNet"]),
    ("We will use the Gridnet-R2 tech report as a guide for the three stages.", ["Gridnet-R2"]),
    ("This is the same multi-view benefit as utilized in FixRank, Meta Pseudo Rank, etc.", ["FixRank", "Meta Pseudo Rank"]),
    ("As shown in the paper \"Learned Late Interactions\" from Nimbus, pooling helps.", ["Nimbus"]),
    ("The ensemble improves recall by 2.1% (Source).", []),
])
def test_batch_7_and_8_shapes_of_our_own(sentence: str, names: list[str]) -> None:
    rows = [r for r in extract_claims(sentence) if r.kind != "table value"]
    assert any(_attributed(r) for r in rows), [(r.kind, r.cue) for r in rows]
    got = _names(sentence)
    assert all(any(n in g for g in got) for n in names), (sentence, got)


def test_properties_results_self_references_and_help_are_no_credits() -> None:
    """The other side of conventions (d) and (e): a system's property, capability or result, a
    release, the page's own system (its title or its first-person voice), thanks for help, a
    causal 'thanks to', a maintainer line, a noun after a named work, an unnamed paper beside 'we'."""
    _none_credited(["GridYOLO outperforms every detector of its size.",
                    "Quickattn supports both mobile and desktop GPUs.",
                    "Quickattn v2 improved the state of the art on long inputs.",
                    "Quickattn v2 improves AP by 2.2% over v1.",
                    "Version 1.4 introduced a faster hash join.",
                    "Thanks to Ana Ruiz for helping us track the leak down.",
                    "Thanks to the new architecture and faster chips for large models, training got cheaper.",
                    "Gridnet is built and maintained by researchers from the University of Lagos.",
                    "We release the checkpoints from the paper, trained at Nimbus.",
                    "The images from each class were relabelled by hand.",
                    "The engine fetches the 50 most similar vectors (according to PQ) first."])
    text = ("# Quickattn\n\nQuickattn is a fast attention kernel.\n\n## Changes\n\n"
            "Quickattn v2 introduced a split over warps.\n\nWe added a backward pass.\n")
    assert not any(_attributed(r) for r in extract_claims(text))
    # the same sentence on a page whose title names another work the page credits to its authors
    text = ("# GridYOLO: a detector\n\nWe thank the GridYOLO authors for their work.\n\n"
            "GridYOLO introduces a new label assignment.\n")
    rows = {r.text: r for r in extract_claims(text)}
    assert _attributed(rows["GridYOLO introduces a new label assignment."])


# Shapes the rules missed on batch 10 (development; scored once before any change for it:
# precision 0.533 (8/15), recall 0.533 (8/15), cited names 0.600 (12/20)); sentences of our own.

@pytest.mark.parametrize("sentence, names", [
    ("(A big thanks to Ana Ruiz who contributed the first version of this chapter.)", ["Ana Ruiz"]),
    ("We are grateful to the great team at Orbital for paving the way with Gridpile and for open-sourcing the code.",
     ["Orbital"]),
    ("The filter is based on the bloomlib3 library.", ["bloomlib3"]),
    ("The asynchronous workers are based on Greenthreads_ (via Evlet_).", ["Greenthreads"]),
])
def test_batch_10_shapes_of_our_own(sentence: str, names: list[str]) -> None:
    rows = [r for r in extract_claims(sentence) if r.kind != "table value"]
    assert any(_attributed(r) for r in rows), [(r.kind, r.cue) for r in rows]
    got = _names(sentence)
    assert all(any(n in g for g in got) for n in names), (sentence, got)


def test_eponyms_identifiers_and_a_pages_own_makers_and_paper_are_no_credits() -> None:
    _none_credited(["Chip makers said they could no longer keep up with Okafor's law.",
                    "Plug your fitted constants into okafor_law defined above.",
                    "The estimate follows from Ruiz's theorem.",
                    "As discussed in the accompanying paper, accuracy tracks the amount of data."])
    text = ("# Model Card: Gridnet\n\nThis is the official codebase for the Gridnet models trained and "
            "released by Nimbus.\n\nResearchers at Nimbus developed the models to study robustness.\n\n"
            "As discussed in our paper, the models are uneven across languages.\n\n"
            "Further analysis is provided in the paper.\n\nOkafor found that the benchmark leaks.\n")
    rows = {r.text: r for r in extract_claims(text)}
    assert [t for t, r in rows.items() if _attributed(r)] == ["Okafor found that the benchmark leaks."]
    # the same credits on a page that is not Nimbus' own
    text = "# Notes on speech models\n\nResearchers at Nimbus developed the models to study robustness.\n"
    assert any(_attributed(r) for r in extract_claims(text))


# Shapes of public technical writing the rules of this stop were checked on after batch 10 (our own
# sentences, never corpus text): reused material, the source of a number or an idea, another's finding
# as an object; and runtime operations, which a system does and its makers did not contribute.

@pytest.mark.parametrize("sentence, name", [
    ("Credit for this trick goes to Ana Ruiz.", "Ana Ruiz"),
    ("This section is adapted from the Gridnet docs.", "Gridnet"),
    ("Code adapted from https://github.com/ana/grid.", "ana/grid"),
    ("As the Gridnet README notes, the index is rebuilt nightly.", "Gridnet"),
    ("This example is taken from the Gridnet tutorial.", "Gridnet"),
    ("The numbers come from Nimbus' own benchmark.", "Nimbus"),
    ("The loss comes from the Gridnet paper.", "Gridnet"),
    ("The original idea is from Ana Ruiz.", "Ana Ruiz"),
    ("This result matches what Nimbus found in their 2022 study.", "Nimbus"),
    ("An earlier post by Ana Ruiz covers the same ground.", "Ana Ruiz"),
    ("Nimbus recently open-sourced Gridnet, a sparse index.", "Nimbus"),
])
def test_reused_material_and_the_source_of_a_claim_are_credited(sentence: str, name: str) -> None:
    row = _row(sentence)
    assert _attributed(row) and any(name in n for n in row.cited_names), (row.cue, row.cited_names)


def test_operations_and_own_material_are_no_contributions() -> None:
    _none_credited(["The CPU added overhead to every call.",
                    "The GPU added a few milliseconds of latency.",
                    "Then Dockyard created a new container for the job.",
                    "The SDK adds retries by default.",
                    "Kubelet adds a sidecar to each pod.",
                    "Redis added the key to the set.",
                    "Postgres created the index in 4 minutes.",
                    "The data comes from the training set.",
                    "The numbers come from our own benchmark.",
                    "This example is adapted from the previous section.",
                    "This matches what we found earlier.",
                    "The code is based on dynamic programming.",
                    "BM25 improved recall on every dataset.",
                    "Thanks to caching, the second run is fast.",
                    "We thank Nimbus for the compute."])


def test_a_title_that_names_a_topic_makes_no_system_the_pages_own() -> None:
    """own_names: a title that is a system's name (``# Quickattn``, ``Quickattn: …``, ``Model Card:
    Quickattn``) makes it the page's own; one that names a topic (``Quickattn Without Regret``) does not,
    nor does 'our blog post on X'."""
    from claims.attribution import own_names

    assert own_names([], "Quickattn (v2)") == {"Quickattn"}
    assert own_names([], "Model Card: Quickattn") == {"Quickattn"}
    assert own_names([], "Introducing Quickattn v2: faster attention") == {"Quickattn"}
    assert own_names([], "Quickattn Without Regret") == set()
    assert own_names(["Our Quickattn blog post showed how it works."], "") == set()
    assert own_names(["We introduce Gridnet, a sparse index.", "Our Lattice library is fast."], "") == {"Gridnet", "Lattice"}
    text = "# Quickattn Without Regret\n\nQuickattn v2 introduced a split over warps.\n"
    assert any(_attributed(r) for r in extract_claims(text))


@pytest.mark.parametrize("batch, gold, before, floor", [
    # batch 7: retired from held-out this stop; at its one held-out scoring (stop 27) 0.714 (15/21), 0.300
    # (15/50), names 0.391; after the stop-28 conventions, main's rules 15/21 of 49 gold, names 25 of 63
    (7, (49, 63), (15, 21, 25), (44, 1, 55)),
    # batch 10: scored once before any change for it (branch attribution at b13519f): 0.533 (8/15),
    # 0.533 (8/15), names 0.600 (12/20); main's rules 0.500 / 0.533
    (10, (15, 20), (8, 15, 12), (12, 0, 15)),
    # batch 11: scored once before any change for it (branch attribution at 2fbf219): 0.600 (6/10), 0.545
    # (6/11), names 0.636 (7/11); main's rules 0.600 / 0.545
    (11, (11, 11), (6, 10, 7), (11, 3, 11)),
])
def test_batches_7_10_and_11_attribution_figures_hold(batch, gold, before, floor) -> None:
    """Development batches 7, 10 and 11, Markdown: the floors are the figures after branch attribution's
    rules (tuned on both: in sample; ``before`` is what they were before), so a later change cannot
    lose them."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "bench" / "bench_claims_quality.py"
    spec = importlib.util.spec_from_file_location(f"bench_claims_quality_b{batch}", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    c = bench.score_corpus("development", "markdown", frozenset({batch}))["counts"]
    assert (c["attribution_gold"], c["names_gold"]) == gold
    correct, false, names = floor
    assert c["attribution_correct"] >= correct and c["attribution_predicted"] - c["attribution_correct"] <= false
    assert c["names_found"] >= names


@pytest.mark.parametrize("sentence, name", [
    ("The method of Ruiz and Li halves the cost.", "Ruiz and Li"),
    ("The trick was discovered by @octo on a forum.", "@octo"),
    ("Ana Ruiz showed in 2019 that the bound is tight.", "Ana Ruiz"),
])
def test_a_method_of_two_authors_a_handle_after_by_and_a_dated_finding(sentence: str, name: str) -> None:
    row = _row(sentence)
    assert _attributed(row) and any(name in n for n in row.cited_names), (row.cue, row.cited_names)


def test_unnamed_prior_work_and_a_quarto_cross_reference_are_no_sources() -> None:
    """As the corpus labels read them: 'Some previous work does …', 'Prior studies identified …'."""
    _none_credited(["Prior work has shown that dense retrievers overfit.",
                    "Several papers have reported the same drift.",
                    "The effect is shown in @fig-loss for every run.",
                    "Results reproduced by @octo on 2021-03-02 (commit 1a2b3c4)"])


# README and docs credits to another's code, recipe or setting (our own sentences, in the shapes of
# public READMEs' "based on" / "borrowed from" / "follows the X recipe" lines), and their look-alikes.

@pytest.mark.parametrize("sentence", [
    'This repo is heavily based on Gridnet.',
    'Our code is based on the Gridnet codebase.',
    'This codebase is built upon Lattice and Gridnet.',
    'We borrow code from Gridnet for the tokenizer.',
    'Part of the code is borrowed from Gridnet.',
    "Parts of this implementation are adapted from @octo's repository.",
    'This project is a fork of Gridnet.',
    'We build on the excellent work of the Gridnet team.',
    'The evaluation scripts come from the Gridnet repository.',
    "Much of this post draws on Ana Ruiz's notes.",
    'The kernel was originally written by Ana Ruiz.',
    'The benchmark numbers are from the Gridnet leaderboard.',
    'The figure is from the Gridnet paper.',
    'Table 2 is reproduced from Ruiz et al.',
    'The definition follows the Gridnet paper.',
    'We follow the Gridnet recipe for pretraining.',
    'We use the same hyperparameters as Gridnet.',
    'The setup mirrors that of Ruiz et al. (2021).',
])
def test_reused_code_recipes_and_settings_credit_their_source(sentence: str) -> None:
    assert any(_attributed(r) for r in extract_claims(sentence) if r.kind != "table value"), sentence


def test_tools_conventions_and_own_releases_are_no_sources() -> None:
    _none_credited([
        'This repo is built with Python and Rust.',
        'The site is powered by Hugo.',
        'Our code is based on numpy arrays.',
        'The project is built on top of the standard library.',
        'We follow the usual convention for batch sizes.',
        'We use the same learning rate for every run.',
        'The evaluation scripts come from our previous release.',
    ])


# Shapes the rules missed on batch 11 (development; scored once before any change for it:
# precision 0.600 (6/10), recall 0.545 (6/11), cited names 0.636 (7/11)); sentences of our own.

@pytest.mark.parametrize("sentence, name", [
    ("The survey is described in detail in @okafor_river_survey_2019.", "okafor 2019"),
    ("NIST SP 800-90B requires a health test for every entropy source.", "NIST"),
    ("OWASP recommends a work factor of at least ten.", "OWASP"),
    ("RFC 9110 defines the semantics of every method.", "RFC 9110"),
    ("@octo did an excellent job on this, congratulations!", "@octo"),
    ("Thanks to @pixelated for tackling this!", "@pixelated"),
    ("My colleague Ana Ruiz gave a good introduction to caching in her article on warm starts:", "Ana Ruiz"),
])
def test_batch_11_shapes_of_our_own(sentence: str, name: str) -> None:
    row = _row(sentence)
    assert _attributed(row) and any(name in n for n in row.cited_names), (row.cue, row.cited_names)


def test_an_earlier_version_of_the_post_and_a_system_requirement_are_no_sources() -> None:
    _none_credited(["An earlier version of the blog post called the section differently.",
                    "Kubelet requires a config file at start-up.",
                    "Ana Ruiz did the dishes."])


# Thanks (label convention (e)), beyond a list of work nouns: a page thanks a named person or team for
# anything that is not help (feedback, reviews, discussions, compute, hosting, sharing, testing).

@pytest.mark.parametrize("sentence", [
    'Thanks to Ana Ruiz for the FP8 path.',
    'Thanks to @octo for the new tokenizer!',
    'Big thanks to Bo Li for the Windows build.',
    'Thanks to Ana Ruiz who pointed me to the Gridnet paper.',
    'Kudos to the Nimbus team for the speed-up.',
    'We are grateful to Ana Ruiz for the original design of the scheduler.',
])
def test_thanks_for_anything_but_help_credits_the_thanked(sentence: str) -> None:
    assert any(_attributed(r) for r in extract_claims(sentence) if r.kind != "table value"), sentence


def test_thanks_for_help_compute_and_causal_thanks_credit_nothing() -> None:
    _none_credited([
        'Thanks to Ana Ruiz for the helpful feedback on this post.',
        'Thanks to Bo Li for reviewing an early draft.',
        'We thank Nimbus for the donation of compute.',
        'Thanks to everyone who joined the call.',
        'Thank you to Ana Ruiz for the insightful discussions.',
        'Thanks to Bo Li for his patience.',
        'Many thanks to Ana Ruiz for sharing her checkpoints.',
        'Thanks to Nimbus for hosting the event.',
        'Thanks for reading!',
        'Thanks to caching, the second run is fast.',
        'Thanks to Ana Ruiz who helped us debug the leak.',
        'Thanks to the reviewers for their comments.',
    ])
