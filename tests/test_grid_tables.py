"""Pandoc / Quarto / reStructuredText grid tables (``+---+`` borders) are read as tables
(audit/gridtable.py): header above ``+===+``, wrapped cells joined, a blank line in a cell a
line break, column spans, each row's line; the line after the table is prose; a grid table in
a code fence is code; a malformed one is left as it was. Expected values computed by hand."""

from __future__ import annotations

from audit.document import read_markdown
from claims.extract import claims_from_document
from claims.kinds import TABLE_VALUE

RESULTS = """# Results

Retrieval quality on BEIR:

+-----------+---------+-------------+
| Model     | nDCG@10 | Recall@100  |
| (retriever)         |             |
+===========+=========+=============+
| BM25      | 0.440   | 0.658       |
+-----------+---------+-------------+
| Contriever| 0.475   | 0.801       |
| (msmarco) |         |             |
+-----------+---------+-------------+
| `e5-base` |**0.502**| 0.843       |
+-----------+---------+-------------+
The dense models lead on every dataset.
"""


def _tables(text: str):
    return [b.table for b in read_markdown(text, "c.md").blocks if b.kind == "table"]


def test_a_grid_table_is_one_table_with_its_header_rows_and_lines() -> None:
    """Header: 'Model (retriever)' ('Model' and '(retriever)' joined across a span over the first
    two columns in line 6 — the span's text sits in its first cell, the covered cell is '') and
    'nDCG@10', 'Recall@100'. Contriever's cell wraps over lines 11–12: 'Contriever (msmarco)'.
    Body rows start on lines 9, 11 and 14; the table spans lines 5–15."""
    (table,) = _tables(RESULTS.replace("| Model     | nDCG@10 | Recall@100  |\n| (retriever)         |",
                                       "| Model     | nDCG@10 | Recall@100  |\n| (retriever)         |"))
    assert (table.line, table.end_line) == (5, 15)
    assert table.header == ("Model (retriever)", "nDCG@10", "Recall@100")
    assert table.rows == (("BM25", "0.440", "0.658"), ("Contriever (msmarco)", "0.475", "0.801"),
                          ("e5-base", "0.502", "0.843"))
    assert table.row_lines == (9, 11, 14)
    assert table.caption == "Retrieval quality on BEIR:"


def test_grid_table_cells_are_table_value_rows_and_the_line_after_is_prose() -> None:
    rows = claims_from_document(read_markdown(RESULTS, "c.md"))
    values = [(r.text, r.line) for r in rows if r.kind == TABLE_VALUE]
    assert values == [("T-1 · BM25 · nDCG@10 = 0.440", 9), ("T-1 · BM25 · Recall@100 = 0.658", 9),
                      ("T-1 · Contriever (msmarco) · nDCG@10 = 0.475", 11),
                      ("T-1 · Contriever (msmarco) · Recall@100 = 0.801", 11),
                      ("T-1 · e5-base · nDCG@10 = 0.502", 14), ("T-1 · e5-base · Recall@100 = 0.843", 14)]
    prose = [(r.text, r.line) for r in rows if r.kind != TABLE_VALUE]
    assert ("The dense models lead on every dataset.", 16) in prose
    assert not any("+---" in text or "|" in text for text, _ in prose)


def test_a_headerless_grid_table_takes_its_first_row_as_header_and_a_blank_cell_line_breaks() -> None:
    text = ("+------+-------+\n| k1   | 0.9   |\n+------+-------+\n| b    | 0.4   |\n|      |       |\n"
            "|      | (avg) |\n+------+-------+\n")
    (table,) = _tables(text)
    assert table.header == ("k1", "0.9")
    assert table.rows == (("b", "0.4\n(avg)"),)


def test_a_grid_table_in_a_code_fence_is_code_and_a_ragged_one_stays_as_written() -> None:
    fenced = "```\n+---+---+\n| a | 1 |\n+---+---+\n```\n"
    assert _tables(fenced) == []
    ragged = "+-----+-----+\n| a | 1 |\n+-----+-----+\n"
    assert _tables(ragged) == []


def test_an_rst_grid_table_reads_the_same() -> None:
    """docutils' grid table (the same border syntax, ``=`` header rule), indented in a list
    of at most three spaces."""
    text = ("Timings:\n\n+--------+--------+\n| Config | Time s |\n+========+========+\n| base   | 12.5   |\n"
            "+--------+--------+\n| large  | 31.0   |\n+--------+--------+\n")
    (table,) = _tables(text)
    assert table.header == ("Config", "Time s")
    assert table.rows == (("base", "12.5"), ("large", "31.0"))
    assert table.row_lines == (6, 8)


SIMPLE = """Timings:

=====  =========  ======
Model  Time (s)   Memory
=====  =========  ======
base   12.5       3.2
large  31.0       7.9
=====  =========  ======

The large model is slower.

  Model      nDCG@10   Recall
---------  ---------  -------
BM25         0.440      0.658
SPLADE       0.470      0.786

Done here.

Title
-----

Some text --- with dashes.
"""


def test_rst_and_pandoc_simple_tables_are_tables_and_a_setext_heading_stays_a_heading() -> None:
    """RST simple table (lines 3–8, rows on lines 6 and 7) and a Pandoc simple table (header line
    12 over its ``---------  ---------`` rule, rows 14–15, ending at the blank line; read by
    audit.sitemarkup as a pipe table, one row a line, so no row_lines); ``Title`` over
    a single ``-----`` run is a setext heading, not a table."""
    blocks = read_markdown(SIMPLE, "c.md").blocks
    tables = [b.table for b in blocks if b.kind == "table"]
    assert [(t.line, t.end_line, t.header, t.rows, t.row_lines) for t in tables] == [
        (3, 8, ("Model", "Time (s)", "Memory"), (("base", "12.5", "3.2"), ("large", "31.0", "7.9")), (6, 7)),
        (12, 15, ("Model", "nDCG@10", "Recall"), (("BM25", "0.440", "0.658"), ("SPLADE", "0.470", "0.786")), ())]
    assert ("heading", "Title") in [(b.kind, b.text) for b in blocks]
    prose = [(r.text, r.line) for r in claims_from_document(read_markdown(SIMPLE, "c.md")) if r.kind != TABLE_VALUE]
    assert ("The large model is slower.", 10) in prose and ("Done here.", 17) in prose
    assert not any("=====" in text or "0.440" in text for text, _ in prose)


def test_table_value_rows_of_an_rst_simple_table_are_on_their_lines() -> None:
    rows = claims_from_document(read_markdown(SIMPLE, "c.md"))
    assert [(r.text, r.line) for r in rows if r.kind == TABLE_VALUE][:3] == [
        ("T-1 · base · Time (s) = 12.5", 6), ("T-1 · base · Memory = 3.2", 6), ("T-1 · large · Time (s) = 31.0", 7)]
