"""The labelled oracle (diagnostic only): exhaustive enumeration of every 5-subset of a pool.

Source: seed 003 ``oracle`` and seed 000 ("All 121,036 five-document subsets were enumerated").

Rule, in order:

1. maximise the number of requirements covered by *agreed* labels (the union of the selected
   documents' ``obligationsA ∩ obligationsB``);
2. ties: maximise pooled nDCG@5 of the subset with its documents ordered by mean grade
   descending, then checked ID ascending (gain ``2**meanGrade - 1``, discount
   ``log2(rank + 1)``; the ideal DCG is the same for every subset of one pool, so comparing
   DCG is comparing nDCG);
3. remaining ties: the lexicographically smaller tuple of *sorted* checked IDs.

The returned selection is ordered by mean grade descending, then ID ascending.

Implementation: the pool is sorted once by (mean grade desc, ID asc); subsets are index
combinations in lexicographic order generated with numpy (:func:`combination_index`), so
every subset's columns are already in grade order. Coverage is a bitmask per document
(bit ``r-1`` for requirement ``r``; at most 63 requirements), OR-ed column by column and
counted with a byte lookup table; DCG is a column-by-column sum, so two subsets with the
same grades in the same positions get bit-identical DCG.

No overflow (issue 21): when the pool's largest mean grade M exceeds
:data:`engine.retrieval.metrics.EXP_SCALE_ABOVE` (900), every gain is computed scaled by
``2**-M`` (``2**(g − M) − 2**-M``), as the nDCG of :mod:`engine.retrieval.metrics` does: a
common positive factor, so every comparison of two subsets' DCG is unchanged (up to gains that
underflow to 0 far below M), and grades of 1100 or 5000 never raise OverflowError. At M <= 900
the gains are ``2**g − 1`` bit for bit as before.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from engine.retrieval.metrics import EXP_SCALE_ABOVE

BUDGET = 5
MAX_REQUIREMENTS = 63
_BYTE_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def combination_index(n: int, k: int) -> np.ndarray:
    """All ``k``-subsets of ``range(n)`` as an ``(C(n, k), k)`` int32 array, lexicographic order.

    Same rows and order as ``itertools.combinations(range(n), k)``.
    """
    if k < 0 or n < 0:
        raise ValueError("n and k must be non-negative")
    if k == 0:
        return np.zeros((1, 0), dtype=np.int32)
    if k > n:
        return np.zeros((0, k), dtype=np.int32)
    combos = np.arange(n - k + 1, dtype=np.int32)[:, None]
    for j in range(1, k):
        last = combos[:, -1]
        top = n - k + j                       # largest value allowed in column j
        counts = (top - last).astype(np.int64)  # choices last+1 .. top
        total = int(counts.sum())
        starts = np.repeat(np.cumsum(counts) - counts, counts)
        within = np.arange(total, dtype=np.int64) - starts
        new_col = (np.repeat(last, counts).astype(np.int64) + 1 + within).astype(np.int32)
        combos = np.column_stack([np.repeat(combos, counts, axis=0), new_col])
    return combos


def popcount(values: np.ndarray) -> np.ndarray:
    """Number of set bits of each non-negative integer (uint64 view, byte lookup)."""
    as_bytes = np.ascontiguousarray(values, dtype=np.uint64).view(np.uint8)
    return _BYTE_POPCOUNT[as_bytes].reshape(len(values), 8).sum(axis=1, dtype=np.int64)


def requirement_mask(requirements: Sequence[int]) -> int:
    """Bitmask with bit ``r - 1`` set for each one-based requirement number ``r``."""
    mask = 0
    for r in requirements:
        if not 1 <= int(r) <= MAX_REQUIREMENTS:
            raise ValueError(f"requirement number {r} outside 1..{MAX_REQUIREMENTS}")
        mask |= 1 << (int(r) - 1)
    return mask


@dataclass(frozen=True)
class OracleResult:
    selection: list[int]          # ordered by mean grade desc, ID asc
    covered: int                  # requirements covered by the selection
    subsets_enumerated: int
    attainable: int               # requirements with agreed support anywhere in the pool


def oracle_select(pool: Sequence[int], agreed: Mapping[int, Sequence[int]],
                  mean_grade: Mapping[int, float], budget: int = BUDGET) -> OracleResult:
    """Enumerate every ``budget``-subset of ``pool`` and apply the oracle rule (module docstring).

    ``agreed`` maps a document to its agreed one-based requirement numbers and ``mean_grade``
    to its mean grade; documents absent from either have none / grade 0.
    """
    ids = [int(d) for d in pool]
    if len(ids) < budget:
        raise ValueError(f"pool has {len(ids)} documents, fewer than the budget of {budget}")
    order = sorted(ids, key=lambda d: (-float(mean_grade.get(d, 0.0)), d))
    ids_sorted = np.array(order, dtype=np.int64)
    masks = np.array([requirement_mask(agreed.get(d, ())) for d in order], dtype=np.uint64)
    grades = [float(mean_grade.get(d, 0.0)) for d in order]
    top = max(grades, default=0.0)
    scale = top if top > EXP_SCALE_ABOVE else 0.0   # module docstring, "No overflow"
    gains = np.array([2.0 ** (g - scale) - 2.0 ** -scale for g in grades], dtype=np.float64)

    combos = combination_index(len(order), budget)
    union = masks[combos[:, 0]].copy()
    dcg = gains[combos[:, 0]] / math.log2(2)
    for j in range(1, budget):
        union |= masks[combos[:, j]]
        dcg = dcg + gains[combos[:, j]] / math.log2(j + 2)
    covered = popcount(union)

    best_cov = covered.max()
    tied = covered == best_cov
    best_dcg = dcg[tied].max()
    candidates = np.flatnonzero(tied & (dcg == best_dcg))
    chosen = combos[candidates[0]]
    if len(candidates) > 1:
        id_rows = np.sort(ids_sorted[combos[candidates]], axis=1)
        first = np.lexsort(id_rows.T[::-1])[0]
        chosen = combos[candidates[first]]
    all_union = int(np.bitwise_or.reduce(masks)) if len(masks) else 0
    return OracleResult(selection=[int(ids_sorted[i]) for i in chosen], covered=int(best_cov),
                        subsets_enumerated=int(len(combos)),
                        attainable=bin(all_union).count("1"))
