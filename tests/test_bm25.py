"""Inverted index and BM25: W03 IDF values, the D-010 trace, ties, query-token convention."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from engine.retrieval.bm25 import BM25, idf, term_weight
from engine.retrieval.index import build_index


def test_w03_idf_values():
    # ln(1 + (N - n + 0.5)/(n + 0.5)) with N = 10
    assert round(idf(10, 6), 6) == 0.526093      # ln(1 + 4.5/6.5)
    assert round(idf(10, 1), 6) == 1.992430      # ln(1 + 9.5/1.5)
    assert round(idf(10, 2), 6) == 1.481605      # ln(1 + 8.5/2.5)
    assert idf(10, 6) == pytest.approx(math.log(1 + 4.5 / 6.5), abs=1e-15)
    assert idf(10, 10) > 0                          # positive even for a token in every document


def test_w03_d010_trace():
    # |D-010| = 21, avgdl = 20.5, f(query, D-010) = 1, n_query = 6, N = 10
    length_factor = 1 - 0.75 + 0.75 * 21 / 20.5
    assert round(length_factor, 5) == 1.01829
    assert round(1 + 1.2 * length_factor, 5) == 2.22195
    score = term_weight(1, 21, 20.5, idf(10, 6), k1=1.2, b=0.75)
    assert f"{score:.9f}" == "0.520895689"
    assert score == pytest.approx(idf(10, 6) * 2.2 / (1 + 1.2 * length_factor), abs=1e-15)
    # D-008 is one token shorter and scores slightly higher
    assert f"{term_weight(1, 20, 20.5, idf(10, 6)):.9f}" == "0.531395266"


def small_index():
    docs = {
        "d3": "apple banana apple",
        "d1": "apple cherry",
        "d2": "banana banana banana durian egg",
        "d4": "fig",
    }
    return build_index(list(docs), [text.split() for text in docs.values()])


def test_index_postings_lengths_avgdl():
    index = small_index()
    assert index.doc_ids == ("d3", "d1", "d2", "d4")
    assert index.doc_lengths.tolist() == [3, 2, 5, 1]
    assert index.avgdl == 11 / 4
    assert index.postings("apple") == [("d3", 2), ("d1", 1)]
    assert index.postings("banana") == [("d3", 1), ("d2", 3)]
    assert index.document_frequency("apple") == 2
    assert index.document_frequency("zzz") == 0 and index.postings("zzz") == []
    assert index.length("d2") == 5


def test_scores_by_hand():
    index = small_index()
    scorer = BM25(index, k1=1.2, b=0.75)
    n, avgdl = 4, 11 / 4
    by_hand_d3 = (math.log(1 + (n - 2 + 0.5) / 2.5) * 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * 3 / avgdl))
                  + math.log(1 + (n - 2 + 0.5) / 2.5) * 1 * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 3 / avgdl)))
    scores = scorer.scores(["apple", "banana"])
    assert set(scores) == {"d3", "d1", "d2"}          # d4 shares no token: not scored
    assert scores["d3"] == pytest.approx(by_hand_d3, rel=1e-14)
    assert scores["d1"] == pytest.approx(term_weight(1, 2, avgdl, idf(4, 2)), rel=1e-14)
    assert scorer.scores(["unknown"]) == {}


def test_repeated_query_token_counts_each_occurrence():
    scorer = BM25(small_index())
    once, twice = scorer.scores(["apple"]), scorer.scores(["apple", "apple"])
    assert twice == {doc: 2 * s for doc, s in once.items()}
    mixed = scorer.scores(["banana", "apple", "banana"])
    assert mixed["d2"] == 2 * scorer.scores(["banana"])["d2"]


def test_equal_scores_order_by_doc_id():
    docs = ["x y", "x y", "x z", "x y"]
    index = build_index(["c", "a", "d", "b"], [d.split() for d in docs])
    ranked = BM25(index).ranked(["y"])
    assert [doc for doc, _ in ranked] == ["a", "b", "c"]
    assert ranked[0][1] == ranked[1][1] == ranked[2][1]
    assert [doc for doc, _ in BM25(index).top_k(["y"], 2)] == ["a", "b"]
    full = BM25(index).ranked(["x"])
    assert [doc for doc, _ in full] == ["a", "b", "c", "d"]  # all tie on x


def test_top_k_equals_head_of_full_ranking_with_many_ties():
    rng = random.Random(7)
    vocab = [f"t{i}" for i in range(12)]
    ids = [f"doc{rng.randrange(10**6):06d}-{i}" for i in range(300)]
    docs = [[rng.choice(vocab) for _ in range(rng.randint(1, 4))] for _ in ids]
    scorer = BM25(build_index(ids, docs))
    for _ in range(40):
        query = [rng.choice(vocab) for _ in range(rng.randint(1, 3))]
        ranked = scorer.ranked(query)
        for k in (1, 5, 10, 50, 400):
            assert scorer.top_k(query, k) == ranked[:k]


def test_weights_are_precomputed_per_posting():
    scorer = BM25(small_index(), k1=0.9, b=0.4)
    assert scorer.weights.shape == scorer.index.doc_index.shape
    assert np.all(scorer.weights > 0)
    assert scorer.token_idf("fig") == pytest.approx(idf(4, 1))
    assert scorer.token_idf("none") == 0.0


def test_bad_parameters_and_empty_corpus():
    with pytest.raises(ValueError):
        BM25(small_index(), k1=-1)
    with pytest.raises(ValueError):
        BM25(small_index(), b=1.5)
    with pytest.raises(ValueError):
        build_index([], [])


def zipf_docs(seed: int, n_docs: int, vocab_size: int = 300):
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(vocab_size)]
    weights = [1.0 / (r + 1) for r in range(vocab_size)]
    docs = [rng.choices(vocab, weights, k=rng.randint(1, 12)) for _ in range(n_docs)]
    for i in range(0, n_docs, 7):          # many exact duplicates: ties everywhere
        docs[i] = list(docs[(i * 31) % n_docs])
    ids = [f"id{rng.randrange(10**8):08d}" for _ in range(n_docs)]   # doc-id order != position order
    assert len(set(ids)) == n_docs
    queries = [rng.choices(vocab, weights, k=rng.randint(1, 5)) for _ in range(60)]
    return ids, docs, queries


def test_large_corpus_fast_paths_are_exact():
    """Dense rows for frequent tokens and the grouped top-k bound give exactly the plain result."""
    ids, docs, queries = zipf_docs(5, 12000)   # 46 score groups: the grouped bound serves k <= 11
    scorer = BM25(build_index(ids, docs))
    assert scorer._dense_rows                            # the dense-row path is exercised
    index = scorer.index
    for query in queries:
        term_ids = scorer.term_ids(query)
        plain = np.zeros(index.num_docs)
        for term in term_ids:
            lo, hi = index.indptr[term], index.indptr[term + 1]
            plain[index.doc_index[lo:hi]] += scorer.weights[lo:hi]
        assert np.array_equal(scorer.score_ids(term_ids), plain)    # bit for bit
        ranked = scorer.ranked(query)
        for k in (1, 3, 10, 25):
            assert scorer.top_k(query, k) == ranked[:k]


def test_index_does_not_depend_on_the_build_chunk():
    """Chunked building (factorise + count per chunk, counting-sort placement) gives the same index."""
    ids, docs, _ = zipf_docs(9, 800)
    docs[3] = []                                   # an empty document inside a chunk
    whole = build_index(ids, docs)
    for chunk in (1, 7, 250):
        part = build_index(ids, docs, chunk_tokens=chunk)
        assert list(part.vocabulary.items()) == list(whole.vocabulary.items())   # first-appearance ids
        for field in ("indptr", "doc_index", "term_count", "doc_lengths"):
            assert np.array_equal(getattr(part, field), getattr(whole, field)), field
    # hand check: postings ascending by document, counts per document
    index = build_index(["a", "b", "c"], [["x", "y", "x"], [], ["y", "z"]], chunk_tokens=2)
    assert index.vocabulary == {"x": 0, "y": 1, "z": 2}
    assert index.postings("x") == [("a", 2)] and index.postings("y") == [("a", 1), ("c", 1)]
    assert index.doc_lengths.tolist() == [3.0, 0.0, 2.0]


def test_sparse_and_pruned_top_k_paths_are_exercised_and_exact(monkeypatch):
    """The top-k paths (postings only; MaxScore-pruned in its first and second split, with the
    bound filter and its token-by-token refinement; dense) agree with the full ranked list."""
    from engine.retrieval import bm25 as bm25_module

    monkeypatch.setattr(bm25_module, "FILTER_MIN", 64)
    monkeypatch.setattr(bm25_module, "REFINE_MIN", 16)
    filtered: list[tuple[int, int]] = []
    splits: list[tuple[bool, bool]] = []            # (second split, pruned)
    real_filter, real_split = BM25._filter_by_bounds, BM25._top_k_of_candidates

    def recording_filter(self, touched, *args):
        kept, floor = real_filter(self, touched, *args)
        filtered.append((touched.shape[0], kept.shape[0]))
        return kept, floor

    def recording_split(self, term_ids, counts, bounds, essential, k, floor):
        found = real_split(self, term_ids, counts, bounds, essential, k, floor)
        splits.append((floor > 0.0, found[0] is not None))
        return found

    monkeypatch.setattr(BM25, "_filter_by_bounds", recording_filter)
    monkeypatch.setattr(BM25, "_top_k_of_candidates", recording_split)
    ids, docs, queries = zipf_docs(5, 12000)
    scorer = BM25(build_index(ids, docs))
    index = scorer.index
    rare = ["w299", "w250"], ["w180", "w299", "w180"], ["w270"]
    paths = {"sparse": 0, "pruned": 0, "dense": 0}
    for query in list(queries) + [list(q) for q in rare]:
        term_ids = scorer.term_ids(query)
        if scorer._use_sparse(term_ids):
            paths["sparse"] += 1
            positions, values = scorer.sparse_scores(term_ids)
            dense = scorer.score_ids(term_ids)
            assert np.array_equal(positions, np.flatnonzero(dense > 0))
            assert np.array_equal(values, dense[positions])               # bit for bit
        ranked = scorer.ranked(query)
        if not scorer._use_sparse(term_ids):
            found = scorer._top_k_pruned(term_ids, 10)
            paths["dense" if found is None else "pruned"] += 1
            if found is not None:
                assert [(index.doc_ids[i], v) for i, v in zip(*(a.tolist() for a in found))] == ranked[:10]
        for k in (1, 10, 40):
            assert scorer.top_k(query, k) == ranked[:k]
    assert min(paths.values()) > 0, paths
    assert any(kept < before for before, kept in filtered), filtered[:5]   # the filter removes candidates
    assert (False, True) in splits and (True, True) in splits, set(splits)  # both splits prune
    assert bm25_module.PRUNE_RATIO > bm25_module.SPARSE_RATIO
    assert index.num_docs == 12000


def test_index_does_not_depend_on_how_documents_are_batched():
    """IndexBuilder fed in batches (as the streaming corpus reader does) equals one build."""
    from engine.retrieval.index import IndexBuilder

    ids, docs, _ = zipf_docs(11, 600)
    whole = build_index(ids, docs)
    for batch, chunk in ((1, 5), (37, 100), (599, 1 << 22)):
        builder = IndexBuilder(chunk)
        for lo in range(0, len(ids), batch):
            builder.add(ids[lo:lo + batch], docs[lo:lo + batch])
        part = builder.finish()
        assert part.doc_ids == whole.doc_ids and part.avgdl == whole.avgdl
        assert list(part.vocabulary.items()) == list(whole.vocabulary.items())
        for field in ("indptr", "doc_index", "term_count", "doc_lengths"):
            assert np.array_equal(getattr(part, field), getattr(whole, field)), field
    assert whole.term_count.dtype == np.int32 and whole.doc_index.dtype == np.int32


def test_streaming_corpus_index_equals_the_index_of_the_token_lists(tmp_path):
    import json

    from engine.retrieval.corpus import read_corpus, read_corpus_index

    ids, docs, _ = zipf_docs(5, 300)
    path = tmp_path / "corpus.jsonl"
    path.write_text("".join(json.dumps({"doc_id": d, "title": " ".join(t[:2]), "text": " ".join(t[2:]),
                                        "source_type": "generated", "license": "CC0-1.0"}) + "\n"
                            for d, t in zip(ids, docs)), encoding="utf-8")
    documents = read_corpus(path)
    whole = build_index([d.doc_id for d in documents], [d.tokens for d in documents])
    for batch_tokens in (1, 50, 1 << 22):
        streamed = read_corpus_index(path, batch_tokens=batch_tokens)
        assert streamed.doc_ids == whole.doc_ids and list(streamed.vocabulary) == list(whole.vocabulary)
        for field in ("indptr", "doc_index", "term_count", "doc_lengths"):
            assert np.array_equal(getattr(streamed, field), getattr(whole, field)), field


def test_compiled_kernels_give_the_numpy_top_k_bit_for_bit(monkeypatch):
    """With numba (the ``fast`` extra; installed with the test extra), the compiled paths --
    full accumulation, MaxScore in both splits, and the fall-back from a split that does not
    prune -- return exactly the numpy scorer's lists: same documents, same doubles, same ties."""
    from engine.retrieval import bm25 as bm25_module

    ids, docs, queries = zipf_docs(5, 12000)
    ids[7], ids[8000] = "d-tie-b", "d-tie-a"                 # doc_id order differs from position order
    docs[8000] = list(docs[7])                             # an exact tie, decided by doc_id
    index = build_index(ids, docs)
    plain = BM25(index, compiled=False)
    compiled = BM25(index, compiled=True)
    assert plain._kernels is None and compiled._kernels is not None
    routes: list[str] = []
    for name in ("_top_k_compiled", "_top_k_of_split_compiled"):
        real = getattr(BM25, name)

        def recording(self, *args, _real=real, _name=name):
            found = _real(self, *args)
            routes.append(_name if not isinstance(found, tuple) or found[0] is not None else _name + " declined")
            return found
        monkeypatch.setattr(BM25, name, recording)
    extra = [list(docs[7][:4]), ["w1", "w1", "w2"], ["w299", "w250"], ["nope"], []]
    for ratio in (0.25, 0.01):                             # MaxScore from 1% of the collection's size
        monkeypatch.setattr(bm25_module, "COMPILED_MAX_RATIO", ratio)
        for query in list(queries) + extra:
            for k in (1, 10, 40):
                assert compiled.top_k(query, k) == plain.top_k(query, k), (query, k)
    assert compiled.top_k(docs[7][:4], 40)[0][0] in {"d-tie-a", "d-tie-b"}
    assert {"_top_k_compiled", "_top_k_of_split_compiled", "_top_k_of_split_compiled declined"} <= set(routes), set(routes)


