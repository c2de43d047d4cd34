"""The tie rule used everywhere: score descending, then document id ascending.

Stated once here (README "Conventions"). Scores are compared exactly as floats; two
documents tie only when their scores are bit-for-bit equal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

# the largest fixed-width array (bytes) used to sort ids in C; beyond it Python sorts them
SORT_ARRAY_BYTES = 1 << 28


def order_by_score(scores: Mapping[str, float]) -> list[tuple[str, float]]:
    """``[(doc, score)]`` sorted by score descending, equal scores by doc id ascending."""
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))


def id_order_ranks(ids: Sequence[str]) -> np.ndarray:
    """``rank[i]`` = place of ``ids[i]`` in ascending id order (the order of ``str`` comparison,
    i.e. code points; ``strcmp`` on UTF-8 bytes agrees): the array form of the tie rule's second
    key, so that comparing ranks compares ids. Equal ids keep their input order.

    A fixed-width numpy string array is sorted in C (numpy compares UCS-4 code points, as
    ``str`` does) unless an id holds a NUL (numpy drops trailing NULs) or the array would exceed
    :data:`SORT_ARRAY_BYTES`; then Python sorts.
    """
    n = len(ids)
    longest = max((len(value) for value in ids), default=0)
    if n and longest * n * 4 <= SORT_ARRAY_BYTES and not any("\x00" in value for value in ids):
        order = np.argsort(np.asarray(ids, dtype=f"U{max(longest, 1)}"), kind="stable")
    else:
        order = np.asarray(sorted(range(n), key=ids.__getitem__), dtype=np.int64)
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n, dtype=np.int64)
    return rank
