"""Markers glued to table cell numbers keep the number's value (audit/cellmarks.py): a ``<sup>``
footnote or significance mark is no digit of the number (``0.97<sup>8</sup>`` is 0.97, never
0.978), ``10<sup>-4</sup>`` is a power of ten, a ``<sub>±…</sub>`` a spread; ``†``, ``*``, ``‡``,
bold and ``±`` cells keep their value. In HTML tables, Markdown pipe tables, flattened pipe tables
and grid tables. Expected values computed by hand."""

from __future__ import annotations

import pytest

from audit.cellmarks import marked
from audit.document import read_markdown
from audit.flattened import read_flattened
from audit.htmltable import read_html_tables
from claims.extract import claims_from_document
from claims.kinds import TABLE_VALUE


def _values(document) -> list[tuple[str, list[float]]]:
    return [(r.text, [q.value for q in r.quantities]) for r in claims_from_document(document)
            if r.kind == TABLE_VALUE]


@pytest.mark.parametrize(("tag", "inner", "before", "expected"), [
    ("sup", "8", "0.97", " ⁸"), ("sup", "†", "41.2", "†"), ("sup", "a,b", "3.1", " ᵃ,ᵇ"),
    ("sup", "-4", "3 × 10", "⁻⁴"), ("sup", "6", "10", "⁶"), ("sup", "6", "110", " ⁶"),
    ("sub", "±0.02", "0.81", " ±0.02"), ("sub", "2", "0.81", " ₂"), ("sup", "  ", "1", "")])
def test_marked_text(tag: str, inner: str, before: str, expected: str) -> None:
    assert marked(tag, inner, before) == expected


def test_an_html_cell_sup_is_a_marker_not_digits() -> None:
    html = ("<table><tr><th>Model</th><th>Acc</th><th>Params</th></tr>"
            "<tr><td>A</td><td>0.97<sup>8</sup></td><td>3 × 10<sup>9</sup></td></tr>"
            "<tr><td>B</td><td>0.81<sub>±0.02</sub></td><td>7<sup>†</sup></td></tr></table>")
    (table,) = read_html_tables(html)
    assert table.rows == (("A", "0.97 ⁸", "3 × 10⁹"), ("B", "0.81 ±0.02", "7†"))
    text = "# R\n\n" + html + "\n"
    assert _values(read_markdown(text, "c.md")) == [
        ("T-1 · A · Acc = 0.97 ⁸", [0.97]), ("T-1 · A · Params = 3 × 10⁹", [3e9]),
        ("T-1 · B · Acc = 0.81 ±0.02", [0.81, 0.02]), ("T-1 · B · Params = 7†", [7.0])]


def test_an_unclosed_sup_in_a_cell_does_not_reach_the_next_cell() -> None:
    (table,) = read_html_tables("<table><tr><th>a</th><th>b</th></tr><tr><td>1<sup>2</td><td>3</sup>4</td></tr>"
                                "</table>")
    assert table.rows == (("12", "34"),)


PIPE = """# Results

| Model | Acc | F1 | Std |
|---|---|---|---|
| A | 0.97<sup>8</sup> | 0.812† | 0.81 ± 0.02 |
| B | **0.91** | 41.2* | *0.55*‡ |
"""


def test_pipe_table_cells_keep_their_values_beside_markers() -> None:
    assert _values(read_markdown(PIPE, "c.md")) == [
        ("T-1 · A · Acc = 0.97 ⁸", [0.97]), ("T-1 · A · F1 = 0.812†", [0.812]),
        ("T-1 · A · Std = 0.81 ± 0.02", [0.81, 0.02]), ("T-1 · B · Acc = 0.91", [0.91]),
        ("T-1 · B · F1 = 41.2*", [41.2]), ("T-1 · B · Std = 0.55‡", [0.55])]


def test_a_flattened_pipe_table_reads_sup_and_formatting_tags() -> None:
    """In flattened text the cell's inline HTML was kept as written (``0.97<sup>8</sup>``, two
    numbers 0.97 and 8; ``<b>0.91</b>``); a tag-like token that is no formatting (``<unk>``) stays."""
    text = ("Results on the benchmark\n| Model | Acc |\n|---|---|\n| A | 0.97<sup>8</sup> |\n| B | <b>0.91</b> |\n"
            "| C | <unk> |\nThe second model is weaker than the first one overall.\n")
    document = read_flattened(text, "x.txt")
    (table,) = document.tables()
    assert table.rows == (("A", "0.97 ⁸"), ("B", "0.91"), ("C", "<unk>"))
    assert _values(document) == [("T-1 · A · Acc = 0.97 ⁸", [0.97]), ("T-1 · B · Acc = 0.91", [0.91])]


def test_a_grid_table_cell_sup_is_a_marker() -> None:
    text = "+-------+------------------+\n| Model | Acc              |\n+=======+==================+\n" \
           "| A     | 0.97<sup>8</sup> |\n+-------+------------------+\n"
    assert _values(read_markdown(text, "c.md")) == [("T-1 · A · Acc = 0.97 ⁸", [0.97])]


def test_a_prose_line_with_a_tab_after_a_copied_table_is_prose() -> None:
    """A table copied from a browser (tab-separated) with no blank line after it: the next line
    ``Note<TAB>the times are averaged over 3 runs.`` is one cell short of the header and its last
    cell reads as a sentence, so it is prose (line 4), not a third row; body rows keep their own
    lines (2 and 3)."""
    text = ("Method\tTime (s)\tMemory\nFull\t12.5\t3.2 GB\nLoRA\t4.1\t1.1 GB\n"
            "Note\tthe times are averaged over 3 runs.\nLoRA is 3 times faster than full fine-tuning.\n")
    document = read_flattened(text, "x.txt")
    (table,) = document.tables()
    assert table.rows == (("Full", "12.5", "3.2 GB"), ("LoRA", "4.1", "1.1 GB"))
    rows = claims_from_document(document)
    assert [(r.text, r.line) for r in rows if r.kind == TABLE_VALUE] == [
        ("T-1 · Full · Time (s) = 12.5", 2), ("T-1 · Full · Memory = 3.2 GB", 2),
        ("T-1 · LoRA · Time (s) = 4.1", 3), ("T-1 · LoRA · Memory = 1.1 GB", 3)]
    assert [r.line for r in rows if r.kind != TABLE_VALUE] == [4, 5]


def test_a_space_separated_copied_table_ends_at_the_sentence_under_it() -> None:
    text = ("Retrieval results (nDCG@10)\nModel  NQ  HotpotQA  FiQA\nBM25  32.9  60.3  23.6\n"
            "Contriever  49.8  63.8  32.9\nContriever is better on all three datasets by a wide margin.\n")
    document = read_flattened(text, "x.txt")
    (table,) = document.tables()
    assert table.header == ("Model", "NQ", "HotpotQA", "FiQA")
    assert table.rows == (("BM25", "32.9", "60.3", "23.6"), ("Contriever", "49.8", "63.8", "32.9"))
    prose = [(r.text, r.line) for r in claims_from_document(document) if r.kind != TABLE_VALUE]
    assert prose == [("Contriever is better on all three datasets by a wide margin.", 5)]
