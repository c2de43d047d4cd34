"""Real sites' markup is structure: our fixtures in the shapes of MkDocs Material, MyST / Jupyter
Book, d2l and a Hugging Face blog post (tests/data/reader/, each Markdown and, for three, the
same page flattened as a pack) give exactly their expected prose sentences, in order."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.document import read_markdown
from audit.pack import load_pack
from claims.extract import TABLE_VALUE, claims_for_pack, sentence_spans

DATA = Path(__file__).resolve().parent / "data" / "reader"
FIXTURES = sorted(p for p in DATA.iterdir() if p.suffix in (".md", ".txt"))


def expected(path: Path) -> list[str]:
    return (DATA / (path.name.rsplit(".", 1)[0] + ".prose")).read_text(encoding="utf-8").splitlines()


def test_every_fixture_has_its_expected_list():
    assert len(FIXTURES) == 7 and all((DATA / (p.name.rsplit(".", 1)[0] + ".prose")).is_file() for p in FIXTURES)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_rows_are_exactly_the_prose_sentences(path):
    _, rows, note = claims_for_pack(load_pack(path))
    assert note == ""
    assert [r.text for r in rows if r.kind != TABLE_VALUE] == expected(path)


def test_mkdocs_markup_is_reported_with_its_lines():
    doc = read_markdown((DATA / "mkdocs_material.md").read_text(encoding="utf-8"))
    markup = [(b.line, b.text) for b in doc.blocks if b.kind == "markup"]
    assert markup == [(13, '!!! note "Reading the numbers"'), (16, "??? tip"), (19, '???+ warning "Known gap"'),
                      (23, '=== "Python"'), (30, '=== "Shell"'), (65, '--8<-- "includes/abbreviations.md"'),
                      (67, "{: .annotate }")]
    kinds = {b.line: b.kind for b in doc.not_claims()}
    assert kinds[7] == "image" and kinds[9] == "navigation" and kinds[58] == "navigation"
    assert [(b.line, b.language) for b in doc.code_blocks()] == [(25, "python"), (32, "bash")]
    (table,) = doc.tables()
    assert (table.line, table.end_line, len(table.rows)) == (36, 40, 3)
    prose = {b.text: b.line for b in doc.prose_blocks()}
    assert prose["The fused run gains 0.079 over BM25."] == 41
    assert prose["The weight was fixed before looking at the test split."] == 52
    assert prose["Latency was not measured for this page."] == 54


def test_myst_directives_roles_and_labels():
    doc = read_markdown((DATA / "myst_jupyter_book.md").read_text(encoding="utf-8"))
    code = [(b.line, b.end_line, b.note) for b in doc.code_blocks()]
    assert code == [(18, 21, "directive {math}"), (42, 45, "directive {code-cell}"),
                    (56, 58, "directive {bibliography}")]
    assert (9, "(ch-evaluation)=") in [(b.line, b.text) for b in doc.blocks if b.kind == "markup"]
    first = next(b for b in doc.prose_blocks() if b.text.startswith("A ranker"))
    assert [first.text[s:e] for s, e in first.atomic_spans] == ["{cite}`jarvelin2002`", "{eq}`ndcg-def`"]


def test_d2l_tab_markers_labels_and_lone_bracket():
    doc = read_markdown((DATA / "d2l_chapter.md").read_text(encoding="utf-8"))
    markup = [(b.line, b.text) for b in doc.blocks if b.kind == "markup"]
    assert markup == [(7, ":label:`sec_scoring`"), (18, ":label:`fig_attention_output`"),
                      (26, ":begin_tab:`pytorch`"), (28, ":end_tab:"), (30, ":begin_tab:`mxnet`"),
                      (32, ":end_tab:"), (37, ")")]
    assert [b.kind for b in doc.blocks if b.line in (17, 44)] == ["image", "navigation"]


def test_inline_code_and_roles_are_atomic_for_the_splitter():
    text = "Call model.encode(x). Then see it. Next :citet:`Smith. Jones. 2020` holds."
    spans = ((5, 26), (40, 67))
    assert [text[s:e] for s, e in sentence_spans(text, spans)] == [
        "Call model.encode(x). Then see it.", "Next :citet:`Smith. Jones. 2020` holds."]
    rows = claims_for_pack(load_pack(DATA / "hf_blog.md"))[1]
    assert "Then call quantize(embeddings, \"binary\") on the float vectors." in [r.text for r in rows]


def test_flattened_pack_code_navigation_and_callouts():
    doc = claims_for_pack(load_pack(DATA / "mkdocs_material.pack.txt"))[0]
    by_line = {}
    for b in doc.blocks:
        by_line.setdefault(b.line, []).append((b.kind, b.text))
    assert by_line[8] == [("heading", "Evaluating a hybrid retriever")]
    assert by_line[9][0][0] == "navigation"
    assert by_line[11] == [("heading", "Reading the numbers"),
                           ("paragraph", "Every score below is nDCG@10 on the test split. Higher is better.")]
    assert by_line[12][0] == ("markup", "Tip")
    assert (by_line[15], by_line[16], by_line[18]) == (
        [("code", "from example import fuse")], [("code", "run = fuse(bm25, dense, alpha=0.5)")],
        [("code", "$ example fuse --alpha 0.5")])
    hf = claims_for_pack(load_pack(DATA / "hf_blog.pack.txt"))[0]
    kinds = [(b.line, b.kind) for b in hf.blocks]
    assert (15, "paragraph") in kinds and (15, "code") in kinds   # "Install the tools with: pip install …"
    assert (16, "paragraph") in kinds and (16, "math") not in kinds  # "N = 40 candidates were rescored …"
    assert len(hf.tables()) == 1 and hf.tables()[0].rows[1][0] == "all-MiniLM-L6-v2"


def test_flattened_code_log_formula_and_company_lines():
    from audit.flattened import read_flattened

    text = ("ERROR rates fell by 3 points in the second run.\nINFO:root:loaded 3 shards\n"
            "Run it once. python train.py --epochs 3 Then stop.\nN = 40 tasks were evaluated.\n"
            "marginal = 0.7 / r - 0.3 * redundancy Before anything is selected, the penalty is zero.\n"
            "Compared to Google and Microsoft 3 times more tokens were used.\n"
            "model = SentenceTransformer(\"all-MiniLM-L6-v2\") The model loads in 2 seconds.\n")
    got = [(b.line, b.kind, b.text) for b in read_flattened(text).blocks]
    assert got == [
        (1, "paragraph", "ERROR rates fell by 3 points in the second run."),
        (2, "code", "INFO:root:loaded 3 shards"),
        (3, "paragraph", "Run it once."), (3, "code", "python train.py --epochs 3"), (3, "paragraph", "Then stop."),
        (4, "paragraph", "N = 40 tasks were evaluated."),
        (5, "math", "marginal = 0.7 / r - 0.3 * redundancy"),
        (5, "paragraph", "Before anything is selected, the penalty is zero."),
        (6, "paragraph", "Compared to Google and Microsoft 3 times more tokens were used."),
        (7, "code", 'model = SentenceTransformer("all-MiniLM-L6-v2")'),
        (7, "paragraph", "The model loads in 2 seconds.")]


def test_a_sentence_ending_in_an_acronym_is_cut():
    from claims.extract import split_sentences

    assert split_sentences("Ties choose the smaller checked ID. Retain the order.") == [
        "Ties choose the smaller checked ID.", "Retain the order."]
    # initials before a capitalised function word end the sentence (branch md-shapes); before a
    # name they do not
    assert split_sentences("It ran in the U.S. Then it stopped.") == ["It ran in the U.S.", "Then it stopped."]
    assert split_sentences("The U.S. Navy runs it.") == ["The U.S. Navy runs it."]


def test_claims_lists_what_it_did_not_read_as_claims(cli):
    result = cli("claims", DATA / "mkdocs_material.md", "--not-claims")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert f"{DATA / 'mkdocs_material.md'}:13: markup (admonition): !!! note \"Reading the numbers\"" in lines
    assert f"{DATA / 'mkdocs_material.md'}:23: markup (tab): === \"Python\"" in lines
    assert f"{DATA / 'mkdocs_material.md'}:25: code (python): from example import fuse" in lines
    assert f"{DATA / 'mkdocs_material.md'}:58: navigation: BM25 in depth" in lines
    assert len(lines) == 22


def test_language_chunks_are_code_and_unknown_directives_keep_their_prose():
    text = ("```{r}\nsummary(cars). Then more\n```\n\n```{.python}\nx = 1. Then y\n```\n\n"
            "```{python}\nimport numpy as np\n```\n\n```{exercise-card}\nThe card body is prose.\n```\n")
    doc = read_markdown(text)
    assert [(b.kind, b.line, b.note) for b in doc.blocks if b.kind == "code"] == [
        ("code", 1, "directive {r}"), ("code", 5, "directive {.python}"), ("code", 9, "directive {python}")]
    assert [b.text for b in doc.prose_blocks()] == ["The card body is prose."]


def test_pandoc_and_quarto_divs_keep_their_prose():
    doc = read_markdown("::: {.callout-note}\nThe callout body is prose.\n:::\n\n::: note\nA div body is prose.\n:::\n")
    assert [(b.kind, b.line) for b in doc.blocks] == [("markup", 1), ("paragraph", 2), ("markup", 3),
                                                      ("markup", 5), ("paragraph", 6), ("markup", 7)]


def test_a_setext_underline_is_no_content_tab():
    doc = read_markdown('Title here\n===\n\nBody text is here.\n\n=== "Tab"\n\n    Tab body.\n')
    assert [(b.kind, b.line) for b in doc.blocks] == [("heading", 1), ("paragraph", 4), ("markup", 6),
                                                      ("paragraph", 8)]


def test_real_jupyter_book_shapes():
    """Shapes met in the Jupyter Book v0.15 documentation (read with fetch, our own text here)."""
    text = ("See [](content:references) for details.\n\n+++ {\"tags\": [\"hide\"]}\n\n+++\n\n"
            "https://img.shields.io/badge/book-orange\n\n```rst\nAPI Reference\n=============\n```\n\n"
            "Done with this page.\n")
    doc = read_markdown(text)
    assert [b.text for b in doc.prose_blocks()] == ["See content:references for details.", "Done with this page."]
    assert [(b.kind, b.line) for b in doc.not_claims()] == [("markup", 3), ("markup", 5), ("navigation", 7),
                                                             ("code", 9)]


def test_an_underline_of_equals_signs_is_no_pack_header(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Developers\n\nThe file looks like this:\n\n```rst\nAPI Reference\n=============\n```\n",
                    encoding="utf-8")
    pack = load_pack(page)
    assert pack.is_snapshot and [r.text for r in claims_for_pack(pack)[1]] == ["The file looks like this:"]


def test_admonitions_nested_and_in_definition_lists_keep_their_prose():
    text = ('`note`, `seealso`\n\n:   !!! note\n\n        Lorem ipsum dolor sit amet. Nulla et euismod.\n\n'
            '!!! tip "Outer"\n    Outer body sentence.\n\n    !!! warning\n        Inner body sentence.\n\n'
            '    Back in the outer body.\n\nA block starts with `!!!`, followed by a keyword.\n')
    rows = [r.text for r in claims_for_pack(load_pack_text(text))[1]]
    assert rows == ["note, seealso", "Lorem ipsum dolor sit amet.", "Nulla et euismod.", "Outer body sentence.",
                    "Inner body sentence.",
                    "Back in the outer body.", "A block starts with !!!, followed by a keyword."]


def load_pack_text(text):
    from audit.pack import parse_pack

    return parse_pack(text, source_path="page.md", markdown=True)
