"""Nothing dropped, ever: each prose sentence of the input is in exactly one claim row, or its line
is reported as deliberately not a claim (a heading, code, markup, navigation, a table, …).

Two properties: over generated structures (hypothesis) the sentence rows are *exactly* the
sentences written, in order; over every fixture of the repository, the bundled example and the
four specification seeds, every sentence an independent crude reader finds (the rule of
``/work/shared/tools/prose_coverage.py``) is held by the claim rows of the block on its line, or
that line belongs to a block reported as not a claim.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from audit.pack import load_pack, parse_pack
from claims.extract import TABLE_VALUE, claims_for_pack, claims_from_document

from support import seed

REPO = Path(__file__).resolve().parents[1]

# ---------------------------------------------------------------------------------------------
# Generated structures.

SUBJECTS = ["The ranker", "Our index", "Each query", "This run", "The cache", "A reviewer", "The fused list"]
VERBS = ["kept", "lost", "reached", "moved", "scored", "returned", "ranked"]
OBJECTS = ["the warm entries", "the judged pool", "every split", "the first page", "the old baseline"]

sentences = st.builds(lambda s, v, o, n: f"{s} {v} {o} for {n} runs.", st.sampled_from(SUBJECTS),
                      st.sampled_from(VERBS), st.sampled_from(OBJECTS), st.integers(2, 999))
code_sentences = st.builds(lambda s, n: (f"{s} calls `f(x). Then g` {n} times.", f"{s} calls f(x). Then g {n} times."),
                           st.sampled_from(SUBJECTS), st.integers(2, 99))


@st.composite
def piece(draw):
    """``(lines, expected sentences)`` of one structure."""
    kind = draw(st.sampled_from(["paragraph", "wrapped", "code-sentence", "list", "table", "div", "details",
                                 "comment", "myst", "colon", "admonition", "sphinx", "fence", "role", "badge",
                                 "links", "label", "quarto", "alert", "html-links", "bold-label",
                                 # the site-shape catalogue (tests/data/site_shapes/catalogue.toml)
                                 "mdx-import", "jsx-tabs", "mdx-comment", "shortcode-pair", "liquid-glued",
                                 "callout", "kramdown-toc", "emoji", "definition", "reference-glued", "media",
                                 "toc-marker", "chrome", "asciidoc", "figure-attributes", "template-code",
                                 "footnote-unreferenced", "tabitem-lines",
                                 # the second round (tests/data/site_shapes/catalogue2.toml)
                                 "eval-rst", "rst-inline-note", "simple-table", "mdx-indented", "task",
                                 "rule", "tags", "icon-title", "attributes",
                                 # batch 8's shapes
                                 "link-enumeration", "further-reading", "html-caption", "html-link-bar",
                                 "bold-item-lead", "block-chunk", "legacy-alert"]))
    one, two = draw(sentences), draw(sentences)
    if kind == "paragraph":
        return [f"{one} {two}"], [one, two]
    if kind == "wrapped":
        words = f"{one} {two}".split(" ")
        cut = draw(st.integers(1, len(words) - 1))
        return [" ".join(words[:cut]), " ".join(words[cut:])], [one, two]
    if kind == "code-sentence":
        written, read = draw(code_sentences)
        return [written], [read]
    if kind == "list":
        return [f"- {one}", f"- {two}"], [one, two]
    if kind == "table":
        above, below = draw(st.booleans()), draw(st.booleans())
        lines = ([one] if above else []) + ["| Model | nDCG@10 |", "|---|---|", "| BM25 | 0.329 |", "| e5-base-v2 | 0.474 |"]
        lines += [two] if below else []
        return lines, ([one] if above else []) + ([two] if below else [])
    if kind == "div":
        return ['<div class="note">', one, "</div>"], [one]
    if kind == "details":
        return ["<details>", "<summary>How it was run</summary>", "", one, "", f"</details> {two}"], [one, two]
    if kind == "comment":
        return [f"<!-- a comment --> {one}"], [one]
    if kind == "myst":
        return ["```{note}", ":class: dropdown", one, "```"], [one]
    if kind == "colon":
        return [":::{tip}", one, ":::"], [one]
    if kind == "admonition":
        gap = [""] if draw(st.booleans()) else []
        return ['!!! note "Heads up"'] + gap + [f"    {one}", f"    {two}"], [one, two]
    if kind == "sphinx":
        return [".. note::", "", f"   {one}"], [one]
    if kind == "fence":
        return ["```python", "x = call(1). Then y = 2", "```"], []
    if kind == "role":
        return [":begin_tab:`pytorch`", one, ":end_tab:"], [one]
    if kind == "badge":
        return ["[![build](b.svg)](https://ci.example.org) [![pypi](p.svg)](https://pypi.org)"], []
    if kind == "links":
        return ["- [Intro](intro.md)", "- [Setup](setup.md)"], []
    if kind == "quarto":
        return ["::: {.callout-note}", one, ":::"], [one]
    if kind == "alert":
        return ["> [!NOTE]", f"> {one}"], [one]
    if kind == "html-links":
        return ['* <a href="https://example.org/a"><code>example/model-v2</code></a>',
                '* <a href="https://example.org/b">Another link</a>'], []
    if kind == "bold-label":
        return ["**References:**"], []
    if kind == "mdx-import":
        return ["import Tabs from '@theme/Tabs';", "export const meta = {runs: [1, 2]};", one], [one]
    if kind == "jsx-tabs":
        return ['<Tabs groupId="client">', '  <TabItem value="py" label="Python">', "", one, "", "  </TabItem>",
                "  <Chart data={{runs: [1, 2]}} />", "</Tabs>"], [one]
    if kind == "mdx-comment":
        return ["{/* a note for the authors */}", "", one], [one]
    if kind == "shortcode-pair":
        opener, closer = draw(st.sampled_from([("{{% notice tip %}}", "{{% /notice %}}"),
                                               ('{% hint style="info" %}', "{% endhint %}"),
                                               ('{{< details "Why" >}}', "{{< /details >}}")]))
        return [opener, one, closer, two], [one, two]
    if kind == "liquid-glued":
        return ["{% include toc.html %}", one, '{{< figure src="a.png" caption="Recall at ten." >}}'], [one]
    if kind == "callout":
        marker = draw(st.sampled_from(["> [!tip]- Faster builds", "> [!IMPORTANT]", "> [!example] Worked run"]))
        return [marker, f"> {one}"], [one]
    if kind == "kramdown-toc":
        return ["* TOC", "{:toc}"], []
    if kind == "emoji":
        return [":rocket: :tada:"], []
    if kind == "definition":
        return ["Recall", f": {one}"], [one]
    if kind == "reference-glued":
        return [one, "[bm25]: https://example.org/bm25 \"BM25\""], [one]
    if kind == "media":
        return ['<video controls src="demo.mp4">Your browser does not support the video tag.</video>'], []
    if kind == "toc-marker":
        return [draw(st.sampled_from(["[TOC]", "[[_TOC_]]", "[[toc]]"]))], []
    if kind == "chrome":
        return [draw(st.sampled_from(["On this page", "Edit this page", "Was this page helpful?",
                                      "Last updated on Mar 3, 2024", "Docs / Guides / Evaluation"]))], []
    if kind == "asciidoc":
        return ["[NOTE]", "====", one, "===="], [one]
    if kind == "figure-attributes":
        return ["![Recall by depth.](recall.png){#fig-recall width=80%}"], []
    if kind == "footnote-unreferenced":  # the footnote plugin dropped a definition nothing refers to
        return [f"[^{draw(st.integers(1, 9))}x]: {one}"], [one]
    if kind == "tabitem-lines":
        return ["<Tabs>", f'  <TabItem value="a">{one}</TabItem>', f'  <TabItem value="b">{two}</TabItem>', "</Tabs>"], \
            [one, two]
    if kind == "template-code":
        return ["{% highlight python %}", "x = run(1). Then y = 2", "{% endhighlight %}"], []
    if kind == "eval-rst":
        return ["```{eval-rst}", ".. note::", "", f"   {one}", "```"], [one]
    if kind == "rst-inline-note":
        return [f".. note:: {one}", f"   {two}"], [one, two]
    if kind == "simple-table":
        return ["Table: Recall at two depths.", "", " Depth   Recall", "------  -------", "    10     0.41",
                "   100     0.78"], []
    if kind == "mdx-indented":
        return ['<Card title="Fast">', f"\t\t{one}", "</Card>"], [one]
    if kind == "task":
        return [f"- [x] {one}", f"- [ ] {two}"], [one, two]
    if kind == "rule":
        return [draw(st.sampled_from(["***", "- - -", "________"]))], []
    if kind == "tags":
        return ["#retrieval #bm25"], []
    if kind == "icon-title":
        return ["-   :material-clock-fast:{ .lg .middle } __Set up in minutes__", "", "    ---", "", f"    {one}"], [one]
    if kind == "attributes":
        return [one, "{ .annotate }"], [one]
    if kind == "link-enumeration":
        lead = one[:-1] + " in these parts:"
        return [lead, "", "* [Binary quantization](#bq)", "* [Product quantization](#pq)"], \
            [lead, "Binary quantization", "Product quantization"]
    if kind == "further-reading":
        # "*" bullets: a "-" list right after would be the same list in CommonMark
        return ["## Further reading", "", "* [Binary quantization](bq.md)", "* [Product quantization](pq.md)"], []
    if kind == "html-caption":
        return ['<div style="color:grey">Figure 2. Recall per depth. (a) Flat index.</div>'], []
    if kind == "html-link-bar":
        return ['<p align="center">', '  <a href="a">Learn more</a>', "  ·", '  <a href="b">Join us</a>', "</p>"], []
    if kind == "bold-item-lead":
        return [f"- Your **ranker**. {one}"], [f"Your ranker. {one}"]
    if kind == "block-chunk":
        return ['```{block, type = "rmdnote"}', one, "```"], [one]
    if kind == "legacy-alert":
        return ["> **Warning**", f"> {one}"], [one]
    return ["(sec-label)="], []


MARKUP = re.compile(r"```|:::|!!!|<div|<!--|</details|:begin_tab:|:end_tab:|\|---|\.\. note|\(sec-label\)=|\]\(|"
                    r"\[!NOTE\]|<a |References:|\{[{%/:#]|\[!|import |<[A-Z]|TOC|:rocket:|====|Recall :|browser|"
                    r"On this page|Edit this|helpful|Last updated|Guides|\]:|\[x\]|\[ \]|#bm25|material-|\{ \.|Depth")


def sentence_rows(document):
    return [r.text for r in claims_from_document(document) if r.kind != TABLE_VALUE]


@settings(max_examples=80, deadline=None)
@given(st.lists(piece(), min_size=1, max_size=8))
def test_markdown_rows_are_exactly_the_sentences_written(pieces):
    lines, expected = ["# Title", ""], []
    for piece_lines, piece_sentences in pieces:
        lines += piece_lines + [""]
        expected += piece_sentences
    text = "\n".join(lines)
    from audit.document import read_markdown

    rows = sentence_rows(read_markdown(text))
    assert rows == expected, text
    assert not [r for r in rows if MARKUP.search(r)]


@st.composite
def flat_piece(draw):
    kind = draw(st.sampled_from(["line", "table", "nav", "code", "formula-sentence", "glued-code", "titled",
                                 "question", "repeated", "items", "grid", "shell"]))
    one, two = draw(sentences), draw(sentences)
    # flattened headings of real pages (a heading glued to the first line after it), tables of
    # names and cells, shell lines, lists that lost their markers (branch tune-packs)
    if kind == "titled":
        return [f"Toolkit: Sparse Retrieval v2 for Passage Ranking {one} {two}"], [one, two]
    if kind == "question":
        return [f"Why fuse two runs? {one}"], [one]
    if kind == "repeated":
        return [f"Ranker Evaluation Ranker evaluation needs judged pools. {one}"],  \
            ["Ranker evaluation needs judged pools.", one]
    if kind == "items":
        lead = one[:-1] + " in these parts:"
        return [lead, "Fast index builds", "Small memory use"], [lead, "Fast index builds", "Small memory use"]
    if kind == "grid":
        return ["model params dev loss tiny 12M 3.41 small 50M 3.02 base 110M 2.80", two], [two]
    if kind == "shell":
        return ["bash scripts/run_all.sh --seed 3", one], [one]
    if kind == "line":
        return [f"{one} {two}"], [one, two]
    if kind == "table":
        return ["| Model | nDCG@10 |", "|---|---|", "| BM25 | 0.329 |", one], [one]
    if kind == "nav":
        return ["Overview · Results · Reproduction"], []
    if kind == "code":
        return ["pip install example-quant"], []
    if kind == "formula-sentence":
        return [f"N = 40 tasks were evaluated. {one}"], ["N = 40 tasks were evaluated.", one]
    return [f"Install it with: pip install example-quant"], ["Install it with:"]


@settings(max_examples=60, deadline=None)
@given(st.lists(flat_piece(), min_size=1, max_size=8))
def test_flattened_rows_are_exactly_the_sentences_written(pieces):
    lines, expected = [], []
    for piece_lines, piece_sentences in pieces:
        lines += piece_lines
        expected += piece_sentences
    lines.append("The page ends here with a last sentence.")
    expected.append("The page ends here with a last sentence.")
    text = "== 1. Identity ==\nBook: B\nChapter: C\n\n== 2. Chapter text ==\n" + "\n".join(lines) + "\n"
    document, rows, _ = claims_for_pack(parse_pack(text, source_path="page.txt"))
    assert [r.text for r in rows if r.kind != TABLE_VALUE] == expected, text


# ---------------------------------------------------------------------------------------------
# Every fixture of the repository and the seeds.

def _norm_words(text: str) -> list[str]:
    return re.findall(r"[0-9a-z]+", unicodedata.normalize("NFKC", text).lower())


def _shingles(words: list[str]) -> set[str]:
    return {" ".join(words[i:i + 3]) for i in range(max(len(words) - 2, 1))}


def crude_sentences(text: str, first_line: int) -> list[tuple[int, str]]:
    """The sentences of prose_coverage.py's reader (inline tags removed), each with its file line."""
    out, fence = [], False
    for number, line in enumerate(text.split("\n"), start=first_line):
        s = line.strip()
        if s.startswith(("```", "~~~")):
            fence = not fence
            continue
        if fence or not s or s.startswith(("|", "#", "<", "[...", "$$", ">")) or re.fullmatch(r"[-*+\d.)\s]+", s):
            continue
        s = re.sub(r"^([-*+]|\d+[.)])\s+", "", s)
        s = re.sub(r"<[^>]+>", "", s)  # inline tags are no sentence text
        for sentence in re.split(r"(?<=[.?!])\s+(?=[A-Z])", s):
            if len(re.sub(r"[^0-9a-z]+", "", sentence.lower())) >= 20:
                out.append((number, sentence))
    return out


