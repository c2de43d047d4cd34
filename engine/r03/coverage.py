"""R03 obligation-aware selection: facets, the pool normaliser, the objective and greedy choice.

Source: the R03 method text (seed 000 "Facets", "Normalizer", "Objective", "Selection";
seed 003 ``facets``/``normalizer``/``objective``/``selection``). Conventions chosen here:

* **Facets** are the question followed by its ``m`` requirements, each with weight ``1/(m+1)``.
* **Normaliser**: for every facet ``f`` and every member ``d`` of the *complete* task pool,
  ``ncos(f, d) = max(0, f·d) / max_{d' in pool} max(0, f·d')``; a facet whose pool maximum is
  0 (an all-zero facet) stays 0 everywhere. Selected documents are never used to normalise.
* **Objective**::

      F(S) = [ sum_f max_{d in S} ncos(f, d)
               - sum_{unordered {d, e} subset S} max(0, d·e) / C(5, 2) ] / (m + 1)

  with ``max`` over the empty set equal to 0 (so ``F({}) = 0``). ``C(5, 2) = 10`` is fixed by
  the budget of five, whatever the pool size.
* **Arithmetic**: both sums use :func:`math.fsum` (exactly rounded, hence independent of the
  order of summation), so ``F`` of a set does not depend on the order its members were chosen.
* **Greedy**: exactly ``budget`` steps; each adds the unselected pool member with the largest
  ``F(S ∪ {d}) − F(S)`` computed literally as that float difference; exact (bit-for-bit) ties
  choose the smaller checked ID. The selection order is the ranking.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

BUDGET = 5
PAIR_DIVISOR = math.comb(BUDGET, 2)  # C(5, 2) = 10


def positive_cosines(facets: np.ndarray, docs: np.ndarray) -> np.ndarray:
    """``max(0, f·d)`` for every facet row and document row: shape ``(facets, docs)``, float64."""
    facets = np.asarray(facets, dtype=np.float64)
    docs = np.asarray(docs, dtype=np.float64)
    return np.maximum(facets @ docs.T, 0.0)


def normalised_scores(facets: np.ndarray, pool_docs: np.ndarray) -> np.ndarray:
    """Per-facet pool-normalised positive cosines, shape ``(facets, pool size)``.

    ``pool_docs`` must be the vectors of the complete task pool. Rows whose pool maximum is 0
    stay all-zero.
    """
    raw = positive_cosines(facets, pool_docs)
    peak = raw.max(axis=1, keepdims=True) if raw.shape[1] else np.zeros((raw.shape[0], 1))
    out = np.zeros_like(raw)
    np.divide(raw, peak, out=out, where=peak > 0)
    return out


def pair_cosines(pool_docs: np.ndarray) -> np.ndarray:
    """``max(0, d·e)`` for every document pair of the pool (square, symmetric; diagonal kept)."""
    return positive_cosines(pool_docs, pool_docs)


def objective(ncos: np.ndarray, pairs: np.ndarray, selected: Sequence[int]) -> float:
    """``F(S)`` for pool *positions* ``selected`` (see module docstring)."""
    n_facets = ncos.shape[0]
    if not selected:
        return 0.0
    cols = list(selected)
    coverage = math.fsum(float(v) for v in ncos[:, cols].max(axis=1))
    penalty = math.fsum(float(pairs[a, b]) for i, a in enumerate(cols) for b in cols[i + 1:])
    return (coverage - penalty / PAIR_DIVISOR) / n_facets


@dataclass(frozen=True)
class GreedyStep:
    """One greedy step: the chosen checked ID, its marginal gain and ``F`` after adding it."""

    doc_id: int
    gain: float
    objective: float


def greedy_select(ncos: np.ndarray, pairs: np.ndarray, doc_ids: Sequence[int],
                  budget: int = BUDGET) -> list[GreedyStep]:
    """Greedy maximisation of ``F`` over the pool whose checked IDs are ``doc_ids``.

    ``ncos`` columns and ``pairs`` rows/columns follow ``doc_ids``. Raises ``ValueError`` when
    the pool holds fewer than ``budget`` documents (callers reject such pools on input).
    """
    ids = [int(d) for d in doc_ids]
    if len(ids) < budget:
        raise ValueError(f"pool has {len(ids)} documents, fewer than the budget of {budget}")
    if len(set(ids)) != len(ids):
        raise ValueError("pool lists a document twice")
    chosen: list[int] = []
    current = 0.0
    steps: list[GreedyStep] = []
    for _ in range(budget):
        best: tuple[float, int, int, float] | None = None  # (gain, doc id, position, F)
        for pos, doc in enumerate(ids):
            if pos in chosen:
                continue
            value = objective(ncos, pairs, chosen + [pos])
            gain = value - current
            if best is None or gain > best[0] or (gain == best[0] and doc < best[1]):
                best = (gain, doc, pos, value)
        assert best is not None
        chosen.append(best[2])
        current = best[3]
        steps.append(GreedyStep(doc_id=best[1], gain=best[0], objective=best[3]))
    return steps
