"""Pack parsing: seed 002 (every identity field, sections, lists) and our own small packs."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.pack import load_pack, parse_pack
from engine.runs.errors import InputError

from support import seed

REPO = Path(__file__).resolve().parents[1]
PACKS = REPO / "tests" / "data" / "packs"




SEED_PACK = "002_1cad392b6b549eb0.txt"


def test_seed_identity_every_field():
    pack = load_pack(seed(SEED_PACK))
    identity = pack.identity
    assert identity.book == "Retrieval From First Principles"
    assert identity.chapter == "Diversity, Coverage, and Evidence Budgets"
    assert identity.chapter_number == "15"
    assert identity.stable_id == "retrieval-15-chapter"
    assert identity.chapter_url == "https://programmer.ie/books/retrieval/15-chapter/"
    assert identity.research_pack_url == "https://programmer.ie/research/books/retrieval/15-chapter/"
    assert identity.fingerprint == "44367523ed590b7e64a5dee9ef3dbfbc7b35b9b892d29dd58de37cd99564356e"
    assert dict(pack.identity_extra) == {}
    assert pack.is_excerpt is True
    assert pack.snapshot_url == ("https://programmer.ie/research/books/retrieval/15-chapter/"
                                 "chapter-snapshot.txt")
    assert pack.preamble.startswith("You are researching one chapter of an open technical book")
    assert len(pack.source_sha256) == 64


def test_seed_chapter_text_excludes_excerpt_marker():
    pack = load_pack(seed(SEED_PACK))
    assert pack.chapter_text.startswith("For SciFact claim 1337, the annotated positive document")
    assert pack.chapter_text.endswith("Selector Mean units Mean characters Maximum")
    assert "end of excerpt" not in pack.chapter_text
    assert len(pack.chapter_text.split("\n")) == 15
    assert pack.chapter_text_line == 18


def test_seed_lists_and_sections():
    pack = load_pack(seed(SEED_PACK))
    assert [c.url for c in pack.candidate_sources] == [
        "https://doi.org/10.1145/290941.291025",
        "https://doi.org/10.1145/1645953.1646012",
        "https://arxiv.org/abs/2212.10496",
        "https://github.com/castorini/pyserini",
        "https://arxiv.org/abs/2309.15217",
    ]
    assert pack.candidate_sources[0].description.startswith("Carbonell and Goldstein's MMR")
    assert pack.candidate_sources[0].line == 43
    assert len(pack.questions) == 5
    assert pack.questions[1] == "What diversity mechanisms (MMR, xQuAD) suit which retrieval objectives?"
    assert pack.unresolved_gaps == [
        "No measurement of diversity effects on the book's task outcomes.",
        "Budget accounting is specified but not audited end-to-end.",
    ]
    assert pack.objective.startswith("Decide whether chapter 15 still separates redundancy")
    assert len(pack.associated_material) == 1
    item = pack.associated_material[0]
    assert item.label == "Colab notebook"
    assert item.url == ("https://colab.research.google.com/github/ernanhughes/programmer.ie.notebooks/"
                        "blob/main/notebooks/retrieval/15-chapter.ipynb")
    assert item.note.startswith("The notebook exists in the published inventory.")
    assert [h.title for h in pack.required_headings] == [
        "Context and provenance", "Claim audit", "Source ledger", "Findings", "Upgrade proposal",
        "Experiment opportunities", "Review checklist"]
    assert [h.number for h in pack.required_headings] == [1, 2, 3, 4, 5, 6, 7]
    assert pack.method.startswith("1. Read the supplied chapter.")
    assert pack.history.startswith("No research has been recorded")
    assert pack.references.startswith("No references are recorded")
    assert pack.reference_items == []
    assert pack.existing_evidence.startswith("No validated evidence has been recorded")
    assert [(n, t) for n, t, _ in pack.sections] == [
        (1, "Identity"), (2, "Chapter text"), (3, "Existing references and bibliography"),
        (4, "Existing evidence"), (5, "Research objective and questions"), (6, "Associated material"),
        (7, "Research history"), (8, "How to investigate"), (9, "Required output")]
    assert dict(pack.unknown_sections) == {}


def test_own_pack_renumbered_with_unknown_section():
    pack = load_pack(PACKS / "full_pack.txt")
    assert pack.identity.book == "Notes on Ranking"
    assert pack.identity.chapter_number == "3"
    assert dict(pack.identity_extra) == {"Reviewer": "A. N. Other"}
    assert pack.is_excerpt is False
    assert dict(pack.unknown_sections) == {
        "Reviewer notes": "This section has a title the parser does not know; it must be kept."}
    assert pack.reference_items == ["Smith, J. (2020). Diversity in ranking.",
                                    "Jones, K. and Brown, L. (2019). Budgeted selection."]
    # references are leads too: free-text citations (url "") in file order before the evidence line
    assert [(c.description, c.url, c.section) for c in pack.candidate_sources] == [
        ("Smith, J. (2020). Diversity in ranking.", "", "references"),
        ("Jones, K. and Brown, L. (2019). Budgeted selection.", "", "references"),
        ("Smith et al.'s study; a lead.", "https://example.org/smith2020", "existing_evidence")]
    assert pack.questions == ["Is the budget stated before the run?", "Are the intervals reported?"]
    assert pack.unresolved_gaps == ["No audit of token budgets."]
    assert pack.associated_material[0].url == "https://example.org/notebooks/03.ipynb"
    assert pack.associated_material[0].note == "Exists; never run."
    assert pack.method == "1. Read the chapter."  # "How to investigate" numbered 9 here
    assert [(h.number, h.title, h.description) for h in pack.required_headings] == [
        (1, "Context", "what you read."), (2, "Claims", "one row per claim.")]


def test_excerpt_pack_and_markdown_snapshot():
    excerpt = load_pack(PACKS / "excerpt_pack.txt")
    assert excerpt.is_excerpt is True
    assert excerpt.chapter_text == "Only the first paragraph is included here. It mentions 12 tasks."
    assert excerpt.snapshot_url == "https://example.org/snapshot.txt"
    snapshot = load_pack(PACKS / "snapshot.md")
    assert snapshot.is_snapshot and not snapshot.is_excerpt
    assert snapshot.identity.chapter == "Budgets and Baselines"
    assert snapshot.chapter_text.startswith("# Budgets and Baselines\n\nThe budget was fixed")
    assert "Front matter" not in snapshot.chapter_text
    assert snapshot.chapter_text_line == 5
    assert snapshot.paragraph_rule == "block"


@pytest.mark.parametrize("text, line, words", [
    ("== Identity ==\nBook: X\n== 2. Chapter text ==\nProse.\n", 1, "needs a number"),
    ("== 1. Identity ==\nBook: X\n\n== 2. Chapter text ==\n\n\n== 3. History ==\nNone.\n", 4, "no prose"),
    ("== 1. Identity ==\nChapter prose fingerprint (sha256, normalized): abc123\n"
     "== 2. Chapter text ==\nProse.\n", 2, "64-digit hex"),
    ("== 1. Chapter text ==\nA.\n== 2. Chapter text ==\nB.\n", 3, "second chapter text"),
])
def test_malformed_packs_name_file_and_line(tmp_path, text, line, words):
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_pack(path)
    assert info.value.line == line
    assert info.value.path == str(path)
    assert words in str(info.value)
    assert str(info.value).startswith(f"{path}:{line}: ")


def test_missing_chapter_text_and_crlf(tmp_path):
    with pytest.raises(InputError, match="no chapter text section"):
        parse_pack("== 1. Identity ==\nBook: X\n", source_path="p.txt")
    crlf = parse_pack("== 1. Chapter text ==\r\nOne line.\r\nTwo line.\r\n", source_path="p.txt")
    assert crlf.chapter_text == "One line.\nTwo line."
