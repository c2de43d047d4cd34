"""BM25 top-k over a collection split into index shards, on any executor (engine.runs.executor).

The collection is a list of corpus JSONL files (the shards, in order); the result is exactly
the top-k a single index of their concatenation gives, score for score and bit for bit:

1. **Global statistics first** (:func:`shard_statistics`, one task per shard): each shard's
   document ids, lengths and per-token document frequencies. The driver checks that no document
   id occurs in two shards, and forms N (the sum of the shard sizes), every token's n_t (the sum
   of its shard frequencies, integers: exact) and avgdl as ``mean`` of the *concatenated* lengths
   (the same float the single index computes, :mod:`engine.retrieval.index`).
2. **Per-shard top-k** (:func:`shard_top_k`): each shard is scored by
   :class:`engine.retrieval.bm25.BM25` with ``statistics=`` the global ones, so every posting has
   the single index's weight (``IDF(t) = ln(1 + (N − n_t + 0.5)/(n_t + 0.5))``, the ``(k1+1)``
   numerator, Robertson & Zaragoza 2009) and every document the same score (summed over the
   query's tokens in query order, as the single index sums them).
3. **Merge under the tie rule** (:func:`merge_top_k`): the union of the shard lists ordered by
   score descending, then document id ascending (:func:`engine.retrieval.ranking.order_by_score`),
   cut at k. A document outside its shard's top-k cannot be in the global top-k: k documents of
   that shard alone rank above it.

A worker builds each shard's index when a task first needs it and keeps the last one
(``_SHARD_INDEXES``); tasks carry paths, so workers must see the shard files (shared filesystem).
``sandbox run`` on shards (every positive-score document, not a top-k) is :mod:`engine.retrieval.sandbox_shards`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.retrieval.bm25 import DEFAULT_B, DEFAULT_K1, BM25, CollectionStatistics
from engine.retrieval.index import InvertedIndex
from engine.retrieval.ranking import order_by_score
from engine.runs.errors import InputError

_SHARD_INDEXES: dict[tuple[str, int, int], InvertedIndex] = {}


def _index_of(path: str) -> InvertedIndex:
    from engine.retrieval.corpus import read_corpus_index

    stat = Path(path).stat()
    key = (path, stat.st_size, stat.st_mtime_ns)
    if key not in _SHARD_INDEXES:
        _SHARD_INDEXES.clear()
        _SHARD_INDEXES[key] = read_corpus_index(path)
    return _SHARD_INDEXES[key]


def shard_statistics(path: str) -> dict[str, Any]:
    """A shard's ids, lengths and ``{token: n_t}`` (the statistics task)."""
    index = _index_of(path)
    df = np.diff(index.indptr)
    return {"doc_ids": list(index.doc_ids), "lengths": index.doc_lengths,
            "doc_freq": {token: int(df[term]) for token, term in index.vocabulary.items()}}


@dataclass(frozen=True)
class ShardQuery:
    path: str
    queries: tuple[tuple[str, ...], ...]   # token lists, one per topic
    k: int
    num_docs: int
    avgdl: float
    doc_freq: tuple[tuple[str, int], ...]   # the global n_t of the tokens of this shard
    k1: float = DEFAULT_K1
    b: float = DEFAULT_B


def shard_top_k(task: ShardQuery) -> list[list[tuple[str, float]]]:
    """Each query's top-k within one shard, scored with the collection's statistics."""
    index = _index_of(task.path)
    global_df = dict(task.doc_freq)
    doc_freq = np.zeros(len(index.vocabulary), dtype=np.float64)
    for token, term in index.vocabulary.items():
        doc_freq[term] = global_df[token]
    scorer = BM25(index, task.k1, task.b, statistics=CollectionStatistics(task.num_docs, doc_freq, task.avgdl))
    return [scorer.top_k(list(tokens), task.k) for tokens in task.queries]


def merge_top_k(lists: Sequence[list[tuple[str, float]]], k: int) -> list[tuple[str, float]]:
    """The union of per-shard lists, score descending then document id ascending, first k."""
    merged: dict[str, float] = {}
    for entries in lists:
        merged.update(entries)
    return order_by_score(merged)[:k]


def sharded_top_k(shards: Sequence[str | Path], queries: Sequence[Sequence[str]], k: int,
                  executor: Any = None, k1: float = DEFAULT_K1, b: float = DEFAULT_B) -> list[list[tuple[str, float]]]:
    """Each query's BM25 top-k over the shards together (see the module docstring)."""
    from engine.runs.executor import Executor

    executor = executor or Executor()
    paths = [str(Path(p).resolve()) for p in shards]
    stats = list(executor.imap(shard_statistics, paths))
    seen: dict[str, str] = {}
    for path, shard in zip(paths, stats):
        for doc_id in shard["doc_ids"]:
            if doc_id in seen:
                raise InputError(f"duplicate doc_id {doc_id!r} (also in shard {seen[doc_id]})", path=path)
            seen[doc_id] = path
    num_docs = len(seen)
    avgdl = float(np.concatenate([shard["lengths"] for shard in stats]).mean())
    doc_freq: dict[str, int] = {}
    for shard in stats:
        for token, count in shard["doc_freq"].items():
            doc_freq[token] = doc_freq.get(token, 0) + count
    frozen = tuple(tuple(q) for q in queries)
    tasks = [ShardQuery(path, frozen, k, num_docs, avgdl,
                        tuple((token, doc_freq[token]) for token in shard["doc_freq"]), k1, b)
             for path, shard in zip(paths, stats)]
    per_shard = list(executor.imap(shard_top_k, tasks))
    return [merge_top_k([lists[q] for lists in per_shard], k) for q in range(len(frozen))]
