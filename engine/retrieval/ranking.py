"""The tie rule used everywhere: score descending, then document id ascending.

Stated once here (README "Conventions"). Scores are compared exactly as floats; two
documents tie only when their scores are bit-for-bit equal.

**Lists that are written are ranked on the scores as written** (issue 20): a run file holds
each score with :data:`SCORE_DECIMALS` decimals, so the sandbox orders its lists by
:func:`written_scores` (the double that the written text reads back as), then document id.
Two scores that differ only beyond the ninth decimal are written alike and so tie, in the
sandbox as in ``evaluate --ties ours`` reading the written run: both give the same ranks and
the same metrics.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

# the largest fixed-width array (bytes) used to sort ids in C; beyond it Python sorts them
SORT_ARRAY_BYTES = 1 << 28
# decimals of a score in a written TREC run (engine.retrieval.trec.format_run)
SCORE_DECIMALS = 9


def written_score(score: float) -> float:
    """The double a score reads back as once written with :data:`SCORE_DECIMALS` decimals."""
    return float(f"{score:.{SCORE_DECIMALS}f}")


def written_scores(scores: np.ndarray) -> np.ndarray:
    """:func:`written_score` of every element (exact: formatted and parsed, not ``np.round``)."""
    return np.asarray([float(f"{s:.{SCORE_DECIMALS}f}") for s in np.asarray(scores, dtype=np.float64).tolist()],
                      dtype=np.float64)


def written_margin(score: float) -> float:
    """A bound on how far apart two scores can be and still be written alike near ``score``
    (half a unit of the last decimal on each side, plus the parse's rounding)."""
    return 2.0 * 10.0 ** -SCORE_DECIMALS + abs(score) * 1e-15


def order_by_written_score(ranked: Sequence[tuple[str, float]]) -> list[tuple[str, float]]:
    """``[(doc, score)]`` sorted by written score descending, equal ones by doc id ascending."""
    return sorted(ranked, key=lambda item: (-written_score(item[1]), item[0]))


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


def within_topic_ranks(topic: np.ndarray, score: np.ndarray, tie: np.ndarray) -> np.ndarray:
    """One-based rank of every row within its topic: score descending, then ``tie`` ascending.

    Runs are usually written grouped by topic and best first; then only groups of tied scores
    can be out of order, and only their rows are sorted. Any other file order is sorted whole.
    """
    n = topic.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    same = topic[1:] == topic[:-1]
    starts = np.concatenate(([0], np.flatnonzero(~same) + 1))
    grouped = np.unique(topic[starts]).size == starts.size
    if grouped and bool((score[1:] <= score[:-1])[same].all()):
        tied = same & (score[1:] == score[:-1])
        order = np.arange(n, dtype=np.int64)
        if tied.any():
            group = np.concatenate(([0], np.cumsum(~tied)))          # one id per run of tied rows
            sizes = np.bincount(group)
            rows = np.flatnonzero(sizes[group] > 1)
            order[rows] = rows[np.lexsort((tie[rows], group[rows]))]
    else:
        order = np.lexsort((tie, -score, topic))
        sorted_topic = topic[order]
        starts = np.concatenate(([0], np.flatnonzero(sorted_topic[1:] != sorted_topic[:-1]) + 1))
    lengths = np.diff(np.append(starts, n))
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n, dtype=np.int64) - np.repeat(starts, lengths) + 1
    return rank
