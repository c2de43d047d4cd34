"""Compiled BM25 top-k, used when numba is installed (the ``fast`` extra).

numpy's scatter-add and per-query calls cost 7-20 ns a posting and a few microseconds a call
on this project's machines; a compiled loop costs about 1 ns a posting and no calls. Two
kernels serve ``BM25.top_k_ids`` (which decides; the results are the numpy scorer's, bit for
bit, tested in ``tests/test_bm25.py``):

* :func:`top_k_accumulated`, for queries touching at most ``num_docs * COMPILED_MAX_RATIO``
  postings (and as the fall-back): each token's posting weights are added into a zeroed
  accumulator in query order, every document's sum starting from 0.0 -- the additions of the
  dense numpy accumulator, in the same order, so the scores are the same doubles -- and the
  accumulator is zeroed again where it was written;
* :func:`top_k_maxscore`, for larger queries: MaxScore over the essential tokens' postings,
  merged in doc order, other tokens' weights found by cursors walking their lists forward.

Both keep the best ``k`` in a bounded heap ordered by the project's tie rule: score
descending, then the document's rank in doc_id order ascending.

numba is optional: without it (or with ``CHAPTER_AUDIT_COMPILED=0`` in the environment)
:func:`load_kernels` returns None and BM25 uses numpy only. The kernels are compiled on first
use and cached on disk by numba (``cache=True``); ``BM25`` only asks for them for collections
of at least ``COMPILED_MIN_DOCS`` documents, so small runs never pay the compilation. The
functions are plain Python and numpy, so they also run uncompiled (tested).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

SCAN_ALL_RATIO = 4     # scan the whole accumulator when postings >= num_docs / SCAN_ALL_RATIO


class Kernels(NamedTuple):
    """The compiled functions (numba dispatchers)."""
    top_k_accumulated: Callable
    top_k_maxscore: Callable


_KERNELS: Kernels | None = None
_LOADED = False


def load_kernels() -> Kernels | None:
    """The compiled kernels, or None when numba is absent or ``CHAPTER_AUDIT_COMPILED=0``."""
    global _KERNELS, _LOADED
    global _keep, _sort_best_first, _weight_at, _add_postings, _add_postings_listing, _best_of_all, _best_of_listed
    if not _LOADED:
        _LOADED = True
        if os.environ.get("CHAPTER_AUDIT_COMPILED", "1") != "0":
            try:
                import numba
            except Exception:    # absent, or broken (e.g. built for another numpy): numpy only
                numba = None
            if numba is not None:
                def jit(function: Callable) -> Callable:
                    try:
                        return numba.njit(cache=True, nogil=True)(function)
                    except RuntimeError:     # no writable cache directory: compile in each process
                        return numba.njit(nogil=True)(function)

                # helpers first: the kernels resolve these module globals when they compile
                _keep, _sort_best_first, _weight_at = jit(_keep), jit(_sort_best_first), jit(_weight_at)
                _add_postings, _add_postings_listing = jit(_add_postings), jit(_add_postings_listing)
                _best_of_all, _best_of_listed = jit(_best_of_all), jit(_best_of_listed)
                _KERNELS = Kernels(jit(top_k_accumulated), jit(top_k_maxscore))
    return _KERNELS


def _keep(heap_pos: np.ndarray, heap_val: np.ndarray, heap_rank: np.ndarray, count: int, k: int,
          d: int, value: float, rank: int) -> int:
    """Offer document ``d`` to the bounded min-heap of the best ``k`` (root: the worst kept,
    by score ascending, then doc_id rank descending); returns the new count."""
    if count < k:                                  # push, then sift up
        j = count
        while j > 0:
            parent = (j - 1) // 2
            if heap_val[parent] < value or (heap_val[parent] == value and heap_rank[parent] > rank):
                break                              # the parent is worse: the heap holds
            heap_pos[j], heap_val[j], heap_rank[j] = heap_pos[parent], heap_val[parent], heap_rank[parent]
            j = parent
        heap_pos[j], heap_val[j], heap_rank[j] = d, value, rank
        return count + 1
    if value < heap_val[0] or (value == heap_val[0] and rank > heap_rank[0]):
        return count                               # not better than the worst kept
    j = 0                                          # replace the worst, then sift down
    while True:
        child = 2 * j + 1
        if child >= k:
            break
        if child + 1 < k and (heap_val[child + 1] < heap_val[child] or (
                heap_val[child + 1] == heap_val[child] and heap_rank[child + 1] > heap_rank[child])):
            child += 1                             # the worse child
        if value < heap_val[child] or (value == heap_val[child] and rank > heap_rank[child]):
            break
        heap_pos[j], heap_val[j], heap_rank[j] = heap_pos[child], heap_val[child], heap_rank[child]
        j = child
    heap_pos[j], heap_val[j], heap_rank[j] = d, value, rank
    return count


def _sort_best_first(heap_pos: np.ndarray, heap_val: np.ndarray, heap_rank: np.ndarray, count: int) -> None:
    """Order the first ``count`` kept entries best first (score desc, doc_id rank asc) in place:
    an insertion sort, since ``count`` is at most k."""
    for i in range(1, count):
        pos, value, rank = heap_pos[i], heap_val[i], heap_rank[i]
        j = i - 1
        while j >= 0 and (heap_val[j] < value or (heap_val[j] == value and heap_rank[j] > rank)):
            heap_pos[j + 1], heap_val[j + 1], heap_rank[j + 1] = heap_pos[j], heap_val[j], heap_rank[j]
            j -= 1
        heap_pos[j + 1], heap_val[j + 1], heap_rank[j + 1] = pos, value, rank


def _add_postings(indptr: np.ndarray, doc_index: np.ndarray, weights: np.ndarray, terms: np.ndarray,
                  acc: np.ndarray) -> None:
    """Add the terms' posting weights into ``acc``, in query order."""
    for t in terms:
        for p in range(indptr[t], indptr[t + 1]):
            acc[doc_index[p]] += weights[p]


