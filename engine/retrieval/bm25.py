"""Okapi BM25 with the positive ("Lucene") IDF, scored over an :class:`InvertedIndex`.

Formulas (Robertson & Zaragoza 2009, "The Probabilistic Relevance Framework: BM25 and Beyond",
FnTIR 3(4); the ``+1`` inside the logarithm as in Lucene's BM25Similarity):

    IDF(t)      = ln(1 + (N - n_t + 0.5) / (n_t + 0.5))
    BM25(q, d)  = sum over query tokens t of
                  IDF(t) * f(t,d) * (k1 + 1) / (f(t,d) + k1 * (1 - b + b * |d| / avgdl))

with N documents, n_t the document frequency of t, f(t,d) the within-document count,
|d| the document length in tokens and avgdl the mean length. Defaults k1 = 1.2, b = 0.75.

Conventions:

* query tokens are the tokenizer's tokens of the query with every occurrence counted: a token
  that occurs twice in the query contributes its term weight twice (terms are added in query
  order). Tokens absent from the index contribute nothing;
* IDF is strictly positive and f(t,d) >= 1 in a posting, so a document scores > 0 exactly when
  it shares at least one query token; only those documents are scored and listed;
* the (k1 + 1) numerator is kept (bm25s ``method="lucene"`` omits it; scores differ by that
  constant factor only);
* ties: score descending, then doc_id ascending (:func:`engine.retrieval.ranking.order_by_score`).

Speed (bench/bench_bm25.py): the term weight of every posting is precomputed once per
(k1, b); a query adds the weights of its tokens' postings into one dense accumulator, in query
order (indices within one posting list are unique, so fancy-index addition is exact). Tokens
found in at least :data:`DENSE_FRACTION` of the documents are additionally stored as a dense
weight row (within :data:`DENSE_BUDGET_BYTES`) and added with one vectorised addition; adding a
row's exact zeros leaves every sum bit-for-bit what the postings loop gives. Top-k finds a lower
bound for the k-th score from the maxima of disjoint groups of scores (:data:`TOP_K_BLOCK` per
group), keeps only documents at or above it and sorts those exactly (score desc, doc_id asc);
``np.argpartition`` when there are too few groups.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from engine.retrieval.index import InvertedIndex
from engine.retrieval.ranking import order_by_score

DEFAULT_K1 = 1.2
DEFAULT_B = 0.75
DENSE_FRACTION = 1 / 16          # a token in >= 1/16 of the documents also gets a dense weight row
DENSE_MIN_DOCS = 4096            # ... and only when the corpus has at least this many documents
DENSE_BUDGET_BYTES = 256 << 20   # memory cap for all dense rows together
TOP_K_BLOCK = 256                # scores per group for the top-k lower bound


def idf(num_docs: int, doc_freq: int) -> float:
    """Positive IDF ``ln(1 + (N - n_t + 0.5) / (n_t + 0.5))``."""
    return math.log(1.0 + (num_docs - doc_freq + 0.5) / (doc_freq + 0.5))


def term_weight(tf: float, doc_len: float, avgdl: float, token_idf: float,
                k1: float = DEFAULT_K1, b: float = DEFAULT_B) -> float:
    """One token's BM25 contribution ``IDF * f (k1+1) / (f + k1 (1 - b + b |d|/avgdl))``."""
    return token_idf * ((tf * (k1 + 1.0)) / (tf + k1 * (1.0 - b + b * doc_len / avgdl)))


