"""HTML ``<table>`` elements in a Markdown chapter are read as tables (audit/htmltable.py).

Each case is hand-written in a shape real pages use (a docs site, pandas ``to_html``, nbconvert,
knitr ``kable(format="html")``, a GitHub README); the expected cells are what a browser shows.
"""

from __future__ import annotations

from audit.document import read_markdown
from audit.htmltable import read_html_tables
from claims.extract import TABLE_VALUE, claims_from_document


def _tables(text: str):
    return read_markdown(text).tables()


def test_th_header_and_td_rows_with_file_lines_and_the_paragraph_before_as_caption() -> None:
    doc = read_markdown("# Results\n\nTable 1 lists the runs.\n\n<table>\n<tr><th>System</th><th>nDCG@3</th></tr>\n"
                        "<tr><td>BM25</td><td>0.892</td></tr>\n</table>\n\nAfter the table the text goes on here.\n")
    [table] = doc.tables()
    assert (table.line, table.end_line, table.section) == (5, 8, ("Results",))
    assert table.caption == "Table 1 lists the runs."
    assert table.header == ("System", "nDCG@3") and table.rows == (("BM25", "0.892"),)
    assert [b.text for b in doc.prose_blocks()] == ["Table 1 lists the runs.", "After the table the text goes on here."]


def test_thead_tbody_tfoot_caption_attributes_entities_and_inline_tags() -> None:
    [table] = _tables('<table class="results" border="1">\n  <caption>Recall &amp; <b>nDCG</b></caption>\n'
                      '  <thead><tr><th align="left">Model</th><th>R@10</th></tr></thead>\n'
                      '  <tfoot><tr><td>Mean</td><td>0.50</td></tr></tfoot>\n'
                      '  <tbody>\n    <tr><td><a href="x"><code>e5&#8209;base</code></a></td><td><strong>0.61</strong>'
                      '<sup>*</sup></td></tr>\n'
                      '    <tr><td>BM25&nbsp;(k1=0.9)</td><td>0.39</td></tr>\n  </tbody>\n</table>\n')
    assert table.caption == "Recall & nDCG"
    assert table.header == ("Model", "R@10")
    # tfoot written first is rendered last; &#8209; is a non-breaking hyphen, &nbsp; a space
    assert table.rows == (("e5\u2011base", "0.61*"), ("BM25 (k1=0.9)", "0.39"), ("Mean", "0.50"))


def test_a_first_row_of_td_is_the_header_and_br_is_a_line_break_in_a_cell() -> None:
    [table] = _tables("<table>\n<tr><td>Run</td><td>Notes</td></tr>\n<tr><td>A</td><td>fast<br>0.3 s<br/>warm</td></tr>\n"
                      "</table>\n")
    assert table.header == ("Run", "Notes") and table.rows == (("A", "fast\n0.3 s\nwarm"),)


def test_colspan_header_gives_group_prefixed_names_and_rowspan_is_expanded() -> None:
    """Model spans both header rows; BEIR spans nDCG and Recall. In the body the row label BM25
    spans two rows (the second row's label cell is '', as a pipe table writes a row span) and a
    group row spans every column."""
    [table] = _tables("<table>\n<thead>\n<tr><th rowspan=\"2\">Model</th><th colspan=\"2\">BEIR</th><th>MS MARCO</th></tr>\n"
                      "<tr><th>nDCG</th><th>Recall</th><th>MRR</th></tr>\n</thead>\n<tbody>\n"
                      "<tr><td colspan=\"4\">Sparse</td></tr>\n"
                      "<tr><td rowspan=\"2\">BM25</td><td>0.43</td><td>0.60</td><td>0.18</td></tr>\n"
                      "<tr><td>0.44</td><td>0.61</td><td>0.19</td></tr>\n</tbody>\n</table>\n")
    assert table.header == ("Model", "BEIR › nDCG", "BEIR › Recall", "MS MARCO › MRR")
    assert table.rows == (("Sparse", "", "", ""), ("BM25", "0.43", "0.60", "0.18"), ("", "0.44", "0.61", "0.19"))


