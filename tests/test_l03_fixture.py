"""The bundled L03 fixture reproduces every W03 worked-case figure.

Two independent routes over the same files: the engine modules (readers, index, BM25,
fusion, reranker, metrics) and the standalone from-scratch check script
``bench/design/l03_fixture_check.py``. Figures are compared at the seed's printed precision.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "engine" / "fixtures" / "l03"
CHECK_SCRIPT = REPO / "bench" / "design" / "l03_fixture_check.py"

K, DEPTH, ALPHA, WEIGHT = 3, 5, 0.55, 0.25
QRELS = {"T-01": {"D-001": 3.0, "D-002": 2.0}, "T-02": {"D-003": 3.0, "D-004": 2.0},
         "T-03": {"D-005": 3.0, "D-006": 2.0, "D-010": 1.0}}
LENGTHS = {"D-001": 21, "D-002": 20, "D-003": 20, "D-004": 19, "D-005": 21,
           "D-006": 18, "D-007": 21, "D-008": 20, "D-009": 24, "D-010": 21}
MACRO = {"bm25": ("0.888889", "0.855971"), "supplied": ("1.000000", "0.880035"),
         "hybrid": ("1.000000", "0.888438"), "reranked": ("1.000000", "0.888438")}


def _load_check_script():
    spec = importlib.util.spec_from_file_location("l03_fixture_check", CHECK_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- standalone route
def test_standalone_check_script_passes_every_figure():
    check = _load_check_script()
    results = check.checks(check.compute(FIXTURE), seed=None)
    failed = [(name, detail) for name, ok, detail in results if not ok]
    assert not failed
    assert len(results) > 70


# ---------------------------------------------------------------- engine route
@pytest.fixture(scope="module")
def engine_runs():
    from engine.retrieval.bm25 import BM25
    from engine.retrieval.corpus import read_corpus, read_metadata, read_topics
    from engine.retrieval.fusion import fuse
    from engine.retrieval.index import build_index
    from engine.retrieval.rerank import rerank
    from engine.retrieval.trec import read_qrels, read_run

    docs = read_corpus(FIXTURE / "corpus.jsonl")
    topics = read_topics(FIXTURE / "topics.jsonl")
    doc_ids = [d.doc_id for d in docs]
    tokens = {d.doc_id: d.tokens for d in docs}
    index = build_index(doc_ids, [tokens[d] for d in doc_ids])
    scorer = BM25(index, k1=1.2, b=0.75)
    qrels = read_qrels(FIXTURE / "qrels.txt", topics=[t.topic_id for t in topics], docs=doc_ids)
    supplied = read_run(FIXTURE / "supplied_run.tsv", topics=[t.topic_id for t in topics], docs=doc_ids)
    token_sets = {d: set(t) for d, t in tokens.items()}
    runs: dict[str, dict[str, list[tuple[str, float]]]] = {m: {} for m in MACRO}
    for topic in topics:
        runs["bm25"][topic.topic_id] = scorer.ranked(topic.tokens)
        runs["supplied"][topic.topic_id] = supplied[topic.topic_id]
        runs["hybrid"][topic.topic_id] = fuse(runs["bm25"][topic.topic_id], supplied[topic.topic_id], ALPHA)
        runs["reranked"][topic.topic_id] = rerank(runs["hybrid"][topic.topic_id], topic.tokens,
                                                  token_sets, DEPTH, WEIGHT)
    return {"docs": docs, "topics": topics, "index": index, "scorer": scorer, "qrels": qrels,
            "metadata": read_metadata(FIXTURE / "supplied_run_metadata.json"), "runs": runs}


def _top(ranked, k=K):
    return [doc for doc, _ in ranked[:k]]


def test_inputs(engine_runs):
    assert [d.doc_id for d in engine_runs["docs"]] == list(LENGTHS)
    assert {d.license for d in engine_runs["docs"]} == {"CC0-1.0"}
    assert {d.doc_id: len(d.tokens) for d in engine_runs["docs"]} == LENGTHS
    assert f"{engine_runs['index'].avgdl:.1f}" == "20.5"
    assert engine_runs["qrels"] == QRELS
    assert engine_runs["metadata"] == {"values": "authored", "model_identity": "none"}
    t03 = next(t for t in engine_runs["topics"] if t.topic_id == "T-03")
    assert t03.tokens == ["query", "sampling", "strata", "negative", "controls", "held", "out"]


@pytest.mark.parametrize("token, df, idf", [
    ("query", 6, "0.526093"), ("sampling", 1, "1.992430"), ("strata", 2, "1.481605"),
    ("negative", 1, "1.992430"), ("controls", 1, "1.992430"), ("held", 1, "1.992430"),
    ("out", 1, "1.992430"),
])
def test_t03_document_frequency_and_idf(engine_runs, token, df, idf):
    assert engine_runs["index"].document_frequency(token) == df
    assert f"{engine_runs['scorer'].token_idf(token):.6f}" == idf


def test_t03_bm25_trace(engine_runs):
    ranked = engine_runs["runs"]["bm25"]["T-03"]
    assert [(d, f"{s:.9f}") for d, s in ranked[:5]] == [
        ("D-005", "8.654282550"), ("D-006", "7.047062981"), ("D-008", "0.531395266"),
        ("D-001", "0.520895689"), ("D-010", "0.520895689")]
    assert ranked[3][1] == ranked[4][1]          # exact tie, broken by doc_id
    assert len(ranked) == 6 and ranked[5][1] < ranked[4][1]


@pytest.mark.parametrize("method, topic, expected", [
    ("bm25", "T-01", ["D-001", "D-004", "D-002"]),
    ("bm25", "T-02", ["D-009", "D-003", "D-004"]),
    ("bm25", "T-03", ["D-005", "D-006", "D-008"]),
    ("supplied", "T-03", ["D-005", "D-010", "D-006"]),
    ("hybrid", "T-02", ["D-009", "D-003", "D-004"]),
    ("hybrid", "T-03", ["D-005", "D-006", "D-010"]),
])
def test_top_three(engine_runs, method, topic, expected):
    assert _top(engine_runs["runs"][method][topic]) == expected


@pytest.mark.parametrize("method, topic, first_two", [
    ("supplied", "T-01", ["D-002", "D-001"]),
    ("supplied", "T-02", ["D-004", "D-003"]),
    ("hybrid", "T-01", ["D-001", "D-002"]),
])
def test_top_three_with_non_relevant_third(engine_runs, method, topic, first_two):
    top = _top(engine_runs["runs"][method][topic])
    assert top[:2] == first_two
    assert engine_runs["qrels"][topic].get(top[2], 0.0) == 0.0


def test_reranker_keeps_hybrid_top_three(engine_runs):
    for topic, hybrid in engine_runs["runs"]["hybrid"].items():
        assert _top(engine_runs["runs"]["reranked"][topic]) == _top(hybrid)


@pytest.mark.parametrize("topic, recall, ndcg", [
    ("T-01", "1.000000", "0.955831"), ("T-02", "1.000000", "0.665315"), ("T-03", "0.666667", "0.946768"),
])
def test_bm25_per_topic_metrics(engine_runs, topic, recall, ndcg):
    from engine.retrieval.metrics import ndcg_at_k, recall_at_k

    ranking = _top(engine_runs["runs"]["bm25"][topic], 1000)
    assert f"{recall_at_k(ranking, QRELS[topic], K):.6f}" == recall
    assert f"{ndcg_at_k(ranking, QRELS[topic], K):.6f}" == ndcg


@pytest.mark.parametrize("method", list(MACRO))
def test_macro_metrics(engine_runs, method):
    from engine.retrieval.metrics import macro_mean, ndcg_at_k, recall_at_k

    per_topic = engine_runs["runs"][method]
    recall = macro_mean(recall_at_k(_top(r, 1000), QRELS[t], K) for t, r in per_topic.items())
    ndcg = macro_mean(ndcg_at_k(_top(r, 1000), QRELS[t], K) for t, r in per_topic.items())
    assert (f"{recall:.6f}", f"{ndcg:.6f}") == MACRO[method]


def test_no_fragile_near_ties(engine_runs):
    """Adjacent scores that decide a reported figure are at least 0.02 apart."""
    runs = engine_runs["runs"]
    for topic in ("T-01", "T-02"):
        scores = [s for _, s in runs["bm25"][topic][:4]]
        assert min(a - b for a, b in zip(scores, scores[1:])) >= 0.02
    for method in ("supplied", "hybrid", "reranked"):
        for ranked in runs[method].values():
            scores = [s for _, s in ranked[:4]]
            assert min(a - b for a, b in zip(scores, scores[1:])) >= 0.02
