"""Hard-wrapped flattened text (a PDF, a terminal, ``pdftotext``) is read back into its sentences
(audit/unwrap.py), while a page flattened one paragraph per line keeps its lines exactly."""

from __future__ import annotations

import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from audit.flattened import read_flattened
from claims.extract import claims_from_document
from claims.kinds import TABLE_VALUE

WRAPPED = """Evaluation of Sparse Retrieval
We ran BM25 on the MS MARCO passage collection with default settings. The run
reached an MRR@10 of 0.187 on the development queries, and recall at 1000 was
0.857. Dense retrieval reached 0.311 on the same queries, a state-of-the-
art figure for a model of its size.
"""


def _rows(text: str) -> list[tuple[str, int]]:
    return [(r.text, r.line) for r in claims_from_document(read_flattened(text)) if r.kind != TABLE_VALUE]


def test_a_wrapped_paragraph_reads_as_its_sentences_each_at_its_own_line() -> None:
    assert _rows(WRAPPED) == [
        ("We ran BM25 on the MS MARCO passage collection with default settings.", 2),
        ("The run reached an MRR@10 of 0.187 on the development queries, and recall at 1000 was 0.857.", 2),
        ("Dense retrieval reached 0.311 on the same queries, a state-of-the-art figure for a model of its size.", 4),
    ]


PDF_PAGE = """2 Experimental Setup
We index the MS MARCO passage collection with Anserini and retrieve the top 1000
passages per query with BM25 (k1 = 0.9, b = 0.4), as the Pyserini regressions do. The
dev set has 6980 queries; we report MRR@10 and recall at 1000. Dense retrieval uses
the TCT-ColBERT encoder of Lin et al. on the same queries. We ran each configuration
three times on one machine. BM25 reached an MRR@10 of 0.187, and the dense run of the
MS MARCO dev set reached 0.335, with recall at 1000 of 0.857 and 0.964 respectively.
"""


def test_a_page_wrapped_throughout_joins_lines_that_open_with_a_capital() -> None:
    rows = [t for t, _ in _rows(PDF_PAGE)]
    assert rows[-1] == ("BM25 reached an MRR@10 of 0.187, and the dense run of the MS MARCO dev set reached "
                        "0.335, with recall at 1000 of 0.857 and 0.964 respectively.")
    assert "The dev set has 6980 queries; we report MRR@10 and recall at 1000." in rows
    assert "Dense retrieval uses the TCT-ColBERT encoder of Lin et al. on the same queries." in rows
    assert len(rows) == 5 and rows[0].endswith("as the Pyserini regressions do.")


def test_short_lines_of_a_paragraph_per_line_page_are_never_joined() -> None:
    page = ("Samples\nsample 1: why was the manhattan project successful\n"
            "sample 2: the manhattan project what it means\n"
            "Each sample above is one query the model wrote for the passage, and the list shows two of them.\n"
            "35.85 seconds\n10 The Impact of BERTcat The impact of BERTcat as a re-ranker is large.\n")
    blocks = read_flattened(page).blocks
    assert [b.line for b in blocks if b.kind == "paragraph"] == sorted({b.line for b in blocks if b.kind == "paragraph"})
    assert all(b.line == b.end_line for b in blocks)


_WORDS = st.sampled_from("the run model index query score reached recall measured higher than before "
                         "with of on and for a in dense sparse passage collection bm25 top-10".split())
_SENTENCE = st.builds(lambda first, rest, n: f"{first.capitalize()} {' '.join(rest)} {n}.",
                      _WORDS, st.lists(_WORDS, min_size=6, max_size=18), st.integers(1, 999))


@settings(max_examples=60, deadline=None)
@given(st.lists(_SENTENCE, min_size=3, max_size=8), st.integers(60, 100))
def test_any_paragraph_wrapped_at_any_width_reads_as_its_sentences(sentences: list[str], width: int) -> None:
    """textwrap at 60–100 columns, as a PDF or an e-mail wraps: the sentences come back whole
    (lower-case words: a wrap before a capital needs a page wrapped throughout, tested above)."""
    text = "\n".join(textwrap.wrap(" ".join(sentences), width, break_on_hyphens=False)) + "\n"
    assert [t for t, _ in _rows(text)] == sentences


@settings(max_examples=60, deadline=None)
@given(st.lists(_SENTENCE, min_size=2, max_size=5), st.integers(2, 6))
def test_paragraph_per_line_text_keeps_one_block_per_line(sentences: list[str], per_line: int) -> None:
    lines = [" ".join(sentences[i:i + per_line]) for i in range(0, len(sentences), per_line)]
    blocks = read_flattened("\n".join(lines) + "\n").blocks
    assert all(b.line == b.end_line for b in blocks)