def test_a_rowspan_stops_at_the_end_of_its_row_group_and_zero_runs_to_it() -> None:
    [table] = _tables("<table><thead><tr><th>k</th><th>v</th></tr></thead>\n"
                      "<tbody><tr><td rowspan=\"0\">a</td><td>1</td></tr><tr><td>2</td></tr></tbody>\n"
                      "<tbody><tr><td rowspan=\"9\">b</td><td>3</td></tr></tbody></table>\n")
    assert table.rows == (("a", "1"), ("", "2"), ("b", "3"))


def test_pandas_to_html_with_its_index_column_and_index_name_row() -> None:
    html = ('<table border="1" class="dataframe">\n  <thead>\n    <tr style="text-align: right;">\n      <th></th>\n'
            '      <th>ndcg@10</th>\n      <th>recall@100</th>\n    </tr>\n    <tr>\n      <th>model</th>\n      <th></th>\n'
            '      <th></th>\n    </tr>\n  </thead>\n  <tbody>\n    <tr>\n      <th>bm25</th>\n      <td>0.329</td>\n'
            '      <td>0.658</td>\n    </tr>\n    <tr>\n      <th>e5</th>\n      <td>0.474</td>\n      <td>0.801</td>\n'
            '    </tr>\n  </tbody>\n</table>\n')
    [table] = _tables(html)
    assert (table.line, table.end_line) == (1, 26)
    assert table.header == ("model", "ndcg@10", "recall@100")
    assert table.rows == (("bm25", "0.329", "0.658"), ("e5", "0.474", "0.801"))


def test_nbconvert_dataframe_in_a_div_with_a_style_and_prose_around_it_in_the_same_block() -> None:
    text = ("<div>\n<style scoped>\n    .dataframe tbody tr th { vertical-align: top; }\n</style>\n"
            "<p>The runs we kept for the final comparison are below.</p>\n"
            "<table class=\"dataframe\"><thead><tr><th></th><th>p</th></tr></thead>\n"
            "<tbody><tr><th>0</th><td>0.04</td></tr></tbody></table>\n"
            "<p>Only one run passed the significance test at all.</p>\n</div>\n")
    doc = read_markdown(text)
    [table] = doc.tables()
    assert (table.line, table.end_line, table.header, table.rows) == (6, 7, ("", "p"), (("0", "0.04"),))
    assert [(b.text, b.line) for b in doc.prose_blocks()] == [
        ("The runs we kept for the final comparison are below.", 5),
        ("Only one run passed the significance test at all.", 8)]


def test_several_tables_in_one_block_each_read_with_its_own_lines_and_caption() -> None:
    text = ("Two tables follow in one block.\n\n<table><tr><th>a</th></tr><tr><td>1</td></tr></table>\n"
            "<table><caption>Second</caption><tr><th>b</th></tr>\n<tr><td>2</td></tr>\n</table>\n")
    first, second = _tables(text)
    assert (first.line, first.end_line, first.caption, first.rows) == (3, 3, "Two tables follow in one block.", (("1",),))
    assert (second.line, second.end_line, second.caption, second.rows) == (4, 6, "Second", (("2",),))


def test_knitr_kable_html_with_unclosed_cells_and_rows() -> None:
    """Optional end tags: HTML closes a ``<td>`` at the next cell and a ``<tr>`` at the next row."""
    [table] = _tables('<table class="table" style="width: auto !important;">\n<thead>\n<tr>\n<th style="text-align:left;">'
                      ' Run </th>\n<th style="text-align:right;"> MAP </th>\n</tr>\n</thead>\n<tbody>\n'
                      '<tr><td> A <td> 0.31\n<tr><td> B <td> 0.27\n</tbody>\n</table>\n')
    assert table.header == ("Run", "MAP") and table.rows == (("A", "0.31"), ("B", "0.27"))


