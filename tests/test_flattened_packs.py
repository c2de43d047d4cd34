"""Flattened research packs read as a careful reader reads them (issue 19, branch tune-packs).

Each case is a shape of a real page flattened to one line per block (headings glued to the first
line after them, tables as one line of cells, lists without their markers), written in our own
words. Each failed on main before this branch: the heading stayed glued to its sentence (a
contaminated row), a table or code line became a prose row, or a sentence was set aside. The
"stays prose" cases are the guards of the new rules (they pass on main; three of them, the
``Q-BENCH:``, ``Warning —`` and ``Note: Demand …`` lines, failed against a first, wider version of
the glued-heading rule, which split real sentences).
"""

from __future__ import annotations

import pytest

from audit.document import read_markdown
from audit.flattened import read_flattened
from audit.pack import parse_pack
from claims.extract import TABLE_VALUE, claims_for_pack


def blocks(text: str) -> list[tuple[str, str]]:
    return [(b.kind, b.text) for b in read_flattened(text).blocks]


@pytest.mark.parametrize("line, heading, sentence", [
    # Title Case with a colon and names with digits, then an opener
    ("Toolkit: BM25 Baseline for MS MARCO Passage Ranking This guide shows how to run the baseline.",
     "Toolkit: BM25 Baseline for MS MARCO Passage Ranking", "This guide shows how to run the baseline."),
    # a section number and a sentence-case heading before an article
    ("2.1 Large amounts of training data A corpus of 3 billion words was used.",
     "2.1 Large amounts of training data", "A corpus of 3 billion words was used."),
    # the heading's word repeated by the sentence (plural and case folded)
    ("Vector Quantization Vector quantization maps each float to one byte.",
     "Vector Quantization", "Vector quantization maps each float to one byte."),
    ("Sparse Encoders Sparse encoders keep the index small.", "Sparse Encoders", "Sparse encoders keep the index small."),
    # an acronym spelt as one word in the heading and as two in the sentence
    ("MSMARCO Models (Version 2) MS MARCO is a large passage corpus.",
     "MSMARCO Models (Version 2)", "MS MARCO is a large passage corpus."),
    # an opener with a comma
    ("Indexes may grow too large However, a smaller index loses little.",
     "Indexes may grow too large", "However, a smaller index loses little."),
    # a camel-case name as the heading
    ("tinyRanker The smallest ranker we could write in one file.", "tinyRanker",
     "The smallest ranker we could write in one file."),
    # a version in a sentence-case heading
    ("Support for format v4 With the new loader, every file is read lazily.", "Support for format v4",
     "With the new loader, every file is read lazily."),
    # an option in a heading; a sentence that runs to the line end without its full stop
    ("Note on --compile You can also run the script with the flag.", "Note on --compile",
     "You can also run the script with the flag."),
    ("Ngram Index Generation The relevant scripts can be found in tools/ngrams", "Ngram Index Generation",
     "The relevant scripts can be found in tools/ngrams"),
    # a heading with a footnote mark
    ("Reproduction Log* Results reproduced by @jdoe on 2020-09-14 (commit 49fd7cb)", "Reproduction Log*",
     "Results reproduced by @jdoe on 2020-09-14 (commit 49fd7cb)"),
    # a question heading glued to its first sentence
    ("Why tune the reranker first? Before any comparison, the reranker must be calibrated.",
     "Why tune the reranker first?", "Before any comparison, the reranker must be calibrated."),
])
def test_glued_headings_of_real_pages_are_split(line, heading, sentence):
    assert blocks(line) == [("heading", heading), ("paragraph", sentence)]


@pytest.mark.parametrize("line", [
    # a sentence that opens with a proper noun after the heading: no seam, left whole
    "Natural Questions Models Google's Natural Questions corpus holds real queries.",
    # a label and its sentence
    "Q-BENCH: We build a benchmark Q-BENCH for short queries.",
    # a callout word and a dash
    "Warning — The tutorial only works for release v0.3.0 of the leaderboard.",
    # a repeated name inside an ordinary sentence
    "Note: Demand for smaller BERT models grows in order to use BERT on phones.",
    # a prose question followed by a lower-case continuation, and one asking about a number
    "Want a new dataset? feel free to open an issue here.",
    "Is 80% accuracy good? It depends on the task and its baseline.",
    # an inner heading word repeated by a name that opens the sentence, a seam inside parentheses,
    # a footnote mark
    "Neural Ranking Machines Ada Ranking in 1936 was done by hand.",
    "SWAG (Situations With Adversarial Generations): multiple choices; 113k completion examples.",
    "(&) Also, called self-attention in some other papers.",
])
def test_lines_without_a_seam_stay_one_paragraph(line):
    # not the first line: there a page's title may be split off (test_the_page_title_glued_…)
    assert blocks("A line comes first.\n" + line)[1:] == [("paragraph", line)]


def test_a_question_alone_on_its_line_stays_prose():
    assert blocks("Can you guess which word was hidden??") == [("paragraph", "Can you guess which word was hidden??")]


@pytest.mark.parametrize("line", [
    "baselines model params train loss val loss tiny 12M 3.41 3.40 small 50M 3.02 3.01",
    "Approach MRR@10 (dev set small) qa-minilm-v1 70.12 Other models DPR 58.02",
    "Dimension Example Models 10M Vectors 1B Vectors 384 mini-l6 14.3GB$54 / mo 1430GB$5,435 / mo",
])
def test_a_flattened_table_of_names_and_cells_is_not_prose(line):
    assert [kind for kind, _ in blocks(line)] == ["markup"]


@pytest.mark.parametrize("line", [
    "Sequence lengths: 8, 16, 32, 64, 128, 256, 384, 512",
    "Average input tokens: 202, average output tokens: 179",
    "Tested with python versions 3.10 and 3.11 on two machines only",
])
def test_number_lines_with_labels_or_function_words_stay_prose(line):
    assert blocks(line) == [("paragraph", line)]


def test_a_tuple_assignment_is_code():
    line = "ndcg, recall = scorer.evaluate(qrels, run, [1, 10]) for key, value in ndcg.items(): print(key, value)"
    assert blocks(line) == [("code", line)]


def test_a_glued_directive_option_is_markup_and_the_body_prose():
    line = "For ranking losses :label: lossDef A __margin__ is the gap between the two scores (i.e. _pairwise_ loss)."
    assert blocks(line) == [("heading", "For ranking losses"), ("markup", ":label: lossDef"),
                            ("paragraph", "A margin is the gap between the two scores (i.e. pairwise loss).")]