def test_compiled_kernels_run_as_plain_python(monkeypatch):
    """The kernels are plain Python and numpy before numba compiles them: run uncompiled on a
    hand-sized index, they give the hand-ordered result (score desc, then doc_id)."""
    from engine.retrieval import bm25_compiled

    for name in ("_keep", "_sort_best_first", "_add_postings", "_add_postings_listing", "_best_of_all",
                 "_best_of_listed"):    # compiled helpers (once load_kernels ran) back to Python
        helper = getattr(bm25_compiled, name)
        monkeypatch.setattr(bm25_compiled, name, getattr(helper, "py_func", helper))
        assert not hasattr(getattr(bm25_compiled, name), "py_func")
    index = build_index(["c", "a", "b", "d"], [["x", "y"], ["x"], ["x", "y", "y"], ["z"]])
    scorer = BM25(index, compiled=False)
    terms = np.array(scorer.term_ids(["x", "y"]), dtype=np.int64)
    acc, touched = np.zeros(4), np.empty(4, dtype=np.int64)
    kernel = getattr(bm25_compiled.top_k_accumulated, "py_func", bm25_compiled.top_k_accumulated)
    positions, values = kernel(index.indptr, index.doc_index, scorer.weights, scorer.id_rank, terms, 3, acc, touched)
    assert [index.doc_ids[i] for i in positions] == [row[0] for row in scorer.ranked(["x", "y"])][:3]
    assert values.tolist() == [row[1] for row in scorer.ranked(["x", "y"])][:3]
    assert not acc.any()                                   # zeroed again


def test_concurrent_top_k_calls_share_one_scorer_safely():
    """Scratch accumulators are taken from a pool (``list.pop``), and the compiled kernels release
    the GIL: queries run from several threads on one scorer give the serial results."""
    from concurrent.futures import ThreadPoolExecutor

    ids, docs, queries = zipf_docs(5, 12000)
    index = build_index(ids, docs)
    for scorer in (BM25(index, compiled=True), BM25(index, compiled=False)):
        work = [list(q) for q in queries] * 4
        serial = [scorer.top_k(q, 10) for q in work]
        with ThreadPoolExecutor(max_workers=4) as pool:
            threaded = list(pool.map(lambda q: scorer.top_k(q, 10), work))
        assert threaded == serial
        assert not any(acc.any() for acc in scorer._accumulators)          # returned zeroed
        assert not any(acc.any() for acc, _ in scorer._kernel_scratch)