def test_nested_tags_in_a_cell_and_a_nested_table_is_read_alone() -> None:
    [table] = _tables("<table><tr><th>Model</th><th>Score</th></tr>\n"
                      "<tr><td><div><p><em>Dense</em> <span>v2</span></p></div></td><td><b><i>0.70</i></b></td></tr>\n"
                      "</table>\n")
    assert table.rows == (("Dense v2", "0.70"),)
    outer_and_inner = ("<table><tr><th>Outer</th></tr><tr><td>\n<table><tr><th>x</th></tr><tr><td>5</td></tr></table>\n"
                       "</td></tr></table>\n")
    [inner] = _tables(outer_and_inner)  # the outer table's cell is a table: the outer one is left as markup
    assert (inner.header, inner.rows, inner.line) == (("x",), (("5",),), 2)


def test_malformed_tables_are_left_as_markup_never_a_guessed_cell() -> None:
    assert _tables("<table>\n<tr><th>a</th><th>b</th></tr>\n<tr><td>1</td><td>2</td></tr>\n") == []  # never closed
    assert _tables("<table><tr><th>a</th></tr><tr><td>1</td><td>2</td></tr></table>\n") == []  # row wider than header
    assert _tables("<table></table>\n") == []
    assert _tables(f"<table><tr><th colspan=\"1000\">a</th><th colspan=\"9\">b</th></tr></table>\n") == []
    # a shorter row is what a browser shows: its cells left-aligned, the rest empty
    [short] = _tables("<table><tr><th>a</th><th>b</th></tr><tr><td>1</td></tr></table>\n")
    assert short.rows == (("1", ""),)
    assert read_html_tables("<table><tr><td>x</td></tr></table") == []  # a cut end tag: no table
    assert read_html_tables("<table colspan=x><tr><td colspan=\"-3\">x<td rowspan=abc>y</table>") == [
        read_html_tables("<table><tr><td>x<td>y</table>")[0]]


def test_an_html_table_gives_table_value_rows() -> None:
    doc = read_markdown("<table>\n<tr><th>System</th><th>nDCG@3</th></tr>\n<tr><td>Hybrid</td><td>0.892</td></tr>\n"
                        "</table>\n")
    rows = [r for r in claims_from_document(doc) if r.kind == TABLE_VALUE]
    assert [(r.claim_id, r.text, r.line) for r in rows] == [("T-1-R01-C02", "T-1 · Hybrid · nDCG@3 = 0.892", 1)]


def test_spans_that_would_fill_millions_of_cells_are_no_table() -> None:
    """A header of 1000 columns over 3000 rows each spanning 65534 rows × 1000 columns: the spans
    would place 3 × 10^9 cells (clipped to the table: 3 × 10^6), over the million cap, so the
    table is left as markup instead of filling memory."""
    bomb = "<table><tr><th colspan=1000>x</th></tr>" + "<tr><td rowspan=65534 colspan=1000>y</td></tr>" * 3000 + "</table>"
    assert read_html_tables(bomb) == []


def test_consistency_reads_html_tables_in_file_lines_with_their_section_and_caption() -> None:
    from claims.consistency.tables import read_tables

    text = ("# Results\n\nThe runs below.\n\n| a | b |\n|---|---|\n| x | 1 |\n\nThen the HTML one.\n\n"
            "<div>\n<table><caption>Second</caption>\n<tr><th>c</th><th>d</th></tr>\n<tr><td>y</td><td>2</td></tr>\n"
            "</table>\n</div>\n\n```html\n<table><tr><th>e</th></tr><tr><td>3</td></tr></table>\n```\n")
    pipe, html = read_tables(text, offset=10)
    assert (pipe.line, pipe.header) == (15, ("a", "b"))
    assert (html.line, html.end_line, html.section, html.caption, html.header, html.rows) == (
        22, 25, ("Results",), "Second", ("c", "d"), (("y", "2"),))
    untitled = read_tables(text.replace("<caption>Second</caption>", ""))[1]
    assert untitled.caption == ""  # the <div> line above the table is no caption