def test_an_inline_list_after_a_colon_is_list_items():
    line = ":class: seealso Name two cases in which: * a high recall matters most * a high precision matters most"
    assert blocks(line) == [("markup", ":class: seealso"), ("paragraph", "Name two cases in which:"),
                            ("list_item", "a high recall matters most"), ("list_item", "a high precision matters most")]


def test_a_caption_glued_after_a_sentence_is_markup():
    line = "The ranker scores every pair in a few milliseconds. Figure 2: The late interaction of a query and a passage."
    assert blocks(line) == [("paragraph", "The ranker scores every pair in a few milliseconds."),
                            ("markup", "Figure 2: The late interaction of a query and a passage.")]


def test_a_heading_glued_to_a_numbered_item():
    line = "Train 1. Contrastive Pre-train We pre-train the encoder on pairs."
    assert blocks(line) == [("heading", "Train"), ("list_item", "Contrastive Pre-train We pre-train the encoder on pairs.")]


LONG = "A paragraph long enough to end the list: sixteen words or more, so the short line after it is read alone."


def test_short_lines_after_a_colon_line_are_list_items_not_headings():
    text = "\n".join(["The toolkit offers these features, among others:", "No graph compilation step",
                      "Small images and fast boot times. Ready for serverless!", "Token based dynamic batching",
                      LONG, "Let's examine the error distribution", LONG, "ColBERT (v2)",
                      "The next section starts with a long paragraph of its own."])
    assert blocks(text) == [
        ("paragraph", "The toolkit offers these features, among others:"),
        ("paragraph", "No graph compilation step"),
        ("paragraph", "Small images and fast boot times. Ready for serverless!"),
        ("paragraph", "Token based dynamic batching"),
        ("paragraph", LONG),
        ("paragraph", "Let's examine the error distribution"),
        ("paragraph", LONG),
        ("heading", "ColBERT (v2)"),
        ("paragraph", "The next section starts with a long paragraph of its own."),
    ]


def test_a_pack_keeps_every_sentence_and_no_heading_as_a_row():
    """End to end: the claim rows of a flattened pack are exactly its sentences."""
    chapter = "\n".join([
        "Retrieval with Sparse Encoders and Fusion Sparse encoders and fusion together beat BM25 on 9 of 12 sets.",
        "Benchmarks: Setting Up the Runs This section lists the runs we made.",
        "model params dev loss tiny 12M 3.41 small 50M 3.02 base 110M 2.80",
        "What is fusion? The fused list merges two rankings by reciprocal rank.",
    ])
    text = "== 1. Identity ==\nBook: B\nChapter: C\n\n== 2. Chapter text ==\n" + chapter + "\n"
    _, rows, _ = claims_for_pack(parse_pack(text, source_path="page.txt"))
    assert [r.text for r in rows if r.kind != TABLE_VALUE] == [
        "Sparse encoders and fusion together beat BM25 on 9 of 12 sets.",
        "This section lists the runs we made.",
        "The fused list merges two rankings by reciprocal rank.",
    ]


def test_a_footnote_that_is_one_linked_reference_is_prose():
    document = read_markdown('A claim.[^1]\n\n[^1]: [Ada Lovelace and Alan Turing, "Notes on engines"](https://example.org/notes)\n')
    assert [(b.kind, b.text) for b in document.blocks if b.kind == "footnote"] == [
        ("footnote", 'Ada Lovelace and Alan Turing, "Notes on engines"')]


def test_a_flattened_table_glued_to_the_sentence_under_it():
    line = "Model nDCG@10 Recall@100 BM25 0.412 0.801 e5-base-v2 0.468 0.872 Fused 0.491 0.903 The fused run gains 0.079."
    assert blocks(line) == [("markup", "Model nDCG@10 Recall@100 BM25 0.412 0.801 e5-base-v2 0.468 0.872 Fused 0.491 0.903"),
                            ("paragraph", "The fused run gains 0.079.")]


def test_items_after_a_label_or_a_role_are_not_a_prose_list():
    """``Table of contents:`` is a label (its items are navigation, read as headings as before) and
    ``:end_tab:`` a role: neither introduces a list of prose items."""
    text = "Table of contents:\nWhy quantize\nResults\n:begin_tab:`pytorch` It runs in 12 seconds. :end_tab:\nDiscussions"
    assert [k for k, _ in blocks(text)] == ["markup", "heading", "heading", "paragraph", "heading"]  # (h): a title


def test_python_names_are_not_emphasis():
    line = "Each __init__.py says what it owns, and __main__ runs it; a __margin__ is emphasis."
    assert blocks(line) == [("paragraph", "Each __init__.py says what it owns, and __main__ runs it; a margin is emphasis.")]


@pytest.mark.parametrize("line, heading", [
    ("Installation TinyRank (currently v0.2) requires Python 3.10 or newer.", "Installation"),
    ("Benchmark Inference benchmarks often time only the model itself.", "Benchmark"),
    ("Related work Earlier rerankers scored each pair alone.", "Related work"),
])
def test_a_stock_section_title_glued_to_a_sentence_that_opens_with_a_name(line, heading):
    assert blocks(line) == [("heading", heading), ("paragraph", line[len(heading) + 1:])]


def test_a_stock_title_word_opening_a_sentence_is_no_heading():
    assert blocks("Results improved on every split we tried.") == [("paragraph", "Results improved on every split we tried.")]


@pytest.mark.parametrize("line", [
    "bash experiments/run_all.sh",
    "cd runs/ tar xvfz predicted.tar.gz",
    "export PYTHONHASHSEED=0 python -m tools.make_ngrams --dir data",
    "tools/eval/trec_eval -m map -m recall.1000 qrels.txt run.txt",
    "map all 0.2886 recall_1000 all 0.9259",
    'cache_strategy: ["recent", "full"] cache_pattern: "repeat" max_length: [0.25, 1.0]',
])
def test_shell_settings_and_evaluation_output_are_code(line):
    assert [kind for kind, _ in blocks(line)] == ["code"]


def test_sentences_inside_a_string_literal_stay_in_the_code():
    line = "doc_text = 'The study ran for a week. The team met daily.' ids = tok.encode(doc_text)"
    assert blocks(line) == [("code", line)]