def fixture_paths() -> list[Path]:
    paths = [p for folder in ("consistency", "labelled", "packs", "report", "results", "reader")
             for p in sorted((REPO / "tests" / "data" / folder).glob("*")) if p.suffix in (".md", ".txt")]
    return paths + sorted((REPO / "audit" / "examples").glob("*.txt"))


SEEDS = ["000_6e3ecf25d835ddc8.txt", "001_ebef38b6bd9f9237.txt", "002_1cad392b6b549eb0.txt",
         "003_d45880e96e7ee920.txt"]


def check_nothing_dropped(path: Path) -> None:
    pack = load_pack(path)
    document, rows, _ = claims_for_pack(pack)
    held: dict[int, set[str]] = {}
    for row in rows:
        if row.kind != TABLE_VALUE:
            held.setdefault(row.line, set()).update(_shingles(_norm_words(row.text)))
    seen: dict[tuple[int, str], int] = {}
    for row in rows:
        if row.kind != TABLE_VALUE:
            seen[(row.line, row.claim_id)] = seen.get((row.line, row.claim_id), 0) + 1
    assert all(n == 1 for n in seen.values())  # no sentence read twice
    for line, sentence in crude_sentences(pack.chapter_text, pack.chapter_text_line):
        covering = [b for b in document.blocks if b.line <= line <= b.end_line]
        assert covering, f"{path}:{line}: no block holds {sentence!r}"
        shingles = _shingles(_norm_words(sentence))
        have = set().union(*(held.get(n, set()) for b in covering if b.is_prose  # a row's line is its sentence's
                             for n in range(b.line, b.end_line + 1)))
        # a table or an HTML block is no report: a GFM table swallowing the line under it, or an
        # HTML block holding a paragraph, is exactly how sentences were lost
        # (a table recovered from a flattened line is a report: the crude reader glues its cells)
        reported = any(not b.is_prose and (b.kind not in ("table", "html") or b.recovered) for b in covering)
        assert len(shingles & have) >= 0.5 * len(shingles) or reported, f"{path}:{line}: {sentence!r} dropped"


