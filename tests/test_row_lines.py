"""A claim row's ``line`` is the file line where its sentence starts (README: every row is
traceable to ``FILE:LINE``), not the first line of its paragraph: a property over every
development document of the corpus and the seeds, and hand-written shapes (a hard-wrapped
paragraph, list items, a blockquote, an admonition, front matter, CRLF line ends with a BOM, an
inline footnote, prose inside an HTML block, a pack whose chapter text starts after its header)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from audit.document import read_markdown
from audit.pack import load_pack
from claims.extract import claims_for_pack, claims_from_document
from claims.kinds import TABLE_VALUE
from support import REPO, seed

CORPUS = REPO / "tests" / "data" / "corpus"


def _first_word(sentence: str) -> str:
    return re.search(r"[A-Za-z0-9]+", sentence).group(0)


def _misplaced(text: str, rows) -> list[str]:
    """Rows whose sentence's first word is not on the row's line (markup ``*``/``_`` aside)."""
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").split("\n")
    bad = []
    for row in rows:
        if row.kind == TABLE_VALUE or not re.search(r"[A-Za-z0-9]", row.text):
            continue
        line = lines[row.line - 1] if 0 < row.line <= len(lines) else ""
        if _first_word(row.text) not in re.sub(r"[*_]", "", line):
            bad.append(f"{row.line}: {row.text[:60]!r} | line: {line[:60]!r}")
    return bad


def _development() -> list[str]:
    manifest = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))
    return [d["excerpt"] for d in manifest["documents"] if d["part"] == "development"]


@pytest.mark.parametrize("excerpt", _development())
def test_every_corpus_row_starts_on_its_line(excerpt: str) -> None:
    text = (CORPUS / excerpt).read_text(encoding="utf-8")
    rows = claims_from_document(read_markdown(text, excerpt))
    assert _misplaced(text, rows) == []


def test_seed_rows_start_on_their_lines() -> None:
    for name in ("000_6e3ecf25d835ddc8.txt", "001_ebef38b6bd9f9237.txt", "002_1cad392b6b549eb0.txt",
                 "003_d45880e96e7ee920.txt"):
        path = seed(name)
        pack = load_pack(path)
        _, rows, _ = claims_for_pack(pack)
        assert rows, name
        assert _misplaced(path.read_text(encoding="utf-8"), rows) == [], name


def _lines(text: str) -> dict[str, int]:
    rows = claims_from_document(read_markdown(text, "t.md"))
    return {r.text: r.line for r in rows}


def test_sentences_of_a_hard_wrapped_paragraph_report_their_own_lines() -> None:
    text = ("# Results\n\nWe ran BM25 on the\ncollection. It reached 0.41 nDCG@10 on the test\n"
            "topics. The dense run\nreached 0.45.\n")
    assert _lines(text) == {"We ran BM25 on the collection.": 3,
                            "It reached 0.41 nDCG@10 on the test topics.": 4,
                            "The dense run reached 0.45.": 5}


def test_lines_in_lists_quotes_admonitions_footnotes_and_html() -> None:
    text = ("---\ntitle: x\n---\n\n- First item is one sentence. A second\n  sentence wraps.\n\n"
            "> Quoted one. Quoted\n> two.\n\n!!! note\n    Admonition one. Admonition\n    two.\n\n"
            "A claim with a note.^[The note is inline here.]\n\n<div>\nInside the div. Another\n"
            "sentence.\n</div>\n")
    lines = _lines(text)
    assert lines["First item is one sentence."] == 5
    assert lines["A second sentence wraps."] == 5
    assert lines["Quoted one."] == 8 and lines["Quoted two."] == 8
    assert lines["Admonition one."] == 12 and lines["Admonition two."] == 12
    assert lines["The note is inline here."] == 15
    assert lines["Inside the div."] == 18 and lines["Another sentence."] == 18


def test_crlf_and_bom_keep_file_lines(tmp_path: Path) -> None:
    path = tmp_path / "chapter.md"
    path.write_bytes("\ufeff# T\r\n\r\nOne here. Two\r\nwraps. Three\r\nhere too.\r\n".encode("utf-8"))
    _, rows, _ = claims_for_pack(load_pack(path))
    assert {r.text: r.line for r in rows} == {"One here.": 3, "Two wraps.": 3, "Three here too.": 4}


def test_pack_chapter_text_lines_are_file_lines(tmp_path: Path) -> None:
    path = tmp_path / "pack.txt"
    path.write_text("Title: Lines\nSnapshot: 2026-12-01\n\n## Chapter text\n\n# Body\n\nOne sentence.\nTwo\nwraps here.\n",
                    encoding="utf-8")
    pack = load_pack(path)
    _, rows, _ = claims_for_pack(pack)
    body = path.read_text(encoding="utf-8").split("\n")
    for row in rows:
        assert _first_word(row.text) in body[row.line - 1], (row.line, row.text)