def test_a_reference_item_is_no_title_line():
    assert blocks("[2] RL Course by Jane Doe - Lecture 9: Exploration and Exploitation") == [
        ("paragraph", "[2] RL Course by Jane Doe - Lecture 9: Exploration and Exploitation")]


def test_a_title_and_subtitle_alone_on_a_line_is_a_heading():
    assert blocks("Predicting Queries from Passages: T5 Inference with TensorFlow") == [
        ("heading", "Predicting Queries from Passages: T5 Inference with TensorFlow")]
    # without the colon a Title Case line is a verbless title too (label convention (h), audit/titles.py)
    assert blocks("Sparse Lexical Expansion Model for First Stage Ranking") == [
        ("markup", "Sparse Lexical Expansion Model for First Stage Ranking")]


def test_a_table_with_citations_in_its_cells_is_not_prose():
    line = ("Leaderboard (Nov 2019) Eval MRR@10 Latency BM25 + BERT (Nogueira et al., 2019) 36.8 3500 ms "
            "DeepCT (Dai and Callan, 2019) 23.9 55 ms doc2query (Nogueira et al., 2019) 21.8 61 ms BM25 18.6 55 ms")
    assert [kind for kind, _ in blocks(line)] == ["markup"]


def test_a_sentence_opening_with_keep_all_is_not_evaluation_output():
    line = "Representation. Keep all 6257 document vectors unchanged."
    assert [kind for kind, _ in blocks(line)] == ["paragraph"]


def test_a_line_of_thousands_of_glued_options_and_captions_is_read_without_recursion():
    line = "x. Figure 1: A cap. :label: y " * 3000
    kinds = [kind for kind, _ in blocks(line)]
    assert kinds.count("markup") == 6000 and set(kinds) == {"paragraph", "markup"}


def test_a_kramdown_attribute_list_in_a_line_is_markup():
    assert blocks("(Image source: Doe et al., 2020) {:.image-caption}") == [
        ("paragraph", "(Image source: Doe et al., 2020)"), ("markup", "{:.image-caption}")]


@pytest.mark.parametrize("line, heading", [
    ("Byte Pair Encoding Byte Pair Encoding (BPE) is used to encode the input.", "Byte Pair Encoding"),
    ("Cross Entropy Another approach steers away from the softmax.", "Cross Entropy"),
])
def test_more_seams_of_real_headings(line, heading):
    assert blocks(line) == [("heading", heading), ("paragraph", line[len(heading) + 1:])]


def test_myst_fences_left_in_a_line_are_markup():
    line = ":::{note} :class: dropdown The ideal ordering sorts documents by grade. Unjudged ones count as zero. :::"
    assert blocks(line) == [("markup", ":::{note}"), ("markup", ":class: dropdown"),
                            ("paragraph", "The ideal ordering sorts documents by grade. Unjudged ones count as zero."),
                            ("markup", ":::")]


# --- branch packs-gen: whole lines read with their neighbours (rule 8), the shape catalogue ------

def located(text: str) -> list[tuple[int, int, str, str]]:
    return [(b.line, b.end_line, b.kind, b.text) for b in read_flattened(text).blocks]


def test_code_lines_of_a_flattened_page_are_code_with_their_own_line_numbers():
    text = ("Open the store like this:\n"
            "from tinystore import Store\n"
            "store = Store(\"idx\",\n"
            "    mode=\"r\")\n"
            "# a comment, no heading\n"
            "store.close()\n"
            "The store is read-only afterwards.\n")
    assert located(text) == [
        (1, 1, "paragraph", "Open the store like this:"),
        (2, 2, "code", "from tinystore import Store"), (3, 3, "code", 'store = Store("idx",'),
        (4, 4, "code", '    mode="r")'), (5, 5, "code", "# a comment, no heading"), (6, 6, "code", "store.close()"),
        (7, 7, "paragraph", "The store is read-only afterwards.")]


def test_output_under_a_command_and_a_report_between_rules_are_code():
    text = ("$ tinystore build ./pages\nbuilt 52 shards (1.2 GB)\n=========\nRun Summary\n=========\n"
            "Scenario : Offline\nSamples per second: 80.2\nThe shards are written once.\n")
    assert [kind for _, _, kind, _ in located(text)] == ["code"] * 7 + ["paragraph"]


def test_settings_yaml_and_a_sentence_about_them_stay_apart():
    text = "Our config:\nwarmup=100\ndropout=0.1\nencoder:\n  size: base\n  layers: 12\nNothing else was changed.\n"
    assert [kind for _, _, kind, _ in located(text)] == ["markup"] + ["code"] * 5 + ["paragraph"]  # (h): "Our config:"


def test_sentences_that_open_like_code_or_chrome_stay_prose():
    for line in ("Set batch_size=32 for the base model.", "By default, the encoder truncates inputs at 256 tokens.",
                 "Share prices are not a benchmark.", "Next steps are listed in the roadmap.",
                 "Binary Quantization with always_ram=True", "Oversampling=2.0 (or more)"):
        assert blocks("Intro sentence here.\n" + line) == [("paragraph", "Intro sentence here."), ("paragraph", line)]


def test_site_chrome_lines_are_not_claims():
    text = ("Guides › Storage › Shards\nBy Lena Park · May 2, 2025\n9 min read\nShare on LinkedIn\n"
            "Shards are written once.\nEdit on GitHub\nNext: Compaction »\nCopyright 2025 Tinystore contributors\n")
    doc = read_flattened(text)
    assert [(b.kind, b.note) for b in doc.blocks] == [
        ("navigation", "breadcrumb"), ("markup", "chrome"), ("markup", "chrome"), ("markup", "chrome"),
        ("paragraph", ""), ("markup", "chrome"), ("markup", "chrome"), ("markup", "chrome")]
    assert [b.text for b in doc.prose_blocks()] == ["Shards are written once."]


def test_contents_entries_are_navigation_and_split_the_headings_they_name():
    text = ("On this page\nQuick start\nWhy does int8 work?\nA very long heading that reads almost like a sentence.\n"
            "Quick start Install the package with pip.\n"
            "A very long heading that reads almost like a sentence. The body follows it.\n")
    assert located(text) == [
        (1, 1, "navigation", "On this page"), (2, 2, "navigation", "Quick start"),
        (3, 3, "navigation", "Why does int8 work?"),
        (4, 4, "navigation", "A very long heading that reads almost like a sentence."),
        (5, 5, "heading", "Quick start"), (5, 5, "paragraph", "Install the package with pip."),
        (6, 6, "heading", "A very long heading that reads almost like a sentence."),
        (6, 6, "paragraph", "The body follows it.")]


