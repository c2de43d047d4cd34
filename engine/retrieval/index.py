"""An inverted index over tokenized documents: (document, within-document count) per token.

Layout (compressed sparse columns, one column per token): for token id ``t`` the postings are
``doc_index[indptr[t]:indptr[t+1]]`` (ascending document positions) with within-document counts
``term_count[indptr[t]:indptr[t+1]]``. Document lengths are token counts of the retrieval text
(title + " " + text, :mod:`engine.retrieval.text`); ``avgdl`` is their arithmetic mean. Document
positions follow the order in which documents were given; ``doc_ids`` maps them back.
Token ids are assigned in order of first appearance, so the index is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class InvertedIndex:
    """Postings, document lengths and the token vocabulary of one immutable snapshot."""

    doc_ids: tuple[str, ...]
    vocabulary: dict[str, int]
    indptr: np.ndarray        # int64, len(vocabulary) + 1
    doc_index: np.ndarray     # int32, postings' document positions, ascending within a token
    term_count: np.ndarray    # float64, within-document counts f(t, d) aligned with doc_index
    doc_lengths: np.ndarray   # float64, |d| in tokens
    avgdl: float

    @property
    def num_docs(self) -> int:
        return len(self.doc_ids)

    def document_frequency(self, token: str) -> int:
        """n_t: the number of documents containing ``token`` (0 if unseen)."""
        term = self.vocabulary.get(token)
        if term is None:
            return 0
        return int(self.indptr[term + 1] - self.indptr[term])

    def postings(self, token: str) -> list[tuple[str, int]]:
        """``[(doc_id, f(t, d))]`` for ``token`` in document order (empty if unseen)."""
        term = self.vocabulary.get(token)
        if term is None:
            return []
        lo, hi = self.indptr[term], self.indptr[term + 1]
        return [(self.doc_ids[i], int(c)) for i, c in zip(self.doc_index[lo:hi], self.term_count[lo:hi])]

    def length(self, doc_id: str) -> int:
        return int(self.doc_lengths[self.doc_ids.index(doc_id)])


def build_index(doc_ids: Sequence[str], documents: Sequence[Sequence[str]]) -> InvertedIndex:
    """Index tokenized documents (``documents[i]`` is the token list of ``doc_ids[i]``).

    Vectorised: every (token id, document) pair is encoded as one integer key and counted
    with ``np.unique``, which yields the postings sorted by token then document directly.
    An empty corpus is rejected by the caller (avgdl would be undefined).
    """
    if len(doc_ids) != len(documents):
        raise ValueError("doc_ids and documents differ in length")
    if not documents:
        raise ValueError("cannot index an empty corpus")
    vocabulary: dict[str, int] = {}
    setdefault = vocabulary.setdefault
    flat = [setdefault(tok, len(vocabulary)) for doc in documents for tok in doc]
    lengths = np.fromiter((len(doc) for doc in documents), dtype=np.int64, count=len(documents))
    n_docs = len(documents)
    term_ids = np.asarray(flat, dtype=np.int64)
    doc_pos = np.repeat(np.arange(n_docs, dtype=np.int64), lengths)
    keys, counts = np.unique(term_ids * n_docs + doc_pos, return_counts=True)
    terms = keys // n_docs
    indptr = np.zeros(len(vocabulary) + 1, dtype=np.int64)
    np.cumsum(np.bincount(terms, minlength=len(vocabulary)), out=indptr[1:])
    doc_lengths = lengths.astype(np.float64)
    return InvertedIndex(
        doc_ids=tuple(doc_ids),
        vocabulary=vocabulary,
        indptr=indptr,
        doc_index=(keys % n_docs).astype(np.int32),
        term_count=counts.astype(np.float64),
        doc_lengths=doc_lengths,
        avgdl=float(doc_lengths.mean()),
    )
