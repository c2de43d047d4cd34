"""``sandbox run --workers N | --scheduler ADDRESS``: the BM25 lists on index shards, on any executor.

The sandbox's BM25 list of a topic is **every document with a positive score** (not a top-k),
so each shard returns, for every topic, all of its documents with a positive score; the union
of the shards' lists is then exactly the single index's list, and the sandbox orders it as it
always does (:class:`engine.retrieval.ranked.RankedList`: score as written descending, then
document id ascending). Steps:

1. **Global statistics first.** The driver has read and validated the whole corpus
   (:func:`engine.retrieval.sandbox.load_inputs`; its index is also needed for the judged
   documents' query-token coverage and ``index_summary.json``), so N, avgdl (the same float the
   single index computes) and every query token's n_t are read from that index.
2. **Shards by document order** (:func:`shard_bounds`): ``[start, stop)`` ranges of the corpus
   file's records, one per worker. A task (:class:`SandboxShard`) carries the corpus path, its
   range, the global statistics and every topic's query tokens; the worker indexes its range
   (tokenised as :func:`engine.retrieval.corpus.read_corpus_index` does) and scores it with
   :class:`engine.retrieval.bm25.BM25` given ``statistics=`` the global ones, so every posting
   of a query token has the single index's weight, ``IDF(t) * f (k1+1) / (f + k1 (1 - b + b
   |d|/avgdl))`` with ``IDF(t) = ln(1 + (N - n_t + 0.5)/(n_t + 0.5))`` (Robertson & Zaragoza
   2009), added in query order: each score is the single index's, bit for bit. Tokens that
   are not query tokens keep the shard's own n_t (their weights are never read).
3. **Merge** (:class:`ShardedScores`): the shards' lists are disjoint and in document order; they
   fill the topic's score array, from which the sandbox takes its list as in a serial run.
   Topics go in blocks of :data:`TOPICS_PER_TASK` (one task per shard and block), so the driver
   holds one block's lists at a time; a worker keeps its last shard indexes for the next block.

Workers must see the corpus path (a shared filesystem for ``--scheduler``). A worker checks the
file's sha256 against the run's corpus input before indexing it, and each task returns the
sha256 of its documents' ids, checked against the driver's: a corpus that changed under the run
is an error, never a silently different list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.retrieval.bm25 import BM25, CollectionStatistics
from engine.retrieval.index import CHUNK_TOKENS, IndexBuilder, InvertedIndex
from engine.runs.errors import InputError
from engine.runs.hashing import sha256_json

TOPICS_PER_TASK = 256    # topics scored per shard task: bounds the lists the driver holds at once


def shard_bounds(num_docs: int, shards: int) -> list[tuple[int, int]]:
    """``shards`` contiguous ``[start, stop)`` ranges of document positions, sizes differing by at
    most one (fewer when there are fewer documents than shards)."""
    shards = max(1, min(shards, num_docs))
    size, extra = divmod(num_docs, shards)
    bounds, start = [], 0
    for number in range(shards):
        stop = start + size + (1 if number < extra else 0)
        bounds.append((start, stop))
        start = stop
    return bounds


def read_corpus_range(path: str | Path, start: int, stop: int, *, batch_tokens: int = CHUNK_TOKENS) -> InvertedIndex:
    """The inverted index of the corpus records ``start`` to ``stop - 1`` (file order: the
    non-blank lines, as :func:`engine.runs.jsonl.read_jsonl` counts them), tokenised as
    :func:`engine.retrieval.corpus.read_corpus_index` tokenises them.

    The driver has validated the whole file, so the records before ``start`` are skipped
    without being parsed; the caller checks the ids read against its own
    (:meth:`ShardedScores._score_block`)."""
    from engine.retrieval.text import document_text, tokenize
    from engine.runs.jsonl import document_id, loads_json
    from engine.runs.opener import open_text

    builder = IndexBuilder(batch_tokens)
    ids: list[str] = []
    tokens: list[list[str]] = []
    pending = 0
    record = 0
    with open_text(path, encoding="utf-8", warn=False) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            record += 1
            if record <= start:
                continue
            if record > stop:
                break
            value = loads_json(line, path, number)
            doc_id, _ = document_id(value, path, number)
            ids.append(doc_id)
            tokens.append(tokenize(document_text(value.get("title") or "", value["text"])))
            pending += len(tokens[-1])
            if pending >= batch_tokens:
                builder.add(ids, tokens)
                ids, tokens, pending = [], [], 0
    builder.add(ids, tokens)
    return builder.finish()


@dataclass(frozen=True)
class SandboxShard:
    """One shard's task: score documents ``start``..``stop-1`` of ``corpus`` for every topic."""

    corpus: str
    start: int
    stop: int
    queries: tuple[tuple[str, ...], ...]       # each topic's query tokens, in topic order
    num_docs: int                               # N of the whole corpus
    avgdl: float                                # avgdl of the whole corpus
    doc_freq: tuple[tuple[str, int], ...]       # the whole corpus's n_t of every query token
    k1: float
    b: float
    corpus_sha256: str                          # the run's corpus input, as the manifest names it

    def record(self) -> dict[str, Any]:
        """The task's input as hashed into the manifest (no path: the corpus is an input by hash)."""
        return {"documents": [self.start, self.stop], "queries": [list(q) for q in self.queries],
                "num_docs": self.num_docs, "avgdl": self.avgdl, "doc_freq": [list(p) for p in self.doc_freq],
                "k1": self.k1, "b": self.b}


