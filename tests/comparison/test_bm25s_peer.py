"""Our BM25 against bm25s (``method="lucene"``, float64) on the same tokens.

bm25s' Lucene variant scores ``IDF · f / (f + k1 (1 − b + b |d|/avgdl))`` with the same
positive IDF ``ln(1 + (N − n + 0.5)/(n + 0.5))`` but without the ``(k1 + 1)`` factor, so its
scores are multiplied by ``k1 + 1`` before comparison. Both count every occurrence of a
repeated query token. bm25s breaks ties in no documented order, so top-10 lists are compared
by score per rank plus the set of documents strictly above the 10th score, never by its tie order.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

bm25s = pytest.importorskip("bm25s")

from engine.retrieval.bm25 import BM25  # noqa: E402
from engine.retrieval.index import build_index  # noqa: E402

K1, B = 1.2, 0.75


def zipf_corpus(seed: int, n_docs: int, vocab_size: int = 400):
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(vocab_size)]
    weights = [1.0 / (rank + 1) for rank in range(vocab_size)]
    docs = [rng.choices(vocab, weights, k=rng.randint(1, 40)) for _ in range(n_docs)]
    queries = [rng.choices(vocab, weights, k=rng.randint(1, 6)) for _ in range(30)]
    queries += [["w0", "w0", "w7"], ["w3", "w250", "w3", "w3"], ["unseen"], ["w399", "unseen"]]
    return docs, queries


@pytest.fixture(scope="module", params=[(11, 300), (12, 500)])
def peers(request):
    seed, n_docs = request.param
    docs, queries = zipf_corpus(seed, n_docs)
    ours = BM25(build_index([f"d{i:04d}" for i in range(n_docs)], docs), k1=K1, b=B)
    theirs = bm25s.BM25(method="lucene", k1=K1, b=B, dtype="float64")
    theirs.index(docs, show_progress=False)
    return ours, theirs, queries


def test_scores_equal_per_document(peers):
    ours, theirs, queries = peers
    compared = 0
    for query in queries:
        mine = ours.score_array(query)
        peer = np.asarray(theirs.get_scores(query), dtype=np.float64) * (K1 + 1)
        assert mine.shape == peer.shape
        np.testing.assert_allclose(mine, peer, rtol=0, atol=1e-9)
        compared += int(np.count_nonzero(mine))
    assert compared > 1000          # the comparison is not vacuous


def test_top10_identical_by_score(peers):
    ours, theirs, queries = peers
    for query in queries:
        mine = ours.top_k(query, 10)
        if not any(t in ours.index.vocabulary for t in query):
            assert mine == []
            continue
        docs, scores = theirs.retrieve([query], k=10, show_progress=False)
        peer = [(f"d{int(i):04d}", float(s) * (K1 + 1)) for i, s in zip(docs[0], scores[0]) if s > 0]
        assert len(mine) == len(peer)
        np.testing.assert_allclose([s for _, s in mine], [s for _, s in peer], rtol=0, atol=1e-9)
        if mine:
            tenth = mine[-1][1]
            above = lambda lst: {d for d, s in lst if s > tenth + 1e-9}  # noqa: E731
            assert above(mine) == above(peer)
            # and every peer document at the cut really ties with ours
            dense = ours.score_array(query)
            for doc, score in peer:
                assert dense[int(doc[1:])] == pytest.approx(score, abs=1e-9)


def test_large_corpus_against_bm25s():
    """6,000 documents: our dense-row and grouped top-k paths against bm25s."""
    docs, queries = zipf_corpus(21, 6000)
    ours = BM25(build_index([f"d{i:04d}" for i in range(len(docs))], docs), k1=K1, b=B)
    assert ours._dense_rows
    theirs = bm25s.BM25(method="lucene", k1=K1, b=B, dtype="float64")
    theirs.index(docs, show_progress=False)
    for query in queries:
        np.testing.assert_allclose(ours.score_array(query),
                                   np.asarray(theirs.get_scores(query), dtype=np.float64) * (K1 + 1),
                                   rtol=0, atol=1e-9)
        mine = ours.top_k(query, 10)
        if not mine:
            continue
        docs_, scores = theirs.retrieve([query], k=10, show_progress=False)
        np.testing.assert_allclose([s for _, s in mine], scores[0][:len(mine)] * (K1 + 1), rtol=0, atol=1e-9)