def _add_postings_listing(indptr: np.ndarray, doc_index: np.ndarray, weights: np.ndarray, terms: np.ndarray,
                          acc: np.ndarray, touched: np.ndarray) -> int:
    """:func:`_add_postings`, listing each document in ``touched`` when first reached (weights
    are positive, so a document is new while its sum is 0.0); returns how many were listed."""
    n_touched = 0
    for t in terms:
        for p in range(indptr[t], indptr[t + 1]):
            d = doc_index[p]
            if acc[d] == 0.0:
                touched[n_touched] = d
                n_touched += 1
            acc[d] += weights[p]
    return n_touched


def _best_of_all(acc: np.ndarray, id_rank: np.ndarray, k: int, heap_pos: np.ndarray, heap_val: np.ndarray,
                 heap_rank: np.ndarray) -> int:
    """Offer every positive sum of ``acc`` to the heap, zeroing ``acc``; returns the count kept.

    Once the heap is full, a tight loop skips the sums below its worst (no call inside it:
    compiled, a loop that may call the heap runs several times slower)."""
    count, d, n = 0, 0, acc.shape[0]
    while d < n:
        if count == k:
            root = heap_val[0]
            while d < n and acc[d] < root:
                acc[d] = 0.0
                d += 1
            if d == n:
                break
        value = acc[d]
        acc[d] = 0.0
        if value > 0.0:
            count = _keep(heap_pos, heap_val, heap_rank, count, k, d, value, id_rank[d])
        d += 1
    return count


def _best_of_listed(acc: np.ndarray, touched: np.ndarray, n_touched: int, id_rank: np.ndarray, k: int,
                    heap_pos: np.ndarray, heap_val: np.ndarray, heap_rank: np.ndarray) -> int:
    """Offer the listed documents' sums to the heap, zeroing them; returns the count kept
    (the same tight skip loop as :func:`_best_of_all`)."""
    count, i = 0, 0
    while i < n_touched:
        if count == k:
            root = heap_val[0]
            while i < n_touched and acc[touched[i]] < root:
                acc[touched[i]] = 0.0
                i += 1
            if i == n_touched:
                break
        d = touched[i]
        value = acc[d]
        acc[d] = 0.0
        count = _keep(heap_pos, heap_val, heap_rank, count, k, d, value, id_rank[d])
        i += 1
    return count