class BM25:
    """A BM25 scorer with per-posting weights precomputed for fixed ``k1`` and ``b``."""

    def __init__(self, index: InvertedIndex, k1: float = DEFAULT_K1, b: float = DEFAULT_B) -> None:
        if k1 < 0 or not 0.0 <= b <= 1.0:
            raise ValueError(f"BM25 needs k1 >= 0 and 0 <= b <= 1 (got k1={k1}, b={b})")
        self.index = index
        self.k1 = float(k1)
        self.b = float(b)
        n = index.num_docs
        df = np.diff(index.indptr).astype(np.float64)
        self.idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5))
        tf = index.term_count
        norm = self.k1 * (1.0 - self.b + self.b * index.doc_lengths / index.avgdl)
        per_posting_idf = np.repeat(self.idf, np.diff(index.indptr))
        self.weights = per_posting_idf * ((tf * (self.k1 + 1.0)) / (tf + norm[index.doc_index]))
        self._dense_rows: dict[int, np.ndarray] = {}
        if n >= DENSE_MIN_DOCS:
            counts = np.diff(index.indptr)
            frequent = np.flatnonzero(counts >= DENSE_FRACTION * n)
            budget = DENSE_BUDGET_BYTES // (8 * n)
            for term in frequent[np.argsort(-counts[frequent], kind="stable")][:budget].tolist():
                lo, hi = index.indptr[term], index.indptr[term + 1]
                row = np.zeros(n, dtype=np.float64)
                row[index.doc_index[lo:hi]] = self.weights[lo:hi]
                self._dense_rows[term] = row
        # rank of each document position in doc_id order: the tie-break key for top-k
        self._id_rank = np.empty(n, dtype=np.int64)
        self._id_rank[np.argsort(np.asarray(index.doc_ids, dtype=object), kind="stable")] = np.arange(n)

    def token_idf(self, token: str) -> float:
        """IDF of ``token`` in this snapshot (0 for a token absent from the index)."""
        term = self.index.vocabulary.get(token)
        return 0.0 if term is None else float(self.idf[term])

    def term_ids(self, query_tokens: Sequence[str]) -> list[int]:
        """Index token ids of the query's tokens, occurrences kept, unseen tokens dropped."""
        vocab = self.index.vocabulary
        return [vocab[t] for t in query_tokens if t in vocab]

    def score_array(self, query_tokens: Sequence[str]) -> np.ndarray:
        """Dense ``float64`` BM25 scores of every document position (0 where nothing matches)."""
        return self.score_ids(self.term_ids(query_tokens))

    def score_ids(self, term_ids: Sequence[int]) -> np.ndarray:
        """Dense scores for index token ids (in query order, repeats counted)."""
        indptr, docs, weights, dense = self.index.indptr, self.index.doc_index, self.weights, self._dense_rows
        scores: np.ndarray | None = None
        for term in term_ids:
            row = dense.get(term)
            if row is not None:
                if scores is None:
                    scores = row.copy()
                else:
                    scores += row
                continue
            if scores is None:
                scores = np.zeros(self.index.num_docs, dtype=np.float64)
            lo, hi = indptr[term], indptr[term + 1]
            scores[docs[lo:hi]] += weights[lo:hi]
        if scores is None:
            scores = np.zeros(self.index.num_docs, dtype=np.float64)
        return scores

    def scores(self, query_tokens: Sequence[str]) -> dict[str, float]:
        """``{doc_id: score}`` for every document sharing a query token (score > 0)."""
        dense = self.score_array(query_tokens)
        hits = np.flatnonzero(dense > 0.0)
        ids = self.index.doc_ids
        return {ids[i]: float(dense[i]) for i in hits}

    def ranked(self, query_tokens: Sequence[str]) -> list[tuple[str, float]]:
        """The full BM25 candidate list: every document with score > 0, score desc, doc_id asc."""
        return order_by_score(self.scores(query_tokens))

    def top_k(self, query_tokens: Sequence[str], k: int) -> list[tuple[str, float]]:
        """The first ``k`` entries of :meth:`ranked`, found with ``np.argpartition``."""
        return self.top_k_ids(self.term_ids(query_tokens), k)

    def top_k_ids(self, term_ids: Sequence[int], k: int) -> list[tuple[str, float]]:
        dense = self.score_ids(term_ids)
        positions = self.top_k_positions(dense, k)
        ids = self.index.doc_ids
        return [(ids[i], float(dense[i])) for i in positions]

    def top_k_positions(self, dense: np.ndarray, k: int) -> np.ndarray:
        """Positions of the best ``k`` positive scores, ties by doc_id ascending (exact at the cut)."""
        n = dense.shape[0]
        if k <= 0:
            return np.empty(0, dtype=np.int64)
        full = n // TOP_K_BLOCK * TOP_K_BLOCK
        cand = None
        if full // TOP_K_BLOCK >= 4 * k:
            # split the scores into disjoint groups: the columns of a TOP_K_BLOCK-row view (so the
            # maximum is an element-wise reduction over contiguous rows). k groups have a maximum
            # >= the k-th largest group maximum, so at least k scores are >= it: a lower bound
            # for the k-th score. Only groups reaching the bound (and the tail) are searched.
            view = dense[:full].reshape(TOP_K_BLOCK, -1)
            group_max = view.max(axis=0)
            threshold = np.partition(group_max, group_max.shape[0] - k)[group_max.shape[0] - k]
            if threshold > 0.0:
                columns = np.flatnonzero(group_max >= threshold)
                rows, picked = np.nonzero(view[:, columns] >= threshold)
                cand = np.concatenate((rows * view.shape[1] + columns[picked],
                                       full + np.flatnonzero(dense[full:] >= threshold)))
        elif k < n:
            threshold = dense[np.argpartition(dense, n - k)[n - k:]].min()
        else:
            threshold = 0.0
        if cand is None:
            # every document tying the k-th score competes on doc_id, not on partition luck
            cand = np.flatnonzero(dense >= threshold) if threshold > 0.0 else np.flatnonzero(dense > 0.0)
        cand = cand[dense[cand] > 0.0]
        order = np.lexsort((self._id_rank[cand], -dense[cand]))
        return cand[order[:k]]
