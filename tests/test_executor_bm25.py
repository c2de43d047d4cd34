"""BM25 over index shards (engine/retrieval/bm25_shards.py): global statistics gathered first,
per-shard top-k merged under the tie rule, equal bit for bit to one index of the whole corpus.

The corpus repeats some documents under other ids in other shards, so equal scores straddle
shard boundaries and the cut at k is decided by the tie rule (score desc, doc id asc).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.retrieval.bm25 import BM25
from engine.retrieval.bm25_shards import sharded_top_k
from engine.retrieval.corpus import read_corpus_index
from engine.runs.errors import InputError

WORDS = [f"w{i}" for i in range(60)]


def corpus(tmp_path):
    rng = np.random.default_rng(11)
    docs = []
    for i in range(240):
        words = rng.choice(WORDS, size=int(rng.integers(3, 40)), p=np.arange(60, 0, -1) / 1830)
        docs.append({"doc_id": f"d{i:03d}", "title": "", "text": " ".join(words), "source_type": "x", "license": "CC0"})
    for i in range(0, 240, 7):   # twins under later ids: ties across shards
        docs.append({**docs[i], "doc_id": f"t{i:03d}"})
    lines = [json.dumps(d) + "\n" for d in docs]
    whole = tmp_path / "whole.jsonl"
    whole.write_text("".join(lines))
    shards = []
    for number, (lo, hi) in enumerate([(0, 50), (50, 190), (190, len(lines))]):
        path = tmp_path / f"shard{number}.jsonl"
        path.write_text("".join(lines[lo:hi]))
        shards.append(path)
    queries = [list(rng.choice(WORDS, size=int(rng.integers(1, 6)))) for _ in range(25)] + [["w0", "w0", "w1"]]
    return whole, shards, queries


def expected(whole, queries, k):
    scorer = BM25(read_corpus_index(whole), compiled=False)
    return [scorer.top_k(q, k) for q in queries]


@pytest.mark.parametrize("k", [1, 10, 1000])
def test_sharded_top_k_equals_one_index(tmp_path, k):
    whole, shards, queries = corpus(tmp_path)
    assert sharded_top_k(shards, queries, k) == expected(whole, queries, k)


def test_ties_straddle_shards(tmp_path):
    whole, shards, queries = corpus(tmp_path)
    lists = sharded_top_k(shards, queries, 10)
    scores = [s for ranking in lists for s in (score for _, score in ranking)]
    assert len(scores) != len(set(scores))   # the case really has tied scores in the lists


def check_sharded_top_k_on_workers(tmp_path, executor) -> None:
    """Called by tests/test_executor.py with its 2-worker LocalCluster."""
    whole, shards, queries = corpus(tmp_path)
    assert sharded_top_k(shards, queries, 10, executor) == expected(whole, queries, 10)


def test_a_doc_id_in_two_shards_is_refused(tmp_path):
    whole, shards, queries = corpus(tmp_path)
    shards[2].write_text(shards[2].read_text() + shards[0].read_text().splitlines(keepends=True)[0])
    with pytest.raises(InputError, match="duplicate doc_id 'd000' \\(also in shard"):
        sharded_top_k(shards, queries, 10)


def test_local_statistics_would_give_other_scores(tmp_path):
    """The check above has teeth: a shard scored with its own N, n_t and avgdl disagrees."""
    whole, shards, queries = corpus(tmp_path)
    local = BM25(read_corpus_index(shards[0]), compiled=False).top_k(queries[0], 3)
    single = dict(expected(whole, [queries[0]], 1000)[0])
    assert any(single.get(doc) != score for doc, score in local)
