"""The shape catalogue (tests/data/site_shapes/catalogue.toml): markup of real site generators and
hosting (Docusaurus MDX, Hugo, Jekyll/Liquid, kramdown, Quarto/Pandoc, GitBook, Obsidian,
AsciiDoc, HTML media, page chrome …) is structure, never a claim row, and their prose stays prose.

For every case: the sentence rows are exactly ``prose`` (text and file line, in order), every
``aside`` line is held by a block that is not prose and by no prose block, and the invariant of
tests/test_reader_invariant.py holds. Each case's ``part`` (tune / check) is recomputed from its id.
"""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

import pytest

from audit.document import read_markdown
from claims.extract import TABLE_VALUE, claims_from_document

CATALOGUE = Path(__file__).resolve().parent / "data" / "site_shapes" / "catalogue.toml"
CASES = tomllib.loads(CATALOGUE.read_text(encoding="utf-8"))["case"]


def part_of(case_id: str) -> str:
    """The rule fixed before tuning: the first hex digit of sha256(id), even → tune, odd → check."""
    return "tune" if int(hashlib.sha256(case_id.encode("utf-8")).hexdigest()[0], 16) % 2 == 0 else "check"


def outcome(case: dict) -> tuple[list[list], list[int], list[int]]:
    """``(rows as [line, text], aside lines not held by a non-prose block, aside lines held by prose)``."""
    document = read_markdown(case["text"])
    rows = [[r.line, r.text] for r in claims_from_document(document) if r.kind != TABLE_VALUE]
    unheld, in_prose = [], []
    for line in case["aside"]:
        covering = [b for b in document.blocks if b.line <= line <= b.end_line]
        if not any(not b.is_prose for b in covering):
            unheld.append(line)
        if any(b.is_prose for b in covering):
            in_prose.append(line)
    return rows, unheld, in_prose


def test_the_catalogue_is_whole_and_its_parts_follow_the_rule():
    assert len(CASES) == 49 and len({c["id"] for c in CASES}) == len(CASES)
    assert [c["part"] for c in CASES] == [part_of(c["id"]) for c in CASES]
    assert sum(c["part"] == "tune" for c in CASES) == 24
    for case in CASES:
        lines = case["text"].split("\n")
        written = {i for i, line in enumerate(lines, start=1) if line.strip()}
        assert written == {line for line, _ in case["prose"]} | set(case["aside"]), case["id"]
        assert case["source"] and case["family"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_each_shape_reads_as_its_expected_structure(case):
    rows, unheld, in_prose = outcome(case)
    assert rows == case["prose"]
    assert unheld == [] and in_prose == []