@pytest.mark.parametrize("path", fixture_paths(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_fixture_drops_a_sentence(path):
    check_nothing_dropped(path)


@pytest.mark.parametrize("name", SEEDS)
def test_no_seed_drops_a_sentence(name):
    check_nothing_dropped(seed(name))


def test_seed_000_keeps_every_sentence_under_its_tables():
    _, rows, _ = claims_for_pack(load_pack(seed(SEEDS[0])))
    prose = [r for r in rows if r.kind != TABLE_VALUE]
    texts = [r.text for r in prose]
    assert texts.count("Coverage uses all prewritten requirements as denominator.") == 3
    assert texts.count("10,000 paired task bootstrap draws, seed 129300.") == 3
    assert [r.line for r in prose if r.text.startswith("Coverage uses all")] == [18, 31, 44]
    assert len(prose) == 174 and len(rows) - len(prose) == 158


def test_long_space_runs_read_like_short_ones():
    """Every line rule of the readers is linear on a run of 100,000 spaces (a quadratic split took
    190 s on one such line): the hostile lines read as their short forms do."""
    from audit.document import looks_like_markdown, read_markdown
    from audit.flattened import read_flattened

    read = []
    for gap in (" ", " " * 100_000):
        lines = ["| a | b |", f"{gap}x", f"!!! note{gap}x", f":::{gap}{{x}}", f"..{gap}y", f"Home{gap}·{gap}Docs z."]
        text = "\n".join(lines) + "\n"
        assert not looks_like_markdown(text)
        read.append(([(b.line, b.kind) for b in read_flattened(text).blocks],
                     [(b.line, b.kind) for b in read_markdown(text).blocks]))
    assert read[0] == read[1]
    assert read[0][0] == [(1, "navigation"), (2, "markup"), (3, "paragraph"), (4, "markup"), (5, "paragraph"),
                          (6, "paragraph")]  # line 4, ":::   {x}", is a Pandoc div fence (branch tune-packs)
