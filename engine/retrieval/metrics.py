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
* macro averages give each topic equal weight (arithmetic mean over topics);
* no overflow (issue 20): when the largest grade M of a topic exceeds 900, every gain is
  computed scaled by ``2**-M`` (``2**(g − M) − 2**-M``: the same ratio), so grades of 1100 or
  5000 give an NDCG in [0, 1], never an OverflowError, inf or NaN.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence


EXP_SCALE_ABOVE = 900.0


def gain(grade: float, scale_exponent: float = 0.0) -> float:
    """Exponential gain ``2**grade - 1`` for ``grade > 0``; 0 for a zero or negative grade.
    With ``scale_exponent`` s > 0 the gain times ``2**-s``, computed without overflow."""
    if grade <= 0:
        return 0.0
    if scale_exponent == 0.0:
        return 2.0 ** grade - 1.0
    return 2.0 ** (grade - scale_exponent) - 2.0 ** -scale_exponent


def discount(rank: int) -> float:
    """``log2(rank + 1)`` for a one-based rank."""
    return math.log2(rank + 1)


def dcg(grades_in_rank_order: Iterable[float], scale_exponent: float = 0.0) -> float:
    return sum(gain(g, scale_exponent) / discount(rank) for rank, g in enumerate(grades_in_rank_order, start=1))


def ndcg_at_k(ranking: Sequence[str], judgments: Mapping[str, float], k: int) -> float:
    """NDCG@k of one ranked list against one topic's graded judgments."""
    top = max(judgments.values(), default=0.0)
    scale = top if top > EXP_SCALE_ABOVE else 0.0
    actual = dcg((judgments.get(doc, 0.0) for doc in ranking[:k]), scale)
    ideal = dcg(sorted(judgments.values(), reverse=True)[:k], scale)
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
