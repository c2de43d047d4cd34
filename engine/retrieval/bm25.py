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
(k1, b). A query's cost follows the postings it touches, and so does its path, chosen in one
place (:meth:`BM25._top_k_without_dense`; thresholds measured per path with
bench/bench_bm25.py). With numba installed, the compiled kernels of
:mod:`engine.retrieval.bm25_compiled` take the sparse and pruned paths' place (same results,
bit for bit):

* **sparse path** (the query's postings number at most ``num_docs / SPARSE_RATIO``): the
  weights are added into a zeroed accumulator in query order (``np.add.at``, or one
  ``np.bincount`` over many postings: both add in input order from 0.0, as the dense
  accumulator does, so the sums are bit for bit equal), read at the touched positions and
  zeroed there again. Top-k partitions the touched documents only. No array of collection
  size is allocated or scanned.
* **pruned path** (more than ``num_docs * PRUNED_MIN_RATIO`` postings): MaxScore (Turtle &
  Flood 1995) in two splits, see :meth:`BM25._top_k_pruned`; candidates are filtered by upper
  bounds before their exact scores are looked up. When neither split prunes, the query
  falls back to the dense path.
* **dense path** (the queries between the two, and those that do not prune): the weights are
  added into one dense accumulator in query order (indices within one posting list are unique, so
  fancy-index addition is exact). Tokens found in at least :data:`DENSE_FRACTION` of the
  documents are additionally stored as a dense weight row (within :data:`DENSE_BUDGET_BYTES`)
  and added with one vectorised addition; adding a row's exact zeros leaves every sum
  bit-for-bit what the postings loop gives. Top-k finds a lower bound for the k-th score from
  the maxima of disjoint groups of scores (:data:`TOP_K_BLOCK` per group), keeps only
  documents at or above it and sorts those exactly (score desc, doc_id asc);
  ``np.argpartition`` when there are too few groups.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.retrieval.bm25_compiled import Kernels, load_kernels
from engine.retrieval.index import InvertedIndex
from engine.retrieval.ranking import id_order_ranks, order_by_score

DEFAULT_K1 = 1.2
DEFAULT_B = 0.75
DENSE_FRACTION = 1 / 16          # a token in >= 1/16 of the documents also gets a dense weight row
DENSE_MIN_DOCS = 4096            # ... and only when the corpus has at least this many documents
DENSE_BUDGET_BYTES = 256 << 20   # memory cap for all dense rows together
TOP_K_BLOCK = 256                # scores per group for the top-k lower bound
SPARSE_RATIO = 8                 # sparse path while postings touched <= num_docs / SPARSE_RATIO
SORT_ALL = 64                    # up to this many candidates are sorted whole, more are partitioned first
PRUNED_MIN_RATIO = 0.5           # numpy only: MaxScore for queries touching more than num_docs * this
PRUNE_RATIO = 32                 # pruned top-k: candidates from at most num_docs / PRUNE_RATIO postings
SECOND_PASS_RATIO = 8            # ... and in the second split at most num_docs / SECOND_PASS_RATIO
FILTER_MIN = 256                 # pruned top-k: more candidate postings than this are first filtered by bound
REFINE_MIN = 256                 # pruned top-k: candidates refined token by token while more than this
BINCOUNT_RATIO = 25              # sums over more than num_docs / BINCOUNT_RATIO postings use np.bincount
COMPILED_MIN_DOCS = 20_000       # the compiled kernels serve collections of at least this size,
COMPILED_MAX_RATIO = 0.25        # accumulating in full up to num_docs * this postings (MaxScore above)
WEIGHT_BLOCK = 1 << 22           # postings weighted at a time when the scorer is built


@dataclass(frozen=True)
class CollectionStatistics:
    """The whole collection's statistics for a scorer over one shard of it: ``num_docs`` (N),
    ``doc_freq`` (float64 n_t, aligned with the shard index's token ids) and ``avgdl``."""

    num_docs: int
    doc_freq: np.ndarray
    avgdl: float


def distinct_sorted(values: np.ndarray) -> np.ndarray:
    """The distinct values, ascending (a sort and a mask: cheaper than ``np.unique``'s hashing)."""
    ordered = np.sort(values)
    if ordered.shape[0] < 2:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def idf(num_docs: int, doc_freq: int) -> float:
    """Positive IDF ``ln(1 + (N - n_t + 0.5) / (n_t + 0.5))``."""
    return math.log(1.0 + (num_docs - doc_freq + 0.5) / (doc_freq + 0.5))


def term_weight(tf: float, doc_len: float, avgdl: float, token_idf: float,
                k1: float = DEFAULT_K1, b: float = DEFAULT_B) -> float:
    """One token's BM25 contribution ``IDF * f (k1+1) / (f + k1 (1 - b + b |d|/avgdl))``."""
    return token_idf * ((tf * (k1 + 1.0)) / (tf + k1 * (1.0 - b + b * doc_len / avgdl)))


class BM25:
    """A BM25 scorer with per-posting weights precomputed for fixed ``k1`` and ``b``."""

    def __init__(self, index: InvertedIndex, k1: float = DEFAULT_K1, b: float = DEFAULT_B,
                 compiled: bool | None = None, statistics: "CollectionStatistics | None" = None) -> None:
        """``compiled``: use the compiled top-k kernels of :mod:`engine.retrieval.bm25_compiled`
        (None: when numba is installed and the collection has at least ``COMPILED_MIN_DOCS``
        documents; True: always, and numba must be installed; False: never). Scores and
        rankings are the same either way.

        ``statistics``: the whole collection's N, document frequencies (aligned with this index's
        token ids) and avgdl, when this index is one shard of it (:mod:`engine.retrieval.bm25_shards`):
        every weight is then the one the whole collection's index gives."""
        if k1 < 0 or not 0.0 <= b <= 1.0:
            raise ValueError(f"BM25 needs k1 >= 0 and 0 <= b <= 1 (got k1={k1}, b={b})")
        # the kernels load when the first top-k asks for them (numba's import costs ~0.5 s)
        self._kernels: Kernels | None = None
        self._kernels_pending = bool(compiled or (compiled is None and index.num_docs >= COMPILED_MIN_DOCS))
        if compiled:
            self._kernels, self._kernels_pending = load_kernels(), False
            if self._kernels is None:
                raise ValueError("BM25(compiled=True) needs numba, importable (pip install 'chapter-audit[fast]') "
                                 "and not disabled by CHAPTER_AUDIT_COMPILED=0")
        self.index = index
        self.k1 = float(k1)
        self.b = float(b)
        n = index.num_docs
        df = np.diff(index.indptr).astype(np.float64) if statistics is None else statistics.doc_freq
        total = n if statistics is None else statistics.num_docs
        avgdl = index.avgdl if statistics is None else statistics.avgdl
        self.idf = np.log(1.0 + (total - df + 0.5) / (df + 0.5))
        norm = self.k1 * (1.0 - self.b + self.b * index.doc_lengths / avgdl)
        # IDF * (f (k1+1)) / (f + norm[d]), one block of postings at a time (bounded temporaries)
        self.weights = np.repeat(self.idf, np.diff(index.indptr))
        for lo in range(0, self.weights.shape[0], WEIGHT_BLOCK):
            tf = index.term_count[lo:lo + WEIGHT_BLOCK].astype(np.float64)
            self.weights[lo:lo + WEIGHT_BLOCK] *= (tf * (self.k1 + 1.0)) / (tf + norm[index.doc_index[lo:lo + WEIGHT_BLOCK]])
        # the largest weight of each token: its upper bound in the pruned top-k (MaxScore)
        self.max_weight = np.zeros(len(index.vocabulary), dtype=np.float64)
        nonempty = np.flatnonzero(np.diff(index.indptr) > 0)
        if nonempty.size:
            self.max_weight[nonempty] = np.maximum.reduceat(self.weights, index.indptr[nonempty])
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
        self.id_rank = id_order_ranks(index.doc_ids)
        self._accumulators: list[np.ndarray] = []    # zeroed scratch arrays (see _take_accumulator)
        self._kernel_scratch: list[tuple[np.ndarray, np.ndarray]] = []   # (zeroed acc, touched) pairs

    @property
    def compiled(self) -> bool:
        """Whether the compiled top-k kernels serve this scorer."""
        return self._compiled_kernels() is not None

    def _compiled_kernels(self) -> Kernels | None:
        if self._kernels_pending:
            self._kernels, self._kernels_pending = load_kernels(), False
        return self._kernels

    def numpy_only(self) -> BM25:
        """A scorer sharing this one's arrays that never uses the compiled kernels (benchmarks
        compare the two; results are the same)."""
        twin = copy.copy(self)
        twin._kernels, twin._kernels_pending = None, False
        twin._accumulators, twin._kernel_scratch = [], []
        return twin

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

    def postings_touched(self, term_ids: Sequence[int]) -> int:
        """Number of postings a query of these token ids adds up (repeats counted)."""
        indptr = self.index.indptr
        return int(sum(int(indptr[t + 1] - indptr[t]) for t in term_ids))

    def _take_accumulator(self) -> np.ndarray:
        """A zeroed ``float64`` array of collection size, owned by the caller until returned.

        ``list.pop`` is atomic, so concurrent queries never share one; a query interrupted
        before returning its accumulator leaves no dirty array behind (the next allocates one).
        """
        try:
            return self._accumulators.pop()
        except IndexError:
            return np.zeros(self.index.num_docs, dtype=np.float64)

    def _accumulate(self, spans: Sequence[tuple[int, int]], touched: np.ndarray,
                    factors: Sequence[float] | None = None) -> np.ndarray:
        """The sums of the spans' weights (each times its factor) at the ``touched`` positions.

        Spans are added in the order given, each document's sum starting from 0.0, as the dense
        accumulator of :meth:`score_ids` adds them: with no factors the sums are bit for bit
        equal. Few postings are added into a zeroed accumulator with ``np.add.at`` (unbuffered,
        in input order) and the accumulator zeroed again where written, so the work follows the
        postings; many postings (more than ``num_docs / BINCOUNT_RATIO``) go through
        ``np.bincount``, which adds in input order from 0.0 too, and is cheaper per posting.
        """
        docs, weights, n = self.index.doc_index, self.weights, self.index.num_docs
        scaled = [weights[lo:hi] if factors is None or factors[i] == 1 else weights[lo:hi] * factors[i]
                  for i, (lo, hi) in enumerate(spans)]
        if sum(hi - lo for lo, hi in spans) * BINCOUNT_RATIO > n:
            listed = np.concatenate([docs[lo:hi] for lo, hi in spans])
            return np.bincount(listed, weights=np.concatenate(scaled), minlength=n)[touched]
        acc = self._take_accumulator()
        for (lo, hi), added in zip(spans, scaled):
            np.add.at(acc, docs[lo:hi], added)
        sums = acc[touched]
        acc[touched] = 0.0
        self._accumulators.append(acc)
        return sums

    def _spans(self, term_ids: Sequence[int]) -> list[tuple[int, int]]:
        """The non-empty posting ranges of the tokens, in query order (repeats kept)."""
        indptr = self.index.indptr
        spans = [(int(indptr[t]), int(indptr[t + 1])) for t in term_ids]
        return [(lo, hi) for lo, hi in spans if hi > lo]

    def _touched(self, spans: Sequence[tuple[int, int]]) -> np.ndarray:
        """The documents of the spans' postings, one entry per posting (so repeats occur)."""
        docs = self.index.doc_index
        if len(spans) == 1:
            return docs[spans[0][0]:spans[0][1]]
        return np.concatenate([docs[lo:hi] for lo, hi in spans])

    def sparse_scores(self, term_ids: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """``(positions, scores)`` of every document sharing a token, positions ascending.

        Work follows the postings touched (the accumulator is zeroed where it was written).
        Scores equal :meth:`score_ids` at those positions bit for bit.
        """
        spans = self._spans(term_ids)
        if not spans:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float64)
        distinct = list(dict.fromkeys(spans))
        touched = self._touched(distinct)
        positions = touched if len(distinct) == 1 else distinct_sorted(touched)
        return positions.astype(np.int64), self._accumulate(spans, positions)

    def _use_sparse(self, term_ids: Sequence[int]) -> bool:
        return self.postings_touched(term_ids) * SPARSE_RATIO <= self.index.num_docs

    def _positive(self, term_ids: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """``(positions, scores)`` of all documents with score > 0, by the cheaper path."""
        if self._use_sparse(term_ids):
            return self.sparse_scores(term_ids)
        dense = self.score_ids(term_ids)
        hits = np.flatnonzero(dense > 0.0)
        return hits, dense[hits]

    def scores(self, query_tokens: Sequence[str]) -> dict[str, float]:
        """``{doc_id: score}`` for every document sharing a query token (score > 0)."""
        positions, values = self._positive(self.term_ids(query_tokens))
        ids = self.index.doc_ids
        return {ids[i]: s for i, s in zip(positions.tolist(), values.tolist())}

    def ranked(self, query_tokens: Sequence[str]) -> list[tuple[str, float]]:
        """The full BM25 candidate list: every document with score > 0, score desc, doc_id asc."""
        positions, values = self._positive(self.term_ids(query_tokens))
        order = np.lexsort((self.id_rank[positions], -values))
        ids = self.index.doc_ids
        return [(ids[i], s) for i, s in zip(positions[order].tolist(), values[order].tolist())]

    def top_k(self, query_tokens: Sequence[str], k: int) -> list[tuple[str, float]]:
        """The first ``k`` entries of :meth:`ranked` (ties at the cut decided by doc_id)."""
        return self.top_k_ids(self.term_ids(query_tokens), k)

    def top_k_ids(self, term_ids: Sequence[int], k: int) -> list[tuple[str, float]]:
        """:meth:`top_k` for index token ids (in query order, repeats counted)."""
        if k <= 0:
            return []
        k = min(k, self.index.num_docs)
        ids = self.index.doc_ids
        found = self._top_k_without_dense(term_ids, k)
        if found is not None:
            positions, values = found
            return [(ids[i], s) for i, s in zip(positions.tolist(), values.tolist())]
        dense = self.score_ids(term_ids)
        positions = self.top_k_positions(dense, k)
        return [(ids[i], float(dense[i])) for i in positions]

    def _top_k_without_dense(self, term_ids: Sequence[int], k: int) -> tuple[np.ndarray, np.ndarray] | None:
        """The top k by the cheapest path that avoids the dense accumulator, or None when the
        dense path is cheaper: MaxScore for queries with many postings; then, compiled, the full
        accumulation up to as many postings as documents (beyond that, the dense rows'
        vectorised additions win), or with numpy only, the sparse path."""
        n = self.index.num_docs
        touched = self.postings_touched(term_ids)
        kernels = self._compiled_kernels()
        if touched > n * (COMPILED_MAX_RATIO if kernels is not None else PRUNED_MIN_RATIO):
            found = self._top_k_pruned(term_ids, k)
            if found is not None:
                return found
        if kernels is not None:
            return self._top_k_compiled(term_ids, k) if touched <= n else None
        return self._top_k_sparse(term_ids, k) if touched * SPARSE_RATIO <= n else None

    def _top_k_compiled(self, term_ids: Sequence[int], k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k by the compiled accumulation (:func:`engine.retrieval.bm25_compiled.top_k_accumulated`)."""
        try:
            acc, touched = self._kernel_scratch.pop()
        except IndexError:
            n = self.index.num_docs
            acc, touched = np.zeros(n, dtype=np.float64), np.empty(n, dtype=np.int64)
        found = self._kernels.top_k_accumulated(self.index.indptr, self.index.doc_index, self.weights, self.id_rank,
                                                np.asarray(term_ids, dtype=np.int64), k, acc, touched)
        self._kernel_scratch.append((acc, touched))     # zeroed again by the kernel
        return found

    def _best(self, positions: np.ndarray, values: np.ndarray, k: int,
              copies: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """The best ``k`` distinct documents of candidate (positions, scores): score desc, doc_id
        asc, exact at the cut.

        A document may be listed up to ``copies`` times (always with the same score). The
        ``k * copies``-th largest listed score is then at most the k-th largest document score
        (more than ``(k - 1) * copies`` entries above it would need k documents above it), so
        keeping the entries at or above it keeps the top k, and every document tying the k-th
        score, whose doc_id decides at the cut.
        """
        n, cut = positions.shape[0], k * copies
        if n > max(cut, SORT_ALL):
            kth = np.partition(values, n - cut)[n - cut]
            keep = values >= kth
            positions, values = positions[keep], values[keep]
        if copies > 1:
            order = np.argsort(positions, kind="stable")
            positions, values = positions[order], values[order]
            first = np.concatenate(([True], positions[1:] != positions[:-1]))
            positions, values = positions[first], values[first]
        order = np.lexsort((self.id_rank[positions], -values))[:k]
        return positions[order].astype(np.int64), values[order]

    def _top_k_sparse(self, term_ids: Sequence[int], k: int) -> tuple[np.ndarray, np.ndarray]:
        spans = self._spans(term_ids)
        if not spans:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float64)
        distinct = list(dict.fromkeys(spans))    # a repeated token's documents are listed once
        touched = self._touched(distinct)
        return self._best(touched, self._accumulate(spans, touched), k, copies=len(distinct))

    def _top_k_pruned(self, term_ids: Sequence[int], k: int) -> tuple[np.ndarray, np.ndarray] | None:
        """Top-k of a query with frequent tokens without scoring the whole collection (MaxScore,
        Turtle & Flood 1995), or None when the bound does not prune.

        A split of the query's tokens into *essential* and other tokens makes the documents in
        the essential tokens' postings the candidates; a document outside them holds only the
        other tokens, so its score is at most the sum of their upper bounds (count in the query
        × the token's largest weight). When that sum is below the k-th candidate score, no
        outside document reaches the top k (nor ties with it), and the candidates' top k is
        the answer. Two splits are tried:

        1. the tokens with the shortest posting lists, together at most ``num_docs /
           PRUNE_RATIO`` postings, are essential;
        2. if that does not prune, its k-th candidate score is a lower bound of the k-th score,
           and the longest lists whose upper bounds sum below it are the other tokens (MaxScore's
           split), when the essential postings stay within ``num_docs / SECOND_PASS_RATIO``.
        """
        indptr = self.index.indptr
        counts: dict[int, int] = {}
        for term in term_ids:
            counts[term] = counts.get(term, 0) + 1
        postings = {t: int(indptr[t + 1] - indptr[t]) * c for t, c in counts.items()}
        bounds = {t: c * float(self.max_weight[t]) for t, c in counts.items()}
        by_length = sorted(counts, key=lambda t: (postings[t], t))
        budget = self.index.num_docs // PRUNE_RATIO
        essential: list[int] = []
        for term in by_length:
            if postings[term] > budget:
                break
            budget -= postings[term]
            essential.append(term)
        if not essential:
            return None
        evaluate = self._top_k_of_split_compiled if self._compiled_kernels() is not None else self._top_k_of_candidates
        found, floor = evaluate(term_ids, counts, bounds, essential, k, 0.0)
        if found is not None or floor <= 0.0:
            return found
        others, rest = [], 0.0
        for term in reversed(by_length):      # longest lists first: fewest candidates
            if (rest + bounds[term]) * (1.0 + 1e-9) < floor:
                rest += bounds[term]
                others.append(term)
        essential = [t for t in by_length if t not in others]
        if not others or sum(postings[t] for t in essential) * SECOND_PASS_RATIO > self.index.num_docs:
            return None
        return evaluate(term_ids, counts, bounds, essential, k, floor)[0]

    def _top_k_of_candidates(self, term_ids: Sequence[int], counts: dict[int, int], bounds: dict[int, float],
                             essential: list[int], k: int,
                             floor: float) -> tuple[tuple[np.ndarray, np.ndarray] | None, float]:
        """``(top k, k-th score)`` when the essential split prunes, else ``(None, a lower bound
        of the k-th score)``. ``floor`` is a known lower bound of the k-th score (or 0.0).

        The candidates that :meth:`_filter_by_bounds` keeps are scored exactly, every token's
        weight looked up and added in query order with 0.0 where absent, so the sums equal the
        dense accumulator's bit for bit.
        """
        indptr = self.index.indptr
        rest_bound = sum(b for t, b in bounds.items() if t not in essential)
        spans = [(int(indptr[t]), int(indptr[t + 1])) for t in essential]
        touched = self._touched(spans)
        if touched.shape[0] > FILTER_MIN:
            touched, floor = self._filter_by_bounds(touched, spans, counts, bounds, essential, rest_bound, k, floor)
        candidates = distinct_sorted(touched) if len(essential) > 1 else touched
        if candidates.shape[0] < k:
            return None, floor
        positions, values = self._best(candidates, self._exact_scores(term_ids, candidates), k)
        if not rest_bound * (1.0 + 1e-9) < values[-1]:
            return None, float(values[-1])
        return (positions, values), float(values[-1])

    def _top_k_of_split_compiled(self, term_ids: Sequence[int], counts: dict[int, int], bounds: dict[int, float],
                                 essential: list[int], k: int,
                                 floor: float) -> tuple[tuple[np.ndarray, np.ndarray] | None, float]:
        """:meth:`_top_k_of_candidates` by the compiled MaxScore
        (:func:`engine.retrieval.bm25_compiled.top_k_maxscore`): the same contract and result."""
        distinct = list(counts)
        slot = {t: i for i, t in enumerate(distinct)}
        chosen = set(essential)
        refine = sorted((t for t in distinct if t not in chosen), key=lambda t: (-bounds[t], t))
        positions, values, kth = self._kernels.top_k_maxscore(
            self.index.indptr, self.index.doc_index, self.weights, self.id_rank,
            np.array([slot[t] for t in term_ids], dtype=np.int64), np.array(distinct, dtype=np.int64),
            np.array([counts[t] for t in distinct], dtype=np.float64),
            np.array([bounds[t] for t in distinct], dtype=np.float64),
            np.array([t in chosen for t in distinct], dtype=np.bool_),
            np.array([slot[t] for t in refine], dtype=np.int64), k, floor)
        return ((positions, values) if positions.shape[0] else None), float(kth)

    def _filter_by_bounds(self, touched: np.ndarray, spans: list[tuple[int, int]], counts: dict[int, int],
                          bounds: dict[int, float], essential: list[int], rest: float, k: int,
                          floor: float) -> tuple[np.ndarray, float]:
        """The candidates (listed as in ``touched``) that can still reach the top k, and the
        raised lower bound of the k-th score.

        A candidate's partial sum (each essential token's weight × its count in the query) is
        at most its full score, so the k-th largest partial sum of distinct documents bounds
        the k-th score from below (the ``k × len(essential)``-th of the listing does not exceed
        it; see :meth:`_best`), as does ``floor``. A candidate whose partial sum plus the other
        tokens' upper bounds stays below that bound (with a 1e-9 relative margin for summation
        order) can neither reach the top k nor tie with it (``rest`` is the sum of those bounds).
        While many candidates remain, the
        other tokens' exact weights replace their bounds one token at a time, largest bound
        first: most candidates lack a rarer token and lose its bound.
        """
        partial = self._accumulate(spans, touched, [counts[t] for t in essential])
        n, cut = touched.shape[0], k * len(essential)
        if n > cut:
            floor = max(floor, float(np.partition(partial, n - cut)[n - cut]))
        keep = (partial + rest) * (1.0 + 1e-9) >= floor * (1.0 - 1e-9)
        touched, partial = touched[keep], partial[keep]
        for term in sorted((t for t in bounds if t not in essential), key=lambda t: (-bounds[t], t)):
            if touched.shape[0] <= REFINE_MIN:
                break
            partial = partial + counts[term] * self._weights_of(term, touched)
            rest -= bounds[term]
            keep = (partial + rest) * (1.0 + 1e-9) >= floor * (1.0 - 1e-9)
            touched, partial = touched[keep], partial[keep]
        return touched, floor

    def _exact_scores(self, term_ids: Sequence[int], positions: np.ndarray) -> np.ndarray:
        """The scores of the documents at ``positions`` (ascending), every token's weight looked
        up and added in query order with 0.0 where absent: the dense accumulator's sums."""
        wide = positions.astype(np.intp)     # gathers index faster with native integers
        values = np.zeros(positions.shape[0], dtype=np.float64)
        looked_up: dict[int, np.ndarray] = {}
        for term in term_ids:
            if term not in looked_up:
                looked_up[term] = self._weights_of(term, positions, wide)
            values += looked_up[term]
        return values

    def _weights_of(self, term: int, positions: np.ndarray, wide: np.ndarray | None = None) -> np.ndarray:
        """The weight of ``term`` in each document of ``positions``, 0.0 where absent.

        ``positions`` has the index's position dtype (a binary search with other keys would
        convert the whole posting list); ``wide``, the same positions as ``np.intp``, when given,
        serves the dense-row gather.
        """
        row = self._dense_rows.get(term)
        if row is not None:
            return row[positions if wide is None else wide]
        lo, hi = int(self.index.indptr[term]), int(self.index.indptr[term + 1])
        listed = self.index.doc_index[lo:hi]
        slot = listed.searchsorted(positions)
        np.minimum(slot, hi - lo - 1, out=slot)
        return np.where(listed[slot] == positions, self.weights[lo:hi][slot], 0.0)

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
            # scores are >= 0, and non-negative float64s order like their bit patterns read as
            # int64: the integer maximum is the same element, and cheaper (no NaN handling)
            view = dense[:full].view(np.int64).reshape(TOP_K_BLOCK, -1)
            group_max = view.max(axis=0)
            bits = np.partition(group_max, group_max.shape[0] - k)[group_max.shape[0] - k]
            threshold = float(np.int64(bits).view(np.float64))
            if threshold > 0.0:
                columns = np.flatnonzero(group_max >= bits)
                rows, picked = np.nonzero(view[:, columns] >= bits)
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
        order = np.lexsort((self.id_rank[cand], -dense[cand]))
        return cand[order[:k]]
