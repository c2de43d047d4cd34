"""Claim rows: sentence splitting, quantities, kinds, cited names, output formats."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from audit.pack import load_pack
from claims.extract import extract_claims, split_sentences
from reports.claims_table import format_claims
from claims.quantities import find_quantities
from reports.escape import escape_cell

from support import seed

REPO = Path(__file__).resolve().parents[1]
PACKS = REPO / "tests" / "data" / "packs"




@pytest.fixture
def seed_rows():
    return extract_claims(load_pack(seed("002_1cad392b6b549eb0.txt")))


def by_id(rows):
    return {row.claim_id: row for row in rows}


def test_seed_row_counts_and_ids(seed_rows):
    # Before issue 9 the seed gave 53 sentence rows, three of which glued a heading to a sentence,
    # one the flattened selector table plus a sentence, one the MMR formula plus a sentence, and
    # one a bare table-header fragment. Now: 52 prose rows and 5 table-value rows.
    prose = [r for r in seed_rows if r.kind != "table value"]
    assert (len(prose), len(seed_rows)) == (52, 57)
    assert prose[0].claim_id == "C-001-01"
    assert prose[-1].claim_id == "C-014-01"
    assert prose[-1].text == "The external whole-document results are severe:"
    assert [r.claim_id for r in prose] == sorted(r.claim_id for r in prose)
    row = by_id(seed_rows)["C-003-02"]
    assert (row.paragraph, row.sentence, row.location) == (3, 2, "paragraph 3, sentence 2")
    assert row.text == "Three short blocks, however, can contain far less text than three long sections."
    assert row.section == ("State the resource before comparing methods",)
    assert row.where == "section: State the resource before comparing methods; paragraph 3, sentence 2"


def test_seed_headings_tables_and_formula_are_not_merged(seed_rows):
    rows = by_id(seed_rows)
    assert rows["C-003-01"].text == "Part II compared systems that returned three units per query."
    assert rows["C-009-01"].text.startswith("Even when several units fit,")
    assert rows["C-009-01"].section == ("Separate redundancy from relevance",)
    assert rows["C-014-01"].section == ("Observe the price of the cap",)
    assert rows["C-006-01"].text.startswith("The allowance is measured in Unicode codepoints")
    assert rows["C-011-01"].text == "Before anything has been selected, the redundancy penalty is zero."
    for marker in ("State the resource", "Separate redundancy", "Observe the price", "Selector", "marginal ="):
        assert not any(marker in r.text for r in seed_rows if r.kind != "table value"), marker
    values = [(r.claim_id, r.text, r.kind) for r in seed_rows if r.kind == "table value"]
    assert values == [
        ("T-1-R01-C02", "T-1 · Count · Unit cap = 3", "table value"),
        ("T-1-R02-C02", "T-1 · Characters · Unit cap = 3", "table value"),
        ("T-1-R02-C03", "T-1 · Characters · Content cap = 1,200 characters", "table value"),
        ("T-1-R03-C02", "T-1 · MMR · Unit cap = 3", "table value"),
        ("T-1-R03-C03", "T-1 · MMR · Content cap = 1,200 characters", "table value"),
    ]
    cell = rows["T-1-R03-C03"]
    assert (cell.table, cell.row_label, cell.column, cell.line) == ("T-1", "MMR", "Content cap", 23)
    start, end = cell.quantities[0].span
    assert cell.text[start:end] == "1,200 characters" and cell.quantities[0].value == 1200.0
    # an identifier is not a result: "claim 1337" no longer makes C-001-01 a measured result
    assert rows["C-001-01"].kind == "method or definition"
    assert [(q.text, q.role) for q in rows["C-001-01"].quantities] == [("1337", "identifier")]


def test_seed_measured_result_with_characters(seed_rows):
    row = by_id(seed_rows)["C-001-03"]
    assert row.text.startswith("Its title-and-abstract text contains 1,298 characters")
    assert row.kind == "measured result"
    assert [(q.text, q.value, q.unit, q.decimals) for q in row.quantities] == [
        ("1,298 characters", 1298.0, "characters", 0),
        ("1,200-character", 1200.0, "character", 0),
        ("1,108-character", 1108.0, "character", 0),
    ]
    start, end = row.quantities[0].span
    assert row.text[start:end] == "1,298 characters"


def test_seed_attribution_and_decimals(seed_rows):
    rows = by_id(seed_rows)
    carbonell = rows["C-010-01"]
    assert carbonell.text.startswith("Carbonell and Goldstein’s MMR work motivates")
    assert carbonell.kind == "attribution"
    assert carbonell.cited_names == ["Carbonell and Goldstein", "MMR"]
    weights = rows["C-012-03"]
    assert weights.text.startswith("The .7 relevance weight and .3 redundancy weight")
    assert [(q.text, q.value, q.decimals) for q in weights.quantities] == [(".7", 0.7, 1), (".3", 0.3, 1)]
    assert rows["C-004-05"].text == "That comparison remains not measured."
    assert rows["C-004-05"].kind == "scope or limitation"
    assert rows["C-004-03"].cited_names == ["SciFact"]


def test_ids_stable_across_runs(seed_rows):
    again = extract_claims(load_pack(seed("002_1cad392b6b549eb0.txt")))
    assert [r.as_dict() for r in again] == [r.as_dict() for r in seed_rows]
    assert format_claims(again, "json") == format_claims(seed_rows, "json")


def test_sentence_splitter_rules():
    text = ("Santos et al. proposed xQuAD, e.g. for aspects. Rho was 0.888889 vs. 0.7 in J. Smith’s run. "
            "It costs 1,298 characters! Does .7 help? Yes.")
    assert split_sentences(text) == [
        "Santos et al. proposed xQuAD, e.g. for aspects.",
        "Rho was 0.888889 vs. 0.7 in J. Smith’s run.",
        "It costs 1,298 characters!",
        "Does .7 help?",
        "Yes.",
    ]


def test_quantity_grammar():
    quantities = find_quantities("Coverage rose from 2/4 to 83.3% (0.888889) in R02 and final36, -0.0878.")
    assert [(q.text, q.value, q.unit, q.decimals, q.is_percent) for q in quantities] == [
        ("2/4", 0.5, None, 0, False),
        ("83.3%", 83.3, "%", 1, True),
        ("0.888889", 0.888889, None, 6, False),
        ("-0.0878", -0.0878, None, 4, False),
    ]
    assert (quantities[0].numerator, quantities[0].denominator) == (2, 4)


def test_kinds_and_names_on_own_pack():
    rows = extract_claims(load_pack(PACKS / "full_pack.txt"))
    assert [(r.claim_id, r.kind) for r in rows] == [
        ("C-001-01", "method or definition"),
        ("C-002-01", "attribution"),
        ("C-002-02", "measured result"),
        ("C-003-01", "recommendation"),
        ("C-003-02", "scope or limitation"),
    ]
    assert rows[1].cited_names == ["Smith et al.", "Jones and Brown"]
    assert rows[0].text == ("The budget was fixed at 800 characters before any run, "
                            "e.g. before the final sample was opened.")


def test_markdown_snapshot_uses_blank_line_paragraphs():
    rows = extract_claims(load_pack(PACKS / "snapshot.md"))
    assert [(r.claim_id, r.text) for r in rows] == [
        ("C-001-01", "The budget was fixed at 800 characters."),
        ("C-001-02", "It applies to every selector."),
        ("C-002-01", "A second paragraph does not cover tokens."),
    ]


def test_escape_cell():
    assert escape_cell("a|b") == "a\\|b"
    assert escape_cell("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert escape_cell("x & y\\") == "x &amp; y\\\\"
    assert escape_cell("one\r\ntwo\nthree") == "one two three"


def test_markdown_table_cannot_be_broken(tmp_path, cli):
    pack = tmp_path / "nasty.txt"
    pack.write_text("== 1. Chapter text ==\nA | pipe and <script>alert(1)</script> here. "
                    "Back\\slash | end.\n", encoding="utf-8")
    result = cli("claims", pack, "--format", "md")
    assert result.exit_code == 0
    assert "<script>" not in result.output
    tokens = MarkdownIt("commonmark").enable("table").parse(result.output)
    cells = [t.content for t in tokens if t.type == "inline"]
    assert len(cells) == 6 * 3  # header + two rows, six columns each
    assert cells[6 + 3] == "A | pipe and &lt;script&gt;alert(1)&lt;/script&gt; here."
    assert cells[12 + 3] == "Back\\\\slash | end."
    html = MarkdownIt("commonmark").enable("table").render(result.output)
    assert "<script>" not in html and "Back\\slash | end." in html


def test_claims_formats_and_refusal(tmp_path, cli, runner):
    from audit.cli import app

    pack = PACKS / "full_pack.txt"
    out = tmp_path / "claims.json"
    assert cli("claims", pack, "--format", "json", "--output", out).exit_code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data[2]["claim_id"] == "C-002-02"
    assert data[2]["quantities"][1]["text"] == "2/4 tasks"
    assert data[2]["quantities"][1]["denominator"] == 4
    refused = runner.invoke(app, ["claims", str(pack), "--format", "csv", "--output", str(out)])
    assert refused.exit_code == 3
    assert "refusing to overwrite" in refused.output
    assert json.loads(out.read_text(encoding="utf-8")) == data  # untouched
    assert cli("claims", pack, "--format", "csv", "--output", out, "--force").exit_code == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert rows[1]["cited_names"] == "Smith et al.; Jones and Brown"
    assert rows[2]["quantities"] == "0.812; 2/4 tasks"
    bad = runner.invoke(app, ["claims", str(pack), "--format", "xml"])
    assert bad.exit_code == 2


def test_by_pair_and_latin1_names_are_attributions():
    from claims.extract import cited_names, classify

    names, person = cited_names("We report NDCG as defined by Järvelin and Kekäläinen.")
    assert names == ["NDCG", "Järvelin and Kekäläinen"] and person
    names, person = cited_names("BM25 with k1 = 1.2, as popularised by Robertson and Zaragoza.")
    assert names == ["Robertson and Zaragoza"] and person
    assert classify("BM25 with k1 = 1.2, as popularised by Robertson and Zaragoza.", [], True)[0] == "attribution"
    # a pair that is not introduced as a source stays unattributed
    assert cited_names("Bread and Butter are sold here.") == ([], False)


def test_markdown_headings_are_not_claim_rows(tmp_path):
    snapshot = tmp_path / "chapter.md"
    snapshot.write_text("# Chapter 4\n\nFirst paragraph, one sentence.\n## Part two\nSecond block here.\n",
                        encoding="utf-8")
    rows = extract_claims(load_pack(snapshot))
    assert [(r.claim_id, r.text) for r in rows] == [("C-001-01", "First paragraph, one sentence."),
                                                    ("C-002-01", "Second block here.")]