def top_k_accumulated(indptr: np.ndarray, doc_index: np.ndarray, weights: np.ndarray, id_rank: np.ndarray,
                      terms: np.ndarray, k: int, acc: np.ndarray,
                      touched: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(positions, scores)`` of the best ``k`` documents sharing a token with the query.

    ``terms`` are index token ids in query order (repeats counted); ``acc`` is a zeroed
    float64 array of collection size and is zeroed again on return; ``touched`` is an int64
    scratch array of collection size. Order: score descending, then ``id_rank`` ascending
    (doc_id order).

    When the query's postings number at least a quarter of the collection, most documents are
    touched, and one sequential pass over the accumulator is cheaper than listing them (no
    branch per posting, no random reads); otherwise only the touched documents are visited.
    Plain Python and numpy, so that numba compiles it and the tests can also run it as is.
    """
    if k <= 0:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float64)
    heap_pos = np.empty(k, dtype=np.int64)        # a min-heap: the root is the worst kept document
    heap_val = np.empty(k, dtype=np.float64)
    heap_rank = np.empty(k, dtype=np.int64)
    postings = 0
    for t in terms:
        postings += indptr[t + 1] - indptr[t]
    if postings * SCAN_ALL_RATIO >= acc.shape[0]:
        _add_postings(indptr, doc_index, weights, terms, acc)
        count = _best_of_all(acc, id_rank, k, heap_pos, heap_val, heap_rank)
    else:
        n_touched = _add_postings_listing(indptr, doc_index, weights, terms, acc, touched)
        count = _best_of_listed(acc, touched, n_touched, id_rank, k, heap_pos, heap_val, heap_rank)
    _sort_best_first(heap_pos, heap_val, heap_rank, count)
    return heap_pos[:count], heap_val[:count]


def _weight_at(doc_index: np.ndarray, weights: np.ndarray, cursor: np.ndarray, end: np.ndarray, j: int,
               d: int) -> float:
    """The weight of list ``j`` for document ``d`` (0.0 where absent), moving the list's cursor
    forward to the first posting at or after ``d`` (galloping, then binary search): documents
    are asked for in ascending order, so each list is walked once."""
    lo, hi = cursor[j], end[j]
    if lo >= hi or doc_index[lo] >= d:
        return weights[lo] if lo < hi and doc_index[lo] == d else 0.0
    step = 1                                       # doc_index[lo] < d: gallop
    while lo + step < hi and doc_index[lo + step] < d:
        lo += step
        step *= 2
    top = min(lo + step, hi)                       # doc_index[lo] < d <= doc_index[top] (or top == hi)
    while top - lo > 1:
        mid = (lo + top) // 2
        if doc_index[mid] < d:
            lo = mid
        else:
            top = mid
    cursor[j] = top
    return weights[top] if top < hi and doc_index[top] == d else 0.0


def top_k_maxscore(indptr: np.ndarray, doc_index: np.ndarray, weights: np.ndarray, id_rank: np.ndarray,
                   slots: np.ndarray, distinct: np.ndarray, counts: np.ndarray, bounds: np.ndarray,
                   essential: np.ndarray, refine: np.ndarray, k: int,
                   floor: float) -> tuple[np.ndarray, np.ndarray, float]:
    """MaxScore (Turtle & Flood 1995) top-k: ``(positions, scores, kth)``, or empty arrays and a
    lower bound of the k-th score when the split does not prune (then the caller falls back).

    The query's distinct tokens are ``distinct`` (``counts``: occurrences in the query,
    ``bounds``: count × largest weight); ``slots`` gives each query token, in query order, its
    index in ``distinct``. The documents of the ``essential`` tokens are the candidates, visited
    in doc order by merging those posting lists, each with its partial sum (weight × count).
    A candidate is skipped once its partial sum plus the other tokens' bounds falls below the
    k-th score found so far (``floor`` at first; the other tokens' exact weights replace their
    bounds one at a time, in the order of ``refine``, largest bound first). The rest are scored
    exactly, every token's weight added in query order from 0.0 (the sums of the dense
    accumulator), and offered to the bounded heap of the best ``k`` (score desc, doc_id rank
    asc). A document outside the candidates scores at most the other tokens' bounds, so the
    heap is the answer when that sum is below its k-th score. Every comparison with a bound
    keeps a 1e-9 relative margin for summation order. Weights are looked up by walking each
    list forward with a cursor (:func:`_weight_at`), so each list is read at most once.
    """
    n_distinct = distinct.shape[0]
    cursor = np.empty(n_distinct, dtype=np.int64)     # lookups of the exact weights
    end = np.empty(n_distinct, dtype=np.int64)
    head = np.empty(n_distinct, dtype=np.int64)       # the merge of the essential lists
    rest = 0.0
    for j in range(n_distinct):
        cursor[j], end[j] = indptr[distinct[j]], indptr[distinct[j] + 1]
        head[j] = cursor[j]
        if not essential[j]:
            rest += bounds[j]
    heap_pos = np.empty(k, dtype=np.int64)
    heap_val = np.empty(k, dtype=np.float64)
    heap_rank = np.empty(k, dtype=np.int64)
    count = 0
    theta = floor
    n_docs = id_rank.shape[0]
    while True:
        d = n_docs                                      # the next candidate: the least head
        for j in range(n_distinct):
            if essential[j] and head[j] < end[j] and doc_index[head[j]] < d:
                d = doc_index[head[j]]
        if d == n_docs:
            break
        partial = 0.0
        for j in range(n_distinct):
            if essential[j] and head[j] < end[j] and doc_index[head[j]] == d:
                partial += weights[head[j]] * counts[j]
                head[j] += 1
        if (partial + rest) * (1.0 + 1e-9) < theta * (1.0 - 1e-9):
            continue
        remaining = rest
        hopeless = False
        for r in range(refine.shape[0]):
            j = refine[r]
            partial += counts[j] * _weight_at(doc_index, weights, cursor, end, j, d)
            remaining -= bounds[j]
            if (partial + remaining) * (1.0 + 1e-9) < theta * (1.0 - 1e-9):
                hopeless = True
                break
        if hopeless:
            continue
        score = 0.0
        for i in range(slots.shape[0]):
            score += _weight_at(doc_index, weights, cursor, end, slots[i], d)
        count = _keep(heap_pos, heap_val, heap_rank, count, k, d, score, id_rank[d])
        if count == k and heap_val[0] > theta:
            theta = heap_val[0]
    if count < k or not rest * (1.0 + 1e-9) < heap_val[0]:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float64), (heap_val[0] if count == k else floor)
    kth = heap_val[0]
    _sort_best_first(heap_pos, heap_val, heap_rank, count)
    return heap_pos, heap_val, kth
