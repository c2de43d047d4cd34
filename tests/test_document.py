"""The document model: Markdown blocks (markdown-it-py + plugins) and flattened-text recovery."""

from __future__ import annotations

from audit.document import Table, describe_block, document_from_pack, looks_like_markdown, read_markdown
from audit.flattened import read_flattened
from audit.pack import load_pack

from support import seed

MARKDOWN = """\
+++
title = "A post"
+++

# Measuring things

Intro with $a=1$ inline and a note[^1]. ![img](a.png) See [the docs][r].

## Results *so far*

1. **Bold.** Text here 2.5e-3.
2. Second item.

> Quote says 5%.

Recall by model:

| Model | **Recall** | Note |
|---|---|---|
| **MiniLM Models** | | |
| `base` | 0.81 |

```python
x = 1
```

    indented code

$$
y = 2
$$

<div>html</div>

![only image](b.png)

[r]: http://example.org

[^1]: The footnote text 3.
"""


def kinds(document):
    return [(b.kind, b.line, b.end_line) for b in document.blocks]


def test_markdown_blocks_kinds_and_lines():
    doc = read_markdown(MARKDOWN, "post.md")
    assert kinds(doc) == [
        ("front_matter", 1, 3), ("heading", 5, 5), ("paragraph", 7, 7), ("heading", 9, 9),
        ("list_item", 11, 11), ("list_item", 12, 12), ("blockquote", 14, 14), ("markup", 16, 16),
        ("table", 18, 21), ("code", 23, 25), ("code", 27, 27), ("math", 29, 31), ("html", 33, 33),
        ("image", 35, 35), ("reference", 37, 37), ("footnote", 39, 39)]
    blocks = doc.blocks
    assert blocks[0].text == 'title = "A post"'
    assert blocks[3].section == ("Measuring things", "Results so far")
    assert blocks[2].text == "Intro with $a=1$ inline and a note. See the docs."
    assert [blocks[2].text[s:e] for s, e in blocks[2].math_spans] == ["$a=1$"]
    assert (blocks[4].marker, blocks[4].text) == ("1.", "Bold. Text here 2.5e-3.")
    assert (blocks[9].language, blocks[10].language) == ("python", "")
    assert blocks[11].text == "y = 2"
    assert blocks[15].text == "The footnote text 3."
    assert describe_block(blocks[9]) == "code (python), lines 23–25"
    assert not doc.structure_only()


def test_markdown_table_api():
    (table,) = read_markdown(MARKDOWN).tables()
    assert table == Table(line=18, end_line=21, section=("Measuring things", "Results so far"),
                          caption="Recall by model:", header=("Model", "Recall", "Note"),
                          rows=(("MiniLM Models", "", ""), ("base", "0.81", "")), recovered=False)


def test_inline_code_only_items_are_code():
    doc = read_markdown("Set these:\n\n* `-Drootprefix=`\n* `-Dtty-gid=` for the tty group\n")
    assert [(b.kind, b.language, b.text) for b in doc.blocks] == [
        ("paragraph", "", "Set these:"), ("code", "inline", "-Drootprefix="),
        ("list_item", "", "-Dtty-gid= for the tty group")]


def test_template_shortcodes_and_latex_displays_are_not_prose():
    doc = read_markdown('Intro.\n\n{{< figure src="a.png" caption="Recall 0.5" >}}\n\n{% include note.html %}\n\n'
                        '\\[\nx = 1\n\\]\n\n\\begin{align}\ny &= 3\n\\end{align}\n\nDone.\n')
    assert [(b.kind, b.line) for b in doc.blocks] == [
        ("paragraph", 1), ("html", 3), ("html", 5), ("math", 7), ("math", 11), ("paragraph", 15)]


