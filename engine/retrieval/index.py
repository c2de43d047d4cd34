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
from itertools import chain

import numpy as np

CHUNK_TOKENS = 1 << 20   # tokens factorised and counted at a time (bounds temporary memory)


@dataclass(frozen=True)
class InvertedIndex:
    """Postings, document lengths and the token vocabulary of one immutable snapshot."""

    doc_ids: tuple[str, ...]
    vocabulary: dict[str, int]
    indptr: np.ndarray        # int64, len(vocabulary) + 1
    doc_index: np.ndarray     # int32, postings' document positions, ascending within a token
    term_count: np.ndarray    # int32, within-document counts f(t, d) aligned with doc_index
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


def build_index(doc_ids: Sequence[str], documents: Sequence[Sequence[str]],
                chunk_tokens: int = CHUNK_TOKENS) -> InvertedIndex:
    """Index tokenized documents (``documents[i]`` is the token list of ``doc_ids[i]``).

    :class:`IndexBuilder` with all documents given at once; see there for the method. The
    result does not depend on ``chunk_tokens`` (tested). An empty corpus is rejected (avgdl
    would be undefined).
    """
    builder = IndexBuilder(chunk_tokens)
    builder.add(doc_ids, documents)
    return builder.finish()


class IndexBuilder:
    """Builds an :class:`InvertedIndex` from documents given batch by batch (streaming).

    A caller that reads a corpus in batches (:func:`engine.retrieval.corpus.read_corpus_index`)
    never holds every document's tokens at once: each batch is reduced to postings and dropped.
    Vectorised, in chunks of about ``chunk_tokens`` tokens (temporary memory is bounded by the
    chunk, not the corpus):

    1. token ids: the chunk's tokens are factorised in C (``pandas.factorize``, a hash table,
       ids in order of first appearance); only the chunk's *distinct* tokens are looked up in
       the vocabulary dict, never each token occurrence;
    2. postings of the chunk: every (token id, document) pair is encoded as one integer key and
       counted with ``np.unique`` (sorted by token, then document), kept as int32 arrays;
    3. :meth:`finish`: document frequencies of all chunks give ``indptr``; each chunk's postings
       are then scattered to their token's slot after the previous chunks' (a counting sort),
       so every posting list is in ascending document order.

    The index is the same however the documents are batched or chunked (tested).
    """

    def __init__(self, chunk_tokens: int = CHUNK_TOKENS) -> None:
        self.chunk_tokens = chunk_tokens
        self.doc_ids: list[str] = []
        self.vocabulary: dict[str, int] = {}
        self._lengths: list[np.ndarray] = []
        self._chunks: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (token ids, doc positions, counts)

    def add(self, doc_ids: Sequence[str], documents: Sequence[Sequence[str]]) -> None:
        """Append one batch of documents (their ids and token lists), in order."""
        import pandas as pd

        if len(doc_ids) != len(documents):
            raise ValueError("doc_ids and documents differ in length")
        if not documents:
            return
        offset = len(self.doc_ids)
        self.doc_ids.extend(doc_ids)
        lengths = np.fromiter(map(len, documents), dtype=np.int64, count=len(documents))
        self._lengths.append(lengths)
        vocabulary = self.vocabulary
        setdefault = vocabulary.setdefault
        bounds = _chunk_bounds(lengths, self.chunk_tokens)
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            n_tokens = int(lengths[lo:hi].sum())
            if n_tokens == 0:
                continue
            tokens = np.fromiter(chain.from_iterable(documents[lo:hi]), dtype=object, count=n_tokens)
            local, distinct = pd.factorize(tokens, sort=False, use_na_sentinel=False)
            del tokens
            global_ids = np.fromiter((setdefault(tok, len(vocabulary)) for tok in distinct),
                                     dtype=np.int64, count=len(distinct))
            width = hi - lo
            keys = global_ids[local] * width
            del local
            keys += np.repeat(np.arange(width, dtype=np.int64), lengths[lo:hi])
            keys, counts = np.unique(keys, return_counts=True)
            self._chunks.append(((keys // width).astype(np.int32), (keys % width + lo + offset).astype(np.int32),
                                 counts.astype(np.int32)))
            del keys, counts

    def finish(self) -> InvertedIndex:
        """The index of every document added (the builder is emptied)."""
        if not self.doc_ids:
            raise ValueError("cannot index an empty corpus")
        n_terms = len(self.vocabulary)
        chunks, self._chunks = self._chunks, []
        frequencies = [np.bincount(terms, minlength=n_terms) for terms, _, _ in chunks]
        indptr = np.zeros(n_terms + 1, dtype=np.int64)
        np.cumsum(np.sum(frequencies, axis=0) if frequencies else np.zeros(n_terms, np.int64), out=indptr[1:])
        doc_index = np.empty(int(indptr[-1]), dtype=np.int32)
        term_count = np.empty(int(indptr[-1]), dtype=np.int32)
        cursor = indptr[:-1].copy()
        for frequency in frequencies:
            terms, docs, counts = chunks.pop(0)
            first_in_chunk = np.cumsum(frequency) - frequency          # where each token starts in the chunk
            slots = cursor[terms] + (np.arange(len(terms), dtype=np.int64) - first_in_chunk[terms])
            doc_index[slots] = docs
            term_count[slots] = counts
            cursor += frequency
            del terms, docs, counts, slots
        doc_lengths = np.concatenate(self._lengths).astype(np.float64)
        return InvertedIndex(
            doc_ids=tuple(self.doc_ids),
            vocabulary=self.vocabulary,
            indptr=indptr,
            doc_index=doc_index,
            term_count=term_count,
            doc_lengths=doc_lengths,
            avgdl=float(doc_lengths.mean()),
        )


def _chunk_bounds(lengths: np.ndarray, chunk_tokens: int) -> list[int]:
    """Document positions ``[0, ..., n]`` cutting the corpus into runs of about ``chunk_tokens`` tokens."""
    ends = np.cumsum(lengths)
    cuts = np.searchsorted(ends, np.arange(chunk_tokens, int(ends[-1]), chunk_tokens), side="left") + 1
    return sorted({0, len(lengths), *cuts.tolist()})
