"""Reader fixes found on the development part of the labelled corpus (issue 19), each pinned by a
case of our own: inline HTML tags join their text, a currency amount is no inline math, a bold line
with a claim after its colon is prose, a flattened ``Note:`` sentence and a glued admonition
opener."""

from __future__ import annotations

from audit.document import read_markdown
from audit.flattened import read_flattened
from claims.extract import TABLE_VALUE, extract_claims


def _prose(document) -> list[str]:
    return [r.text for r in extract_claims(document) if r.kind != TABLE_VALUE]


def test_inline_tags_in_an_html_block_join_the_text_they_wrap():
    text = "<p>🔧 <strong>Fast setup</strong>: the index builds in <em>one</em> pass over the files.</p>\n"
    assert _prose(read_markdown(text)) == ["🔧 Fast setup: the index builds in one pass over the files."]


def test_a_currency_amount_is_no_inline_math():
    text = "A small run costs $0.40 per hour. A larger run costs $1.20 per hour, and $x^2$ is math.\n"
    rows = _prose(read_markdown(text))
    assert rows == ["A small run costs $0.40 per hour.", "A larger run costs $1.20 per hour, and $x^2$ is math."]


def test_a_bold_line_with_a_claim_after_its_colon_is_prose():
    doc = read_markdown("**Notes:**\n\n**Median latency: 41 ms per query**\n")
    assert [(b.kind, b.text) for b in doc.blocks] == [("markup", "Notes:"),
                                                      ("paragraph", "Median latency: 41 ms per query")]


def test_a_flattened_note_sentence_keeps_its_note():
    doc = read_flattened("Note: The cache is rebuilt on every start of the server.\n")
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("paragraph", "Note: The cache is rebuilt on every start of the server.")]


def test_a_flattened_admonition_opener_is_markup_before_its_body():
    doc = read_flattened('!!! tip "Faster builds" The cache is kept between runs of the indexer.\n')
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("markup", '!!! tip "Faster builds"'), ("paragraph", "The cache is kept between runs of the indexer.")]


def test_a_glued_admonition_in_a_pack_read_as_markdown_keeps_its_body():
    text = ('| k | v |\n|---|---|\n| a | 1 |\n\n'
            '!!! tip "Faster builds" The cache is kept between runs of the indexer. It saves a rebuild.\n')
    doc = read_markdown(text, line_paragraphs=True)
    assert sorted((b.line, b.kind, b.text) for b in doc.blocks if b.kind in ("markup", "paragraph")) == [
        (5, "markup", '!!! tip "Faster builds"'),
        (5, "paragraph", "The cache is kept between runs of the indexer. It saves a rebuild.")]


def test_a_whole_bold_sentence_is_no_lead_in():
    text = ("**With the cache on, a cold start of the indexer takes 12 seconds.** We timed this on one laptop.\n\n"
            "**Tokenise.** Lower-case the text first.\n")
    assert _prose(read_markdown(text)) == ["With the cache on, a cold start of the indexer takes 12 seconds.",
                                           "We timed this on one laptop.", "Tokenise. Lower-case the text first."]


def test_a_setting_with_a_worded_aside_is_no_formula():
    doc = read_flattened("Use the defaults below.\nBatch size=64 (or more)\nloss = a + b\n")
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("paragraph", "Use the defaults below."), ("paragraph", "Batch size=64 (or more)"), ("math", "loss = a + b")]


def test_a_title_case_heading_glued_to_its_first_sentence_is_a_heading():
    doc = read_flattened("A Toy Index We build a small index first.\n"
                         "Results The index answers in 3 ms.\n"
                         "Google Research showed that the index is fast.\n")
    assert [(b.kind, b.text.strip()) for b in doc.blocks] == [
        ("heading", "A Toy Index"), ("paragraph", "We build a small index first."),
        ("heading", "Results"), ("paragraph", "The index answers in 3 ms."),
        ("paragraph", "Google Research showed that the index is fast.")]


def test_a_contracted_opener_and_a_version_in_a_glued_heading():
    doc = read_flattened("Changes in v3 We've retrained every model on the new split.\n")
    assert [(b.kind, b.text.strip()) for b in doc.blocks] == [
        ("heading", "Changes in v3"), ("paragraph", "We've retrained every model on the new split.")]


def test_captions_credits_and_a_titled_question_admonition_are_markup():
    markdown = ("Figure 2: The index layout, one shard per file\n\n*Photo by Ann Lee on Pexels*\n\n"
                '??? "Output (first run)"\n\n    The run loaded every row of the table.\n\n'
                "Figure 2 shows the layout. It has one shard per file.\n")
    doc = read_markdown(markdown)
    assert [(b.kind, b.note) for b in doc.blocks if b.kind == "markup"] == [
        ("markup", "caption"), ("markup", "credit"), ("markup", "admonition")]
    assert _prose(doc) == ["The run loaded every row of the table.", "Figure 2 shows the layout.",
                           "It has one shard per file."]
    flat = read_flattened("Figure 2: The index layout, one shard per file\nPhoto by Ann Lee on Pexels\n")
    assert [(b.kind, b.note) for b in flat.blocks] == [("markup", "caption"), ("markup", "credit")]


def test_a_lone_admonition_opener_in_a_pack_is_markup():
    doc = read_flattened('??? "Output (first run)"\nThe run loaded every row of the table.\n!!! note x\n')
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("markup", '??? "Output (first run)"'), ("paragraph", "The run loaded every row of the table."),
        ("paragraph", "!!! note x")]


def test_a_lower_case_heading_glued_to_its_first_sentence_is_a_heading():
    doc = read_flattened("quick start If you run it once, the cache is warm.\nvLLM is fast on one GPU.\n")
    assert [(b.kind, b.text.strip()) for b in doc.blocks] == [
        ("heading", "quick start"), ("paragraph", "If you run it once, the cache is warm."),
        ("paragraph", "vLLM is fast on one GPU.")]


def test_an_output_banner_in_a_pack_is_code():
    doc = read_flattened("The run prints its score.\n############ MRR @10: 0.3685 ############\n")
    assert [(b.kind, b.note) for b in doc.blocks] == [("paragraph", ""), ("code", "banner")]


def test_a_number_grid_is_set_aside_and_a_list_of_settings_is_prose():
    doc = read_flattened("Split Method Top-5 Top-20 dev BM25 41.2 60.3 dev Dense 55.0 71.9 test BM25 40.1 59.8\n"
                         "Batch sizes: 1, 2, 4, 8, 16, 32\n"
                         "BM25 scores 41.2, 60.3, 40.1 and 59.8 on the four splits.\n")
    assert [(b.kind, b.note) for b in doc.blocks] == [("markup", "number grid"), ("paragraph", ""),
                                                       ("paragraph", "")]