def test_structure_only_document():
    doc = read_markdown("# Title\n\n```\ncode\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert doc.structure_only()
    assert [b.kind for b in doc.blocks] == ["heading", "code", "table"]


def test_seed_002_recovery():
    doc = document_from_pack(load_pack(seed("002_1cad392b6b549eb0.txt")))
    assert doc.source_format == "flattened"
    headings = [(b.text, b.line) for b in doc.headings()]
    assert headings == [("State the resource before comparing methods", 20),
                        ("Separate redundancy from relevance", 26),
                        ("Observe the price of the cap", 31)]
    assert all(b.recovered for b in doc.headings())
    first, second = doc.tables()
    assert first.header == ("Selector", "Unit cap", "Content cap", "Selection rule")
    assert first.rows == (
        ("Count", "3", "none", "First three in cross-encoder order"),
        ("Characters", "3", "1,200 characters", "Scan that order, taking each feasible whole unit"),
        ("MMR", "3", "1,200 characters",
         "Repeatedly choose the feasible unit with highest declared relevance/diversity score"))
    assert (first.line, first.section, first.recovered) == (23, ("State the resource before comparing methods",), True)
    assert first.caption.endswith("Only the rule for converting that order into a selected packet changes:")
    assert second.header == ("Selector", "Mean units", "Mean characters", "Maximum") and second.rows == ()
    assert second.caption == "The external whole-document results are severe:"
    (math,) = [b for b in doc.blocks if b.kind == "math"]
    assert math.text == ("marginal = 0.7 / r - 0.3 * redundancy\n"
                         "redundancy = max(0, cosine(candidate, each already selected unit))")
    after = doc.blocks[doc.blocks.index(math) + 1]
    assert after.text.startswith("Before anything has been selected, the redundancy penalty is zero.")
    table_tail = [b for b in doc.blocks if b.line == 23 and b.kind == "paragraph"]
    assert table_tail[0].text.startswith("The allowance is measured in Unicode codepoints")


def test_flattened_heuristics_stay_conservative():
    text = ("Carbonell and Goldstein’s MMR work motivates trading relevance against similarity.\n"
            "The present experiment selects existing whole-document SciFact candidates.\n"
            "Results in the table matter The next sentence is not split because the heading ends in a noun.\n")
    doc = read_flattened(text)
    assert [b.kind for b in doc.blocks] == ["paragraph", "paragraph", "heading", "paragraph"]
    assert doc.blocks[2].text == "Results in the table matter"
    marked = read_flattened("## 3. Ledger\n<div>raw</div>\nSmith showed a gain.\n")
    assert [(b.kind, b.section) for b in marked.blocks] == [
        ("heading", ("3. Ledger",)), ("html", ("3. Ledger",)), ("paragraph", ("3. Ledger",))]
    plain = read_flattened("Results of the The next words.\nA short line.\n")
    assert [b.kind for b in plain.blocks] == ["paragraph", "paragraph"]


def test_looks_like_markdown():
    assert looks_like_markdown("# Title\n\ntext")
    assert not looks_like_markdown("# Title\ntext")  # a flattened page with a stray heading line
    assert looks_like_markdown("text\n```\ncode\n```")
    assert looks_like_markdown("| a | b |\n|---|---|\n\nText.")
    assert not looks_like_markdown("| a | b |\n|---|---|\nText under the table.")  # flattened (seed 000)
    assert not looks_like_markdown("Plain line one.\nPlain line two: 3 | 4.")


def _rows(text: str) -> list[tuple[int, str]]:
    from claims.extract import claims_from_document

    return [(r.line, r.text) for r in claims_from_document(read_markdown(text)) if r.kind != "table value"]


def test_readme_shapes_of_the_second_round():
    """Shapes met while writing the second round of the catalogue (branch md-shapes), each our own."""
    # GitHub's callout before [!NOTE]: a bold title alone on the quote's first line
    assert _rows("> **Warning**\n> Numbers below are preliminary.\n") == [(2, "Numbers below are preliminary.")]
    assert _rows("> **Note:** the cache is cold.\n") == [(1, "Note: the cache is cold.")]  # a run-in label stays
    # a BibTeX entry written as text is code, a quotation's credit stays with its quotation
    doc = read_markdown("@article{smith2020,\n  title={Ranking},\n}\n\n\"Retrieval is the bottleneck.\" — A. Engineer\n")
    assert [(b.kind, b.language) for b in doc.blocks if b.kind == "code"] == [("code", "bibtex")]
    assert _rows("\"Retrieval is the bottleneck.\" — A. Engineer\n") == [
        (1, "\"Retrieval is the bottleneck.\" — A. Engineer")]
    assert _rows("> \"Measure twice.\" -- A. Carpenter\n") == [(1, "\"Measure twice.\" -- A. Carpenter")]


def test_a_pandoc_simple_table_is_a_table_with_its_values():
    doc = read_markdown("Table: Recall at two depths.\n\n Depth   Recall\n------  -------\n    10     0.41\n"
                        "   100     0.78\n\nThe deepest cut adds little.\n")
    (table,) = doc.tables()
    assert table.header == ("Depth", "Recall") and table.rows == (("10", "0.41"), ("100", "0.78"))
    assert (table.line, table.end_line) == (3, 6)
    assert [(b.line, b.kind, b.note) for b in doc.not_claims()] == [(1, "markup", "caption")]
    assert _rows(" Name   Note\n-----  ------\n a      b\n\n-- -- is no table.\n")[-1] == (5, "-- -- is no table.")


def test_shapes_of_batch_eight_each_in_a_page_of_our_own():
    """The shapes development batch 8 showed (branch md-shapes, tuned after its one scoring)."""
    # a list of links that enumerates what the sentence before announces is read; one under a
    # heading ("Further reading") or a table of contents is navigation
    assert _rows("The index offers three quantizers:\n\n- [Binary quantization](#bq)\n- [Product quantization](#pq)\n"
                 "- [Scalar](#sq)\n") == [(1, "The index offers three quantizers:"), (3, "Binary quantization"),
                                          (4, "Product quantization")]
    assert _rows("## Further reading\n\n- [Binary quantization](bq.md)\n- [Product quantization](pq.md)\n") == []
    assert _rows("- **92.5 on the recall set**, the best so far\n- [Read the full paper](https://example.org)\n") == [
        (1, "92.5 on the recall set, the best so far"), (2, "Read the full paper")]
    # an HTML caption and an HTML bar of links are no prose; one HTML link alone is
    doc = read_markdown('<div style="color:grey">Figure 1. Recall per depth. (a) Flat index.</div>\n\n'
                        '<p align="center">\n  <a href="a">Learn more</a>\n  ·\n  <a href="b">Join us</a>\n</p>\n\n'
                        '<p align="center"><a href="c"><strong>Benchmarking the index →</strong></a></p>\n')
    assert [(b.line, b.kind, b.note) for b in doc.blocks if b.kind != "html"] == [
        (1, "markup", "caption"), (3, "navigation", ""), (9, "paragraph", "")]
    # a picture whose target holds spaces; a bold verbless lead of a list item; a bookdown block chunk
    assert [b.kind for b in read_markdown("![Routing](../assets/Expert Routing.png)\n").blocks] == ["image"]
    assert _rows("- Your **metric**. This scores each output.\n") == [(1, "Your metric. This scores each output.")]
    assert _rows('```{block, type = "rmdwarning"}\nPremade lists assume correct spelling.\n```\n') == [
        (2, "Premade lists assume correct spelling.")]
    # kramdown attributes after a link, a Pandoc caption above its table, LaTeX index entries
    assert _rows('See [the docs](https://x.org){:target="_blank"} first.\n') == [(1, "See the docs first.")]
    doc = read_markdown(": Recall at two depths {#tbl-depth}\n\n| depth | recall |\n|---|---|\n| 10 | 0.41 |\n")
    assert [(b.line, b.kind, b.note) for b in doc.not_claims()] == [(1, "markup", "caption")]
    assert _rows("It fails on misspellings.\\index{misspellings} You could add them.\n") == [
        (1, "It fails on misspellings.\\index{misspellings}"), (1, "You could add them.")]


def test_an_html_heading_is_no_prose():
    assert _rows('<h2 align="center">Why binary quantization works</h2>\n\nIt works.\n') == [(3, "It works.")]
    assert _rows("<div>\n<h3>Results on the five splits</h3>\n<p>The flat index wins on every split.</p>\n</div>\n") == [
        (3, "The flat index wins on every split.")]


def test_sphinx_design_cards_and_myst_glossaries():
    assert _rows(":::{card} Fast\n:link: quickstart\n^^^\nQueries return fast.\n+++\nSee the guide.\n:::\n") == [
        (4, "Queries return fast."), (6, "See the guide.")]
    doc = read_markdown("```{glossary}\nBM25\n  A ranking function over term counts.\n\nnDCG\n  A graded measure.\n```\n")
    assert [(b.line, b.text) for b in doc.prose_blocks()] == [(3, "A ranking function over term counts."),
                                                              (6, "A graded measure.")]
    assert [(b.line, b.note) for b in doc.not_claims() if b.note == "glossary term"] == [(2, "glossary term"),
                                                                                         (5, "glossary term")]
