"""Score-level fusion of two ranked lists: min–max normalisation, then a weighted sum.

Method: CombSUM-style linear combination of normalised scores (Fox & Shaw 1994, "Combination
of Multiple Searches", TREC-2, NIST SP 500-215) with per-list min–max normalisation
(Lee 1997, "Analyses of Multiple Evidence Combination", SIGIR '97):

    norm(s) = (s - min) / (max - min)            over one topic's list
    hybrid(d) = alpha * bm25_norm(d) + (1 - alpha) * supplied_norm(d)

Conventions:

* each list is normalised over its own documents only (its max → 1, its min → 0);
* a list whose scores are all equal (including a one-document list) normalises to 0 for
  every document: it carries no ordering information;
* the candidate set is the union of both lists; a document missing from one list gets 0 for
  that component (the same value as that list's minimum);
* order: hybrid score descending, then doc_id ascending (:func:`engine.retrieval.ranking.order_by_score`).

Other fusion methods (``sandbox run --fusion``; checked against ranx's ``fuse`` in
``tests/comparison/test_fusion_peer.py``), over the same candidate union:

* ``rrf``: reciprocal rank fusion (Cormack, Clarke & Büttcher 2009, "Reciprocal rank fusion
  outperforms Condorcet and individual rank learning methods", SIGIR '09):
  ``Σ_lists 1 / (k + rank)``, ranks from 1 in each list's own order (score as written
  descending, then id), ``k`` = 60 by default; a document absent from a list adds nothing;
* ``combsum``: ``Σ_lists norm(s)`` (Fox & Shaw 1994), min–max normalised as above, no weight;
* ``combmnz``: ``combsum × (number of lists that hold the document)`` (Fox & Shaw 1994).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.retrieval.ranking import order_by_score

RankedList = Sequence[tuple[str, float]]


def min_max_normalise(ranked: RankedList) -> dict[str, float]:
    """``{doc: (s - min) / (max - min)}`` over one list; all 0 when max == min (or empty)."""
    if not ranked:
        return {}
    scores = [score for _, score in ranked]
    low, high = min(scores), max(scores)
    if high == low:
        return {doc: 0.0 for doc, _ in ranked}
    span = high - low
    return {doc: (score - low) / span for doc, score in ranked}


def fuse(bm25: RankedList, supplied: RankedList, alpha: float) -> list[tuple[str, float]]:
    """Hybrid list over the union of both lists: ``alpha·bm25_norm + (1 − alpha)·supplied_norm``."""
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"hybrid alpha must lie in [0, 1], got {alpha}")
    left, right = min_max_normalise(bm25), min_max_normalise(supplied)
    fused = {doc: alpha * left.get(doc, 0.0) + (1.0 - alpha) * right.get(doc, 0.0)
             for doc in set(left) | set(right)}
    return order_by_score(fused)


FUSION_METHODS = ("minmax", "rrf", "combsum", "combmnz")
DEFAULT_RRF_K = 60


def reciprocal_rank_fusion(lists: Sequence[RankedList], k: float = DEFAULT_RRF_K) -> list[tuple[str, float]]:
    """RRF over best-first lists: ``Σ 1 / (k + rank)`` (ranks from 1, as each list is ordered)."""
    if not k >= 0:
        raise ValueError(f"RRF k must be >= 0, got {k}")
    fused: dict[str, float] = {}
    for ranked in lists:
        for rank, (doc, _) in enumerate(ranked, start=1):
            fused[doc] = fused.get(doc, 0.0) + 1.0 / (k + rank)
    return order_by_score(fused)


def comb_sum(lists: Sequence[RankedList]) -> list[tuple[str, float]]:
    """CombSUM of min–max normalised scores (absent: 0)."""
    fused: dict[str, float] = {}
    for ranked in lists:
        for doc, score in min_max_normalise(ranked).items():
            fused[doc] = fused.get(doc, 0.0) + score
    return order_by_score(fused)


def comb_mnz(lists: Sequence[RankedList]) -> list[tuple[str, float]]:
    """CombMNZ: CombSUM times the number of lists that hold the document."""
    hits: dict[str, int] = {}
    for ranked in lists:
        for doc, _ in ranked:
            hits[doc] = hits.get(doc, 0) + 1
    return order_by_score({doc: score * hits[doc] for doc, score in comb_sum(lists)})


def fuse_arrays(method: str, lists: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]],
                rrf_k: float = DEFAULT_RRF_K) -> tuple[np.ndarray, np.ndarray]:
    """``rrf``/``combsum``/``combmnz`` on lists held as arrays ``(positions, scores, ranks)``
    (ranks from 1; only ``rrf`` reads them): the union's positions (ascending) and fused scores,
    the same values as :func:`reciprocal_rank_fusion`, :func:`comb_sum`, :func:`comb_mnz`."""
    if method not in FUSION_METHODS[1:]:
        raise ValueError(f"unknown fusion method {method!r}")
    union = np.unique(np.concatenate([positions for positions, _, _ in lists])) if lists else np.zeros(0, np.int64)
    total = np.zeros(union.size, dtype=np.float64)
    count = np.zeros(union.size, dtype=np.int64)
    for positions, scores, ranks in lists:
        at = np.searchsorted(union, positions)
        if method == "rrf":
            total[at] += 1.0 / (rrf_k + ranks.astype(np.float64))
        else:
            if scores.size:
                low, high = scores.min(), scores.max()
                if high != low:
                    total[at] += (scores - low) / (high - low)
        count[at] += 1
    if method == "combmnz":
        total = total * count
    return union, total