_SHARD_INDEXES: dict[tuple[str, int, int, int, int], tuple[str, InvertedIndex]] = {}   # per worker process
CACHED_SHARDS = 2


def _shard_index(task: "SandboxShard") -> InvertedIndex:
    """The task's shard index, kept for the next topic block (at most ``CACHED_SHARDS`` per
    process); the file must be the run's corpus input (its sha256 is checked first)."""
    from engine.runs.hashing import sha256_file

    stat = Path(task.corpus).stat()
    key = (task.corpus, stat.st_size, stat.st_mtime_ns, task.start, task.stop)
    if key not in _SHARD_INDEXES:
        while len(_SHARD_INDEXES) >= CACHED_SHARDS:
            del _SHARD_INDEXES[next(iter(_SHARD_INDEXES))]
        digest = sha256_file(task.corpus)
        _SHARD_INDEXES[key] = (digest, read_corpus_range(task.corpus, task.start, task.stop))
    digest, index = _SHARD_INDEXES[key]
    if digest != task.corpus_sha256:
        raise InputError(f"the corpus a worker reads has sha256 {digest[:12]}…, not this run's "
                         f"{task.corpus_sha256[:12]}… (changed during the run, or another file at this path "
                         "on the worker)", path=task.corpus)
    return index


def score_shard(task: SandboxShard) -> dict[str, Any]:
    """Every topic's positive-score documents of one shard: global positions (int32) and scores (float64),
    ascending by position; with the sha256 of the shard's ids and of this output."""
    index = _shard_index(task)
    global_df = dict(task.doc_freq)
    doc_freq = np.diff(index.indptr).astype(np.float64)
    for token, term in index.vocabulary.items():
        if token in global_df:
            doc_freq[term] = float(global_df[token])
    scorer = BM25(index, task.k1, task.b, compiled=False,
                  statistics=CollectionStatistics(task.num_docs, doc_freq, task.avgdl))
    lists = []
    for query in task.queries:
        scores = scorer.score_array(list(query))
        local = np.flatnonzero(scores > 0.0)
        lists.append(((local + task.start).astype(np.int32), scores[local]))
    output_sha256 = sha256_json([[positions.tolist(), scores.tolist()] for positions, scores in lists])
    return {"doc_ids_sha256": sha256_json(list(index.doc_ids)), "lists": lists, "output_sha256": output_sha256}


def shard_tasks(index: InvertedIndex, corpus: str | Path, queries: Sequence[Sequence[str]], shards: int,
                k1: float, b: float, corpus_sha256: str) -> list[SandboxShard]:
    """One topic block's shard tasks, with the global statistics read from the driver's whole index."""
    tokens = sorted({token for query in queries for token in query if token in index.vocabulary})
    doc_freq = tuple((token, index.document_frequency(token)) for token in tokens)
    frozen = tuple(tuple(query) for query in queries)
    path = str(Path(corpus).resolve())
    return [SandboxShard(path, start, stop, frozen, index.num_docs, float(index.avgdl), doc_freq, float(k1), float(b),
                         corpus_sha256) for start, stop in shard_bounds(index.num_docs, shards)]


class ShardedScores:
    """``scores(t)``: topic ``t``'s BM25 score array over the whole corpus, scored on index shards.

    Topics are scored in blocks of ``topics_per_task`` (one task per shard and block), a block
    when its first topic is asked for, so the driver holds one block's lists at a time. Topics
    must be asked for in order. ``records`` gathers the manifest's task entries.
    """

    def __init__(self, index: InvertedIndex, corpus: str | Path, corpus_sha256: str, queries: Sequence[Sequence[str]],
                 k1: float, b: float, executor: Any, shards: int | None = None,
                 topics_per_task: int | None = None) -> None:
        self.index, self.corpus, self.corpus_sha256, self.queries = index, corpus, corpus_sha256, list(queries)
        self.k1, self.b, self.executor = k1, b, executor
        self.shards = shards or executor.workers
        self.block = max(1, topics_per_task or TOPICS_PER_TASK)
        self.records: list[dict[str, Any]] = []
        self._first, self._lists = -1, []

    def _score_block(self, first: int) -> None:
        from engine.runs.executor import task_record

        tasks = shard_tasks(self.index, self.corpus, self.queries[first:first + self.block], self.shards,
                            self.k1, self.b, self.corpus_sha256)
        lists = []
        for number, (task, result) in enumerate(zip(tasks, self.executor.imap(score_shard, tasks))):
            if result["doc_ids_sha256"] != sha256_json(list(self.index.doc_ids[task.start:task.stop])):
                raise InputError(f"documents {task.start}..{task.stop - 1} read by a worker differ from this "
                                 "run's (did the corpus change during the run?)", path=self.corpus)
            lists.append(result["lists"])
            record = task_record(f"bm25-topics-{first:06d}-shard-{number:04d}", task.record(), None)
            record["output_sha256"] = result["output_sha256"]
            self.records.append({**record, "documents": task.stop - task.start, "topics": len(task.queries)})
        self._first, self._lists = first, lists

    def __call__(self, topic: int) -> np.ndarray:
        first = topic - topic % self.block
        if first != self._first:
            if first < self._first:
                raise ValueError("ShardedScores: topics are scored in order")
            self._score_block(first)
        scores = np.zeros(self.index.num_docs, dtype=np.float64)
        for lists in self._lists:   # disjoint shards: every position is set at most once
            positions, values = lists[topic - first]
            scores[positions] = values
        return scores
