"""A topic's ranked candidate list held as arrays, ordered only as far as it is read.

A list is the documents (as index positions) and their scores. Order: score *as written*
(:func:`engine.retrieval.ranking.written_scores`, 9 decimals) descending, then
document id ascending (:mod:`engine.retrieval.ranking`), via a ``tie_key`` array that gives each
document position its place in document-id order (:func:`engine.retrieval.ranking.id_order_ranks`,
held by the BM25 scorer). Reading the first ``n`` entries partitions at the n-th largest score
and sorts only the documents at or above it (every document tying that score competes on its
id, so the prefix is exactly the prefix of the fully sorted list); the rank of any one document
is counted without sorting the list. Cost therefore follows the depth written, not the
candidate count (a frequent query term makes the BM25 list hold most of the collection).
"""

from __future__ import annotations

import numpy as np

from engine.retrieval.ranking import written_margin, written_scores


class RankedList:
    """Positions and scores of one list; ``head(n)`` and ``rank(position)`` in tie-rule order."""

    def __init__(self, positions: np.ndarray, scores: np.ndarray, tie_key: np.ndarray) -> None:
        self.positions = np.asarray(positions, dtype=np.int64)
        self.scores = np.asarray(scores, dtype=np.float64)
        self.tie_key = tie_key
        self._head = np.empty(0, dtype=np.int64)   # indices into positions, ordered
        self._complete = self.positions.size == 0

    def __len__(self) -> int:
        return int(self.positions.size)

    def _order(self, n: int) -> np.ndarray:
        size = self.positions.size
        if n >= size:
            chosen = np.arange(size)
            self._complete = True
        else:
            cut = np.partition(self.scores, size - n)[size - n]   # the n-th largest score
            # every score written alike with one at or above the cut competes (rounding is monotone)
            chosen = np.flatnonzero(self.scores >= cut - written_margin(float(cut)))
        keys = written_scores(self.scores[chosen])
        order = np.lexsort((self.tie_key[self.positions[chosen]], -keys))
        return chosen[order[:n]]

    def head_indices(self, n: int) -> np.ndarray:
        """Indices (into ``positions``) of the first ``n`` entries, in order."""
        if n > self._head.size and not self._complete:
            self._head = self._order(n)
        return self._head[:n]

    def head(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """``(positions, scores)`` of the first ``n`` entries."""
        idx = self.head_indices(n)
        return self.positions[idx], self.scores[idx]

    def rank(self, position: int) -> int | None:
        """One-based rank of a document position in the whole list, or None when it is absent."""
        where = np.flatnonzero(self.positions == position)
        if where.size == 0:
            return None
        score = float(self.scores[where[0]])
        margin = written_margin(score)
        above = int(np.count_nonzero(self.scores > score + margin))
        near = np.flatnonzero(np.abs(self.scores - score) <= margin)
        near_written = written_scores(self.scores[near])
        mine = float(written_scores(np.asarray([score]))[0])
        above += int(np.count_nonzero(near_written > mine))
        tie_keys = self.tie_key[self.positions[near[near_written == mine]]]
        return above + int(np.count_nonzero(tie_keys < self.tie_key[position])) + 1