def test_a_table_rendered_in_columns_is_a_table():
    doc = read_flattened("Scores:\nModel        Params   Score\nTiny         4M       61.0\nSmall\t22M\t64.3\nDone here.\n")
    (table,) = doc.tables()
    assert (table.line, table.end_line, table.header, table.rows) == (
        2, 4, ("Model", "Params", "Score"), (("Tiny", "4M", "61.0"), ("Small", "22M", "64.3")))


def test_a_heading_and_one_sentence_naming_a_number_is_no_flattened_table():
    # four sentences of a model card were eaten as one-row tables ("Model | Architecture")
    for line in ("Model Architecture Llama 3 is an auto-regressive language model that uses a transformer.",
                 "Conclusion In OpenSearch 3.3, we release an approximate retrieval algorithm.",
                 "Cyber Security We have evaluated Llama 3 with an internal suite."):
        assert "table" not in [kind for kind, _ in blocks(line)], line
        assert any(line.endswith(text) for kind, text in blocks(line) if kind == "paragraph"), line


def test_math_leftovers_headerlinks_bullets_and_backlinks():
    assert blocks("L = −∑ y log p") == [("math", "L = −∑ y log p")]
    assert blocks("Evaluation¶ We evaluate on three datasets.") == [
        ("heading", "Evaluation"), ("paragraph", "We evaluate on three datasets.")]
    assert blocks("✅ Streaming responses") == [("list_item", "Streaming responses")]
    assert blocks("todos • Investigate and add FSDP") == [("heading", "todos"), ("list_item", "Investigate and add FSDP")]
    assert blocks("The run used one GPU. ↩") == [("paragraph", "The run used one GPU.")]


