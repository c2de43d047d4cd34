"""Recall@k and NDCG@k over graded judgments.

Conventions (README "Conventions"):

* gain ``2**grade - 1`` (exponential gain, Burges et al. 2005, "Learning to rank using
  gradient descent", ICML; the ``ndcg_burges`` of ranx) for a positive grade and 0 for a grade
  <= 0 (negative grades count as non-relevant with gain 0, the trec_eval convention); grades
  may be non-integer;
* discount ``log2(rank + 1)`` with ranks from 1;
* the ideal DCG ranks *all* judged grades of the topic (not only retrieved ones), best first;
* pairs absent from the judgments have gain 0; a topic whose ideal DCG is 0 has NDCG 0;
* Recall@k = |relevant ∩ top-k| / |relevant|, relevant meaning grade > 0; a topic with no
  relevant document has recall 0 (it should not occur: such topics are rejected by callers);
* macro averages give each topic equal weight (arithmetic mean over topics).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence


def gain(grade: float) -> float:
    """Exponential gain ``2**grade - 1`` for ``grade > 0``; 0 for a zero or negative grade."""
    return 2.0 ** grade - 1.0 if grade > 0 else 0.0


def discount(rank: int) -> float:
    """``log2(rank + 1)`` for a one-based rank."""
    return math.log2(rank + 1)


def dcg(grades_in_rank_order: Iterable[float]) -> float:
    return sum(gain(g) / discount(rank) for rank, g in enumerate(grades_in_rank_order, start=1))


def ndcg_at_k(ranking: Sequence[str], judgments: Mapping[str, float], k: int) -> float:
    """NDCG@k of one ranked list against one topic's graded judgments."""
    actual = dcg(judgments.get(doc, 0.0) for doc in ranking[:k])
    ideal = dcg(sorted(judgments.values(), reverse=True)[:k])
    return actual / ideal if ideal > 0 else 0.0


def relevant_set(judgments: Mapping[str, float]) -> set[str]:
    """Documents with a positive grade."""
    return {doc for doc, grade in judgments.items() if grade > 0}


def recall_at_k(ranking: Sequence[str], judgments: Mapping[str, float], k: int) -> float:
    relevant = relevant_set(judgments)
    if not relevant:
        return 0.0
    return len(relevant.intersection(ranking[:k])) / len(relevant)


def macro_mean(values: Iterable[float]) -> float:
    """Unweighted mean over topics (each topic counts once)."""
    values = list(values)
    return sum(values) / len(values) if values else 0.0
