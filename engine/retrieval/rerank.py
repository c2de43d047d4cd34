"""A transparent fixed-set reranker: reorder a topic's hybrid top-``depth``, never widen it.

Feature (query-token coverage, a bag-of-words overlap in the spirit of the coordination level
match of Salton & McGill 1983, "Introduction to Modern Information Retrieval"):

    coverage(q, d) = |distinct(q) ∩ set(d)| / |distinct(q)|        in [0, 1]

    final(d) = (1 − w) · hybrid(d) + w · coverage(q, d)

Conventions:

* candidates are exactly the first ``depth`` entries of the hybrid list (fewer if it is shorter);
* the reranked list contains exactly those candidates: no document enters or leaves
  (checked in code; a violation raises AssertionError, also under ``python -O``);
* order: final score descending, then doc_id ascending (:func:`engine.retrieval.ranking.order_by_score`);
* an empty query-token set has coverage 0 (the sandbox rejects such topics beforehand).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

from engine.retrieval.ranking import order_by_score


def coverage(query_tokens: Sequence[str], doc_tokens: Set[str]) -> float:
    """Share of the query's distinct tokens present in the document's token set."""
    distinct = set(query_tokens)
    if not distinct:
        return 0.0
    return len(distinct & doc_tokens) / len(distinct)


def rerank(hybrid: Sequence[tuple[str, float]], query_tokens: Sequence[str],
           doc_tokens: Mapping[str, Set[str]], depth: int, weight: float) -> list[tuple[str, float]]:
    """Reorder the hybrid top-``depth`` by ``(1 − weight)·hybrid + weight·coverage``."""
    if depth < 1:
        raise ValueError(f"candidate depth must be >= 1, got {depth}")
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"rerank weight must lie in [0, 1], got {weight}")
    candidates = list(hybrid[:depth])
    final = {doc: (1.0 - weight) * score + weight * coverage(query_tokens, doc_tokens[doc])
             for doc, score in candidates}
    reranked = order_by_score(final)
    # an explicit check rather than ``assert``: it must hold under ``python -O`` too
    if len(reranked) != len(candidates) or {d for d, _ in reranked} != {d for d, _ in candidates}:
        raise AssertionError("reranker changed the candidate set")
    return reranked