def _shapes():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "bench" / "bench_flattened_shapes.py"
    spec = importlib.util.spec_from_file_location("bench_flattened_shapes", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SHAPES = _shapes()


def test_the_catalogue_parts_are_fixed_by_the_case_ids():
    assert (len(SHAPES.cases("tune")), len(SHAPES.cases("check"))) == (85, 63)  # 8 and 7 of branch reader; 10 and 4 of branch nonprose
    assert [SHAPES.part_of(i) for i in ("shell-prompt-alone", "json-block", "stack-trace")] == ["check", "tune", "check"]


@pytest.mark.parametrize("case", SHAPES.cases("tune"), ids=lambda c: c["id"])
def test_each_tuned_shape_is_read_as_expected(case):
    assert SHAPES.matches(SHAPES.reading(case["text"]), case["expect"]), SHAPES.reading(case["text"])


def test_a_heading_glued_to_the_code_under_it_is_split_and_a_sentence_naming_a_command_is_not():
    assert blocks("Citation @article{doe2025store,\n  title={Stores},\n}") == [
        ("heading", "Citation"), ("code", "@article{doe2025store,"), ("code", "  title={Stores},"), ("code", "}")]
    assert blocks("Quick Install pip install tinystore==1.0") == [("heading", "Quick Install"),
                                                                 ("code", "pip install tinystore==1.0")]
    for line in ("Run pip install tinystore to get started.", "Then run python train.py --epochs 3",
                 "Cuda GPUs with Cuda compute capabilities < 7.5 are not supported (V100, Titan V)."):
        assert "code" not in [kind for kind, _ in blocks(line)], line


def test_a_json_record_with_prose_values_is_read_as_prose():
    text = '{\n  "budget": 5,\n  "status": "Single exploratory reranker on the public benchmark. No new holdout.",\n}\n'
    assert [kind for kind, _ in blocks(text)] == ["code", "code", "paragraph", "code"]


CHECK_FAILURES = frozenset(["docker-glued-after-colon", "table-words-cells", "footnote-lines", "footnote-mark-glued",
                            "headings-alone", "heading-emoji", "heading-step-glued", "prose-import-word",
                            "prose-question-then-answer", "client-elapsed-line", "caption-verbless-lines",
                            "page-title-two-parts"])
"""The check part's failures when it was scored once (bench/data/flattened_shapes_check.log, commit
36b4fac; the ten cases of branch pack-nonprose at commit 105e066, where ``client-elapsed-line``, a
SQL client's result line that reads as a sentence, failed; the seven cases of branch reader, scored
once at its end, 5 of 7: a verbless figure caption of two sentences and a two-part page title read as
prose): stated limitations, kept as strict expected failures so that a fix shows here."""


@pytest.mark.parametrize("case", [
    pytest.param(c, marks=pytest.mark.xfail(strict=True, reason="a check-part failure, a stated limitation"))
    if c["id"] in CHECK_FAILURES else c for c in SHAPES.cases("check")], ids=lambda c: c["id"])
def test_each_checked_shape_reads_as_when_it_was_scored(case):
    assert SHAPES.matches(SHAPES.reading(case["text"]), case["expect"]), SHAPES.reading(case["text"])


@pytest.mark.parametrize(("line", "lead"), [
    ("Symptom. Encoding the checkpoint gives identical vectors for every input.", "Symptom."),
    ("Reproducing 1989 performance. The original paper reports the following results.", "Reproducing 1989 performance."),
    ("Designing AI Systems: Composition Frameworks and Strategies. Many developers now use frameworks.",
     "Designing AI Systems: Composition Frameworks and Strategies."),
    ("Red herring — the transformers version. A GitHub issue reported the same collapse.",
     "Red herring — the transformers version."),
    # sentences of their own: a verb, a subject pronoun, a long clause with no subtitle, too little after it
    ("It was hard. Labeling took a week for two people.", ""),
    ("The index is small. It fits in memory on one machine.", ""),
    ("Recall the experiments in :numref:`sec_a` and :numref:`sec_b`. For instance, we used word2vec.", ""),
    ("Rodrigo Nogueira and Jimmy Lin. From doc2query to docTTTTTquery.", ""),
    ("Overview of results. Good.", ""),
])
def test_a_flattened_run_in_label_stays_with_its_sentence(line, lead):
    """Label convention (c) on a flattened line, where the bold of ``**Symptom.**`` is lost: a
    verbless title before the first full stop is the lead-in of the sentence after it."""
    from audit.flattened import flattened_lead_in

    assert line[:flattened_lead_in(line)] == lead


def test_a_sentence_inside_a_one_line_json_object_is_kept():
    """A chapter written as a JSON record (seed 003's shape): an object on one line whose string
    value is prose keeps that prose as a row; a line of settings alone stays code."""
    pack = ("== 1. Identity ==\nBook: B\nChapter: C\n\n== 2. Chapter text ==\n{\n"
            '  "budget": 5,\n'
            '  "statistics": {"replicates": 1000, "seed": 7, "tests": "No significance tests were run. '
            'Every subset is exploratory because the benchmark is already public."},\n'
            '  "settings": {"k": 3, "depth": 10},\n}\n')
    texts = [row.text for row in claims_for_pack(parse_pack(pack))[1]]
    assert any("Every subset is exploratory because the benchmark is already public." in t for t in texts)
    assert not any('"depth": 10' in t for t in texts)


def _quality_bench():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "bench" / "bench_claims_quality.py"
    spec = importlib.util.spec_from_file_location("bench_quality_flattener", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bench_flattener_shows_what_the_site_renders():
    """A Liquid include inside an HTML block keeps the block whole (Jekyll renders an element, no
    blank line: its closing ``</div>`` is never shown as a code line); kramdown attribute lists and
    Pandoc attributes are attributes, never text; an emoji shortcode shows as its emoji, one GitHub
    does not know, or one in code, as written."""
    bench = _quality_bench()
    markdown = ('<div>\n  <div>\n    {% include figure.html path="x" %}\n  </div>\n  <div class="caption">Fig</div>\n'
                '</div>\n\nText.{: .note }\n\n![a](b.png){: width="360" }![c](d.png){: width="3" }\n\n'
                "## Results {#sec-results}\n\nBody :warning: here, :nosuchemoji: and `:x:` kept.\n\n"
                "### Method {-}\n\n![f](p.png){#fig-x width=80%} Caption.\n\n```\n{: keep}\n```\n")
    assert bench.flatten_markdown(markdown).split("\n") == [
        "Fig", "Text.", "Results Body ⚠️ here, :nosuchemoji: and :x: kept.", "Method Caption.", "{: keep}"]


def test_icons_figure_labels_value_labels_and_program_output():
    """Branch pack-nonprose: an icon opening a line is set aside and what follows read on (a heading
    glued after it is split; a one-word question after an icon is a heading); an icon after a short
    title splits the heading off; a figure's label left alone (``Figure 4,``) or with a full stop
    (``Figure 1. Structure …``, once read as a heading glued to a numbered item) is a caption; a
    number and a unit word alone (``35.85 seconds``) is a value label; a table under the sentence
    that announces it is a number grid; two printed records in a row (``sample 1: …``) are code; a
    bare slide number before a Title Case heading is part of the heading."""
    assert blocks("⚠️ Testing one seed cannot show a model is better.") == [
        ("markup", "⚠️"), ("paragraph", "Testing one seed cannot show a model is better.")]
    assert blocks("🎛️ Sample size It can be hard to tell whether enough scores were collected.") == [
        ("markup", "🎛️"), ("heading", "Sample size"),
        ("paragraph", "It can be hard to tell whether enough scores were collected.")]
    assert blocks("⁉️ Why? Although the field grew quickly, few papers test their gains.") == [
        ("markup", "⁉️"), ("heading", "Why?"), ("paragraph", "Although the field grew quickly, few papers test their gains.")]
    assert blocks("Supported Models ❗️We use open checkpoints to show the runtime.") == [
        ("heading", "Supported Models"), ("markup", "❗️"), ("paragraph", "We use open checkpoints to show the runtime.")]
    assert blocks("• 📈 High accuracy: the method matches fine-tuning.") == [
        ("markup", "📈"), ("list_item", "High accuracy: the method matches fine-tuning.")]
    assert blocks("Figure 1. Structure of the recommender\nFigure 4,\nTable 7, from Appendix C)") == [
        ("markup", "Figure 1. Structure of the recommender"), ("markup", "Figure 4,"), ("markup", "Table 7, from Appendix C)")]
    assert blocks("First.\nTable I: Comparison of three queries Metrics Average took time (ms) P50 took time (ms) 11.8 41.5")[1][0] == (
        "markup")
    assert blocks("Some prose comes first.\n35.85 seconds") == [("paragraph", "Some prose comes first."),
                                                           ("markup", "35.85 seconds")]
    assert blocks("The recommended rank is as follows:\nTask Type Dataset Size Recommended Rank SFT Post-training "
                  "scale 256 RL Any size 1-32")[1] == ("markup", "Task Type Dataset Size Recommended Rank SFT "
                                                               "Post-training scale 256 RL Any size 1-32")
    assert [k for k, _ in blocks("The output is:\nsample 1: why did it work\nsample 2: what it means\nRead the docs.")] == [
        "paragraph", "code", "code", "paragraph"]
    assert blocks("27 Comparing the Models So let us compare the models we just saw.") == [
        ("heading", "27 Comparing the Models"), ("paragraph", "So let us compare the models we just saw.")]


@pytest.mark.parametrize("text", [
    "35 runs finished before noon.",  # a sentence opening with a number
    "Figure 3 shows that the resets recover quickly.",  # a sentence naming a figure
    "Figure 4, for instance, shows the drop after each reset.",
    "3 Models were trained on the data.",  # a bare number, no Title Case heading
    "Corpus encoding: a sparse encoder for documents",  # a label and its value, no heading
    "We love the new release 🎉 and so do our users.",  # an icon inside a sentence
])
def test_sentences_near_the_new_shapes_stay_prose(text):
    assert blocks(text) == [("paragraph", text)]


def test_a_list_that_lost_its_markers_after_a_colon_is_no_table():
    text = "The release brings three models:\nLlama 3 8B trained on 15T tokens with 8k context and GQA"
    assert blocks(text)[1] == ("paragraph", "Llama 3 8B trained on 15T tokens with 8k context and GQA")


def test_program_output_and_queries_over_lines_are_code():
    """Branch pack-nonprose: output and queries a ``<pre>`` holds, by their own shape (box-drawing
    tables and trees, ASCII grid rules, client result lines, notebook prompts, R output, TOML
    headers, an installer's lines, SQL clauses in capitals next to each other, a YAML list)."""
    text = ("The layout:\nsite/\n├── docs/\n│   └── index.md\n└── mkdocs.yml\n"
            "In [3]: len(docs)\nOut[3]: 42\n"
            "SELECT id\nFROM docs\nWHERE score > 0.5\n(3 rows)\n"
            "[server]\nport = 8080\n"
            "pip install tinystore\nCollecting tinystore\nSuccessfully installed tinystore-2.1\n"
            "settings:\n  - name: fast\n    threads: 4\n"
            "That is all.")
    kinds = [k for k, _ in blocks(text)]
    assert kinds == ["markup"] + ["code"] * (len(kinds) - 2) + ["paragraph"], blocks(text)  # (h): "The layout:"


@pytest.mark.parametrize("text", [
    "Select the model you want to serve.",
    "Collecting more labels helps the smaller model most.",
    "[1] A. Author and B. Author. Dense retrieval at scale. 2021.",  # a reference, not R output
    "FROM the start, the index was kept small.",  # a capital keyword and plain words
    "Downloading the weights takes about a minute on a fast link.",
])
def test_sentences_opening_with_output_words_stay_prose(text):
    assert [k for k, _ in blocks(text)] == ["paragraph"], blocks(text)


def test_a_short_command_a_progress_bar_and_a_lower_case_query_are_code():
    for text in ("python train.py\nepoch 1 loss 0.52\nepoch 2 loss 0.31",
                 "time python run.py\nreal    0m1.234s\nuser    0m1.100s",
                 "Indexing: 100%|██████████| 1000/1000 [00:02<00:00, 450.12it/s]",
                 "select count(*) from hits where url like '%google%';"):
        assert {k for k, _ in blocks(text)} == {"code"}, blocks(text)
    assert blocks("git is the tool we use.") == [("paragraph", "git is the tool we use.")]


@pytest.mark.parametrize("text, title", [
    ("Without Regret Tuning Recent work from a small lab shows that adapters match full tuning.", "Without Regret Tuning"),
    ("Toolkit: Reproducing Dense Results Dense retrieval encodes queries and passages apart.",
     "Toolkit: Reproducing Dense Results"),
    ("TinyStore Map any text to a short vector for search.", "TinyStore"),
    ("Bugs & Fixes Running log of breakages hit while building the trainer.", "Bugs & Fixes"),
    ("Open Questions Models Acme's Open Questions dataset holds real search queries.", "Open Questions Models"),
    # not a title: a sentence opener, one plain word, a name and a verb
    ("The Massive Text Benchmark is a benchmark of many tasks.", ""),
    ("Making models even more accessible with quantization is the goal.", ""),
    ("Acme Research released a new paper on retrieval last week.", ""),
    ("Acme AI Research released a new model for search.", ""),  # a name of three words opens the sentence
    ("Acme AI's new model is fast and small.", ""),
])
def test_the_page_title_glued_to_the_first_line_is_a_heading(text, title):
    """Branch pack-nonprose: the first line of a flattened chapter is where the page's ``<h1>``
    lands, glued to its first paragraph; the title is split off at the capitalised word before the
    first lower-case word a title does not hold (or at a possessive name). Only the first line."""
    got = blocks(text)
    if title:
        assert got == [("heading", title), ("paragraph", text[len(title):].strip())]
    else:
        assert got == [("paragraph", text)]
    assert blocks("First line stays.\n" + text)[1:] == [("paragraph", text)] or title == ""


def test_a_figure_specification_closing_a_line_is_a_caption():
    """Branch pack-nonprose: a specification of three cells or more joined by `` | `` closing a line
    (a figure's settings printed under it) is a ``caption``; the sentences before it stay prose. A
    sentence naming alternatives with bars is a sentence."""
    assert blocks("Draft figures, subject to change. Tool v0.7 | Model-180B | 1xGPU TP1 | INT4 | BS: 256, 128") == [
        ("paragraph", "Draft figures, subject to change."),
        ("markup", "Tool v0.7 | Model-180B | 1xGPU TP1 | INT4 | BS: 256, 128")]
    for text in ("Runs compare setups x | y | z across seeds.", "Results hold. Runs compare setups x | y | z"):
        assert blocks(text) == [("paragraph", text)]


def test_contents_entries_shaped_as_code_or_with_abbreviations_keep_the_run():
    """Branch pack-nonprose: a code-shaped heading (``tinystore.Index.search()``) in a table of
    contents is an entry when the page repeats it below, and ``vs.`` ends no entry, so the entries
    after them stay navigation; each heading glued to its first sentence is split off, and an API
    heading glued to a sentence is a heading even without a table of contents (its sentence is kept)."""
    text = ("On this page\nInstallation\ntinystore.Index.search()\nBenchmarks vs. FAISS\nSerialization & Serving\n"
            "Installation Install with pip.\ntinystore.Index.search() The search method returns keys.\n"
            "Benchmarks vs. FAISS We ran the benchmark on one core.\nSerialization & Serving Indexes can be saved.")
    assert blocks(text) == [("navigation", "On this page"), ("navigation", "Installation"),
                            ("navigation", "tinystore.Index.search()"), ("navigation", "Benchmarks vs. FAISS"),
                            ("navigation", "Serialization & Serving"), ("heading", "Installation"),
                            ("paragraph", "Install with pip."), ("heading", "tinystore.Index.search()"),
                            ("paragraph", "The search method returns keys."), ("heading", "Benchmarks vs. FAISS"),
                            ("paragraph", "We ran the benchmark on one core."), ("heading", "Serialization & Serving"),
                            ("paragraph", "Indexes can be saved.")]
    assert blocks("Intro line.\nencode() Encodes a batch of texts into vectors.") == [
        ("paragraph", "Intro line."), ("heading", "encode()"), ("paragraph", "Encodes a batch of texts into vectors.")]
    assert [k for k, _ in blocks("print(x)\nvectors = encode(texts)")] == ["code", "code"]


def test_shapes_of_the_batch_8_pages():
    """Branch pack-nonprose, after batch 8's one before-scoring: a call with its comment, notebook
    magics, a command with options continued by a backslash, a literal image, a disclosure label,
    a heading and an icon before a bullet, a one-line table of identifiers and a page title that
    its first sentence repeats are not prose rows; a stock heading glued to a role-led sentence is
    split; a sentence-long link with an arrow stays a sentence."""
    kinds = [k for k, _ in blocks("train(loader, epochs=16) # gives about 94% accuracy\n!pip install jax\n"
                                   "%pip install arviz\ntsgen --use-case=\"cpu\" --seed=123 \\")]
    assert kinds == ["code"] * 4
    assert blocks("A sentence comes first.\n![Routing](../assets/Expert Routing.png)")[1][0] == "image"
    assert blocks("Click to show dataset setup code.") == [("markup", "Click to show dataset setup code.")]
    assert blocks("News 🗞️ • 🚀 [2025/05/26] We release a set of traces.") == [
        ("heading", "News 🗞️"), ("markup", "🚀"), ("list_item", "[2025/05/26] We release a set of traces.")]
    assert blocks("Files.\nPath Source BPE Code de_bpe_24K Target BPE Code en_bpe_24K Source Dictionary de_dict")[1] == (
        "markup", "Path Source BPE Code de_bpe_24K Target BPE Code en_bpe_24K Source Dictionary de_dict")
    assert blocks("Tiny Eval : An Evaluator for Chat Models Tiny Eval is a fast evaluator of chat models.") == [
        ("heading", "Tiny Eval : An Evaluator for Chat Models"), ("paragraph", "Tiny Eval is a fast evaluator of chat models.")]
    assert blocks("Agent Kit Agent Kit (Accessible Toolkit) adds tools for security tasks.") == [
        ("heading", "Agent Kit"), ("paragraph", "Agent Kit (Accessible Toolkit) adds tools for security tasks.")]
    assert blocks("First line.\nOverview {cite:t}`Doe1980` plotted long averages of inflation.")[1:] == [
        ("heading", "Overview"), ("paragraph", "{cite:t}`Doe1980` plotted long averages of inflation.")]
    assert [k for k, _ in blocks("Table of contents\nSetup\n📄 Benchmarking the memory layer on long talks →\nNext →")] == [
        "navigation", "navigation", "markup", "paragraph", "markup"]
    assert blocks("Usage uv pip install \".[atari]\"") == [("heading", "Usage"), ("code", "uv pip install \".[atari]\"")]


@pytest.mark.parametrize("text", [
    "Click the button to start the run, then wait for the index.",  # no disclosure label
    "Path and file names are listed with their BPE codes in the appendix.",
    "run it with --fast only when the cache is warm.",
])
def test_sentences_near_the_batch_8_shapes_stay_prose(text):
    assert [k for k, _ in blocks("First line.\n" + text)][1:] == ["paragraph"], blocks(text)


def test_figure_panel_labels_with_marks_are_markup():
    assert [k for k, _ in blocks('(b) "tiger shark" ×\n"grey whale" ✓\n+ "goblet" ✓\nFast search ✓')] == ["markup"] * 4
    assert blocks("It works ✓") == [("paragraph", "It works ✓")]
    assert blocks("• Streaming ✓") == [("list_item", "Streaming ✓")]


def test_a_line_that_is_a_contents_entry_is_that_heading():
    text = "Table of contents\n1. What is it?\n2. How does it work?\nIt is a model.\n2. How does it work?\nIt reads text."
    assert blocks(text)[3:] == [("paragraph", "It is a model."), ("heading", "2. How does it work?"),
                                ("paragraph", "It reads text.")]


def test_knitr_output_and_a_sentence_cut_by_display_math():
    """Branch pack-nonprose: knitr prints R output as ``## [1] 0.81`` (code, not a heading); a short
    line ending in a function word above a formula is the start of a sentence, never a heading."""
    assert [k for k, _ in blocks("The output:\n## [1] 0.8123\n## # A tibble: 6 x 2")] == ["markup", "code", "code"]
    assert blocks("The loss is defined as\n\\mathcal{L} = -\\sum_{i} y_i \\log p_i\nwhere p is the probability.") == [
        ("paragraph", "The loss is defined as"), ("math", "\\mathcal{L} = -\\sum_{i} y_i \\log p_i"),
        ("paragraph", "where p is the probability.")]
    assert blocks("## Results") == [("heading", "Results")]


def test_lines_of_thousands_of_glued_icons_titles_and_api_names_are_read_without_recursion():
    for text in ("Title 🚀" * 5000, "a.b() " * 5000 + "The end is here.", "Evaluation¶ " * 5000 + "We evaluate.",
                 "🚀 " * 5000 + "Text."):
        assert read_flattened(text).blocks


def test_a_credit_closing_a_line_is_a_caption():
    assert blocks("The last example is left for the model. Source: Figure 2.1 from the GPT-3 paper") == [
        ("paragraph", "The last example is left for the model."), ("markup", "Source: Figure 2.1 from the GPT-3 paper")]
    text = "The data came from one source: the public web."
    assert blocks(text) == [("paragraph", text)]


def test_a_participle_opening_the_first_line_is_no_page_title():
    text = "Inspired by Jane Roe I tried the same trick on the index."
    assert blocks(text) == [("paragraph", text)]


def test_a_heading_with_its_colon_glued_to_the_first_item():
    assert blocks("What's New: • 01/15/2026 Faster CPU kernels") == [
        ("heading", "What's New:"), ("markup", "01/15/2026 Faster CPU kernels")]  # a dated title, (h)
    assert blocks("Home • Docs • Blog") == [("navigation", "Home • Docs • Blog")]


def test_the_bench_flattener_renders_colon_fences_and_alerts_as_the_site_does():
    """Docusaurus/VitePress ``:::tip Title`` and MyST ``:::{note}`` show their title and body, never
    the fences; a layout container (``tab-set``) or an untitled class (``:::rmdnote``) shows no title;
    a GitHub alert shows its kind as a title; code fences keep their text."""
    bench = _quality_bench()
    markdown = (":::tip Fast path\n\nUse the cache.\n\n:::\n\n:::note[Heads up]\nRebuilt nightly.\n:::\n\n"
                "::::{tab-set}\n:::{tab-item} Python\nRun the client.\n:::\n::::\n\n:::{note}\n:class: dropdown\n"
                "A MyST note.\n:::\n\n:::rmdnote\nA styled box.\n:::\n\n> [!NOTE]\n> The alert body.\n\n"
                "```\n:::kept in code\n```\n")
    assert bench.flatten_markdown(markdown).split("\n") == [
        "Fast path", "Use the cache.", "Heads up", "Rebuilt nightly.", "Python", "Run the client.", "Note",
        "A MyST note.", "A styled box.", "Note", "The alert body.", ":::kept in code"]


def test_an_admonition_title_alone_and_a_pronoun_question_line():
    assert blocks("Some items:\n• first\nNote\nThe body of the note is prose.") == [
        ("markup", "Some items:"), ("list_item", "first"), ("markup", "Note"),
        ("paragraph", "The body of the note is prose.")]
    text = "We've briefly mentioned p-values, but what are they? From the paper: a p-value is a probability."
    assert blocks("First line.\n" + text)[1:] == [("paragraph", text)]


def test_a_first_line_opening_with_a_name_across_the_seam_is_no_page_title() -> None:
    """The page-title rule (``LoRA Without Regret Recent research …``) must not cut a sentence
    whose subject is a name of two capitalised words (found by the attribution generalisation set
    after the merge: "Researchers from Carnegie" / "Mellon demonstrated …")."""
    from audit.flattened import read_flattened

    line = "Researchers from Carnegie Mellon demonstrated the attack on several aligned models."
    assert [(b.kind, b.text) for b in read_flattened(line).blocks] == [("paragraph", line)]
    titled = read_flattened("LoRA Without Regret Recent research from Thinking Machines shows that LoRA matches it.")
    assert [b.kind for b in titled.blocks] == ["heading", "paragraph"]


# ---------------------------------------------------------------------------------------------
# Branch reader (stop 28): shapes of development batches 7, 8 and 10 and label convention (h)
# (audit/titles.py); written after their rules, so tests rather than catalogue cases.

def test_title_lines_are_structure_and_sentences_are_not():
    from audit.titles import has_verb, title_line
    for text in ("Updates:", "Notable runs:", "Why bfloat16?", "Search performance", "Learning curves:",
                 "Possible Output (from the last line):", "Getting Started", ":material-clock-fast: Quick start"):
        assert title_line(text), text
    for text in ("The query returns:", "Then load the model checkpoint:", "Quantize the model by running the commands:",
                 "And several natural language inference tasks:", "Baseline performance: 75.6% alignment",
                 "Name two cases in which:", "[2] RL Course by Jane Doe - Lecture 9: Exploration",
                 "Corpus encoding: a sparse encoder for documents", "Benchmarking the memory layer →",
                 "The methods mainly include:", "Binary Quantization with always_ram=True"):
        assert not title_line(text), text
    assert has_verb("Artificial intelligence advances by inventing games") and not has_verb("Quick start")


def test_asides_links_and_formulas_are_set_aside():
    text = ("The talk opens with the cost.\n(Timestamp: 00:04:12)\n[training log]\nPaper: https://example.org/p.pdf\n"
            "• https://github.com/example/fork\n(Nq, Lq, d) × (B, Ld, d) → (Nq, B).\n(Image source: Doe et al., 2020)\n")
    assert [(k, t[:12]) for k, t in blocks(text)] == [
        ("paragraph", "The talk ope"), ("markup", "(Timestamp: "), ("markup", "[training lo"),
        ("navigation", "Paper: https"), ("navigation", "https://gith"), ("math", "(Nq, Lq, d) "),
        ("paragraph", "(Image sourc")]


def test_code_shapes_of_many_languages_are_code_lines():
    for line in ("COPY requirements.txt .", "1250/1250 [==============================] - 45s 36ms/step - loss: 0.41",
                 "q1,d17,0.91", "@@ -10,7 +10,7 @@ def search(q):", "[INFO] 2024-03-02 10:15:03 Loaded 1,000,000 vectors",
                 "memtier_benchmark -s $SERVER --ratio 0:1 -t 60 -c 5", "p->someField = 1;", "seattle_csv |> glimpse()",
                 'image: {"count": int, "width": int}', "B, A = model", "knitr::opts_chunk$set(",
                 "Input: the man went to the [MASK1] . he bought a [MASK2] of milk."):
        assert [k for k, _ in blocks("The setup is below.\n" + line + "\nThe run finished well.")] == [
            "paragraph", "code", "paragraph"], line
    for line in ("Use the --fast flag and the --threads option to speed it up.", "We set x = 1; then y = 2 follows.",
                 "debugging tip: when you run make, modify it by replacing -O3 with -O0 and -g"):
        assert [k for k, _ in blocks("The setup is below.\n" + line + "\nThe run finished well.")] == [
            "paragraph", "paragraph", "paragraph"], line


def test_flattened_tables_of_units_marks_and_long_rows_are_grids():
    for line in ("setting baseline fused speedup batch=64 len=128 1.20 ms 0.31 ms 3.9× batch=256 len=512 9.80 ms 1.45 ms"
                 " 6.8× batch=1024 len=512 41.3 ms 5.02 ms 8.2×",
                 "Feature FAISS Milvus Weaviate GPU support Yes Yes No Metadata filtering No Yes Yes Managed cloud No Yes Yes",
                 "Model Test perplexity Params Paper Transformer-XL Large (Dai et al., 2018) 18.3 0.8B Attentive Language"
                 " Models Beyond a Fixed-Length Context Official Adaptive Input (Baevski and Auli, 2018) 18.7 1.0B Adaptive"
                 " Input Representations for Neural Language Modeling Official"):
        assert [(k, n) for k, n in [(b.kind, b.note) for b in read_flattened("Results:\n" + line).blocks]][1:] == [
            ("markup", "number grid")], line


def test_program_output_repeated_under_a_command_is_code():
    text = ("Run it:\n$ mpirun -np 3 ./hello\n" + "".join(
        f"Hello, World! I am process {i} of 3 on . I will do parallel 'work' for 3.1 seconds.\n" for i in range(3))
        + "The processes print in any order.")
    assert [k for k, _ in blocks(text)] == ["paragraph", "code", "code", "code", "code", "paragraph"]


def test_restructuredtext_left_in_a_page_is_markup():
    text = ".. _design:\n====== Design The server is a loop.\n.. _Gevent: http://www.gevent.org/ .. _Hey: https://x.org/hey\n"
    assert blocks(text) == [("markup", ".. _design:"), ("markup", "======"), ("heading", "Design"),
                            ("paragraph", "The server is a loop."),
                            ("navigation", ".. _Gevent: http://www.gevent.org/ .. _Hey: https://x.org/hey")]


def test_a_noun_phrase_label_of_a_list_item_stays_in_its_sentence():
    from claims.extract import claims_from_document
    rows = claims_from_document(read_flattened("You need three things:\n• Your metric. This scores each output.\n"
                                               "• Tokenise. Lower-case the text."))
    assert [r.text for r in rows] == ["You need three things:", "Your metric. This scores each output.", "Tokenise.",
                                      "Lower-case the text."]
