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
"""

from __future__ import annotations

from collections.abc import Sequence

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
